"""Game analysis: every formula on hand-made decision logs, the estimator, the experiments, intervals."""
from __future__ import annotations

import math
import random

import pytest
from analysis_games import TinyState, TinySubject
from hypothesis import given
from hypothesis import strategies as st

from recycle.analysis import (
    ALL_AI,
    ONE_AI,
    RANDOM,
    Config,
    DecisionRecord,
    GameLog,
    PlayUnit,
    analyze,
    units,
)
from recycle.analysis.estimator import CardStockEstimator, estimates, make_estimator
from recycle.analysis.experiment import run_units
from recycle.analysis.heuristics import (
    HeuristicFigures,
    drama_threshold,
    fairness_of,
    summaries,
)
from recycle.analysis.metrics import (
    ClimbingFigures,
    climbing_row,
    game_metrics,
    metrics_compute,
)
from recycle.analysis.stats import Bootstrap, bootstrap, difference, games_needed
from recycle.kernel.protocol import decide
from recycle.kernel.specs import AgentSpecError


def dec(player, values=None, options=2, episode=0, view=None):
    return DecisionRecord(player, options, episode, None if values is None else tuple(values), view)


def log(decisions, places, set_name=ALL_AI, index=0, players=2, scores=None):
    episodes = tuple(tuple(p) for p in places)
    return GameLog(index, set_name, 0, players, tuple(decisions), episodes, episodes[-1],
                   tuple(scores or [float(-p) for p in episodes[-1]]))


def figures(sets, players=2, threshold=0.5, max_options=2):
    rows = summaries(sets, players, threshold)
    return HeuristicFigures(players, max_options)(rows)


# ---- CardStock's heuristics on hand-made logs ---------------------------------------------
def test_fairness_formula():
    assert fairness_of(0.5, 2) == 1.0
    assert fairness_of(0.25, 4) == 1.0
    assert fairness_of(0.0, 4) == 0.0  # seat 0 never wins
    assert fairness_of(1.0, 4) == 0.0  # seat 0 always wins
    assert fairness_of(0.125, 4) == pytest.approx(0.5)
    assert fairness_of(0.625, 4) == pytest.approx(0.5)  # (1 - r) / (1 - f)


def test_fairness_counts_a_shared_first_place_as_a_share_of_a_win():
    # CardStock's scorer: seat 0 shares first place with seat 1 once in three games: half a win, r = 1/6
    games = [log([], [(1, 1)], RANDOM, 0), log([], [(2, 1)], RANDOM, 1), log([], [(2, 1)], RANDOM, 2)]
    assert figures({RANDOM: games})["fairness"] == pytest.approx(fairness_of(1 / 6, 2))


def test_meaningful_moves_variance_and_spread():
    g = log([dec(0, [0.2, 0.8]), dec(1, [0.5, 0.5]), dec(0, [1.0, 0.0, 0.4], options=3), dec(1)], [(1, 2)])
    f = figures({ALL_AI: [g]}, max_options=3)
    assert f["meaningful_moves"] == pytest.approx((0.6 + 0.0 + 1.0) / 3)  # the unestimated decision is left out
    assert f["variance"] == pytest.approx(f["meaningful_moves"] + 0.2 * 1.0)


def test_drama_follows_the_winner_below_the_threshold():
    # winner (seat 1) leads 0.3, 0.6, 0.9: one lead under 0.5; the loser's leads do not count
    g = log([dec(1, [0.3, 0.1]), dec(0, [0.1, 0.0]), dec(1, [0.6, 0.2]), dec(1, [0.9, 0.0])], [(2, 1)])
    assert figures({ALL_AI: [g]})["drama"] == pytest.approx(math.sqrt(0.2))
    assert figures({ALL_AI: [g]}, threshold=0.7)["drama"] == pytest.approx((math.sqrt(0.4) + math.sqrt(0.1)) / 2)


