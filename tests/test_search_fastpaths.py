"""The search players' fast paths through the President engine change nothing but speed.

`apply_legal` (no second check), `random_playout` (the rollout as one loop)
and `determinizer` (one `Dealer`, many deals) must give exactly what the
validating `apply`, the generic rollout loop and `determinize` give; the
dealing itself must stay a uniform deal of the unseen cards.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings, strategies as st
from test_president_properties import PROFILE, check_determinization, playout, seeds, snapshot, tables

from president.game.settings import preset
from president.game.state import Phase, PresidentState
from recycle.search.rollouts import Rollout


def position(table, seed: int, at: float) -> PresidentState:
    """The match of `seed` after a fraction `at` of its random actions."""
    state = PresidentState.new_match(table, seed)
    full = playout(state.clone(), random.Random(seed))
    for action in full[:int(at * (len(full) - 1))]:
        state.apply(action)
    return state


@settings(max_examples=25, **PROFILE)
@given(table=tables(), seed=seeds)
def test_apply_legal_does_what_apply_does(table, seed):
    state = PresidentState.new_match(table, seed)
    rng = random.Random(seed)

    def on_step(state, legal, action):
        for a in rng.sample(legal, min(2, len(legal))):
            checked, unchecked = state.clone(), state.clone()
            checked.apply(a)
            unchecked.apply_legal(a)
            assert snapshot(unchecked) == snapshot(checked), f"apply_legal({a!r}) differs from apply"

    playout(state, random.Random(seed), on_step)


@settings(max_examples=80, **PROFILE)
@given(table=tables(), seed=seeds, at=st.floats(0, 1), rollout_seed=seeds, whole_match=st.booleans())
def test_random_playout_makes_the_moves_of_the_rollout_loop(table, seed, at, rollout_seed, whole_match):
    state = position(table, seed, at)
    if not whole_match:
        state = state.truncated()
    fast, slow = state.clone(), state.clone()
    fast_rng, slow_rng = random.Random(rollout_seed), random.Random(rollout_seed)
    steps = fast.random_playout(fast_rng)
    slow_steps = 0
    while not slow.is_terminal():  # the loop a game without random_playout gets (common.Rollout)
        acts = slow.legal_actions()
        slow.apply(acts[int(slow_rng.random() * len(acts))])
        slow_steps += 1
    assert steps == slow_steps and snapshot(fast) == snapshot(slow)
    assert fast_rng.random() == slow_rng.random()
    assert Rollout().run(state.clone(), random.Random(rollout_seed)) == (fast.results().utilities(), steps)


@settings(max_examples=60, **PROFILE)
@given(table=tables(), seed=seeds, at=st.floats(0, 1), rng_seed=seeds)
def test_one_dealer_deals_like_determinize_every_time(table, seed, at, rng_seed):
    state = position(table, seed, at)
    if state.is_terminal():
        return
    before = snapshot(state)
    for p in range(table.players):
        deal, rng, again = state.determinizer(p), random.Random(rng_seed), random.Random(rng_seed)
        for _ in range(3):  # the same dealer, reused, as a search uses it
            det = deal(rng)
            check_determinization(state, det, p)
            twin = state.determinize(p, again)
            assert det.masks == twin.masks and det.counts == twin.counts and det.deal_seed == twin.deal_seed
    assert snapshot(state) == before, "dealing changed the state"


def small_ending(players: int = 3, max_unseen: int = 7) -> tuple[PresidentState, int]:
    """A position of a one-round match where the player to move has few unseen cards, in two hands."""
    table = replace(preset("classic"), players=players, rounds=1)
    for seed in itertools.count():
        state, rng = PresidentState.new_match(table, seed), random.Random(seed)
        while state.phase is Phase.PLAY:
            p = state.current_player()
            holders = [q for q in range(players) if q != p and state.sizes[q]]
            if len(holders) == 2 and 4 <= sum(state.sizes[q] for q in holders) <= max_unseen:
                return state, p
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    raise AssertionError("unreachable")


def test_the_unseen_cards_are_dealt_uniformly():
    state, me = small_ending()
    first, second = (q for q in range(state.num_players) if q != me and state.sizes[q])
    unseen = state.sizes[first] + state.sizes[second]
    ways = math.comb(unseen, state.sizes[first])  # every split of the unseen cards is one deal
    deal, rng, samples = state.determinizer(me), random.Random(1), 400 * ways
    seen = Counter(deal(rng).masks[first] for _ in range(samples))
    assert len(seen) == ways
    expected = samples / ways
    chi2 = sum((k - expected) ** 2 / expected for k in seen.values())
    dof = ways - 1  # its 99.9% point (Wilson-Hilferty): a fair dealer fails one seed in a thousand
    limit = dof * (1 - 2 / (9 * dof) + 3.09 * math.sqrt(2 / (9 * dof))) ** 3
    assert chi2 < limit, f"chi-square {chi2:.1f} over {ways} equally likely deals (limit {limit:.1f})"
