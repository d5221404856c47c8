"""Search players: exactness of alpha-beta, honesty of ISMCTS, legality, budgets, specs, traces."""
from __future__ import annotations

import dataclasses
import functools
import io
import json
import random

import pytest
from rich.console import Console

from president.agents.bots import make_bot
from president.game.settings import Settings, preset
from president.game.state import PresidentState
from recycle.kernel.specs import AgentSpecError
from recycle.kernel.protocol import GameError, play_game
from recycle.search import Solver, SearchTrace
from recycle.search.common import endgame_solvable

HONEST = ["ismcts:iterations=40", "pimc:samples=3", "vote:samples=3", "alphabeta"]
ALL = HONEST + ["mcts:iterations=40"]


def one_round(players: int = 5, name: str = "classic", **changes) -> Settings:
    return dataclasses.replace(preset(name), players=players, rounds=1, **changes)


def random_until(state: PresidentState, rng: random.Random, stop) -> PresidentState | None:
    """Random moves until `stop(state)`; None if the round ends first."""
    while not state.is_terminal():
        if stop(state):
            return state
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    return None


def endgames(count: int, max_cards: int, players: int = 5, first_seed: int = 0) -> list[PresidentState]:
    """Two-player endings of random rounds with at most `max_cards` cards left (deterministic)."""
    found, seed = [], first_seed
    while len(found) < count:
        state = random_until(PresidentState.new_match(one_round(players), seed), random.Random(seed),
                             lambda s: len(s.still_in()) == 2)
        if state is not None and sum(state.sizes) <= max_cards and len(state.legal_actions()) > 1:
            found.append(state.truncated())
        seed += 1
    return found


def minimax(state, player: int) -> float:
    """Reference: plain minimax, no pruning, no table."""
    if state.is_terminal():
        return state.results().utilities()[player]
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        values.append(minimax(child, player))
    return max(values) if state.current_player() == player else min(values)


