"""FollowOdds, exactly: the chance that some opponent can beat a play.

The unseen cards are dealt uniformly at random into the opponents' hands
(their sizes are known). An opponent can beat `count` cards of `value` if it
holds at least `count` cards of one stronger value (or, for a single, a
joker when jokers beat singles). So

    P(nobody can beat) = #deals where every opponent holds < count of each
                         stronger value  /  #deals

Counting deals of distinguishable cards: with u_w unseen cards of each
stronger value w, R other unseen cards and hand sizes c_i,

    #good / #all = (prod c_i! * prod u_w! * R! / T!) *
                   sum over allocations a[i][w] < count of
                   prod 1/a[i][w]! * prod_i 1/(c_i - sum_w a[i][w])!

The sum is a recursion over the stronger values; since opponents and values
are interchangeable, its state is the *sorted* tuple of free places and the
*sorted* tuple of remaining u_w, which keeps it small, and it is memoised.
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial, prod

from .view import JOKER, ClimbingView


def follow_odds(view: ClimbingView, value: int, count: int) -> int:
    """Percent (rounded down) that at least one opponent can beat (value, count)."""
    if not view.opponent_counts or count <= 0:
        return 0
    if value == JOKER:
        return 0  # nothing beats a lone joker
    stronger = view.order[view.order.index(value) + 1:]
    groups = [view.unseen[w] for w in stronger if view.unseen[w]]
    if count == 1:
        # Every unseen card is in some opponent's hand: one stronger card is enough.
        has_joker = view.jokers_beat_singles and view.unseen[JOKER] > 0
        return 100 if groups or has_joker else 0
    groups = [u for u in groups if u >= count]  # a value with fewer unseen cards cannot make a set
    if not groups:
        return 0
    chance_none = _chance_nobody_holds(tuple(sorted(view.opponent_counts)), tuple(sorted(groups)),
                                       sum(view.opponent_counts), count)
    return int(100 * (1 - chance_none) + 1e-9)


@lru_cache(maxsize=65536)
def _chance_nobody_holds(sizes: tuple[int, ...], groups: tuple[int, ...], total: int, count: int) -> float:
    """P(no hand of `sizes` gets `count`+ cards of any group), uniform deal of `total` cards."""
    rest = total - sum(groups)
    if rest < 0:
        raise ValueError("more cards in groups than unseen")
    scale = prod(factorial(c) for c in sizes) * prod(factorial(u) for u in groups) * factorial(rest)
    return float(scale) / factorial(total) * _allocations(sizes, groups, count)


_INV_FACTORIAL = [1.0 / factorial(i) for i in range(128)]


@lru_cache(maxsize=262144)
def _allocations(free: tuple[int, ...], groups: tuple[int, ...], count: int) -> float:
    """Sum over ways to spread each group's cards (< count per hand) of the weights."""
    if not groups:
        return prod(_INV_FACTORIAL[f] for f in free)
    first, rest = groups[0], groups[1:]
    total = 0.0
    for new_free, weight in _splits(first, free, count):
        total += weight * _allocations(new_free, rest, count)
    return total


@lru_cache(maxsize=65536)
def _splits(cards: int, free: tuple[int, ...], count: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every way to give `cards` cards to hands with `free` places, < `count` each:
    (the sorted free places left, weight prod 1/a_i!)."""
    n = len(free)
    out = []

    def extend(i: int, left: int, chosen: list[int]) -> None:
        if i == n - 1:
            if left < count and left <= free[i]:
                split = chosen + [left]
                left_free = tuple(sorted(f - a for f, a in zip(free, split)))
                out.append((left_free, prod(_INV_FACTORIAL[a] for a in split)))
            return
        for a in range(0, min(left, count - 1, free[i]) + 1):
            chosen.append(a)
            extend(i + 1, left - a, chosen)
            chosen.pop()

    extend(0, cards, [])
    return tuple(out)
