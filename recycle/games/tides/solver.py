"""Exact play of a Tides of Time round: backward induction over simultaneous picks.

From the first swap on, both players know every card in play, so the rest of
the round is a two-player zero-sum game of perfect information except that
each turn's picks are simultaneous: a matrix game (at most 5 x 5) whose
entries are the values of the positions after the swap. `Values` solves it
by backward induction, each matrix for its mixed equilibrium
(`recycle.search.matrix_game`), on the score margin.

A position is (my kingdom, opponent's kingdom, my hand, opponent's hand) as
bitmasks, at the start of a turn, valued from "my" side; the game is
symmetric, so the opponent's value of the mirrored position is the negation
(one cache entry serves both). Positions are cached for the life of a
`Values` (an agent keeps one), so later turns of a round cost nothing.

The seed's bot (`SeedValues`) uses the same positions with its own method:
I pick first, the opponent answers seeing my card (a pure max-min), and the
leaves are my own score, not the margin (defects 1 and 4, docs/recycle-games.md, kept
because they are its method). Its alpha-beta search returns exactly the
values and picks of this plain max-min; we cache positions instead of pruning.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from recycle.search.matrix_game import solve

from recycle.games.tides.cards import ALL_BITS
from recycle.games.tides.scoring import scores

MAX_CACHED = 2_000_000  # positions kept before the cache is cleared (about 200 MB at most)


@lru_cache(maxsize=1 << 12)
def bits(mask: int) -> tuple[int, ...]:
    """The single-card bits of `mask`, by card number."""
    return tuple(1 << k for k in range(19) if mask >> k & 1)


class Values:
    """Equilibrium margins of positions (the solver's method), cached."""

    def __init__(self) -> None:
        self.cache: dict[tuple, float] = {}
        self.positions = 0  # positions solved (not found in the cache)

    def leaf(self, mine: int, theirs: int) -> float:
        a, b = scores(mine, theirs)
        return a - b

    def value(self, mk: int, ok: int, mh: int, oh: int) -> float:
        """My value at the start of a turn: kingdoms `mk`/`ok`, hands `mh`/`oh`."""
        key = (mk, ok, mh, oh)
        got = self.cache.get(key)
        if got is not None:
            return got
        if mh & (mh - 1) == 0:  # one card each (or none): the last picks are forced
            v = self.leaf(mk | mh, ok | oh)
        else:
            v = self.reduce(self.matrix(mk, ok, mh, oh))
        self.positions += 1
        if len(self.cache) >= MAX_CACHED:
            self.cache.clear()
        self.cache[key] = v
        self.mirror(key, v)
        return v

    def mirror(self, key: tuple, v: float) -> None:
        mk, ok, mh, oh = key
        self.cache[(ok, mk, oh, mh)] = -v

    def matrix(self, mk: int, ok: int, mh: int, oh: int) -> list[list[float]]:
        """Rows: my picks, columns: the opponent's, by card number; entries: my value after the swap."""
        value = self.value
        return [[-value(ok | b, mk | a, mh & ~a, oh & ~b) for b in bits(oh)] for a in bits(mh)]

    def reduce(self, matrix: list[list[float]]) -> float:
        return solve(matrix)[0]


class SeedValues(Values):
    """The seed bot's values: my own score, I pick first and the opponent answers (max-min)."""

    def leaf(self, mine: int, theirs: int) -> float:
        return scores(mine, theirs)[0]

    def mirror(self, key: tuple, v: float) -> None:
        pass  # own score is not symmetric

    def matrix(self, mk: int, ok: int, mh: int, oh: int) -> list[list[float]]:
        # The seed's values are always its own score: after the swap, I hold the opponent's rest.
        value = self.value
        return [[value(mk | a, ok | b, oh & ~b, mh & ~a) for b in bits(oh)] for a in bits(mh)]

    def reduce(self, matrix: list[list[float]]) -> float:
        return max(min(row) for row in matrix)


def unseen_hands(seen: int, size: int = 5) -> list[int]:
    """Every hand of `size` cards among those not in `seen` (1,287 at the first pick)."""
    pool = bits(ALL_BITS & ~seen)
    return [sum(c) for c in combinations(pool, size)]
