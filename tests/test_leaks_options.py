"""Issue 33 part 3: a choice's options never tell the chooser more than the worlds it searches.

From `../shared/repro/hidden_filter_options.gdl` (+ `.py`): a choice filtering a `hloc` hand
named the places of its non-spades, and a determinization with the same observation offered
other options. The options are now part of the chooser's observation, and its
determinizations offer the very same ones (docs/recycle-language.md, "Options and hidden cards").
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import SHARED

from recycle.interp import new_game

GAMES = Path(__file__).resolve().parent.parent / "recycle" / "games"
REPRO = SHARED / "repro" / "hidden_filter_options.gdl"


def texts(state) -> list[str]:
    return [o.text for o in state.legal_actions()]


@pytest.mark.parametrize("seed", range(20))
def test_a_determinization_offers_the_chooser_its_own_options(shared_dir, seed):
    state = new_game(REPRO, seed, check=True)
    p = state.current_player()
    world = state.determinize(p, random.Random(seed))
    assert texts(world) == texts(state)
    assert world.observation(p) == state.observation(p)


def test_the_options_are_part_of_the_choosers_observation(shared_dir):
    """Two deals alike to the chooser but for which hidden places pass the filter are told apart."""
    worlds = {}
    for seed in range(60):
        state = new_game(REPRO, seed)
        obs = state.observation(state.current_player())
        worlds.setdefault(obs._key()[:-1], set()).add(tuple(texts(state)))
    assert any(len(options) > 1 for options in worlds.values()), "some deals offer different options"
    state = new_game(REPRO, 4)
    p = state.current_player()
    assert state.observation(p)._key()[-1] == tuple(texts(state))
    assert state.observation(1 - p)._key()[-1] == ()  # only the chooser is told


def test_the_reference_mode_does_not_redeal(shared_dir):
    """--compat cardstock: options from the real state, worlds not matched to them (as CardStock)."""
    differ = 0
    for seed in range(40):
        state = new_game(REPRO, seed, compat="cardstock")
        world = state.determinize(state.current_player(), random.Random(seed))
        differ += texts(world) != texts(state)
    assert differ > 0


def test_a_choice_without_filter_keeps_its_first_deal():
    """Games without face-filtered choices determinize exactly as before: one deal, same draws."""
    from recycle.interp.knowledge import redeal

    state = new_game(GAMES / "Poker5.gdl", 3)
    p = state.current_player()
    rng_a, rng_b = random.Random(9), random.Random(9)
    world = state.determinize(p, rng_a)
    twin = state.clone()
    redeal(state.table, twin.st, p, state.hidden_cards(p), rng_b)
    assert world.st.locs == twin.st.locs and rng_a.random() == (rng_b.getrandbits(64), rng_b.random())[1]
