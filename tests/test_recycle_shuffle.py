"""`knowledge.shuffle`: a determinization's shuffle written out draws exactly what `Random.shuffle` draws."""
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recycle.interp.knowledge import shuffle


def assert_shuffled_alike(make, seed, items):
    """`shuffle` with one generator from `make(seed)`, `Random.shuffle` with another: the same order,
    and the generator left where the game's own shuffle leaves it."""
    ours, theirs = make(seed), make(seed)
    mine, expected = list(items), list(items)
    shuffle(ours, mine)
    theirs.shuffle(expected)
    assert mine == expected
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**64), st.lists(st.integers(), max_size=80))
def test_the_same_order_and_draws_as_random_shuffle(seed, items):
    assert_shuffled_alike(random.Random, seed, items)


class Rigged(random.Random):
    """A generator with a shuffle of its own (as `arrange` has): called as it is."""

    def shuffle(self, x):
        x.reverse()


def test_a_generator_with_its_own_shuffle_is_asked():
    items = [1, 2, 3]
    shuffle(Rigged(1), items)
    assert items == [3, 2, 1]


class OwnRandom(random.Random):
    """A generator with a `random()` of its own: CPython then draws below n without `getrandbits`."""

    def random(self):
        return super().random() * 0.5


@given(st.integers(0, 2**64), st.lists(st.integers(), max_size=40))
def test_a_generator_drawing_by_its_own_random_shuffles_as_its_own_shuffle_does(seed, items):
    assert_shuffled_alike(OwnRandom, seed, items)


@given(st.integers(0, 2**64))
def test_more_cards_than_the_worked_out_steps_shuffle_the_same(seed):
    assert_shuffled_alike(random.Random, seed, range(300))  # beyond `knowledge._STEPS`


@pytest.mark.parametrize("n", [0, 1, 2, 3, 254, 255, 256, 257])
def test_lengths_at_the_ends_of_the_worked_out_steps_shuffle_the_same(n):
    """No step and one; the last length the table covers (255), and the first past it."""
    for seed in range(5):
        assert_shuffled_alike(random.Random, seed, range(n))
