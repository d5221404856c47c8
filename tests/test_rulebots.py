"""A table of rule players played in compiled code (president/game/rulebots.py, _fastplay_bots.c) makes
exactly the games of the protocol's loop (`play_out` with `RulePlayer.choose`, the reference): the same
moves, rounds and scores, and the same draws from the generator, for any personality at any table the C
loop plays; everything else is left to that loop (docs/compiled.md)."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from personalities import odds
from personalities.catalog import shipped, shipped_names
from personalities.evaluator import explain
from personalities.player import RulePlayer
from personalities.reader import parse_personality
from president.game import fastplay, rulebots
from president.game.layout import layout
from president.game.settings import preset
from president.game.state import PresidentState
from president.game.view import president_view
from recycle.kernel.protocol import RandomAgent, play_game, play_out, unasked_when_forced

from personalities.variables import Variable
from test_fastplay import compiled_only, played_into, run_president, tables
from test_rul_compiled import POTENTIALS
from test_rul_engine import random_position

FIVE = "Classic,Cautious,Aggressive,Counter,TwoHoarder"


def players(personalities) -> list[RulePlayer]:
    return [RulePlayer(p, president_view) for p in personalities]


def both_ways(table, seed: int, agents, start: PresidentState | None = None) -> tuple[PresidentState, PresidentState, random.Random, random.Random]:
    """The match of `seed` played by the compiled loop and by `play_out`, each with its own generator."""
    fast, slow = (PresidentState.new_match(table, seed), PresidentState.new_match(table, seed)) if start is None \
        else (start.clone(), start.clone())
    fast_rng, slow_rng = random.Random(seed), random.Random(seed)
    moves = decided_in_c(fast, agents, fast_rng)
    assert moves == play_out(slow, [a.choose for a in agents], slow_rng, unasked_when_forced(agents))  # counted alike
    return fast, slow, fast_rng, slow_rng


def decided_in_c(state: PresidentState, agents, rng: random.Random) -> int:
    """`rulebots.playout`, asserting that C made the decisions: a loop handing them all back to Python
    would make the same games and pass every comparison (Python decides only what C cannot: here, none)."""
    asked = []
    for agent in set(agents):
        agent.choose = lambda *args, real=agent.choose: asked.append(1) or real(*args)
    try:
        moves = rulebots.playout(state, agents, rng)
    finally:
        for agent in set(agents):
            del agent.choose
    assert moves is not None and not asked, f"{len(asked)} of {moves} moves decided in Python"
    return moves


def assert_same_games(table, seed: int, agents, start: PresidentState | None = None) -> None:
    fast, slow, fast_rng, slow_rng = both_ways(table, seed, agents, start)
    assert fast.history == slow.history
    assert (fast.round_log, fast.scores, fast.results()) == (slow.round_log, slow.scores, slow.results())
    assert fast_rng.getstate() == slow_rng.getstate()  # the same draws, no more


@compiled_only
@pytest.mark.parametrize("table", ["classic", "pagat", "daifugo"])
def test_the_shipped_personalities_play_the_same_games(table):
    names = shipped_names()
    for seed in range(4):
        chosen = random.Random(seed).sample(names, 5)
        assert_same_games(dataclasses.replace(preset(table), rounds=5), seed, players(map(shipped, chosen)))


@st.composite
def conditions(draw) -> str:
    """A condition the reader accepts, its target within the variable's range (so it holds sometimes)."""
    variable = draw(st.sampled_from(list(Variable)))
    targets = [t for t in range(max(0, variable.low - 1), variable.high + 2) if not (variable.is_card_value and t in (1, 2))]
    return f"{variable.full} {draw(st.sampled_from(['>', '<', '=', '!=', '>=', '<=']))} {draw(st.sampled_from(targets))}"


@st.composite
def personalities(draw):
    lines = [" ".join([draw(st.sampled_from(POTENTIALS + ["Lr", "Hr"])), *draw(st.lists(conditions(), max_size=3))])
             for _ in range(draw(st.integers(1, 8)))]
    return parse_personality("; drawn\n" + "\n".join(lines) + "\n", name="Drawn")


@compiled_only
@settings(max_examples=120, deadline=None)
@given(tables.filter(lambda t: fastplay.rules_of(t) is not None), st.lists(personalities(), min_size=1, max_size=3),
       st.integers(0, 2**32), st.sampled_from([0, 0, 10, 40, 80]))
