"""The round's first pick solved: the equilibrium of the game where both hands are private, shipped.

At the first pick each player knows its own five cards only, and both pick at
once. Everything is common knowledge once the picks are revealed, so each pair
of first picks leads to a subgame whose exact value `first_pick.root_matrices`
gives; replacing the subgames by their values keeps the equilibria. What is
left is the symmetric Bayesian game of `bayesian.SymmetricGame`: a player's
type is its hand (one of the 8,568 of `hands`), it meets each of the 1,287
hands disjoint from it with the same probability, and the payoff is a 5 x 5
matrix of subgame values. Its equilibrium, a mix per hand, was computed once
from all 5,513,508 pairs of hands that can meet (`bench/tides_equilibrium.py`)
and ships as `first_pick_equilibrium.npz`: each mix in 1/65,535ths (uint16,
compressed), with the exploitability measured on that quantized table.

Playing a first pick only looks its mix up (`first_pick_mix`). `hand_report`
re-values a hand exactly, in float64, from a fresh batch over its 1,287
opponent hands against their mixes from the table: each card's value, the
hand's value and what a best response gains there (`gain`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from recycle.games.tides.cards import cards_of
from recycle.games.tides.hands import HANDS_COUNT, hand_index, opponents_of

TABLE = "first_pick_equilibrium.npz"
SCALE = 65_535  # a mix is stored in 1/SCALE ths (uint16)


class TableError(RuntimeError):
    """The shipped equilibrium table is missing or not the shape of the game's hands."""


def quantized(strategy: np.ndarray) -> np.ndarray:
    """(types, 5) uint16 summing to SCALE per row, each within 1/SCALE of the mix (largest remainders)."""
    scaled = strategy * SCALE
    out = np.floor(scaled).astype(np.int64)
    short = SCALE - out.sum(axis=1)
    order = np.argsort(-(scaled - out), axis=1, kind="stable")
    for r in range(strategy.shape[1]):
        out[np.arange(len(out)), order[:, r]] += r < short
    return out.astype(np.uint16)


def from_quantized(q: np.ndarray) -> np.ndarray:
    return q.astype(float) / SCALE


@lru_cache(maxsize=1)
def _table() -> tuple[np.ndarray, dict]:
    try:
        with resources.files(__package__).joinpath(TABLE).open("rb") as f, np.load(f) as data:
            q = data["strategy"]
            figures = {k: float(data[k]) for k in data.files if k != "strategy"}
    except (OSError, KeyError, ValueError) as exc:
        raise TableError(f"{TABLE}: cannot read the first-pick equilibrium ({exc}); rebuild it with "
                         "bench/tides_equilibrium.py") from exc
    if q.shape != (HANDS_COUNT, 5) or (q.astype(np.int64).sum(axis=1) != SCALE).any():
        raise TableError(f"{TABLE}: expected (8568, 5) mixes in 1/{SCALE}ths, found {q.shape}")
    return from_quantized(q), figures


def strategy_table() -> np.ndarray:
    """(8568, 5): the equilibrium's mix over each hand's cards (by number), hands numbered as `hands`."""
    return _table()[0]


def table_figures() -> dict[str, float]:
    """What the build measured on the shipped table: exploitability (mean gain over all 8,568 hands),
    largest_gain, iterations (from float32 subgame values; `hand_report` re-measures in float64)."""
    return dict(_table()[1])


def first_pick_mix(hand: int) -> tuple[float, ...]:
    """The equilibrium mix over `hand`'s cards (by number): a look-up."""
    return tuple(float(p) for p in strategy_table()[hand_index(hand)])


@dataclass(frozen=True)
class HandReport:
    """One hand's first pick under the equilibrium, valued exactly against the opponents' table mixes."""

    hand: int
    mix: tuple[float, ...]      # per card of the hand, by number
    values: tuple[float, ...]   # each card's mean margin over the 1,287 opponent hands, against their mixes
    opponents: int
    one_sided: tuple[float, ...] | None = None  # the one-sided first pick's mix (`equilibrium`), if compared

    @property
    def value(self) -> float:
        """The hand's value under the equilibrium: the mix's mean margin."""
        return float(np.dot(self.mix, self.values))

    @property
    def gain(self) -> float:
        """What a best response gains at this hand over the mix (>= 0): the exploitability there."""
        return max(self.values) - self.value

    @property
    def one_sided_gain(self) -> float | None:
        """What a best response gains at this hand over the one-sided pick's mix, against the same mixes."""
        return None if self.one_sided is None else max(self.values) - float(np.dot(self.one_sided, self.values))

    def to_json(self) -> dict:
        cards = cards_of(self.hand)
        one_sided = self.one_sided or (None,) * len(cards)
        return {"hand": [str(c) for c in cards], "value": round(self.value, 9),
                "best_response_gain": self.gain, "opponent_hands": self.opponents,
                "one_sided_gain": None if self.one_sided is None else round(self.one_sided_gain, 9),
                "cards": [{"card": str(c), "share": round(p, 9), "value": round(v, 9),
                           "one_sided_share": None if s is None else round(s, 9)}
                          for c, p, v, s in zip(cards, self.mix, self.values, one_sided)]}


@lru_cache(maxsize=64)
def hand_report(hand: int, compare: bool = False) -> HandReport:
    """`hand`'s first pick: its mix from the table, valued in float64 against a fresh batch of subgames;
    `compare`: with the one-sided first pick's mix too (its own solve)."""
    from recycle.games.tides.equilibrium import first_pick_report
    from recycle.games.tides.first_pick import hand_games

    games = hand_games(hand)  # (1287, 5, 5) my margin; opponents in hand-number order, as `opponents_of`
    values = np.einsum("hij,hj->i", games, strategy_table()[opponents_of(hand_index(hand))]) / len(games)
    return HandReport(hand, first_pick_mix(hand), tuple(float(v) for v in values), len(games),
                      first_pick_report(hand).mix if compare else None)


@dataclass(frozen=True)
class DealReport:
    """Both seats' first picks of one dealt round, each valued from what that seat knows (its hand)."""

    index: int
    seats: tuple[HandReport, HandReport]

    def to_json(self) -> dict:
        return {"deal": self.index, "seats": [s.to_json() for s in self.seats]}


def deal_reports(deals: int, seed: int, progress=lambda done: None) -> list[DealReport]:
    """Deals 0..deals-1 drawn from `seed` (as `recycle tides-solve` samples them), both seats reported."""
    import random

    from recycle.games.tides.cards import mask_of
    from recycle.games.tides.state import random_hands

    out = []
    for i in range(deals):
        hands = random_hands(random.Random(f"tides-solve/{seed}/{i}"))
        out.append(DealReport(i, tuple(hand_report(mask_of(h), compare=True) for h in hands)))
        progress(i + 1)
    return out
