"""The first pick over all 1,287 opponent hands at once (numpy), for the solver and the seed's bot.

Before the first swap a player knows only its own five cards; the opponent
holds any five of the other thirteen. For a fixed hand the game tree has the
same shape for every opponent hand when cards are named by position (mine
0..4, the opponent's 5..9), so it is built once, on positions, and every
position's value is an array over the 1,287 hands:

- the 100 possible final splits (3 of my cards and 2 of the opponent's
  become my kingdom) are scored for every hand at once from per-kingdom
  tables (`_Tables`, the same `scoring.profile` figures), checked equal to
  `scoring.scores` by the tests;
- each earlier turn's positions are matrix games over their children,
  solved for all positions and hands in one batch (`solve_many`), or, for
  the seed's bot, reduced by max-min on its own score.

The root's 5 x 5 matrices per hand are the first pick's payoffs: the solver
solves them as a Bayesian game (`equilibrium`); its previous first pick
(`mean_margins`, `tides-solver:first=mean`) values each card against the
opponent's equilibrium mix of each hand's 5 x 5 game, as if both hands were
known, and averages over the hands (uniform: every hand is equally likely);
the seed's bot counts, per hand, the card its max-min picks (when that score
is above 0, as the seed does). Each level's pure cases (max-min, saddle
points) are elementwise operations over every position and hand at once;
only the games without a saddle point go to the batch solver.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from recycle.search.matrix_batch import solve_many

from recycle.games.tides.cards import DECK
from recycle.games.tides.scoring import profile

MINE, THEIRS = 0b11111, 0b11111 << 5


@dataclass(frozen=True)
class _Tables:
    """Per five-card kingdom (rows), the figures of `scoring.profile`, and mask -> row."""

    row: np.ndarray        # (2**19,) kingdom mask -> row
    counts: np.ndarray     # (K, 5) counts before doubling
    doubled: np.ndarray    # (K, 5)
    singles: np.ndarray
    ties: np.ndarray
    singletons: np.ndarray
    highest: np.ndarray
    own_points: np.ndarray
    own_best: np.ndarray
    majority: np.ndarray   # (K, 5) holds the majority card of that suit


@lru_cache(maxsize=1)
def tables() -> _Tables:
    from recycle.games.tides.cards import SUITS

    kingdoms = [sum(c.bit for c in combo) for combo in combinations(DECK, 5)]
    row = np.zeros(1 << 19, dtype=np.int32)
    row[kingdoms] = np.arange(len(kingdoms))
    profiles = [profile(k) for k in kingdoms]
    suit = {s: i for i, s in enumerate(SUITS)}
    majority = np.zeros((len(kingdoms), 5), dtype=bool)
    for r, p in enumerate(profiles):
        for c in p.majorities:
            majority[r, suit[c.names[0]]] = True
    return _Tables(row, np.array([p.counts for p in profiles]), np.array([p.doubled for p in profiles]),
                   np.array([p.singles for p in profiles]), np.array([p.ties for p in profiles]),
                   np.array([p.singletons for p in profiles]), np.array([p.highest for p in profiles]),
                   np.array([p.own_points for p in profiles]), np.array([p.own_best for p in profiles]),
                   majority)


def _beats(mine, theirs, ties):
    return (mine > theirs) | ((mine == theirs) & ties)


def pair_scores(a_masks: np.ndarray, b_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both scores for arrays of five-card kingdom masks (the vector form of `scoring.scores`)."""
    t = tables()
    a, b = t.row[a_masks], t.row[b_masks]

    def before_highest(x, y):
        one = np.where(t.singletons[x] & _beats(t.singles[x], t.singles[y], t.ties[x]), 8, 0)
        won = t.majority[x] & _beats(t.doubled[x], t.doubled[y], t.ties[x][..., None])
        maj = 7 * won.sum(axis=-1)
        best = np.maximum(np.maximum(one, t.own_best[x]), np.where(won.any(axis=-1), 7, 0))
        return one + maj + t.own_points[x], best

    pa, best_a = before_highest(a, b)
    pb, best_b = before_highest(b, a)
    pa = pa + np.where(t.highest[a] & _beats(best_a, best_b, t.ties[a]), 8, 0)
    pb = pb + np.where(t.highest[b] & _beats(best_b, best_a, t.ties[b]), 8, 0)
    return pa, pb


def _tree():
    """The position tree on card positions: levels of (my kingdom, their kingdom, my hand, their hand)."""
    levels = [[(0, 0, MINE, THEIRS)]]
    while True:
        nxt: dict[tuple, int] = {}
        for mk, ok, mh, oh in levels[-1]:
            if mh & (mh - 1) == 0:
                continue
            for a in _bits(mh):
                for b in _bits(oh):
                    nxt.setdefault((mk | a, ok | b, oh & ~b, mh & ~a), len(nxt))
        if not nxt:
            return levels
        levels.append(list(nxt))


@lru_cache(maxsize=1)
def tree():
    levels = _tree()
    index = [{s: i for i, s in enumerate(level)} for level in levels]
    return levels, index


@lru_cache(maxsize=1)
def final_splits() -> tuple[list[int], np.ndarray]:
    """The distinct final kingdoms of mine (100 splits) and, per last position, which one it ends in."""
    finals = [mk | mh for mk, ok, mh, oh in tree()[0][-1]]
    splits = sorted(set(finals))
    at = {m: i for i, m in enumerate(splits)}
    return splits, np.array([at[m] for m in finals])


