"""Issue 33 part 1: an exchange gift is known to its giver and receiver only.

From `../shared/repro/gift_history_leak.py`: the neutral seat's observation carried the
other pairs' gifts (`Give(values=(8, 14))`) in its history.
"""
from __future__ import annotations

import random

import pytest

from president.game.cards import Give
from president.game.exchange import UnseenGive
from president.game.settings import preset
from president.game.state import Phase, PresidentState


def after_exchange(seed: int) -> PresidentState:
    """A five-seat classic match, random play, just after the second round's exchange."""
    state, rng = PresidentState.new_match(preset("classic"), 5), random.Random(seed)
    while state.round_no == 0 or state.phase is Phase.EXCHANGE:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_outside_a_pair_sees_how_many_cards_not_which(seed):
    state = after_exchange(seed)
    chosen = [(p, a) for p, a in state.history if isinstance(a, Give)]
    assert chosen, "the President and the Vice-President chose their gifts"
    pairs = {g: r for g, r, _ in state.gifts}
    for seat in range(5):
        seen = dict(state.observation(seat).history)
        for giver, give in chosen:
            if seat in (giver, pairs[giver]):
                assert seen[giver] == give
            else:
                assert seen[giver] == UnseenGive(len(give.values))
                assert str(seen[giver]) == f"give {len(give.values)} card" + ("s" if len(give.values) > 1 else "")


def test_the_neutral_seat_of_the_reproducer_sees_no_gift_values():
    state = after_exchange(1)
    neutral = state.prev_places.index(3)
    obs = state.observation(neutral)
    assert not any(isinstance(a, Give) for _, a in obs.history)
    assert obs.exchanged == [] and obs.bounds == {} and obs.known == {}


def test_a_sampled_world_does_not_carry_other_pairs_gifts():
    """Two true states the neutral seat cannot tell apart (other pairs' gifts swapped around) give the
    same sampled world for the same seed: a search cannot read the real gifts through it."""
    state = after_exchange(2)
    neutral = state.prev_places.index(3)
    other = state.observation(neutral).sample_state(random.Random(7))
    assert other.masks[neutral] == state.masks[neutral]
    a = state.observation(neutral).sample_state(random.Random(11))
    b = other.observation(neutral).sample_state(random.Random(11))
    assert a.masks == b.masks and a.gifts == b.gifts and a.bounds == b.bounds and a.history == b.history
    assert all(m == 0 for g, r, m in a.gifts if neutral not in (g, r))


def test_the_pair_still_knows_its_gift_in_a_sampled_world():
    state = after_exchange(3)
    giver, receiver, mask = next((g, r, m) for g, r, m in state.gifts if state.prev_places[g] == 1)
    world = state.observation(giver).sample_state(random.Random(5))
    still = mask & ~state.played
    assert world.masks[receiver] & still == still  # the giver knows where its cards are
    assert (giver, receiver, mask) in world.gifts