def reference_values(state) -> dict:
    player, out = state.current_player(), {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        out[a] = minimax(child, player)
    return out


def decide(spec: str, state: PresidentState, seed: int):
    p = state.current_player()
    return make_bot(spec).choose(state.observation(p), state.legal_actions(), random.Random(seed))


# ---- alpha-beta -------------------------------------------------------------
def test_alphabeta_equals_plain_minimax_on_random_endings():
    checked = 0
    for state in endgames(25, max_cards=8):
        ref = reference_values(state)
        values, exact = Solver(state.current_player()).root_values(state, state.legal_actions())
        best = max(ref.values())
        assert max(values.values()) == best
        for a, v in ref.items():
            if a in exact:
                assert values[a] == v, (state, a)
            else:  # proved worse: an upper bound below the best value
                assert v <= values[a] < best
        assert {a for a in ref if ref[a] == best} <= exact
        checked += len(ref) > 1 and len(set(ref.values())) > 1
    assert checked >= 5  # some endings where the choice matters


def test_alphabeta_without_table_agrees_with_table():
    for state in endgames(10, max_cards=9, first_seed=100):
        player, legal = state.current_player(), state.legal_actions()
        with_table = Solver(player).root_values(state, legal)
        bare = Solver(player)
        bare.key = lambda s: None  # no transposition table, full window
        bare_values = {}
        for a in legal:
            child = state.clone()
            child.apply(a)
            bare_values[a] = bare.value(child, float("-inf"), float("inf"))
        for a in with_table[1]:
            assert with_table[0][a] == bare_values[a]


def test_alphabeta_agent_plays_an_optimal_move_in_endings():
    for state in endgames(8, max_cards=10, first_seed=200):
        ref = reference_values(state)
        action = decide("alphabeta", state, 1)
        assert ref[action] == max(ref.values())


def test_solver_gives_up_over_its_node_limit_and_players_fall_back():
    settings = one_round(3)
    for seed in range(40):
        state = random_until(PresidentState.new_match(settings, seed), random.Random(seed),
                             lambda s: len(s.still_in()) == 2)
        if state is not None and sum(state.sizes) >= 16 and len(state.legal_actions()) > 1:
            break
    p = state.current_player()
    assert endgame_solvable(state, p)
    decision = make_bot("ismcts:iterations=20,nodes=50").explain(state.observation(p), state.legal_actions(),
                                                                  random.Random(0))
    assert not decision.trace.solver and "gave up" in decision.trace.note
    assert decision.action in state.legal_actions()


# ---- honesty: the same observation gives the same decision ------------------
def positions(count: int, seed: int = 7) -> list[PresidentState]:
    """Mid-round positions of 5-player rounds with a real choice and hidden cards."""
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        state = PresidentState.new_match(one_round(5), rng.getrandbits(32))
        state = random_until(state, rng, lambda s, k=rng.randrange(5, 60): len(s.history) >= k)
        if state and len(state.legal_actions()) > 1 and not state.hidden_is_determined(state.current_player()):
            out.append(state)
    return out


@pytest.mark.parametrize("spec", HONEST)
def test_honest_players_never_look_at_hidden_cards(spec):
    for state in positions(3):
        p = state.current_player()
        others = [state.determinize(p, random.Random(k)) for k in (1, 2)]
        assert any(o.masks != state.masks for o in others)  # really different hidden cards
        for seed in range(3):
            mine = decide(spec, state, seed)
            assert all(decide(spec, other, seed) == mine for other in others)


def test_sample_state_depends_only_on_the_observation():
    state = positions(1, seed=3)[0]
    p = state.current_player()
    other = state.determinize(p, random.Random(9))
    a = state.observation(p).sample_state(random.Random(4))
    b = other.observation(p).sample_state(random.Random(4))
    assert a.masks == b.masks and a.masks[p] == state.masks[p]
    assert [a.sizes[q] for q in range(5)] == state.sizes


def test_stale_observation_cannot_be_sampled():
    state = PresidentState.new_match(one_round(5), 1)
    obs = state.observation(state.current_player())
    state.apply(state.legal_actions()[0])
    with pytest.raises(GameError, match="stale"):
        obs.sample_state(random.Random(0))
    with pytest.raises(GameError, match="stale"):
        obs.true_state()


# ---- strength where the answer is known ------------------------------------
@functools.lru_cache(maxsize=None)
def _puzzles() -> tuple[tuple[PresidentState, dict], ...]:
    out = []
    for players in (4, 5):
        for state in endgames(150, max_cards=12, players=players, first_seed=1000):
            legal = state.legal_actions()
            values, _ = Solver(state.current_player()).root_values(state, legal)  # checked against minimax above
            if values[legal[0]] < max(values.values()):
                out.append((state, values))
    return tuple(out)


def puzzles(count: int) -> list[tuple[PresidentState, dict]]:
    """Two-player endings where the first legal action is not the best (fresh copies, solver values)."""
    return [(s.clone(), values) for s, values in _puzzles()[:count]]


def test_cheating_mcts_finds_forced_wins():
    endings = puzzles(10)
    assert len(endings) == 10
    for state, values in endings:
        assert values[decide("mcts:iterations=400", state, 0)] == max(values.values())


def test_endgame_switch_never_loses_a_won_ending():
    for spec in ("ismcts:iterations=5", "pimc:samples=2", "vote:samples=2"):
        for opponent in ("random", "alphabeta"):
            for state, values in puzzles(8):
                me, rng = state.current_player(), random.Random(1)
                mine, theirs = make_bot(spec), make_bot(opponent)
                traces = []
                while not state.is_terminal():
                    p, legal = state.current_player(), state.legal_actions()
                    decision = (mine if p == me else theirs).explain(state.observation(p), legal, rng)
                    if p == me:
                        traces.append(decision.trace)
                    state.apply(decision.action)
                assert state.results().utilities()[me] == max(values.values())
                assert traces[0].solver


# ---- legality over whole rounds ---------------------------------------------
@pytest.mark.parametrize("spec", ALL)
def test_players_only_play_legal_actions_over_a_round(spec):
    for players, name, seed in ((5, "classic", 1), (4, "daifugo", 2)):
        settings = dataclasses.replace(preset(name), players=players, rounds=2)  # round 2 has an exchange
        agents = [make_bot(spec)] + [make_bot("random") for _ in range(players - 1)]
        agents = agents[::-1] if seed % 2 else agents

        def check(state, player, decision):
            assert decision.action in state.legal_actions()

        play_game(PresidentState.new_match(settings, seed), agents, random.Random(seed), on_decision=check)


@pytest.mark.slow
def test_a_rule_personality_as_rollout_policy_plays_a_round():
    settings = one_round(4)
    agents = [make_bot("ismcts:iterations=8,rollout=Classic"), make_bot("pimc:samples=1,rollout=Classic"),
              make_bot("Classic"), make_bot("random")]
    assert [a.rollout.spec for a in agents[:2]] == ["Classic", "Classic"]
    assert all(a.rollout.agent is not None for a in agents[:2])  # the personality, not the random loop
    searched = []

    def check(state, player, decision):
        assert decision.action in state.legal_actions()
        if player < 2 and len(state.legal_actions()) > 1:
            searched.append(decision.trace.iterations or decision.trace.solver)

    state = PresidentState.new_match(settings, 5)
    result = play_game(state, agents, random.Random(5), on_decision=check, explain=True)
    assert state.is_terminal() and len(result.ranks) == 4
    assert searched and all(searched), "both search players searched with their rollout policy"


# ---- seeds, budgets, traces, specs -----------------------------------------
@pytest.mark.parametrize("spec", ALL)
def test_same_rng_same_decision_and_one_draw_from_the_caller(spec):
    state = positions(1, seed=11)[0]
    p = state.current_player()
    first, second = random.Random(5), random.Random(5)
    a = make_bot(spec).choose(state.observation(p), state.legal_actions(), first)
    b = make_bot(spec).choose(state.observation(p), state.legal_actions(), second)
    assert a == b
    reference = random.Random(5)
    reference.getrandbits(64)
    assert first.random() == reference.random()


def test_budgets_are_respected():
    state = positions(1, seed=13)[0]
    p, legal = state.current_player(), state.legal_actions()
    obs = state.observation(p)
    trace = make_bot("ismcts:iterations=37").explain(obs, legal, random.Random(0)).trace
    assert trace.iterations == 37 and trace.determinizations == 38
    trace = make_bot("ismcts:calls=500").explain(obs, legal, random.Random(0)).trace
    assert 500 <= trace.calls < 500 + 200
    trace = make_bot("ismcts:time=0.05").explain(obs, legal, random.Random(0)).trace
    assert 0.05 <= trace.seconds < 0.5 and trace.iterations >= 1
    trace = make_bot("pimc:samples=4").explain(obs, legal, random.Random(0)).trace
    assert trace.iterations == 4 and all(c.visits == 4 for c in trace.candidates)


@pytest.mark.parametrize("spec", ALL)
def test_traces_report_candidates_and_render(spec):
    state = positions(1, seed=17)[0]
    p = state.current_player()
    decision = make_bot(spec).explain(state.observation(p), state.legal_actions(), random.Random(0))
    trace = decision.trace
    assert isinstance(trace, SearchTrace) and trace.action == str(decision.action)
    data = json.loads(json.dumps(trace.to_json()))
    assert {c["action"] for c in data["candidates"]} == {str(a) for a in state.legal_actions()}
    assert data["cheating"] is spec.startswith("mcts")
    out = io.StringIO()
    Console(file=out, width=100).print(trace)
    assert str(decision.action) in out.getvalue()
    if spec.startswith("mcts"):
        assert "CHEATING" in out.getvalue()


def test_solver_trace_reports_exact_values():
    state, values = puzzles(1)[0]
    p = state.current_player()
    trace = make_bot("ismcts:iterations=5").explain(state.observation(p), state.legal_actions(),
                                                    random.Random(0)).trace
    assert trace.solver and trace.solver_nodes > 0
    best = max(values.values())
    assert trace.action != str(state.legal_actions()[0])
    chosen = next(c for c in trace.candidates if c.action == trace.action)
    assert chosen.exact == best and not chosen.bound
    assert all(c.exact <= best for c in trace.candidates) and any(c.exact < best for c in trace.candidates)
    assert "exact" in json.dumps(trace.to_json())


@pytest.mark.parametrize("spec, message", [
    ("pimc:samples=0", "samples must be at least 1"),
    ("ismcts:iterations=10,time=1", "give one budget"),
    ("ismcts:depth=2", "ismcts does not take depth"),
    ("mcts:time=0", "more than 0 seconds"),
    ("vote:depth=x", "depth must be a whole number"),
    ("ismcts:endgame=maybe", "on or off"),
    ("pimc:rollout=NoSuchBot", "rollout=NoSuchBot"),
    ("alphabeta:nodes=-3", "nodes must be at least 1"),
])
def test_bad_parameters_are_clear_errors(spec, message):
    with pytest.raises(AgentSpecError, match=message):
        make_bot(spec)


def test_the_briefs_specs_are_accepted():
    for spec in ("pimc:samples=20", "mcts:iterations=2000", "ismcts:time=1.0,rollout=Classic",
                 "ismcts:iterations=1000", "alphabeta", "vote:samples=20"):
        assert make_bot(spec).name.startswith(spec.split(":")[0])
