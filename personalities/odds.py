"""FollowOdds, exactly: the chance that some opponent can beat a play.

The unseen cards are dealt uniformly at random into the opponents' hands
(their sizes are known). An opponent can beat `count` cards of `value` if it
holds at least `count` cards of one stronger value (or, for a single, a
joker when jokers beat singles). With wild jokers, an opponent holding j
jokers needs only `count - j` naturals (at least one) of a stronger value.

Counting deals of distinguishable cards: with u_w unseen cards of each
stronger value w, R other unseen cards and hand sizes c_i,

    #good / #all = (prod c_i! * prod u_w! * R! / T!) *
                   sum over allocations a[i][w] <= limit_i of
                   prod 1/a[i][w]! * prod_i 1/(c_i - sum_w a[i][w])!

where limit_i = count - 1 - (wild jokers of opponent i). The sum is a
recursion over the stronger values; opponents and values are
interchangeable, so its state is the *sorted* tuple of (free places, limit)
and the *sorted* tuple of remaining u_w, which keeps it small; it is
memoised. Wild jokers are handled by summing over how they are split among
the opponents (a multivariate hypergeometric weight each).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import comb, factorial, prod

from .view import JOKER, ClimbingView


def follow_odds(view: ClimbingView, value: int, count: int) -> int:
    """Percent (rounded down) that at least one opponent can beat (value, count)."""
    sizes = view.opponent_counts
    if not sizes or count <= 0 or value == JOKER:  # nothing beats a lone joker
        return 0
    stronger = view.order[view.order.index(value) + 1:]
    groups = [view.unseen[w] for w in stronger if view.unseen[w]]
    jokers = view.unseen[JOKER]
    if count == 1:
        # Every unseen card is in some opponent's hand: one stronger card is enough.
        return 100 if groups or (jokers and view.jokers_beat_singles) else 0
    wild = jokers if view.wild_jokers else 0
    groups = tuple(sorted(u for u in groups if u + wild >= count))  # others can never make a set
    if not groups:
        return 0
    total = sum(sizes)
    if not wild:
        chance_none = _chance_nobody_holds(tuple(sorted((c, count - 1) for c in sizes)), groups, total)
    else:
        chance_none = 0.0
        for split in product(*(range(min(c, wild) + 1) for c in sizes)):
            if sum(split) != wild:
                continue
            weight = prod(comb(c, j) for c, j in zip(sizes, split)) / comb(total, wild)
            hands = tuple(sorted((c - j, max(0, count - 1 - j)) for c, j in zip(sizes, split)))
            chance_none += weight * _chance_nobody_holds(hands, groups, total - wild)
    return int(100 * (1 - chance_none) + 1e-9)


@lru_cache(maxsize=65536)
def _chance_nobody_holds(hands: tuple[tuple[int, int], ...], groups: tuple[int, ...], total: int) -> float:
    """P(no hand (size, limit) gets more than `limit` cards of any group), uniform deal of `total` cards."""
    rest = total - sum(groups)
    if rest < 0:
        raise ValueError("more cards in groups than unseen")
    scale = prod(factorial(c) for c, _ in hands) * prod(factorial(u) for u in groups) * factorial(rest)
    return float(scale) / factorial(total) * _allocations(hands, groups)


_INV_FACTORIAL = [1.0 / factorial(i) for i in range(128)]


@lru_cache(maxsize=262144)
def _allocations(hands: tuple[tuple[int, int], ...], groups: tuple[int, ...]) -> float:
    """Sum over ways to spread each group's cards (<= limit per hand) of the weights."""
    if not groups:
        return prod(_INV_FACTORIAL[free] for free, _ in hands)
    total = 0.0
    for left, weight in _splits(groups[0], hands):
        total += weight * _allocations(left, groups[1:])
    return total


@lru_cache(maxsize=65536)
def _splits(cards: int, hands: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[tuple[int, int], ...], float], ...]:
    """Every way to give `cards` cards to the hands, each within its free places and
    limit: (the sorted hands left, weight prod 1/a_i!)."""
    n = len(hands)
    out = []

    def extend(i: int, left: int, chosen: list[int]) -> None:
        free, limit = hands[i]
        if i == n - 1:
            if left <= limit and left <= free:
                split = chosen + [left]
                rest = tuple(sorted((f - a, lim) for (f, lim), a in zip(hands, split)))
                out.append((rest, prod(_INV_FACTORIAL[a] for a in split)))
            return
        for a in range(0, min(left, limit, free) + 1):
            chosen.append(a)
            extend(i + 1, left - a, chosen)
            chosen.pop()

    extend(0, cards, [])
    return tuple(out)
