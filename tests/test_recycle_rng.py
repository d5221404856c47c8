"""The game's generator (`recycle.interp.store.Rng`): a shuffle is Fisher-Yates over its draws.

`Rng.shuffle` makes all its draws at once (big-int lanes); it must leave exactly what
swapping position i with `below(i + 1)`, from the top down, leaves, and the generator where
those draws leave it, for every size and seed (wrapping around 64 bits included).
"""
from __future__ import annotations

import random

import pytest

from recycle.interp.store import Rng


def one_by_one(rng: Rng, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


SEEDS = [0, 1, 7, 2**63, 2**64 - 1, 2**64 - 0x9E3779B97F4A7C15, -5, 2**70 + 3] + \
    [random.Random(5).getrandbits(64) for _ in range(8)]


@pytest.mark.parametrize("size", list(range(0, 70)) + [130, 1000])
def test_a_shuffle_is_its_draws_one_by_one(size):
    for seed in SEEDS:
        a, b, ra, rb = list(range(size)), list(range(size)), Rng(seed), Rng(seed)
        ra.shuffle(a)
        one_by_one(rb, b)
        assert (a, ra.s) == (b, rb.s), seed
        ra.shuffle(a)  # and again, from where the first left the generator
        one_by_one(rb, b)
        assert (a, ra.s, ra.next64()) == (b, rb.s, rb.next64()), seed


def test_shuffles_of_any_items_and_of_many_sizes_in_turn():
    rng, ref = Rng(11), Rng(11)
    for size in [3, 52, 3, 1, 0, 2, 52, 200] * 12:  # more sizes than are kept made up
        items = [("card", i) for i in range(size)]
        mine = items[:]
        rng.shuffle(mine)
        one_by_one(ref, items)
        assert mine == items
    for size in range(100, 180):
        a = list(range(size))
        b = a[:]
        rng.shuffle(a)
        one_by_one(ref, b)
        assert a == b
