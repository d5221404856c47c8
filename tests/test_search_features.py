"""Stronger search: the greedy playout policy, inference from passes, time caps, searched exchanges."""
from __future__ import annotations

import dataclasses
import random
import time

import pytest

from president.agents.bots import make_bot
from president.game.cards import PASS, play_of
from president.game.inference import PassEvidence
from president.game.legality import legal_plays
from president.game.playout import cheap_answer, greedy_choice
from president.game.settings import EqualValue, preset
from president.game.state import Phase, PresidentState
from recycle.kernel.specs import AgentSpecError
from recycle.search.common import Budget, sampler
from recycle.search.inference import Inference

FEATURES = ["ismcts:iterations=60,rollout=greedy", "ismcts:iterations=60,infer=0.3",
            "ismcts:iterations=60,rollout=greedy,infer=0.2,tries=4",
            "ismcts:iterations=60,rollout=Classic,model=on,infer=0.05,pool=20", "mcts:iterations=60,rollout=greedy",
            "pimc:samples=3,rollout=greedy", "ismcts:iterations=60,cap=5",
            "ismcts:iterations=40,rollout=Classic,model=on", "ismcts:iterations=40,rollout=Classic,model=on,trees=2",
            "mcts:iterations=40,rollout=Classic,model=on", "ismcts:iterations=30,rollout=Classic,model=on,infer=0.2"]


def table(players: int = 5, rounds: int = 1, **changes):
    return dataclasses.replace(preset("classic"), players=players, rounds=rounds, **changes)


def random_moves(state: PresidentState, rng: random.Random, moves: int) -> PresidentState:
    for _ in range(moves):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    return state


# ---- the greedy playout policy ----------------------------------------------
@pytest.mark.parametrize("preset_name", ["classic", "pagat", "daifugo"])
def test_greedy_policy_plays_only_legal_moves_to_the_end(preset_name):
    settings = dataclasses.replace(preset(preset_name), rounds=1)
    for seed in range(30):
        state, rng = PresidentState.new_match(settings, seed), random.Random(seed)
        while not state.is_terminal():
            acts = state.legal_actions()
            if state.phase is Phase.PLAY:
                choice = greedy_choice(state, acts, rng)
                assert choice in acts
                state.apply(choice)  # the validating apply: an illegal choice raises
            else:
                state.apply(acts[0])
        assert sorted(state.round_log[-1]) == list(range(1, settings.players + 1))


def test_greedy_playout_is_deterministic_and_counts_its_moves():
    start = random_moves(PresidentState.new_match(table(), 3), random.Random(3), 7).truncated()
    a, b = start.clone(), start.clone()
    steps = a.policy_playout(random.Random(11))
    assert steps == b.policy_playout(random.Random(11)) and steps > 0
    assert a.round_log == b.round_log and a.is_terminal()


def test_greedy_policy_goes_out_leads_low_sets_and_keeps_pairs_whole():
    state = PresidentState.new_match(table(), 1)
    state.phase, state.current, state.upcards = Phase.PLAY, 0, None
    me = state.current
    no_random = random.Random(0)

    def give(values):
        lay = state.lay
        mask = 0
        for v in values:
            mask |= lay.take(lay.full & ~mask, v, 1)
        state.masks[me], state.counts[me], state.sizes[me] = mask, lay.counts(mask), mask.bit_count()

    give([5, 5, 9, 13, 15])
    assert greedy_choice(state, legal_plays(state), no_random, epsilon=0) == play_of(5, 2)  # the weakest whole set
    state.upcards, state.last_player = play_of(4, 1), 1
    assert greedy_choice(state, legal_plays(state), no_random, epsilon=0) == play_of(9, 1)  # not a 5 of the pair
    state.upcards = play_of(14, 1)
    assert greedy_choice(state, legal_plays(state), no_random, epsilon=0) == PASS  # keeps its two
    give([7, 7])
    state.upcards = play_of(4, 2)
    assert greedy_choice(state, legal_plays(state), no_random, epsilon=0) == play_of(7, 2)  # goes out


