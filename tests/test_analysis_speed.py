"""Scheduling and the ETA of an analysis: the order keeps every process busy and changes no figure;
the ETA rests on what each kind of game costs (checked with a fake clock)."""
from __future__ import annotations

import pytest
from analysis_games import TinySubject
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from recycle.analysis import ALL_AI, ONE_AI, RANDOM, Config, PlayUnit, analyze, units
from recycle.analysis.eta import Eta
from recycle.analysis.experiment import schedule, run_units
from recycle.cli.progress import EtaColumn


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_schedule_times_every_kind_first_then_plays_the_costliest_first():
    order = schedule(units(4, 1))
    assert [u.set for u in order[:3]] == [RANDOM, ONE_AI, ALL_AI]  # one of each kind, cheapest first
    rest = [u.set for u in order[3:]]
    assert rest == [ALL_AI] * 3 + [ONE_AI] * 3 + [RANDOM] * 3  # so the run ends on short games
    assert sorted(u.index for u in order) == list(range(12))


@given(st.integers(1, 6), st.sets(st.integers(0, 17)))
def test_schedule_is_a_permutation_of_what_is_left(games, done):
    todo = [u for u in units(games, 3) if u.index not in done]
    assert sorted(schedule(todo), key=lambda u: u.index) == todo


def test_order_and_processes_change_no_log():
    run = PlayUnit(TinySubject("coin"), rollouts=2)
    todo = units(5, 4)
    timed: list = []
    logs = run_units(run, todo, jobs=2, on_played=lambda log, s: timed.append((log.index, s)))
    assert logs == [run(u) for u in todo]  # index order, as if played one after the other
    assert sorted(i for i, _ in timed) == list(range(15)) and all(s >= 0 for _, s in timed)


def test_analysis_reports_each_game_played_with_its_time_and_a_resume_only_the_rest():
    config = Config(games=3, seed=2, rollouts=2, replicates=20)
    seen: list = []
    full = analyze(TinySubject("coin"), config, speed=False, on_played=lambda log, s: seen.append(log.index))
    assert sorted(seen) == list(range(9))
    done = [g for logs in full.logs.values() for g in logs if g.set == ALL_AI]
    again: list = []
    resumed = analyze(TinySubject("coin"), config, speed=False, done=done,
                      on_played=lambda log, s: again.append(log.set))
    assert sorted(again) == [ONE_AI] * 3 + [RANDOM] * 3
    assert resumed.to_json() == full.to_json()


def test_eta_waits_for_every_kind_then_adds_what_is_left():
    clock = FakeClock()
    eta = Eta([RANDOM] * 3 + [ONE_AI] * 3 + [ALL_AI] * 3, processes=2, clock=clock)
    assert eta.seconds_left() is None  # nothing measured
    eta.finished(RANDOM, 0.01)
    eta.finished(ONE_AI, 1.0)
    assert eta.seconds_left() is None  # an all-AI game could cost anything: no guess
    eta.finished(ALL_AI, 4.0)
    # left: 2 random, 2 one-AI, 2 all-AI games on 2 processes
    assert eta.seconds_left() == pytest.approx((2 * 0.01 + 2 * 1.0 + 2 * 4.0) / 2)
    clock.now += 3.0  # no game ended: the estimate counts down
    assert eta.seconds_left() == pytest.approx(5.01 - 3.0)
    clock.now += 60.0
    assert eta.seconds_left() == 0.0  # late, never negative


def test_eta_follows_the_mean_of_each_kind_and_the_processes_left_busy():
    clock = FakeClock()
    eta = Eta([ALL_AI] * 3, processes=4, clock=clock)
    eta.finished(ALL_AI, 2.0)
    assert eta.seconds_left() == pytest.approx(2 * 2.0 / 2)  # two games left: two of four processes play
    eta.finished(ALL_AI, 4.0)
    assert eta.mean(ALL_AI) == 3.0
    assert eta.seconds_left() == pytest.approx(3.0)  # one game at the mean, on one process
    eta.finished(ALL_AI, 1.0)
    assert eta.seconds_left() == 0.0


def test_a_rate_over_every_game_would_have_promised_far_too_little():
    """The issue's case (BigTwo4, 30 games per set): the bar's mean rate, 3.6 games/s while the
    random games went by, promised seconds for what took minutes."""
    clock = FakeClock()
    eta = Eta([RANDOM] * 30 + [ONE_AI] * 30 + [ALL_AI] * 30, processes=1, clock=clock)
    for _ in range(30):
        eta.finished(RANDOM, 0.03)
    eta.finished(ONE_AI, 1.2)
    eta.finished(ALL_AI, 4.5)
    left = eta.seconds_left()
    assert left == pytest.approx(29 * 1.2 + 29 * 4.5)
    assert left > 5 * (58 / 3.6)  # the mean rate's promise for the 58 games left


def test_eta_column_shows_measuring_then_hours_minutes_seconds():
    console = Console(width=40, record=True)
    left = [None]
    column = EtaColumn(lambda: left[0])
    assert column.render(None).plain == "measuring"
    left[0] = 3725.4
    assert column.render(None).plain == "1:02:05"
    console.print(column.render(None))


@pytest.mark.parametrize("apply", ["_apply", "_play_option"])
def test_options_counted_before_a_playout_change_no_log(monkeypatch, apply):
    """The estimator plays each option in a state that only counts the next options, by the loop
    of the playout after it (`RecycleState.played_out`): the same moves and draws as the general
    machine playing it (`_apply`), or exploring every option (`_play_option`), so the same logs
    (BigTwo4, where counting applies; one rollout per option keeps it short)."""
    from recycle.interp.analysis_subject import RecycleSubject
    from recycle.analysis import estimator
    from recycle.games import game_path

    run = PlayUnit(RecycleSubject(game_path("BigTwo4")), rollouts=1)
    todo = [u for u in units(1, 5) if u.set != RANDOM]
    counted = [run(u) for u in todo]

    def machine_then_playout(world, action, index, rng):  # the option played apart from the playout
        if not getattr(estimator, apply)(world, action, index):
            return False
        world.random_playout(rng)
        return True
    monkeypatch.setattr(estimator, "_played_out", machine_then_playout)
    assert [run(u) for u in todo] == counted
    assert all(d.values for g in counted if g.set == ALL_AI for d in g.decisions)


def test_jobs_default_to_the_cores_this_process_may_use(monkeypatch):
    import argparse
    import os

    from recycle.cli.analysis import jobs_of

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    assert jobs_of(argparse.Namespace(jobs=None)) == 3
    assert jobs_of(argparse.Namespace(jobs=1)) == 1  # -j given: as given
