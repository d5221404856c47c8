"""Tides of Time: the native round, its observations and determinization, the matrix-game solvers,
the two bots, and the crosscheck against the RECYCLE TidesOfTime2."""
from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.games.tides.cards import DECK, Card, CardParseError
from recycle.games.tides.first_pick import root_matrices
from recycle.games.tides.solver import SeedValues, Values, unseen_hands
from recycle.games.tides.state import DealError, TidesState
from recycle.kernel.protocol import IllegalAction, RandomAgent, play_game
from recycle.search.matrix_batch import solve_many
from recycle.search.matrix_game import MatrixGameError, solve


# ---- cards and the round ----------------------------------------------------------------
@pytest.mark.parametrize("card", DECK, ids=str)
def test_card_text_round_trips(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(card.token) == card
    assert Card.parse(f"{card.suit.upper() or 'NONE'} {card.token}") == card  # the RECYCLE text


def test_bad_card_text_names_the_cards():
    with pytest.raises(CardParseError, match="not a card: name one of each-temple"):
        Card.parse("most-swamp")


def test_deck_is_the_seeds():
    assert len(DECK) == 18 and [c.number for c in DECK] == list(range(1, 19))
    for suit in ("palace", "library", "garden", "temple", "stronghold"):
        assert sum(c.suit == suit for c in DECK) == 3
    assert sum(not c.suit for c in DECK) == 3


def test_a_round_is_five_simultaneous_picks_and_swaps():
    s = TidesState.new(hands=(DECK[:5], DECK[5:10]))
    first = s.legal_actions()
    assert first == list(DECK[:5]) and s.current_player() == 0
    s.apply(DECK[0])
    assert s.current_player() == 1 and s.legal_actions() == list(DECK[5:10])
    s.apply("most-palace")  # actions may be given by text
    assert s.kingdom(0) == (DECK[0],) and s.kingdom(1) == (DECK[5],)
    assert s.hand(0) == DECK[6:10] and s.hand(1) == DECK[1:5]  # the rest of the hands swapped
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert len(s.kingdom(0)) == len(s.kingdom(1)) == 5 and len(s.unused()) == 8
    r = s.results()
    assert r.scores == tuple(float(x) for x in s.scores())


def test_an_illegal_pick_names_the_rule():
    s = TidesState.new(hands=(DECK[:5], DECK[5:10]))
    with pytest.raises(IllegalAction, match="picks a card from its own hand") as err:
        s.apply(DECK[7])
    assert err.value.rule == "pick-from-hand"


@pytest.mark.parametrize("hands, rule", [
    ((DECK[:4], DECK[5:10]), "deal-five"),
    ((DECK[:5], DECK[4:9]), "one-copy"),
    ((DECK[:4] + (DECK[0],), DECK[5:10]), "one-copy"),
    ((DECK[:5],), "two-players"),
])
def test_a_malformed_deal_names_the_rule(hands, rule):
    with pytest.raises(DealError, match=f"rule: {rule}"):
        TidesState.new(hands=hands)


def test_observations_hide_the_face_down_pick_and_the_unused_cards():
    s = TidesState.new(7)
    s.apply(s.legal_actions()[2])
    o1 = s.observation(1)
    assert o1.opponent_picked and o1.opponent_cards is None and o1.pick == 0
    text = repr(o1)
    assert str(s.picks[0]) not in text.split("hand=")[0]  # no card number of p0's pick is shown
    # Before the first swap p1 cannot tell p0's hands apart: same observation for another p0 hand.
    other = s.observation(1)
    assert other == o1


@given(st.integers(0, 10_000), st.integers(0, 9), st.integers(0, 2**32))
@settings(max_examples=150, deadline=None)
def test_determinize_keeps_what_the_player_knows(seed, moves, draw):
    s = TidesState.new(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    for player in (0, 1):
        d = s.determinize(player, random.Random(draw))
        assert d.observation(player) == s.observation(player)
        held = [d.hands[0], d.hands[1], d.kingdoms[0], d.kingdoms[1]] + [1 << p for p in d.picks if p]
        assert sum(m.bit_count() for m in held) == 10 and not np.bitwise_and.reduce(held)
        if s.turn:  # from the first swap on, the opponent's cards are known; only the face-down one is drawn
            opp = 1 - player
            assert d.hands[opp] | (1 << d.picks[opp] if d.picks[opp] else 0) == \
                s.hands[opp] | (1 << s.picks[opp] if s.picks[opp] else 0)


# ---- matrix games -----------------------------------------------------------------------
small_games = st.integers(1, 5).flatmap(lambda m: st.integers(1, 5).flatmap(
    lambda n: st.lists(st.lists(st.integers(-9, 9), min_size=n, max_size=n), min_size=m, max_size=m)))


@given(small_games)
@settings(max_examples=200, deadline=None)
def test_exact_solver_finds_an_equilibrium(matrix):
    value, rows, cols = solve(matrix, exact=True)
    assert sum(rows) == 1 and sum(cols) == 1 and min(rows) >= 0 and min(cols) >= 0
    m, n = len(matrix), len(matrix[0])
    assert all(sum(rows[i] * matrix[i][j] for i in range(m)) >= value for j in range(n))  # rows guarantee v
    assert all(sum(matrix[i][j] * cols[j] for j in range(n)) <= value for i in range(m))  # cols hold it to v
    fv = solve(matrix)[0]
    assert abs(fv - float(value)) < 1e-9
    bv, bcols = solve_many(np.array([matrix], dtype=float))
    assert abs(bv[0] - float(value)) < 1e-9
    assert max(sum(matrix[i][j] * bcols[0][j] for j in range(n)) for i in range(m)) <= float(value) + 1e-9


def test_rock_paper_scissors_is_solved_exactly():
    value, rows, cols = solve([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], exact=True)
    assert value == 0 and rows == cols == (Fraction(1, 3),) * 3


def test_bad_matrices_are_refused():
    with pytest.raises(MatrixGameError):
        solve([])
    with pytest.raises(MatrixGameError):
        solve([[1, 2], [3]])


# ---- the solver and the seed's bot --------------------------------------------------------
def test_batched_first_pick_values_equal_the_exact_recursion():
    hand = TidesState.new(3).hands[0]
    batch, seed_batch = root_matrices(hand), root_matrices(hand, seed=True)
    values, seeds = Values(), SeedValues()
    hands = unseen_hands(hand)
    assert len(hands) == 1287 == len(batch)
    for k in (0, 500, 1286):
        assert np.allclose(batch[k], values.matrix(0, 0, hand, hands[k]), atol=1e-9)
        assert np.allclose(seed_batch[k], seeds.matrix(0, 0, hand, hands[k]), atol=1e-9)


def test_values_are_zero_sum_and_cached():
    s = TidesState.new(11)
    v = Values()
    a = v.value(0, 0, s.hands[0], s.hands[1])
    assert v.value(0, 0, s.hands[1], s.hands[0]) == pytest.approx(-a, abs=1e-9)
    solved = v.positions
    v.value(0, 0, s.hands[0], s.hands[1])
    assert v.positions == solved


def test_solver_plays_its_equilibrium_mix_and_never_loses_the_value():
    from recycle.players import make_agent

    # From the first swap on the solver's expected margin is at least the game value whatever the
    # opponent does: against every pure reply of the matrix, its mix earns >= the value.
    s = TidesState.new(21)
    s.apply(s.legal_actions()[1])
    s.apply(s.legal_actions()[3])
    agent = make_agent("tides-solver")
    d = agent.explain(s.observation(0), s.legal_actions(), random.Random(2))
    me = s.observation(0)
    matrix = agent.values.matrix(me.kingdoms[0], me.kingdoms[1], me.hand, me.opponent_cards)
    mix = [c.share for c in d.trace.candidates]
    for j in range(len(matrix[0])):
        assert sum(p * row[j] for p, row in zip(mix, matrix)) >= d.trace.game_value - 1e-9


def test_explain_lists_every_candidate_with_value_and_mix():
    from recycle.players import make_agent

    s = TidesState.new(5)
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    d = make_agent("tides-solver").explain(s.observation(0), s.legal_actions(), random.Random(0))
    trace = d.trace
    assert [c.card for c in trace.candidates] == [str(c) for c in s.legal_actions()]
    assert sum(c.share for c in trace.candidates) == pytest.approx(1.0)
    assert max(c.value for c in trace.candidates) == pytest.approx(trace.game_value, abs=1e-9)
    assert trace.to_json()["played"] == str(d.action)


# ---- every general agent plays it -----------------------------------------------------------
@pytest.mark.parametrize("spec", ["random", "pimc:samples=5", "ismcts:iterations=100", "tides-seed"])
def test_general_agents_play_the_native_round(spec):
    from recycle.players import make_agent

    r = play_game(TidesState.new(1), [make_agent(spec), RandomAgent()], random.Random(1))
    assert len(r.scores) == 2


def test_a_rule_personality_gets_a_clear_error():
    from recycle.cli.commands.tides import native_agents
    from recycle.kernel.specs import AgentSpecError

    with pytest.raises(AgentSpecError, match="and TidesOfTime2 is not one; agents that can play TidesOfTime2: .*random.*tides-solver"):
        native_agents(["Classic", "random"])


# ---- the RECYCLE version ------------------------------------------------------------------
def test_crosscheck_100_deals_has_no_divergence():
    from recycle.games.tides.crosscheck import TidesCrosscheck, crosscheck

    check = TidesCrosscheck(lambda: [RandomAgent(), RandomAgent()], 0)
    assert crosscheck(check, 100) == []
    played = check.recycle(0)
    assert len(played.picks) == 10 and played.scores == check.native(0).scores


def test_crosscheck_with_the_bots_has_no_divergence():
    from recycle.games.tides.agents import TidesSeedAgent, TidesSolverAgent
    from recycle.games.tides.crosscheck import TidesCrosscheck, crosscheck

    check = TidesCrosscheck(lambda: [TidesSolverAgent(), TidesSeedAgent()], 1)
    assert crosscheck(check, 1) == []


def test_crosscheck_sees_a_changed_rule(tmp_path):
    from recycle.games import game_path
    from recycle.games.tides.crosscheck import TidesCrosscheck, crosscheck

    text = Path(game_path("TidesOfTime2")).read_text(encoding="utf-8")
    changed = text.replace("(inc ((current player) sto SCORE) 8))", "(inc ((current player) sto SCORE) 9))")
    assert changed != text  # highest scores 9 instead of 8
    path = tmp_path / "Tides9.gdl"
    path.write_text(changed, encoding="utf-8")
    check = TidesCrosscheck(lambda: [RandomAgent(), RandomAgent()], 0, str(path))
    assert crosscheck(check, 100)


# ---- commands ---------------------------------------------------------------------------
def test_recycle_run_plays_both_versions(tmp_path):
    import json

    from recycle.cli import main

    out = tmp_path / "native.json"
    assert main(["run", "TidesOfTime2", "--native", "--players", "tides-seed,random", "--games", "3",
                 "--seed", "4", "--json", str(out)]) == 0
    native = json.loads(out.read_text())
    assert native["native"] and [s["agent"] for s in native["seats"]] == ["tides-seed", "random"]
    out = tmp_path / "recycle.json"
    assert main(["run", "TidesOfTime2", "--players", "tides-seed,random", "--games", "3", "--seed", "4",
                 "--json", str(out)]) == 0
    played = json.loads(out.read_text())
    assert played["mean_choices"] == 10 and [s["agent"] for s in played["seats"]] == ["tides-seed", "random"]


def test_native_switch_refuses_other_games_and_personalities(capsys):
    from recycle.cli import main

    assert main(["run", "President5", "--native"]) == 2
    assert "only TidesOfTime2" in capsys.readouterr().err
    assert main(["run", "TidesOfTime2", "--native", "--players", "Classic"]) == 2
    assert "Classic is a President personality" in capsys.readouterr().err


def test_trace_prints_the_solvers_reasoning(tmp_path, capsys):
    import json

    from recycle.cli import main

    out = tmp_path / "trace.json"
    assert main(["trace", "TidesOfTime2", "tides-solver", "--opponents", "random", "--seed", "3",
                 "--json", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "the round's equilibrium" in shown and "margin vs their mix" in shown and "played with" in shown
    traces = json.loads(out.read_text())
    assert len(traces) == 5 and all(len(t["trace"]["candidates"]) == 5 - k for k, t in enumerate(traces))


def test_crosscheck_command(tmp_path):
    import json

    from recycle.cli import main

    out = tmp_path / "cc.json"
    assert main(["crosscheck-tides", "--deals", "20", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["divergences"] == 0
