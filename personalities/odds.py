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

import os
from functools import lru_cache
from itertools import product
from math import comb, factorial, prod
from operator import sub

from personalities.view import JOKER, ClimbingView


def follow_odds(view: ClimbingView, value: int, count: int) -> int:
    """Percent (rounded down) that at least one opponent can beat (value, count)."""
    return odds_of(view.opponent_counts, view.order, view.unseen, view.jokers_beat_singles, view.wild_jokers,
                   value, count)


def odds_of(sizes: tuple[int, ...], order: tuple[int, ...], unseen: tuple[int, ...], jokers_beat_singles: bool,
            wild_jokers: bool, value: int, count: int) -> int:
    """`follow_odds` of the view's opponent counts, order, unseen cards and joker rules (the compiled
    rule players of President ask this one)."""
    if not sizes or count <= 0 or value == JOKER:  # nothing beats a lone joker
        return 0
    stronger = order[order.index(value) + 1:]
    jokers = unseen[JOKER]
    if count == 1:
        # Every unseen card is in some opponent's hand: one stronger card is enough.
        return 100 if (jokers and jokers_beat_singles) or any(unseen[w] for w in stronger) else 0
    groups = [unseen[w] for w in stronger if unseen[w]]
    wild = jokers if wild_jokers else 0
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
    return float(scale) / factorial(total) * _allocations(tuple([free * _UNIT + limit for free, limit in hands]),
                                                          groups)


_INV_FACTORIAL = [1.0 / factorial(i) for i in range(128)]


def _compiled_allocations():
    """`_allocations` compiled, where the optional extension was built and `PRESIDENT_PURE` is not set
    (the project's switch to its pure Python reference); None otherwise."""
    if os.environ.get("PRESIDENT_PURE", "") not in ("", "0"):
        return None
    try:
        from personalities._odds import allocations
    except ImportError:
        return None
    return allocations


_COMPILED = _compiled_allocations()


def odds_engine() -> str:
    """Which FollowOdds counting runs, for `--version`: compiled, or the pure Python reference."""
    return "compiled (C: personalities._odds)" if _COMPILED is not None else "pure Python"

# The recursion's state is the sorted hands, each (free places, limit) as one int `free * _UNIT +
# limit` (which sorts as the pairs do): a flat tuple instead of nested ones, split by subtracting
# `a * _UNIT` and sorting, in C (3x faster misses). The floats are those of the plain recursion, term
# for term and in the same order.
_UNIT = 16  # above any limit: no set has 17 cards


class _Memo:
    """The recursion's memory: per groups still to spread, the sum of each hands state; per (cards,
    hands) the splits."""

    LIMIT = 1 << 18  # a daifugo table of Counters peaks at 134 MB of RSS (300 MB with the lru caches before)
    sums: dict[tuple[int, ...], dict[tuple[int, ...], float]] = {}
    splits: dict[tuple[int, tuple[int, ...]], tuple[tuple[tuple[int, ...], float], ...]] = {}
    stored = 0

    @classmethod
    def sums_of(cls, groups: tuple[int, ...]) -> dict[tuple[int, ...], float]:
        table = cls.sums.get(groups)
        if table is None:
            table = cls.sums[groups] = {}
        return table

    @classmethod
    def clear(cls) -> None:
        cls.sums.clear()
        cls.splits.clear()
        cls.stored = 0


def _allocations(hands: tuple[int, ...], groups: tuple[int, ...]) -> float:
    """Sum over ways to spread each group's cards (<= limit per hand) of the weights."""
    if _COMPILED is not None:  # the same recursion and memo in C (personalities/_odds.c)
        total, computed = _COMPILED(hands, groups, _Memo.sums, _INV_FACTORIAL)
        _Memo.stored += computed
        return total
    table = _Memo.sums_of(groups)
    total = table.get(hands)
    if total is None:
        total = table[hands] = _sum(hands, groups)
    return total


def _sum(hands: tuple[int, ...], groups: tuple[int, ...]) -> float:
    _Memo.stored += 1
    if not groups:
        return prod(_INV_FACTORIAL[hand // _UNIT] for hand in hands)
    total = 0.0
    rest = groups[1:]
    below = _Memo.sums_of(rest)
    for left, weight in _splits(groups[0], hands):
        spread = below.get(left)
        if spread is None:
            spread = below[left] = _sum(left, rest)
        total += weight * spread
    return total


def _splits(cards: int, hands: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every way to give `cards` cards to the hands, each within its free places and limit:
    (the sorted hands left, weight prod 1/a_i!), in the order of the plain recursion."""
    key = (cards, hands)
    found = _Memo.splits.get(key)
    if found is None:
        caps = tuple([min(hand // _UNIT, hand % _UNIT) for hand in hands])
        found = _Memo.splits[key] = tuple((tuple(sorted(map(sub, hands, taken))), weight)
                                          for taken, weight in _compositions(cards, caps))
    return found


@lru_cache(maxsize=4096)
def _compositions(cards: int, caps: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """`cards` as a sum of len(caps) parts, part i at most caps[i], in lexicographic order: each as
    the places it takes (part * _UNIT) and its weight prod 1/part! (multiplied left to right, as the
    plain recursion did)."""
    return tuple((tuple([a * _UNIT for a in split]), prod(_INV_FACTORIAL[a] for a in split))
                 for split in _parts(cards, caps))


def _parts(cards: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    if len(caps) == 1:
        return [(cards,)] if cards <= caps[0] else []
    return [(a, *tail) for a in range(min(cards, caps[0]) + 1) for tail in _parts(cards - a, caps[1:])]