def test_any_personalities_at_any_table_play_the_same_games(table, drawn, seed, moves):
    """Every variable, comparison and potential (Random and FollowOdds among them), at tables with
    jokers wild or high, revolutions, 8-cuts, equal values and 3 to 7 players, from the deal or from a
    position reached by random moves."""
    start = played_into(table, seed, moves, truncated=False) if moves else None
    if start is None or not start.is_terminal():
        assert_same_games(table, seed, players(drawn[i % len(drawn)] for i in range(table.players)), start)


ODDS = parse_personality("H FollowOdds < 1\nHp FollowOdds < 30\nL FollowOdds = 100 CardVal < 9\nLt FollowOdds > 50\n"
                         "2 FollowOdds < 100\nP\nL*\n", name="Odds")


@compiled_only
@settings(max_examples=60, deadline=None)
@given(tables.filter(lambda t: fastplay.rules_of(t) is not None and t.jokers), st.integers(0, 2**32),
       st.integers(0, 120))
def test_follow_odds_is_read_alike_from_any_position(table, seed, moves):
    """Late positions too (random moves first): singles nothing but a joker beats, sets of few left."""
    start = played_into(table, seed, moves, truncated=False)
    if not start.is_terminal():
        assert_same_games(table, seed, players([ODDS, shipped("Counter")] * 4)[:table.players], start)


@compiled_only
def test_a_personality_that_flips_coins_draws_exactly_as_the_reference():
    coins = parse_personality("P Random < 40\nLp Random < 70 FollowOdds < 50\nH Random > 90\nL*\n", name="Coins")
    for seed in range(5):
        fast, _, fast_rng, slow_rng = both_ways(dataclasses.replace(preset("pagat"), rounds=3), seed,
                                                players([coins, shipped("Counter")] * 2 + [coins]))
        assert fast_rng.random() == slow_rng.random()


@compiled_only
def test_play_game_takes_the_compiled_loop_only_where_it_applies(monkeypatch):
    taken = []
    monkeypatch.setattr(rulebots, "playout", lambda *args, real=rulebots.playout: taken.append(real(*args)) or taken[-1])
    five = players(map(shipped, FIVE.split(",")))
    table = dataclasses.replace(preset("classic"), rounds=2)
    play_game(PresidentState.new_match(table, 1), five, random.Random(1))
    play_game(PresidentState.new_match(table, 1), five[:4] + [RandomAgent()], random.Random(1))
    play_game(PresidentState.new_match(table, 1), five[:4] + [RulePlayer(five[4].personality, president_view,
                                                                          fallback=RandomAgent())], random.Random(1))
    play_game(PresidentState.new_match(dataclasses.replace(preset("uecda"), rounds=2), 1), five, random.Random(1))

    class OwnRandom(random.Random):
        def randint(self, a, b):
            return a

    play_game(PresidentState.new_match(table, 1), five, OwnRandom(1))
    assert [t is not None for t in taken] == [True, False, False, False, False]


@compiled_only
def test_without_the_compiled_engine_nothing_is_done(monkeypatch):
    monkeypatch.setattr(fastplay, "_C", None)
    state = PresidentState.new_match(preset("classic"), 3)
    assert rulebots.playout(state, players(map(shipped, FIVE.split(","))), random.Random(3)) is None
    assert not state.history


def test_a_personality_is_compiled_once_into_tables_of_ints():
    personality = shipped("Counter")
    tables_ = rulebots.programs_of(personality)
    assert rulebots.programs_of(personality) is tables_ and len(tables_) == rulebots.NEEDS
    assert all(isinstance(t, bytes) and len(t) % 4 == 0 for t in tables_)


@compiled_only
def test_a_table_of_rule_players_is_worked_out_once_until_a_personality_is_reloaded():
    """A search's rollouts reuse the table's programs; a reloaded personality (the editor) plays its own rules
    from the next rollout on, exactly as `play_out` does."""
    table = dataclasses.replace(preset("classic"), rounds=1)
    agent = RulePlayer(shipped("Classic"), president_view)
    seats = rulebots.compiled_seats(table, [agent] * 5)
    assert rulebots.compiled_seats(table, [agent] * 5) is seats
    assert seats.programs == (rulebots.programs_of(agent.personality),) * 5
    before = both_ways(table, 4, [agent] * 5)[0].history
    agent.reload(parse_personality("H\nL*\n", name="Highest"))  # leads its highest cards: another game
    assert rulebots.compiled_seats(table, [agent] * 5).programs == (rulebots.programs_of(agent.personality),) * 5
    assert_same_games(table, 4, [agent] * 5)
    assert both_ways(table, 4, [agent] * 5)[0].history != before
    assert rulebots.compiled_seats(table, [agent] * 4 + [RandomAgent()]) is None  # not every seat a rule player