def test_cheap_answer_is_the_policys_rule():
    counts = [0] * 17
    counts[10] = 1
    assert cheap_answer(counts, 8, 1, 9, False, False)  # a lone ten answers a single nine
    assert not cheap_answer(counts, 8, 1, 10, False, False)  # ... not a single ten (no equal value)
    assert cheap_answer(counts, 8, 1, 10, False, True)  # ... unless equal value is allowed
    counts[10] = 2
    assert not cheap_answer(counts, 8, 1, 9, False, False)  # it would not split the pair
    assert cheap_answer(counts, 3, 1, 9, False, False)  # ... unless about to go out
    counts[10] = 1
    assert cheap_answer(counts, 8, 1, 12, True, False)  # reversed: a ten beats a queen


# ---- inference from passes --------------------------------------------------
def reference_weight(settings, seed: int, moves: int, observer: int, q: float) -> tuple[PresidentState, float]:
    """Play with full knowledge, noting every pass the greedy policy would not have made."""
    state, rng = PresidentState.new_match(settings, seed), random.Random(seed)
    while state.round_no < settings.rounds - 1:  # earlier rounds: their passes are not this round's
        random_moves(state, rng, 1)
    equal = settings.equal_value is not EqualValue.NO
    weight = 1.0
    for _ in range(moves):
        if state.is_terminal() or len(state.still_in()) < 3:
            break
        acts = state.legal_actions()
        action = acts[rng.randrange(len(acts))]
        p = state.current_player()
        if state.phase is Phase.PLAY and action == PASS and p != observer:
            up = state.upcards
            if cheap_answer(state.counts[p], state.sizes[p], up.count, up.value, state.reversed, equal):
                weight *= q
        state.apply(action)
    return state, weight


@pytest.mark.parametrize("rounds", [1, 2])
def test_pass_evidence_weighs_the_true_world_as_a_full_replay_does(rounds):
    checked = 0
    for seed in range(40):
        state, expected = reference_weight(table(rounds=rounds), seed, 25, 0, 0.5)
        if state.is_terminal() or state.phase is not Phase.PLAY or state.round_no != rounds - 1:
            continue
        evidence = PassEvidence(state, 0, 0.5)
        assert evidence.weight(state) == pytest.approx(expected)
        checked += expected < 1.0
    assert checked >= 5  # the test saw passes that the policy would not have made


SAMPLING = [Inference(0.2, tries=6), Inference(0.2, pool=50)]  # rejection, and a resampled pool


@pytest.mark.parametrize("inference", SAMPLING)
def test_weighted_sampler_keeps_hands_and_is_deterministic(inference):
    state = random_moves(PresidentState.new_match(table(), 8), random.Random(8), 30).truncated()
    me = state.current_player()
    first, again = (inference.sampler(state, me, sampler(state, me)) for _ in range(2))
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(80):  # past the pool's size: draws from a full pool too
        a, b = first(rng_a), again(rng_b)
        assert a.masks == b.masks
        assert a.sizes == state.sizes and a.masks[me] == state.masks[me]


def test_pool_worlds_are_copies_the_search_may_change():
    state = random_moves(PresidentState.new_match(table(), 8), random.Random(8), 30).truncated()
    me = state.current_player()
    draw, rng = Inference(0.2, pool=1).sampler(state, me, sampler(state, me)), random.Random(3)
    world = draw(rng)
    kept = list(world.masks)
    world.apply(world.legal_actions()[0])
    assert draw(rng).masks == kept  # the pool's one world is unchanged by play on a copy


def test_the_chain_with_equal_weights_deals_as_a_uniform_deal_does():
    # Metropolis with symmetric proposals and equal weights must visit worlds uniformly: each
    # opponent holds as many high cards on average along the chain as in uniform deals
    from recycle.search.inference import _chain

    state = random_moves(PresidentState.new_match(table(), 3), random.Random(3), 8).truncated()
    me, rng = state.current_player(), random.Random(7)
    draw = _chain(state.determinizer(me), state.neighbours(me), lambda world, floor=0.0: 1.0, 4000)
    chain = [draw(rng) for _ in range(4000)]
    uniform = [state.determinize(me, rng) for _ in range(4000)]

    def high_cards(worlds, p):
        return sum(sum(w.counts[p][12:]) for w in worlds) / len(worlds)

    for p in range(state.num_players):
        if p != me:
            assert high_cards(chain, p) == pytest.approx(high_cards(uniform, p), abs=0.3)
    assert len({tuple(w.masks) for w in chain}) > 1000  # it moves


