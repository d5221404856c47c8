"""The fast paths of random RECYCLE games give exactly what the plain paths give.

`RecycleState.random_playout` counts options without making their actions (and
`Machine.offer` leaves a lone option without its text); the general loop of
`GameState.random_playout` goes through `legal_actions()` and `apply_legal`.
Both must make the same moves, draw the same numbers and end in the same state.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.games import game_path
from recycle.interp import new_game
from recycle.interp.transcript import records
from recycle.kernel.protocol import GameState
from recycle.lang import load_game

GAMES = ["President5", "Daifugo4", "Poker5", "BigTwo4"]


@pytest.fixture(scope="module")
def games():
    return {name: load_game(game_path(name)) for name in GAMES}


def _end(state, rng) -> tuple:
    st = state.st
    return (state.choices, state.results(), st.locs, st.ints, st.strs, st.where, st.rng.s, rng.random())


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(0, 2**32), st.booleans())
def test_the_playout_loop_makes_the_moves_of_the_general_loop(games, name, seed, rng_seed, drawn):
    fast, slow = new_game(games[name], seed), new_game(games[name], seed)
    fast_rng, slow_rng = random.Random(rng_seed), random.Random(rng_seed)
    steps = fast.random_playout(fast_rng, fast_rng._randbelow if drawn else None)
    assert steps == GameState.random_playout(slow, slow_rng, slow_rng._randbelow if drawn else None)
    assert _end(fast, fast_rng) == _end(slow, slow_rng)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_a_transcript_is_the_same_from_either_loop(games, name, seed):
    fast, slow = new_game(games[name], seed, transcript=True), new_game(games[name], seed, transcript=True)
    fast.random_playout(random.Random(seed))
    GameState.random_playout(slow, random.Random(seed))
    assert records(fast) == records(slow)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(0, 200))
def test_a_lone_option_made_late_reads_as_one_made_at_once(games, name, seed, moves):
    """The options made when asked for (a clone's, after other states moved on) are those
    the choice offered: the same texts as a state that made them before anything else."""
    state, rng = new_game(games[name], seed), random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        eager = state.legal_actions()
        lazy = state.clone()
        state.apply(eager[rng._randbelow(len(eager))])
        assert [a.text for a in lazy.legal_actions()] == [a.text for a in eager]
        assert [a.index for a in lazy.legal_actions()] == list(range(len(eager)))
