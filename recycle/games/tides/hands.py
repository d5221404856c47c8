"""Every five-card hand of the round, numbered: the types of the first pick's Bayesian game.

A player's whole information at the first pick is its own hand, one of
C(18, 5) = 8,568; `HANDS` numbers them in `itertools.combinations(DECK, 5)`
order (a stable order: the shipped equilibrium table is indexed by it).
The opponent holds one of the C(13, 5) = 1,287 hands disjoint from mine.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np

from recycle.games.tides.cards import DECK

HANDS_COUNT = 8_568
OPPONENT_HANDS = 1_287


@lru_cache(maxsize=1)
def hand_bits() -> np.ndarray:
    """(8568, 5) int64: each hand's card bits, by card number."""
    return np.array([[c.bit for c in combo] for combo in combinations(DECK, 5)], dtype=np.int64)


@lru_cache(maxsize=1)
def hand_masks() -> np.ndarray:
    """(8568,) int64: each hand's bitmask."""
    return hand_bits().sum(axis=1)


@lru_cache(maxsize=1)
def _index() -> dict[int, int]:
    return {int(m): k for k, m in enumerate(hand_masks())}


def hand_index(mask: int) -> int:
    """The number of the five-card hand `mask`."""
    return _index()[mask]


def opponents_of(k: int) -> np.ndarray:
    """The numbers of the 1,287 hands disjoint from hand `k`, ascending."""
    return np.flatnonzero((hand_masks() & hand_masks()[k]) == 0)