@pytest.mark.parametrize("method", [dict(tries=20), dict(pool=40)])
def test_weighted_sampler_draws_likelier_worlds(method):
    rare = []
    for seed in range(60):
        state = random_moves(PresidentState.new_match(table(), seed), random.Random(seed), 30)
        if state.is_terminal() or state.phase is not Phase.PLAY:
            continue
        state = state.truncated()
        me = state.current_player()
        evidence = PassEvidence(state, me, 0.05)
        if not evidence.events:
            continue
        plain, inferred = sampler(state, me), Inference(0.05, **method).sampler(state, me, sampler(state, me))
        rng = random.Random(seed)
        rare.append((sum(evidence.weight(plain(rng)) for _ in range(40)),
                     sum(evidence.weight(inferred(rng)) for _ in range(40))))
    plain_total, inferred_total = map(sum, zip(*rare))
    assert len(rare) > 20 and inferred_total > 3 * plain_total  # far likelier worlds


# ---- search players with the new parameters ---------------------------------
@pytest.mark.parametrize("spec", FEATURES)
def test_new_search_features_play_legally_and_deterministically(spec):
    for seed in (2, 9):
        state = random_moves(PresidentState.new_match(table(), seed), random.Random(seed), 12)
        p, legal = state.current_player(), state.legal_actions()
        first = make_bot(spec).explain(state.observation(p), legal, random.Random(4))
        again = make_bot(spec).explain(state.observation(p), legal, random.Random(4))
        assert first.action in legal
        assert first.action == again.action
        assert first.trace.candidates == again.trace.candidates


def test_exchange_gifts_are_searched_legally_and_deterministically():
    state, rng = PresidentState.new_match(table(rounds=2), 7), random.Random(1)
    while state.phase is not Phase.EXCHANGE:
        random_moves(state, rng, 1)
    p, legal = state.current_player(), state.legal_actions()
    for spec in ("ismcts:iterations=200,rollout=greedy", "ismcts:iterations=200,infer=0.3"):
        first = make_bot(spec).explain(state.observation(p), legal, random.Random(2))
        again = make_bot(spec).explain(state.observation(p), legal, random.Random(2))
        assert first.action in legal and first.action == again.action
        assert len(first.trace.candidates) == len(legal) and first.trace.iterations == 200


def test_a_time_cap_bounds_an_iteration_budget_at_the_first_lead():
    state = PresidentState.new_match(table(), 4)  # the first lead: the largest hand of the round
    p = state.current_player()
    start = time.perf_counter()
    decision = make_bot("ismcts:iterations=10000000,cap=0.2").explain(state.observation(p), state.legal_actions(),
                                                                   random.Random(1))
    assert time.perf_counter() - start < 1.0
    assert 0 < decision.trace.iterations < 10000000 and decision.action in state.legal_actions()


def test_cap_and_infer_parameters():
    assert str(Budget("iterations", 500, 0.5)) == "iterations=500,cap=0.5"
    for bad, words in [("ismcts:infer=1", "infer"), ("ismcts:infer=-0.1", "infer"), ("ismcts:cap=-1", "cap"),
                       ("ismcts:tries=0", "tries"), ("ismcts:pool=100001", "pool"), ("pimc:rollout=greedyy", "greedyy"),
                       ("ismcts:model=on", "rollout=Classic"), ("ismcts:model=on,rollout=greedy", "rollout=Classic"),
                       ("pimc:model=on,rollout=Classic", "model")]:
        with pytest.raises(AgentSpecError, match=words):
            make_bot(bad)