def test_drama_is_zero_when_the_winner_was_never_behind():
    g = log([dec(0, [0.9, 0.2]), dec(0, [0.7, 0.1])], [(1, 2)])
    assert figures({ALL_AI: [g]})["drama"] == 0.0


def test_drama_thresholds():
    assert drama_threshold(4) == 0.5
    assert drama_threshold(4, "blog") == pytest.approx((1 + 2 / 3) / 2)
    assert drama_threshold(2, "blog") == 0.5


def test_decisiveness():
    # winner's leads 0.5, 0.85, 0.9: k = 1, value (3 - 1) / 3; a second game never over 0.8: k = n - 1, value 1/2
    a = log([dec(0, [0.5, 0.1]), dec(0, [0.85, 0.1]), dec(0, [0.9, 0.0])], [(1, 2)], index=0)
    b = log([dec(1, [0.4, 0.1]), dec(1, [0.6, 0.3])], [(2, 1)], index=1)
    assert figures({ALL_AI: [a]})["decisiveness"] == pytest.approx(1 - 2 / 3)
    assert figures({ALL_AI: [a, b]})["decisiveness"] == pytest.approx(1 - (2 / 3 + 1 / 2) / 2)


def test_coolness_counts_every_players_drops():
    g = log([dec(0, [0.5, 0.0]), dec(1, [0.7, 0.0]), dec(0, [0.4, 0.0]), dec(1, [0.8, 0.0]), dec(0, [0.6, 0.0])],
            [(1, 2)])
    # seat 0: 0.5 -> 0.4 (drop) -> 0.6; seat 1: 0.7 -> 0.8: one drop in three pairs
    assert figures({ALL_AI: [g]})["coolness"] == pytest.approx(1 - 1 / 3)


def test_total_is_the_weighted_sum():
    games = {RANDOM: [log([], [(1, 2)], RANDOM), log([], [(2, 1)], RANDOM, 1)],
             ALL_AI: [log([dec(0, [0.9, 0.5]), dec(1, [0.4, 0.3]), dec(0, [0.95, 0.1])], [(1, 2)])]}
    f = figures(games)
    want = (0.5 * f["fairness"] + 0.5 * f["meaningful_moves"] + 0.25 * f["drama"] + 0.4 * f["decisiveness"]
            + 0.5 * f["coolness"])
    assert f["total"] == pytest.approx(want)
    assert f["fairness"] == 1.0


def test_order_and_security_from_the_one_ai_set():
    games = [log([dec(0, [0.6, 0.1]), dec(1), dec(0, [0.5, 0.2]), dec(0, [0.7, 0.0])], [(1, 2)], ONE_AI, i)
             for i in range(3)] + [log([dec(0, [0.2, 0.1])], [(2, 1)], ONE_AI, 3)]
    f = figures({ONE_AI: games})
    assert f["order"] == pytest.approx((0.75 - 0.5) / 0.5)
    assert f["security"] == pytest.approx(1 - 3 / 10)  # three drops over ten estimated decisions


def test_convergence_scaling():
    narrowing = log([dec(0, options=3), dec(1, options=2), dec(0, options=1)], [(1, 2)])
    level = log([dec(0, options=3), dec(1, options=3), dec(0, options=3)], [(1, 2)])
    widening = log([dec(0, options=1), dec(1, options=2), dec(0, options=3)], [(1, 2)])
    assert figures({ALL_AI: [narrowing]}, max_options=3)["convergence"] == pytest.approx(1.0)
    assert figures({ALL_AI: [level]}, max_options=3)["convergence"] == pytest.approx(0.5)
    assert figures({ALL_AI: [widening]}, max_options=3)["convergence"] == pytest.approx(0.0)


