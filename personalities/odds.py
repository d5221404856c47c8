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
from typing import Iterable

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
    if _Memo.stored > _Memo.LIMIT:  # bounded; only ever cleared between two computations
        _Memo.clear()
    return float(scale) / factorial(total) * _allocations(len(hands), _encode(hands), groups)


_INV_FACTORIAL = [1.0 / factorial(i) for i in range(128)]

# The recursion's state packs the sorted (free places, limit) pairs of the hands into one int, a
# byte each, first pair lowest: a dict lookup by int instead of hashing nested tuples (2.3x faster
# misses). The floats are those of the plain recursion, term for term and in the same order.
_BITS = 8
_BYTE = (1 << _BITS) - 1


def _encode(hands: Iterable[tuple[int, int]]) -> int:
    code = 0
    for i, (free, limit) in enumerate(hands):
        code |= (free << _BITS | limit) << (2 * _BITS * i)
    return code


def _decode(code: int, n: int) -> list[tuple[int, int]]:
    return [((code >> (2 * _BITS * i + _BITS)) & _BYTE, (code >> (2 * _BITS * i)) & _BYTE) for i in range(n)]


class _Memo:
    """The recursion's memory: per (hands, groups still to spread) its sum; per (cards, hands) its splits."""

    LIMIT = 1 << 19
    sums: dict[tuple[int, tuple[int, ...]], dict[int, float]] = {}
    splits: dict[tuple[int, int, int], tuple[tuple[int, float], ...]] = {}
    stored = 0

    @classmethod
    def sums_of(cls, n: int, groups: tuple[int, ...]) -> dict[int, float]:
        table = cls.sums.get((n, groups))
        if table is None:
            table = cls.sums[(n, groups)] = {}
        return table

    @classmethod
    def clear(cls) -> None:
        cls.sums.clear()
        cls.splits.clear()
        cls.stored = 0


def _allocations(n: int, hands: int, groups: tuple[int, ...]) -> float:
    """Sum over ways to spread each group's cards (<= limit per hand) of the weights; `n` hands."""
    table = _Memo.sums_of(n, groups)
    total = table.get(hands)
    if total is None:
        total = table[hands] = _sum(n, hands, groups)
    return total


def _sum(n: int, hands: int, groups: tuple[int, ...]) -> float:
    _Memo.stored += 1
    if not groups:
        return prod(_INV_FACTORIAL[free] for free, _ in _decode(hands, n))
    total = 0.0
    rest = groups[1:]
    below = _Memo.sums_of(n, rest)
    for left, weight in _splits(groups[0], n, hands):
        sub = below.get(left)
        if sub is None:
            sub = below[left] = _sum(n, left, rest)
        total += weight * sub
    return total


def _splits(cards: int, n: int, code: int) -> tuple[tuple[int, float], ...]:
    """Every way to give `cards` cards to the `n` hands of `code`, each within its free places and
    limit: (the sorted hands left, weight prod 1/a_i!), in the order of the plain recursion."""
    key = (cards, n, code)
    found = _Memo.splits.get(key)
    if found is not None:
        return found
    hands = _decode(code, n)
    out = []

    def extend(i: int, left: int, chosen: list[int]) -> None:
        free, limit = hands[i]
        if i == n - 1:
            if left <= limit and left <= free:
                split = chosen + [left]
                rest = sorted((f - a, lim) for (f, lim), a in zip(hands, split))
                out.append((_encode(rest), prod(_INV_FACTORIAL[a] for a in split)))
            return
        for a in range(0, min(left, limit, free) + 1):
            chosen.append(a)
            extend(i + 1, left - a, chosen)
            chosen.pop()

    extend(0, cards, [])
    found = _Memo.splits[key] = tuple(out)
    return found
