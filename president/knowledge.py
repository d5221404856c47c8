"""What a player knows about the other hands, and `determinize`.

A player knows exactly:
- its own hand and every card played (played cards are public);
- the cards it gave in this round's exchange, while the receiver has not
  played them (and has not handed them back);
- that the first leader of a match held the 3 of clubs (the rules say so);
- as a receiver of a forced gift, that the giver kept nothing higher than the
  lowest card it handed over.
A pass reveals nothing. `determinize` keeps all of that and re-deals the rest.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from recycle.engine import GameError

if TYPE_CHECKING:
    from .state import PresidentState


def known_holdings(gifts, known_public, played: int, my_hand: int, observer: int) -> dict[int, int]:
    """player -> mask of cards `observer` knows that player holds now (others only).

    Reads public facts only: a known card leaves its holder by being played
    (public) or handed back to the observer (now in its own hand).
    """
    known: dict[int, int] = {}
    facts = [(r, m) for g, r, m in gifts if g == observer] + list(known_public)
    for holder, mask in facts:
        still = mask & ~played & ~my_hand
        if holder != observer and still:
            known[holder] = known.get(holder, 0) | still
    return known


def value_bounds(bound_facts, observer: int) -> dict[int, int]:
    """player -> the highest value that player's unknown cards can have, for `observer`."""
    bounds: dict[int, int] = {}
    for knower, target, highest in bound_facts:
        if knower == observer:
            bounds[target] = min(highest, bounds.get(target, highest))
    return bounds


def unseen_mask(state: "PresidentState", observer: int) -> int:
    """Cards `observer` has not seen: not in its hand, not played."""
    return state.lay.full & ~state.played & ~state.masks[observer]


def determinize(state: "PresidentState", observer: int, rng: random.Random) -> "PresidentState":
    """A copy where every card `observer` cannot know is re-dealt at random.

    Hand sizes, known cards and value bounds are kept. Cards are placed from
    the highest value down, each to a player allowed to hold it, chosen with
    probability proportional to its free places: bounds are nested ("nothing
    above v"), so this never paints itself into a corner, and with no bounds it
    is exactly a uniform random deal.
    """
    out = state.clone()
    lay, n = state.lay, state.num_players
    known = known_holdings(state.gifts, state.known_public, state.played, state.masks[observer], observer)
    bounds = value_bounds(state.bounds, observer)
    pool = unseen_mask(state, observer)
    for mask in known.values():
        pool &= ~mask
    free = [0] * n
    for p in range(n):
        if p != observer:
            free[p] = state.sizes[p] - known.get(p, 0).bit_count()
            out.masks[p] = known.get(p, 0)
    bits = []
    while pool:
        low = pool & -pool
        bits.append(low.bit_length() - 1)
        pool ^= low
    rng.shuffle(bits)  # random order among equal values, then a stable sort by value
    bits.sort(key=lay.value_of_bit.__getitem__, reverse=True)
    for b in bits:
        value = lay.value_of_bit[b]
        eligible = [p for p in range(n) if free[p] and bounds.get(p, 99) >= value]
        if not eligible:
            raise GameError(f"no player may hold {lay.cards[b]}: knowledge is inconsistent")
        pick = rng.randrange(sum(free[p] for p in eligible))
        for p in eligible:
            pick -= free[p]
            if pick < 0:
                break
        out.masks[p] |= 1 << b
        free[p] -= 1
    for p in range(n):
        out.counts[p] = lay.counts(out.masks[p])
    out.deal_seed = rng.getrandbits(63)  # later deals are unknown too
    return out