# ---- root parallelism --------------------------------------------------------
def test_root_parallel_trees_give_the_same_move_in_one_process_or_two():
    state = random_moves(PresidentState.new_match(table(), 3), random.Random(3), 9)
    p, legal = state.current_player(), state.legal_actions()
    alone = make_bot("ismcts:iterations=300,trees=3,rollout=greedy").explain(state.observation(p), legal,
                                                                            random.Random(5))
    shared = make_bot("ismcts:iterations=300,trees=3,jobs=2,rollout=greedy").explain(state.observation(p), legal,
                                                                                     random.Random(5))
    assert alone.action in legal and alone.action == shared.action
    assert alone.trace.candidates == shared.trace.candidates
    assert alone.trace.iterations == 300 and sum(c.visits for c in alone.trace.candidates) == 300


def test_budget_shares_of_root_parallel_trees():
    from recycle.search.parallel import shares

    assert [b.amount for b in shares(Budget("iterations", 10), 3, False)] == [4, 3, 3]
    assert [b.amount for b in shares(Budget("time", 0.9), 3, False)] == pytest.approx([0.3] * 3)
    assert [b.amount for b in shares(Budget("time", 0.9), 3, True)] == [0.9] * 3
    assert all(b.amount >= 1 for b in shares(Budget("iterations", 2), 4, True))


def test_an_opponent_model_moves_the_other_players_in_the_tree_as_the_model_would():
    from recycle.search import uct
    from recycle.search.common import Meter
    from recycle.search.rollouts import Rollout

    state = random_moves(PresidentState.new_match(table(), 5), random.Random(5), 6).truncated()
    me, calls = state.current_player(), []

    class Model:  # the other players always take their first legal action
        def __call__(self, s, legal, rng):
            calls.append(s.current_player())
            return legal[0]

    root = uct.run(state.clone, state.num_players, Meter(Budget("iterations", 80)), random.Random(1), 0.7,
                   Rollout(), fresh_samples=False, model=Model(), searcher=me)
    assert calls and me not in calls  # the model moved others, never the searcher

    stack = [(root, state.clone())]
    while stack:
        node, at = stack.pop()
        if at.is_terminal() or not node.children:
            continue
        if at.current_player() != me:  # below an opponent's turn: only the model's one reply, ever
            assert list(node.children) == [at.legal_actions()[0]]
        for action, child in node.children.items():
            after = at.clone()
            after.apply(action)
            stack.append((child, after))


def test_model_evidence_never_doubts_the_true_world_of_a_table_of_its_model(monkeypatch):
    """Opponents who are Classic (deterministic) made exactly the model's decisions in the true world;
    worlds dealt at random disagree with some of them."""
    from president.game.inference import ModelEvidence
    from recycle.search.rollouts import AgentModel

    monkeypatch.setattr(ModelEvidence, "EXCHANGE", False)  # the decisions only: the exchange is weighed apart

    model = AgentModel(make_bot("Classic"))
    checked, random_weights = 0, []
    for seed in range(2):
        state, rng = PresidentState.new_match(table(rounds=2), 600 + seed), random.Random(seed)
        bots = [make_bot("Classic") for _ in range(5)]
        while not state.is_terminal():
            p, legal = state.current_player(), state.legal_actions()
            if state.phase is Phase.PLAY and len(state.history) > 8 and len(state.history) % 3 == 0:
                here = state.truncated()
                evidence = ModelEvidence(here, p, 0.2, model)
                assert evidence.events and evidence.weight(here) == 1.0
                random_weights += [evidence.weight(here.determinize(p, rng)) for _ in range(5)]
                checked += 1
            state.apply(bots[p].choose(state.observation(p), legal, rng))
    assert checked > 10 and sum(random_weights) / len(random_weights) < 0.6


def test_the_trace_says_how_the_worlds_were_inferred():
    state = random_moves(PresidentState.new_match(table(), 9), random.Random(9), 12)
    p, legal = state.current_player(), state.legal_actions()
    chain = make_bot("ismcts:iterations=30,rollout=Classic,model=on,infer=0.05,pool=20")
    method = chain.explain(state.observation(p), legal, random.Random(1)).trace.method
    assert "the other players move as the rollout agent would" in method
    assert "what the opponents did (q=0.05), a chain of 20 worlds" in method
    plain = make_bot("ismcts:iterations=30,rollout=Classic,model=on")
    assert "weighed" not in plain.explain(state.observation(p), legal, random.Random(1)).trace.method