def test_heuristics_per_round_of_a_match():
    # two rounds: seat 0 wins round 0, seat 1 round 1; drama follows each round's winner
    g = log([dec(0, [0.3, 0.0], episode=0), dec(1, [0.2, 0.0], episode=1)], [(1, 2), (2, 1)], RANDOM)
    assert figures({RANDOM: [g]})["fairness"] == 1.0
    g2 = GameLog(0, ALL_AI, 0, 2, g.decisions, g.episodes, g.ranks, g.scores)
    assert figures({ALL_AI: [g2]})["drama"] == pytest.approx((math.sqrt(0.2) + math.sqrt(0.3)) / 2)


# ---- TAG metrics and climbing figures ---------------------------------------------------
def test_game_metrics():
    ds = [DecisionRecord(0, 3, size=10, hidden=0.5), DecisionRecord(0, 1, size=12, hidden=0.25),
          DecisionRecord(1, 2, size=14, hidden=0.0)]
    g = GameLog(0, RANDOM, 0, 2, tuple(ds), ((1, 1),), (1, 1), (3.0, 3.0), actions=4)
    row = game_metrics(g)
    assert (row["decisions"], row["choice_decisions"], row["turns"], row["action_space"]) == (3, 2, 2, 4)
    assert row["branching_factor"] == pytest.approx(2.0)
    assert row["state_size"] == pytest.approx(12.0) and row["hidden_information"] == pytest.approx(0.25)
    assert (row["ties"], row["score_spread"]) == (1.0, 0.0)
    m = metrics_compute({RANDOM: [row]})
    assert [m[f"branching_curve_{b}"] for b in (0, 3, 6)] == [3, 1, 2]


def test_climbing_figures():
    eps = [(1, 2, 3), (1, 3, 2), (3, 1, 2)]
    g = log([dec(2, episode=0)], eps, players=3)
    out = ClimbingFigures(3, True)({ALL_AI: [climbing_row(g)]})
    assert out["president_keeps_title"] == 0.5
    assert out["loser_climbs_out"] == 1.0
    assert out["mean_place_after_place_1"] == 2.0 and out["mean_place_after_place_3"] == 1.5
    assert out["exchange_worth"] == pytest.approx(-0.5)
    assert out["first_player_win_rate"] == 0.0 and out["first_player_advantage"] == pytest.approx(-1 / 3)


# ---- intervals ------------------------------------------------------------------------------
def test_bootstrap_is_seeded_and_brackets_the_value():
    rows = {RANDOM: [{"x": float(i % 2)} for i in range(40)]}

    def mean(s):
        return {"x": sum(r["x"] for r in s[RANDOM]) / len(s[RANDOM])}

    a, b = bootstrap(rows, mean, random.Random(1), 300), bootstrap(rows, mean, random.Random(1), 300)
    assert a.replicates == b.replicates
    iv = a.interval("x")
    assert iv.low < 0.5 < iv.high and 0.2 < iv.width < 0.45
    assert a.games_needed("x") == games_needed(iv.width, 40, 0.05 * 0.5) == math.ceil(40 * (iv.width / 0.025) ** 2)
    a.point["fairness"], a.replicates["fairness"] = 0.5, a.replicates["x"]  # on the 0..1 scale: absolute width
    assert a.games_needed("fairness") == math.ceil(40 * (iv.width / 0.05) ** 2)


def test_difference_is_significant_only_when_its_interval_excludes_zero():
    a = Bootstrap({"x": 0.2}, {"x": [0.18, 0.2, 0.22] * 20}, 10)
    b = Bootstrap({"x": 0.5}, {"x": [0.48, 0.5, 0.52] * 20}, 10)
    assert difference(a, b, "x").significant
    assert not difference(a, a, "x").significant


# ---- the estimator and the experiments on tiny games -------------------------------------------
def test_cardstock_estimator_values_each_option():
    state = TinyState("choice", 0)
    d = decide(CardStockEstimator(5), state.observation(0), state.legal_actions(), random.Random(1), explain=True)
    est = estimates(d, state.legal_actions())
    assert d.action == "a" and est.values == (1.0, 0.0) and est.view == (1.0, 0.0)