def test_the_tables_worked_out_are_bounded():
    table = preset("classic")
    kept = [players([shipped("Classic")] * 5) for _ in range(rulebots._SEATS_KEPT + 3)]
    for agents in kept:
        rulebots.compiled_seats(table, agents)
    assert 0 < len(rulebots._SEATS) <= rulebots._SEATS_KEPT


def test_rule_bots_simulate_the_same_compiled_or_pure(tmp_path):
    results = []
    for pure in (True, False):
        out = tmp_path / f"{pure}.json"
        run_president("simulate", "--players", FIVE, "--matches", "6", "--rounds", "4", "--seed", "7",
                      "--json", str(out), pure=pure)
        results.append(json.loads(out.read_text()))
    assert results[0] == results[1]


@compiled_only
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64), st.integers(0, 120))
def test_the_compiled_shuffle_of_a_deal_is_random_shuffle(seed, size):
    """Every deal goes through it: the same order, and the generator left in the same state."""
    reference, compiled = random.Random(seed), random.Random(seed)
    expected, items = list(range(size)), list(range(size))
    reference.shuffle(expected)
    fastplay.shuffle(compiled, items)
    assert items == expected and compiled.getstate() == reference.getstate()


@given(st.sampled_from([(1, 0), (1, 2), (2, 0), (2, 4)]), st.integers(0, 2**112))
def test_cards_per_value_of_any_hand(pack, bits):
    """`Layout.counts` (by bytes for one deck): the cards of each value's slot."""
    lay = layout(*pack)
    mask = bits & lay.full
    assert lay.counts(mask) == [0, 0, 0] + [((mask >> lay.shift[v]) & lay.slot).bit_count() for v in range(3, 17)]


@pytest.mark.skipif(odds._COMPILED is None, reason="FollowOdds' compiled counting is not in use (not built, or PRESIDENT_PURE=1)")
def test_traces_read_the_same_follow_odds_compiled_or_not(monkeypatch):
    """What `president decide` and `trace` print: every rule's trace, FollowOdds' values among them."""
    compiled_odds = odds._COMPILED
    traces = {}
    for engine in ("pure", "compiled"):
        monkeypatch.setattr(odds, "_COMPILED", compiled_odds if engine == "compiled" else None)
        odds._Memo.clear()
        odds._chance_nobody_holds.cache_clear()
        traces[engine] = [explain(personality, random_position(seed), random.Random(seed))
                          for seed in range(150) for personality in (ODDS, shipped("Counter"))]
    assert traces["pure"] == traces["compiled"]
    assert any("FollowOdds" in str(trace) for _, trace in traces["pure"])


@compiled_only
def test_a_search_rollout_by_a_personality_is_the_compiled_loop_and_the_same_as_play_out(monkeypatch):
    """The master's rollouts (`rollout=Classic`) take the compiled loop: the same results, the same
    moves counted (the `calls=` budgets count them) and the same draws as `play_out`."""
    from recycle.search.rollouts import Rollout

    table = dataclasses.replace(preset("classic"), rounds=1)
    rollout = Rollout(RulePlayer(shipped("Classic"), president_view), "Classic")
    taken = []
    monkeypatch.setattr(rulebots, "playout", lambda *a, real=rulebots.playout: taken.append(real(*a)) or taken[-1])
    for seed in range(12):
        start = PresidentState.new_match(table, seed)
        walk = random.Random(seed)
        for _ in range(walk.randrange(0, 25)):  # a position somewhere in the round
            if start.is_terminal():
                break
            start.apply(walk.choice(start.legal_actions()))
        fast, fast_rng = start.clone(), random.Random(seed)
        got = rollout.run(fast, fast_rng)
        slow, slow_rng = start.clone(), random.Random(seed)
        agent = rollout.agent
        moves = play_out(slow, [agent.choose] * 5, slow_rng, unasked_when_forced([agent]) * 5)
        assert got == (slow.results().utilities(), moves)
        assert fast.history == slow.history and fast_rng.getstate() == slow_rng.getstate()
    assert len(taken) == 12 and all(t is not None for t in taken)
