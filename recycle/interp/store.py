"""The data of a running RECYCLE game: cards, locations, storage, cycles, randomness.

Cards are small integers indexing the game's `Table` (their attributes, deck
name and text never change once the setup made them). Everything that changes
lives in a `Store`: every card location is a plain list of card ids keyed by
`(owner kind, owner number, visibility, name)`, storage are dicts, the player
and team cycles are stacks of `(index, queued next)` tuples, and the random
generator is one integer. So `Store.clone` copies a few dicts and short lists
and never touches the syntax tree.

Owners are tuples: `GAME = ("g", 0)`, players `("p", i)`, teams `("t", i)`;
they are also what player and team expressions evaluate to.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from operator import mod

GAME = ("g", 0)
#: Effect texts, visibilities... kept per game (a bound: storage values and location names
#: can be made without end).
MAX_PHRASES = 20_000
_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
#: What `Rng.shuffle` needs for n draws, by n (few sizes of shuffled places per game).
_LANES: dict[int, tuple] = {}
_LANES_KEPT = 64


class Rng:
    """A tiny deterministic generator (splitmix64): one int of state, so copies are free
    and a seed plays identically on every Python version."""

    __slots__ = ("s",)

    def __init__(self, seed: int = 0) -> None:
        self.s = seed & _M64

    def next64(self) -> int:
        self.s = z = (self.s + _GOLDEN) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (the bias of a 64-bit modulo is negligible for card counts)."""
        return self.next64() % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the top, position i swapped with `below(i + 1)`. splitmix64's draws
        depend only on their number, so all are made at once: one 128-bit lane each in one big
        int (a lane's product by a 64-bit constant fits in it), a few big-int operations in all
        instead of a dozen per card."""
        n = len(items) - 1
        if n <= 0:
            return
        s, (lanes, ones, steps, low, down, sizes) = self.s, _lanes(n)
        z = (s * ones + steps) & low  # lane k: the state after k draws
        z = ((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
        z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
        z ^= z >> 31  # (a lane's upper half is not read)
        for i, j in zip(down, map(mod, lanes.unpack(z.to_bytes(16 * n, "little")), sizes)):
            items[i], items[j] = items[j], items[i]
        self.s = (s + n * _GOLDEN) & _M64

    def copy(self) -> "Rng":
        return Rng(self.s)


def _lanes(n: int) -> tuple:
    """(layout of n 128-bit lanes, 1 in each lane, k * golden in lane k, each lane's low 64 bits,
    the positions n..1, the sizes n+1..2) for `Rng.shuffle`."""
    got = _LANES.get(n)
    if got is None:
        if len(_LANES) >= _LANES_KEPT:
            _LANES.clear()
        lanes = struct.Struct("<" + "Q8x" * n)
        lane = lambda values: int.from_bytes(lanes.pack(*values), "little")  # noqa: E731
        got = _LANES[n] = (lanes, lane([1] * n), lane(range(1, n + 1)) * _GOLDEN, lane([_M64] * n),
                           range(n, 0, -1), range(n + 1, 1, -1))
    return got


class PointMap:
    """A point map value: awards `((key, value), ...) -> points`, summed over the
    awards whose every pair matches the card (the reference engine's rule).
    Immutable, so the per-card score cache is shared safely by every clone."""

    __slots__ = ("awards", "_cache")

    def __init__(self, awards: tuple) -> None:
        self.awards = awards
        self._cache: dict[int, int] = {}

    def score(self, card: int, attrs: list[dict]) -> int:
        got = self._cache.get(card)
        if got is None:
            a = attrs[card]
            got = sum(pts for conds, pts in self.awards if all(a.get(k, "") == v for k, v in conds))
            self._cache[card] = got
        return got

    def updated(self, other: "PointMap") -> "PointMap":
        """`(update ...)`: awards of `other` replace those with the same conditions, others are added."""
        theirs = {conds for conds, _ in other.awards}
        return PointMap(tuple(a for a in self.awards if a[0] not in theirs) + other.awards)

    def __eq__(self, other) -> bool:
        return isinstance(other, PointMap) and self.awards == other.awards

    def __hash__(self) -> int:
        return hash(self.awards)

    def __repr__(self) -> str:
        return "PointMap(" + ", ".join(f"{'&'.join(f'{k}:{v}' for k, v in c)}={p}" for c, p in self.awards) + ")"


@dataclass
class Table:
    """What a game's setup fixed: players, teams and every card (shared by all clones)."""

    game: object  # recycle.lang.tree.Game
    filename: str
    num_players: int
    team_members: tuple[tuple[int, ...], ...]
    team_of: tuple[int, ...]
    attrs: list[dict] = field(default_factory=list)
    deck_of: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    players: tuple = ()
    teams: tuple = ()
    # Caches (visibility never changes; effect texts are asked for again at every choice).
    sights: dict = field(default_factory=dict, repr=False, compare=False)
    learners: dict = field(default_factory=dict, repr=False, compare=False)
    phrases: dict = field(default_factory=dict, repr=False, compare=False)
    keys: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.players = tuple(("p", i) for i in range(self.num_players))
        self.teams = tuple(("t", i) for i in range(len(self.team_members)))

    def add_card(self, attrs: dict, deck: str) -> int:
        self.attrs.append(attrs)
        self.deck_of.append(deck)
        self.text.append(" ".join(attrs.values()))
        return len(self.attrs) - 1

    def visible(self, key: tuple, player: int) -> bool:
        """Can `player` see the cards of location `key`? (See `_visible`.)"""
        return self.sight(key)[player]

    def sight(self, key: tuple) -> tuple[bool, ...]:
        """Who can see the cards of location `key`: one flag per player."""
        got = self.sights.get(key)
        if got is None:
            if len(self.sights) >= MAX_PHRASES:  # games can make new locations without end
                self.sights.clear()
            got = self.sights[key] = tuple(self._visible(key, p) for p in range(self.num_players))
        return got

    def learning(self, src: tuple, dst: tuple) -> tuple[int, ...]:
        """The players who see a card go from `src` to `dst`, where they cannot see it."""
        got = self.learners.get((src, dst))
        if got is None:
            if len(self.learners) >= MAX_PHRASES:
                self.learners.clear()
            of, to = self.sight(src), self.sight(dst)
            got = self.learners[(src, dst)] = tuple(q for q in range(self.num_players) if of[q] and not to[q])
        return got

    def key(self, key: tuple) -> tuple:
        """One object for all equal keys the generated source names, and for the keys of a new
        game's store (`canonical`): a dict finds a key it holds by identity, without comparing."""
        got = self.keys.get(key)
        if got is None:
            if len(self.keys) >= MAX_PHRASES:
                self.keys.clear()
            got = self.keys[key] = key
        return got

    def canonical(self, st: "Store") -> None:
        """`st`'s location and storage keys, and its cards' places, made the objects of `key`."""
        key = self.key
        st.locs = {key(k): v for k, v in st.locs.items()}
        made = {k: k for k in st.locs}  # the few keys the cards are in, for the many cards
        st.ints, st.strs = {key(k): v for k, v in st.ints.items()}, {key(k): v for k, v in st.strs.items()}
        st.points = {key(k): v for k, v in st.points.items()}
        st.where = list(map(made.get, st.where, st.where))  # (None: a card in no location)

    def keep(self, key: tuple, text: str) -> str:
        """Keep an effect's words under `key` (see `effects`: they are asked for at every choice)."""
        if len(self.phrases) >= MAX_PHRASES:
            self.phrases.clear()
        self.phrases[key] = text
        return text

    def _visible(self, key: tuple, player: int) -> bool:
        """Can `player` see the cards of location `key`?

        vloc and mem (copies): everyone; hloc: nobody; iloc: its owner — for a
        team's iloc every member (the reference engine shows it to nobody), for
        the game's nobody; oloc: everyone but the owner (the game's: everyone)."""
        vis = key[2]
        if vis == "vloc" or vis == "mem":
            return True
        if vis == "hloc":
            return False
        kind, idx = key[0], key[1]
        own = (kind == "p" and idx == player) or (kind == "t" and self.team_of[player] == idx)
        return own if vis == "iloc" else not own  # oloc: all but the owner


def owner_text(owner: tuple) -> str:
    kind, idx = owner[0], owner[1]
    return "game" if kind == "g" else f"{kind}{idx}"


def loc_text(key: tuple) -> str:
    """`p0 HAND`, `game STOCK`, `t1 PILE` — a location as actions and transcripts show it."""
    return f"{owner_text(key)} {key[3]}"


class Store:
    """Everything about a game position that changes. `clone` is shallow where data is immutable.

    A location's list, once in `locs`, stays the same list object while the store lives: cards
    move in and out of it in place, and generated source keeps it (`source.place`)."""

    __slots__ = ("locs", "where", "ints", "strs", "points", "gvars", "pcycles", "tcycles", "rng",
                 "known", "journal", "log", "steps", "fresh")

    def __init__(self, seed: int = 0) -> None:
        self.locs: dict[tuple, list[int]] = {}
        self.where: list[tuple | None] = []  # each card's real location key
        self.ints: dict[tuple, int] = {}
        self.strs: dict[tuple, str] = {}
        self.points: dict[tuple, PointMap] = {}
        self.gvars: dict[str, object] = {}  # `(put points 'V ...)` (dialect A): game-wide
        self.pcycles: list[tuple[int, int]] = [(0, -1)]  # (current index, queued next or -1)
        self.tcycles: list[tuple[int, int]] = [(0, -1)]
        self.rng = Rng(seed)
        self.known: dict[tuple, tuple] = {}  # (player, card) -> hidden location it knows the card is in
        self.journal: list | None = None  # effects recorded while trying a choice's options
        self.log: list | None = None  # transcript: effects and record dicts, when one is kept
        self.steps = 0  # work done since the last choice (bounded)
        self.fresh = 0  # counter for `new` location names

    def clone(self) -> "Store":
        c = Store.__new__(Store)
        c.locs = {k: v[:] for k, v in self.locs.items()}
        c.where = self.where[:]
        c.ints, c.strs, c.points, c.gvars = self.ints.copy(), self.strs.copy(), self.points.copy(), self.gvars.copy()
        c.pcycles, c.tcycles = self.pcycles[:], self.tcycles[:]
        c.rng = self.rng.copy()
        c.known = self.known.copy()
        c.journal = c.log = None
        c.steps, c.fresh = self.steps, self.fresh
        return c

    def loc(self, key: tuple) -> list[int]:
        """The live list of a location, created empty on first write."""
        got = self.locs.get(key)
        if got is None:
            got = self.locs[key] = []
        return got

    def do(self, effect) -> None:
        """Apply one primitive effect, recording it where asked."""
        effect.apply(self)
        if self.journal is not None:
            self.journal.append(effect)
        elif self.log is not None:  # with the player on turn; a record when written (transcript.records)
            self.log.append((effect, self.pcycles[-1][0]))
