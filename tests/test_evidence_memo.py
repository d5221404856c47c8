"""The evidence remembers each player's factor by its hand (`ModelEvidence`, `ExchangeEvidence`): the
chain's step changes two hands, so the others' factors are looked up. Remembering must never change a
weight: the same world weighs the same asked first, asked again, or asked of a fresh evidence."""
from __future__ import annotations

import dataclasses
import random

import pytest

from president.agents.bots import make_bot
from president.agents.opponents import known_policies
from president.game.exchange_evidence import ExchangeEvidence
from president.game.inference import ModelEvidence
from president.game.settings import preset
from president.game.state import Phase, PresidentState
from recycle.search.rollouts import AgentModel
from recycle.search.inference import Known

EXPERT = ("Classic",) + ("Expert",) * 4  # rule personalities without coins: each a function of its hand
COINS = ("Classic", "Gambler", "Cautious", "Aggressive", "Gambler")  # Gambler flips coins


def positions(names: tuple[str, ...], seed: int) -> list[PresidentState]:
    """Seat 0's turns in the second round of a match (after an exchange)."""
    state, rng = PresidentState.new_match(dataclasses.replace(preset("classic"), rounds=2), seed), random.Random(seed)
    bots, found = [make_bot(name) for name in names], []
    while not state.is_terminal():
        p = state.current_player()
        if p == 0 and state.round_no == 1 and state.phase is Phase.PLAY:
            found.append(state.clone())
        state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))
    return found


def evidence(state: PresidentState, names: tuple[str, ...]) -> ModelEvidence:
    """The master's evidence as seat 0: Classic as the generic model, the table's personalities known."""
    return ModelEvidence(state, 0, 0.05, Known(AgentModel(make_bot("Classic")), known_policies(names, 0)))


@pytest.mark.parametrize("seed", [3, 8])
def test_a_world_weighs_the_same_first_again_or_to_a_fresh_evidence(seed):
    checked = 0
    for state in positions(EXPERT, seed)[1:4]:
        rng = random.Random(seed)
        worlds = [state.determinize(0, rng) for _ in range(8)]
        shared = evidence(state, EXPERT)
        if not shared.events:
            continue
        first = [shared.weight(w) for w in worlds]
        again = [shared.weight(w) for w in reversed(worlds)][::-1]
        fresh = [evidence(state, EXPERT).weight(w) for w in worlds]
        assert first == pytest.approx(fresh, rel=1e-12, abs=1e-300)
        assert again == pytest.approx(first, rel=1e-12, abs=1e-300)
        assert shared.weight(state) == pytest.approx(evidence(state, EXPERT).weight(state), rel=1e-12)
        checked += 1
    assert checked >= 2


def test_a_floor_stops_early_but_what_it_cut_short_is_not_remembered():
    state = positions(EXPERT, 5)[1]
    rng = random.Random(5)
    cut = 0
    for _ in range(10):
        world = state.determinize(0, rng)
        full = evidence(state, EXPERT).weight(world)
        shared = evidence(state, EXPERT)
        assert shared.weight(world, full / 2) == pytest.approx(full, rel=1e-12)  # above the floor: the weight
        shared = evidence(state, EXPERT)
        if full > 0:
            assert shared.weight(world, full * 2) < full * 2  # below it: some bound under the floor
            cut += 1
        assert shared.weight(world) == pytest.approx(full, rel=1e-12, abs=1e-300)  # then asked to the end
    assert cut


def test_with_coin_flipping_personalities_the_same_hands_always_weigh_the_same():
    state = positions(COINS, 11)[1]
    rng = random.Random(11)
    worlds = [state.determinize(0, rng) for _ in range(6)]
    shared = evidence(state, COINS)
    assert shared.events
    first = [shared.weight(w) for w in worlds]
    assert [shared.weight(w) for w in worlds] == first
    assert [evidence(state, COINS).weight(w) for w in worlds] == first  # same seed, same weights: a fresh evidence


def test_the_exchange_evidence_remembers_pairs_of_hands_without_changing_them():
    state = positions(EXPERT, 3)[0]
    assert ExchangeEvidence(state, 0), "round 2: the exchange weighs the hands"
    rng = random.Random(3)
    worlds = [state.determinize(0, rng) for _ in range(8)]
    shared = ExchangeEvidence(state, 0)
    first = [shared.weight(w) for w in worlds + worlds]
    assert first == [ExchangeEvidence(state, 0).weight(w) for w in worlds + worlds]


def test_the_seats_helper_draws_the_master_levels_chain():
    """The person's helper (`seat_belief`) says it shows the master's chain: the same q and length."""
    from president.agents.beliefs import CHAIN
    from president.agents.levels import SEARCH

    master = make_bot(SEARCH).inference
    assert (master.q, master.pool) == (CHAIN.q, CHAIN.pool) == (0.05, 1500)
