"""TAG's heuristic players (osla, rhea, rmhc): every game of the protocol, seeds, specs, traces, heuristics."""
from __future__ import annotations

import dataclasses
import io
import json
import random

import pytest
from rich.console import Console

from president.agents.bots import make_bot
from president.game.settings import preset
from president.game.state import PresidentState
from recycle.games import game_path
from recycle.games.tides.state import TidesState
from recycle.interp.setup import new_game
from recycle.kernel.protocol import GameState, RandomAgent, Results, play_game, score_lead
from recycle.kernel.specs import AgentSpecError
from recycle.players import make_agent
from recycle.search import SearchTrace

SMALL = ["osla:samples=2", "rhea:iterations=4,length=4", "rmhc:iterations=4,length=4"]


def president_round(seed: int) -> PresidentState:
    return PresidentState.new_match(dataclasses.replace(preset("classic"), rounds=1), seed)


def advanced(state: GameState, moves: int, seed: int = 0) -> GameState:
    """`state` after some random moves, then on to a choice of more than one action (if any comes)."""
    rng = random.Random(seed)
    done = 0
    while not state.is_terminal() and (done < moves or len(state.legal_actions()) < 2):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        done += 1
    return state


GAMES = {
    "president": lambda seed: president_round(seed),
    "tides": lambda seed: TidesState.new(seed),
    "Poker5": lambda seed: new_game(game_path("Poker5"), seed=seed),
    "TidesOfTime2": lambda seed: new_game(game_path("TidesOfTime2"), seed=seed),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("spec", SMALL)
def test_plays_every_game_of_the_protocol_legally(game, spec):
    state = GAMES[game](3)
    agents = [make_agent(spec)] + [RandomAgent() for _ in range(state.num_players - 1)]
    results = play_game(state, agents, random.Random(1))  # play_game applies through the checking apply
    assert len(results.ranks) == state.num_players


@pytest.mark.parametrize("spec", SMALL)
def test_same_seed_same_decision_and_one_draw_from_the_caller(spec):
    state = advanced(president_round(11), 7)
    p, legal = state.current_player(), state.legal_actions()
    first, second = random.Random(5), random.Random(5)
    assert make_agent(spec).choose(state.observation(p), legal, first) == \
        make_agent(spec).choose(state.observation(p), legal, second)
    reference = random.Random(5)
    reference.getrandbits(64)
    assert first.random() == reference.random()


@pytest.mark.parametrize("spec", SMALL)
def test_traces_explain_the_decision(spec):
    state = advanced(president_round(17), 9)
    p, legal = state.current_player(), state.legal_actions()
    decision = make_agent(spec).explain(state.observation(p), legal, random.Random(0))
    trace = decision.trace
    assert isinstance(trace, SearchTrace) and trace.action == str(decision.action)
    assert trace.candidates[0].action == trace.action  # the chosen action heads the table
    data = json.loads(json.dumps(trace.to_json()))
    assert {c["action"] for c in data["candidates"]} <= {str(a) for a in legal}
    assert all(0.0 <= c["value"] <= 1.0 for c in data["candidates"])
    out = io.StringIO()
    Console(file=out, width=120).print(trace)
    assert str(decision.action) in out.getvalue() and spec.split(":")[0] in out.getvalue()


def test_osla_values_every_action_and_plays_the_best():
    state = advanced(president_round(21), 12)
    p, legal = state.current_player(), state.legal_actions()
    trace = make_agent("osla:samples=3").explain(state.observation(p), legal, random.Random(0)).trace
    assert {c.action for c in trace.candidates} == {str(a) for a in legal}
    assert all(c.visits == 3 for c in trace.candidates)
    assert trace.candidates[0].value == max(c.value for c in trace.candidates)


def test_osla_goes_out_when_it_can():
    """Going out first is worth 1.0, more than any other play: OSLA takes it."""
    for seed in range(40):
        state = president_round(seed)
        while not state.is_terminal():
            p, legal = state.current_player(), state.legal_actions()
            out = [a for a in legal if getattr(a, "count", 0) == state.sizes[p] and state.best_free == 1]
            if out and len(legal) > 1:
                chosen = make_agent("osla:samples=1").choose(state.observation(p), legal, random.Random(0))
                assert chosen.count == state.sizes[p]
                return
            state.apply(legal[random.Random(seed).randrange(len(legal))])
    pytest.fail("no position found where a player could go out first")


def test_rhea_budget_counts_generations_and_calls():
    state = advanced(president_round(13), 5)
    p, legal = state.current_player(), state.legal_actions()
    trace = make_agent("rhea:iterations=6,length=3").explain(state.observation(p), legal, random.Random(0)).trace
    assert trace.iterations == 6 and trace.determinizations == 5
    assert sum(c.visits for c in trace.candidates) == 1 + 2 * 5  # the first sequence, then child and parent
    trace = make_agent("rhea:calls=300").explain(state.observation(p), legal, random.Random(0)).trace
    assert 300 <= trace.calls < 300 + 2 * 10 * 5 * 3  # one generation past: two sequences of whole turns


@pytest.mark.parametrize("spec, message", [
    ("rhea:length=0", "length must be at least 1"),
    ("rhea:length=1000", "length must be at most 200"),
    ("rmhc:discount=0", "discount must be more than 0"),
    ("rhea:discount=1.5", "discount must be at most 1"),
    ("rhea:discount=nan", "finite"),
    ("osla:depth=2", "osla does not take depth"),
    ("osla:samples=2,time=1", "give one budget"),
    ("rhea:iterations=0", "iterations must be at least 1"),
])
def test_bad_parameters_are_clear_errors(spec, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_president_tables_accept_them_by_name():
    for spec in ("osla", "rhea", "rmhc", "rhea:time=0.5,length=5,discount=0.8"):
        assert make_bot(spec).name.startswith(spec.split(":")[0])


# ---- heuristics ---------------------------------------------------------------
class _Bare(GameState):
    """A game that offers no heuristic of its own: one move, then over."""

    num_players = 2

    def __init__(self) -> None:
        self.done = False

    def current_player(self): return -1 if self.done else 0
    def legal_actions(self): return [] if self.done else ["end"]
    def apply(self, action): self.done = True
    def clone(self): return _Bare()
    def is_terminal(self): return self.done
    def results(self): return Results((2, 1), (0.0, 1.0))
    def observation(self, player): raise NotImplementedError
    def determinize(self, player, rng): return self
    def parse_action(self, text): return text


def test_default_heuristic_is_neutral_until_the_end_then_the_utility():
    state = _Bare()
    assert state.heuristic(0) == state.heuristic(1) == 0.5
    state.apply("end")
    assert (state.heuristic(0), state.heuristic(1)) == (0.0, 1.0)


def test_score_lead_reads_the_lead_over_the_others():
    assert score_lead((10.0, 10.0, 10.0), 0) == 0.5 and score_lead((0.0, 0.0), 1) == 0.5
    assert score_lead((30.0, 10.0), 0) == pytest.approx(0.75) and score_lead((30.0, 10.0), 1) == pytest.approx(0.25)
    assert score_lead((30.0, 10.0), 0, "min") == pytest.approx(0.25)
    assert score_lead((6.0, 2.0, 5.0), 0) > score_lead((6.0, 2.0, 5.0), 2) > 0.5 > score_lead((6.0, 2.0, 5.0), 1)
    assert all(0.0 <= score_lead((-5.0, 3.0, 0.0), p) <= 1.0 for p in range(3))


def test_president_heuristic_reads_places_and_hand_sizes():
    state = president_round(5)
    state.apply(state.legal_actions()[0]) if state.phase.value == "exchange" else None
    values = [state.heuristic(p) for p in range(5)]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) < 2.5  # at most the places' utilities, 1 + .75 + .5 + .25 + 0, less the work left
    final = advanced(state, 500)
    assert final.is_terminal()
    assert [final.heuristic(p) for p in range(5)] == list(final.results().utilities())


def test_recycle_heuristic_follows_the_scores_and_tides_the_lead():
    """The RECYCLE reading and the native one are the same idea: Tides agrees with TidesOfTime2 (crosscheck)."""
    poker = advanced(new_game(game_path("Poker5"), seed=2), 4)
    values = [poker.heuristic(p) for p in range(5)]
    assert all(0.0 <= v <= 1.0 for v in values)
    tides = advanced(TidesState.new(4), 6)
    a, b = tides.heuristic(0), tides.heuristic(1)
    assert a + b == pytest.approx(1.0)
    mine, theirs = tides.scores()
    assert (a > 0.5) == (mine > theirs)
