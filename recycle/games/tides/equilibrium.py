"""The first pick as the game it is: a Bayesian game over every hand, solved once, shipped as a table.

At the first pick a player knows its own five cards and nothing else: the
opponent holds any of the 1,287 hands disjoint from them, and picks at the
same time. After the picks are revealed the hands are swapped, and from then
on every card in play is known to both, so the rest of the round is a
perfect-information game with simultaneous picks whose value `first_pick`'s
batch computes exactly for each pair of first picks. The round is therefore
the symmetric Bayesian game of `bayesian` with the 8,568 hands as types and
those values as payoffs (replacing each subgame after the first picks by its
value keeps the equilibria: the subgame is common knowledge and zero-sum).

Its equilibrium, a mix per hand, was computed once from every pair of hands
(5,513,508 pairs, each a 5 x 5 game of exact subgame values; about an hour of
one core, `bench/tides_equilibrium.py --build`) and ships as
`first_pick_equilibrium.npz`. Playing a first pick only looks the mix up;
`first_pick_report` also re-values the hand exactly (one batch over its 1,287
opponent hands, against their mixes from the table) to show each card's value
and what a best response would gain there (`gain`): the exploitability at that
hand, measured, not assumed.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .cards import cards_of
from .first_pick import mean_margins, root_matrices
from .hands import HANDS_COUNT, hand_bits, hand_index, opponents_of

TABLE = Path(__file__).with_name("first_pick_equilibrium.npz")


class TableError(RuntimeError):
    """The shipped equilibrium table is missing or not the shape of the game's hands."""


@lru_cache(maxsize=1)
def strategy_table() -> np.ndarray:
    """(8568, 5): the equilibrium's mix over each hand's cards (by number), hands numbered as `hands`."""
    try:
        with np.load(TABLE) as data:
            table = np.asarray(data["strategy"], dtype=float)
    except (OSError, KeyError, ValueError) as exc:
        raise TableError(f"{TABLE.name}: cannot read the first-pick equilibrium ({exc}); rebuild it with "
                         "bench/tides_equilibrium.py --build") from exc
    if table.shape != (HANDS_COUNT, 5) or (table < 0).any():
        raise TableError(f"{TABLE.name}: expected (8568, 5) probabilities, found {table.shape}")
    return table / table.sum(axis=1, keepdims=True)


def first_pick_mix(hand: int) -> tuple[float, ...]:
    """The equilibrium mix over `hand`'s cards (by number)."""
    return tuple(float(p) for p in strategy_table()[hand_index(hand)])


@dataclass(frozen=True)
class FirstPickReport:
    """One hand's first pick under the equilibrium, valued exactly against the opponent's table mixes."""

    hand: int
    mix: tuple[float, ...]      # per card of the hand, by number
    values: tuple[float, ...]   # each card's mean margin over the 1,287 opponent hands, against their mixes
    opponents: int
    heuristic: int              # the card the previous first pick (`first_pick.mean_margins`) plays

    @property
    def heuristic_gain(self) -> float:
        """What a best response gains over the previous first pick's card, against the same mixes."""
        return max(self.values) - self.values[self.heuristic]

    @property
    def value(self) -> float:
        """The hand's value under the equilibrium: the mix's mean margin."""
        return float(np.dot(self.mix, self.values))

    @property
    def gain(self) -> float:
        """What a best response gains at this hand over the mix (>= 0; the hand's exploitability)."""
        return max(self.values) - self.value

    def to_json(self) -> dict:
        return {"hand": [str(c) for c in cards_of(self.hand)], "value": round(self.value, 9),
                "best_response_gain": round(self.gain, 12), "opponent_hands": self.opponents,
                "previous_pick": str(cards_of(self.hand)[self.heuristic]),
                "previous_pick_gain": round(self.heuristic_gain, 9),
                "cards": [{"card": str(c), "share": round(p, 9), "value": round(v, 9)}
                          for c, p, v in zip(cards_of(self.hand), self.mix, self.values)]}


def first_pick_report(hand: int, table: np.ndarray | None = None) -> FirstPickReport:
    """`hand`'s first pick: its mix from `table` (default the shipped one) and exact values (one batch)."""
    table = strategy_table() if table is None else table
    k = hand_index(hand)
    opponents = opponents_of(k)
    games = root_matrices(hand, opponents=hand_bits()[opponents])  # (1287, 5, 5), my margin
    values = np.einsum("hij,hj->i", games, table[opponents]) / len(opponents)
    return FirstPickReport(hand, tuple(float(p) for p in table[k]), tuple(float(v) for v in values),
                           len(opponents), int(np.argmax(mean_margins(games))))


@dataclass(frozen=True)
class DealReport:
    """Both seats' first picks of one dealt round, each valued from what that seat knows (its hand)."""

    index: int
    seats: tuple[FirstPickReport, FirstPickReport]

    @property
    def gain(self) -> float:
        """The deal's exploitability: the larger seat's best-response gain over its value."""
        return max(s.gain for s in self.seats)

    def to_json(self) -> dict:
        return {"deal": self.index, "best_response_gain": round(self.gain, 12),
                "seats": [s.to_json() for s in self.seats]}


def deal_reports(deals: int, seed: int, progress=lambda done: None) -> list[DealReport]:
    """Deals 0..deals-1 drawn from `seed` (as `recycle tides-solve` samples them), both seats reported."""
    import random

    from .cards import mask_of
    from .state import random_hands

    out = []
    for i in range(deals):
        hands = random_hands(random.Random(f"tides-solve/{seed}/{i}"))
        out.append(DealReport(i, (first_pick_report(mask_of(hands[0])), first_pick_report(mask_of(hands[1])))))
        progress(i + 1)
    return out