@lru_cache(maxsize=1 << 10)
def _bits(mask: int) -> tuple[int, ...]:
    return tuple(1 << k for k in range(10) if mask >> k & 1)


def opponent_hands(hand: int) -> np.ndarray:
    """(1287, 5) card bits of every five-card hand among the cards not in `hand`."""
    pool = [c.bit for c in DECK if not hand & c.bit]
    return np.array(list(combinations(pool, 5)), dtype=np.int64)


def root_matrices(hand: int, seed: bool = False, opponents: np.ndarray | None = None) -> np.ndarray:
    """(hands, 5, 5): my value (the margin's equilibrium, or the seed's own max-min score) after each pair
    of first picks (rows: my cards by number; columns: the opponent's), for every opponent hand
    (`opponents`, rows of five card bits by number; default: all 1,287 of `opponent_hands`)."""
    levels, index = tree()
    mine_bits = [c.bit for c in DECK if hand & c.bit]
    opp = opponent_hands(hand) if opponents is None else opponents

    def masks(positions: int) -> np.ndarray:
        out = np.zeros(len(opp), dtype=np.int64)
        for k in range(5):
            if positions >> k & 1:
                out |= mine_bits[k]
            if positions >> (5 + k) & 1:
                out |= opp[:, k]
        return out

    # Leaves: positions where one card is left each (the last picks are forced).
    splits, where = final_splits()
    a_scores, b_scores = pair_scores(np.stack([masks(mine) for mine in splits]),
                                     np.stack([masks((MINE | THEIRS) & ~mine) for mine in splits]))
    values = (a_scores if seed else a_scores - b_scores).astype(float)[where]  # (positions, hands)
    for depth in range(len(levels) - 2, 0, -1):
        values = _level_values(levels[depth], index[depth + 1], values, seed)
    return _children(levels[0][0], index[1], values).transpose(2, 0, 1)


def _children(state: tuple, below: dict, values: np.ndarray) -> np.ndarray:
    mk, ok, mh, oh = state
    rows = [[below[(mk | a, ok | b, oh & ~b, mh & ~a)] for b in _bits(oh)] for a in _bits(mh)]
    return values[np.array(rows)]  # (m, n, hands)


def _children_index(state: tuple, below: dict) -> list[list[int]]:
    mk, ok, mh, oh = state
    return [[below[(mk | a, ok | b, oh & ~b, mh & ~a)] for b in _bits(oh)] for a in _bits(mh)]


def _level_values(level: list, below: dict, values: np.ndarray, seed: bool) -> np.ndarray:
    # Gathered as (m, n, positions, hands): each entry of the matrices is one contiguous array over every
    # position and hand, so the pure cases (max-min, saddle points) are elementwise operations.
    rows = np.array([_children_index(s, below) for s in level]).transpose(1, 2, 0)  # (m, n, positions)
    mats = values[rows]
    m, n, p, h = mats.shape
    entries = mats.reshape(m, n, p * h)
    worst = [np.minimum.reduce(list(entries[i])) for i in range(m)]  # each row's minimum
    low = np.maximum.reduce(worst)
    if seed:
        return low.reshape(p, h)
    high = np.minimum.reduce([np.maximum.reduce(list(entries[:, j])) for j in range(n)])
    out = low.copy()
    mixed = np.flatnonzero(low != high)  # no saddle point: the batch solver on those games only
    if mixed.size:
        out[mixed], _ = solve_many(entries[:, :, mixed].transpose(2, 0, 1), want_cols=False)
    return out.reshape(p, h)


@lru_cache(maxsize=8)
def hand_games(hand: int) -> np.ndarray:
    """`root_matrices(hand)` kept for the last few hands: the first pick's reports all start from it
    (its opponent hands come in hand-number order, as `hands.opponents_of`)."""
    games = root_matrices(hand)
    games.flags.writeable = False
    return games


# A pick depends on the hand alone: the last few hands' results are kept (8,568 hands exist).
@lru_cache(maxsize=1024)
def solver_first_pick(hand: int) -> tuple[tuple[float, ...], int]:
    """Per card of `hand` (by number): the mean over opponent hands of its value against the opponent's
    equilibrium mix; and how many hands."""
    games = hand_games(hand)
    return tuple(float(v) for v in mean_margins(games)), len(games)


def mean_margins(games: np.ndarray) -> np.ndarray:
    """(5,): each of my cards' mean, over the games (one per opponent hand), of its value against the
    opponent's equilibrium mix of that game: the first pick as if both hands were known."""
    _, cols = solve_many(games)
    return np.einsum("hij,hj->hi", games, cols).mean(axis=0)


@lru_cache(maxsize=1024)
def seed_first_pick(hand: int) -> tuple[tuple[int, ...], int]:
    """Per card of `hand` (by number): the seed's votes (hands where its max-min picks it, score > 0)."""
    games = root_matrices(hand, seed=True)
    worst = games.min(axis=2)
    best = worst.max(axis=1)
    chosen = worst.argmax(axis=1)  # the first card reaching the best, as the seed's strict '>'
    return tuple(int(v) for v in np.bincount(chosen[best > 0], minlength=5)), len(games)

