"""What a player knows about the other hands, and the `Dealer` behind `determinize`.

A player knows exactly:
- its own hand and every card played (played cards are public);
- the cards it gave in this round's exchange, while the receiver has not
  played them (and has not handed them back);
- that the first leader of a match held the 3 of clubs (the rules say so);
- as a receiver of a forced gift, that the giver kept nothing higher than the
  lowest card it handed over.
A pass reveals nothing; another pair's gift reveals only how many cards changed
hands. A determinization keeps all of that, re-deals the rest and forgets the
facts of other pairs' gifts (so a search in it cannot read them).
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from recycle.kernel.protocol import GameError

from president.game.exchange import as_seen

if TYPE_CHECKING:
    from president.game.state import PresidentState


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


class Dealer:
    """Re-deals, as often as asked, every card `observer` cannot know about in `state`.

    What the observer knows is worked out once, here; `deal(rng)` then only
    deals (ISMCTS re-determinizes its root on every iteration). The state
    must not change while its dealer is in use.

    Hand sizes, known cards and value bounds are kept. Cards are placed from
    the highest value down, each to a player allowed to hold it, chosen with
    probability proportional to its free places: bounds are nested ("nothing
    above v"), so this never paints itself into a corner, and with no bounds it
    is exactly a uniform random deal.
    """

    __slots__ = ("state", "observer", "hands", "counts", "groups", "bounds")

    def __init__(self, state: "PresidentState", observer: int) -> None:
        lay, n = state.lay, state.num_players
        known = known_holdings(state.gifts, state.known_public, state.played, state.masks[observer], observer)
        bounds = value_bounds(state.bounds, observer)
        pool = unseen_mask(state, observer)
        for mask in known.values():
            pool &= ~mask
        self.state, self.observer, self.bounds = state, observer, bounds
        others = [p for p in range(n) if p != observer]
        self.hands = {p: known.get(p, 0) for p in others}  # what each other player surely holds
        self.counts = {p: lay.counts(mask) for p, mask in self.hands.items()}
        free = {p: state.sizes[p] - mask.bit_count() for p, mask in self.hands.items()}
        # (value, card bits, players allowed from this value down with their free places), highest first
        self.groups: list[tuple[int, list[int], list[int]]] = []
        admitted: set[int] = set()
        for value in range(16, 2, -1):
            slot = (pool >> lay.shift[value]) & lay.slot
            if not slot:
                continue
            row = lay.lowest[slot]  # the lowest k cards, for each k: each card is one step
            bits = [(row[k] ^ row[k - 1]) << lay.shift[value] for k in range(1, len(row))]
            newly = [p for p in others if p not in admitted and bounds.get(p, 99) >= value]
            admitted.update(newly)
            self.groups.append((value, bits, [p for p in newly for _ in range(free[p])]))

    def deal(self, rng: random.Random) -> "PresidentState":
        """A copy of the state with the unknown cards re-dealt with `rng`, and the exchange facts the
        observer cannot know forgotten (`exchange.as_seen`)."""
        out = self.state.clone()
        as_seen(out, self.observer)
        masks, counts = out.masks, out.counts
        for p, mask in self.hands.items():
            masks[p] = mask
            counts[p] = self.counts[p][:]
        rand = rng.random
        free: list[int] = []  # one entry per free place in the hands allowed so far
        for value, bits, newly in self.groups:
            free += newly
            for bit in bits:
                if not free:
                    raise GameError(f"no player may hold {self.state.lay.card_list(bit)[0]}: "
                                    "knowledge is inconsistent")
                i = int(rand() * len(free))  # the card goes to a uniformly drawn free place
                p = free[i]
                free[i] = free[-1]
                free.pop()
                masks[p] |= bit
                counts[p][value] += 1
        out.deal_seed = rng.getrandbits(63)  # later deals are unknown too
        return out

    def neighbour(self, world: "PresidentState", rng: random.Random) -> "PresidentState | None":
        """`world` with one unknown card of one other player swapped with one of another's: a copy,
        `world` itself when both have the same value, None when a value bound forbids the swap.

        Symmetric: the two players are drawn among those holding unknown cards (a swap keeps
        every player's count of them), then one unknown card of each, uniformly.
        """
        hands, masks = self.hands, world.masks
        movable = [(p, masks[p] & ~mask) for p, mask in hands.items() if masks[p] & ~mask]
        if len(movable) < 2:
            return None
        (p, mine), (q, theirs) = rng.sample(movable, 2)
        a, b = _any_card(mine, rng), _any_card(theirs, rng)
        value_of = self.state.lay.value_of_bit
        va, vb = value_of[a.bit_length() - 1], value_of[b.bit_length() - 1]
        if va == vb:
            return world
        if va > self.bounds.get(q, 99) or vb > self.bounds.get(p, 99):
            return None
        out = world.clone()
        out.masks[p] ^= a | b
        out.masks[q] ^= a | b
        out.counts[p][va] -= 1
        out.counts[p][vb] += 1
        out.counts[q][vb] -= 1
        out.counts[q][va] += 1
        out.deal_seed = rng.getrandbits(63)
        return out


def _any_card(mask: int, rng: random.Random) -> int:
    """One of the cards of a non-empty `mask`, uniformly: its bit."""
    for _ in range(rng.randrange(mask.bit_count())):
        mask &= mask - 1  # drop the lowest card
    return mask & -mask