def test_search_players_can_estimate():
    agent = make_estimator("pimc:samples=8")
    state = TinyState("choice", 0)
    d = decide(agent, state.observation(0), state.legal_actions(), random.Random(1), explain=True)
    assert estimates(d, state.legal_actions()).values == (1.0, 0.0)
    with pytest.raises(AgentSpecError):
        make_estimator("cardstock:depth=3")


def test_fairness_zero_when_seat_zero_always_wins():
    a = analyze(TinySubject("seat0"), Config(games=30, seed=1, rollouts=2, replicates=50), speed=False)
    assert a.heuristics.point["fairness"] == 0.0
    assert a.heuristics.point["meaningful_moves"] == 0.0  # nothing a player does matters


def test_fairness_near_one_on_a_symmetric_coin_game():
    a = analyze(TinySubject("coin"), Config(games=400, seed=2, rollouts=1, replicates=200), speed=False)
    iv = a.heuristics.interval("fairness")
    assert iv.value > 0.88 and iv.high == pytest.approx(1.0, abs=0.02)
    assert abs(a.heuristics.point["order"]) < 0.15  # skill cannot beat a coin


def test_meaningful_moves_one_when_a_choice_decides():
    a = analyze(TinySubject("choice", turns=1), Config(games=10, seed=3, rollouts=3, replicates=50), speed=False)
    assert a.heuristics.point["order"] == 1.0  # the AI at seat 0 always picks the winning option
    assert a.heuristics.point["meaningful_moves"] == pytest.approx(0.5)  # seat 1's choice matters nothing


def test_units_are_seeded_by_set_and_index_alone():
    assert units(3, 7) == units(3, 7) and units(3, 7) != units(3, 8)
    assert [u.index for u in units(3, 7)] == list(range(9))
    run = PlayUnit(TinySubject("coin"), rollouts=2)
    todo = units(4, 5)
    assert run_units(run, todo, jobs=1) == [run(u) for u in todo]


def test_same_numbers_with_two_processes():
    run = PlayUnit(TinySubject("coin"), rollouts=2)
    todo = units(6, 9)
    assert run_units(run, todo, jobs=2) == run_units(run, todo, jobs=1)


# ---- records --------------------------------------------------------------------------------
values = st.none() | st.lists(st.floats(0, 1), min_size=1, max_size=4).map(tuple)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 9), st.integers(0, 2), values), max_size=6))
def test_game_log_round_trips(rows):
    import json

    ds = tuple(DecisionRecord(p, o, e, None if v is None else tuple(round(x, 6) for x in v)) for p, o, e, v in rows)
    g = GameLog(3, ONE_AI, 11, 4, ds, ((1, 2, 3, 4),) * 3, (1, 2, 3, 4), (4.0, 3.0, 2.0, 1.0), 5, False, 3)
    assert GameLog.from_json(json.loads(g.to_line())) == g


def test_report_of_several_games_is_one_self_contained_page(tmp_path):
    from recycle.analysis.report import write_report

    config = Config(games=6, seed=1, rollouts=1, replicates=20)
    analyses = [analyze(TinySubject(kind), config, speed=False) for kind in ("coin", "choice")]
    page = write_report(tmp_path, analyses, title="two games").read_text()
    assert "All 2 games" in page and "tiny-coin" in page and "tiny-choice" in page
    assert page.count("data:image/png;base64,") == 1 + 2 * 5


def test_a_subject_can_carry_its_game_text(shared_dir, tmp_path):
    import shutil

    from recycle.interp.analysis_subject import RecycleSubject

    copy = tmp_path / "Agram2.gdl"
    shutil.copy(shared_dir / "recycle-corpus" / "gdl" / "Agram2.gdl", copy)
    shipped = RecycleSubject(str(copy)).with_text()
    copy.unlink()  # a worker elsewhere has no file: the text is enough
    run = PlayUnit(shipped, rollouts=1)
    assert run(units(1, 3)[2]).decisions
