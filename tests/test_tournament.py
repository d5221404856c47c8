"""`president tournament` and `recycle.tournament`: schedule, statistics, journal, resume."""
from __future__ import annotations

import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from president.cli.main import main
from recycle.tournament import (SPRT, ClusterSum, GameRecord, Schedule, Tally, TournamentJournal, WorkerError,
                                run_tournament, t_quantile, wilson)
from recycle.kernel.diagnostics import DiagnosticError
from recycle.tournament.journal import records, repair

from pure_runs import as_at_a_terminal

TINY = ["Classic", "random", "Cautious", "--matches", "3", "--rounds", "2", "--seed", "5"]


def run_cli(tmp_path: Path, *argv: str, name: str = "t") -> tuple[int, dict | None]:
    out = tmp_path / f"{name}.json"
    code = main(["tournament", *argv, "--json", str(out)])
    return code, json.loads(out.read_text()) if out.exists() else None


def journal_lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def journal_contents(path: Path) -> list[str]:
    """The records without their chain digests (which depend on the order games finished in)."""
    return [json.dumps({k: v for k, v in json.loads(line).items() if k != "#"}) for line in journal_lines(path)]


# ---- statistics against known values ------------------------------------------
def test_wilson_interval_of_50_in_100():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-5) and hi == pytest.approx(0.59617, abs=1e-5)
    lo, hi = wilson(0, 10)  # stays inside [0, 1] where the normal interval would not
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.27753, abs=1e-5)


@pytest.mark.parametrize("df, expected", [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706),
                                          (10, 2.2281), (30, 2.0423), (1000, 1.9623)])
def test_t_quantiles(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


def test_clustered_mean_equals_t_interval_on_per_deal_means():
    means = [2.0, 3.5, 2.5, 4.0, 3.0]
    acc = ClusterSum()
    for m in means:
        acc.add(m * 10, 10)  # deals of 10 rounds each
    half = t_quantile(0.975, 4) * statistics.stdev(means) / math.sqrt(len(means))
    lo, hi = acc.mean_ci()
    assert acc.mean == pytest.approx(3.0)
    assert (lo, hi) == (pytest.approx(3.0 - half), pytest.approx(3.0 + half))


def test_clustered_rate_is_wider_when_rounds_are_correlated():
    independent, correlated = ClusterSum(), ClusterSum()
    for deal in range(40):  # the same 50% rate; correlated deals are all-or-nothing
        independent.add(5, 10)
        correlated.add(10 if deal % 2 else 0, 10)
    w_ind = independent.rate_ci()
    w_cor = correlated.rate_ci()
    assert w_cor[1] - w_cor[0] > 2 * (w_ind[1] - w_ind[0])
    # identical deals give a zero cluster variance; the interval falls back to independent rounds
    assert w_ind == pytest.approx(wilson(200 * 399 / 400, 399, t_quantile(0.975, 39)))
    assert w_cor[0] < 0.5 < w_cor[1]


def test_sprt_boundaries_and_log_likelihood_ratio():
    test = SPRT(0.45, 0.55, alpha=0.05, beta=0.05)
    assert test.upper == pytest.approx(math.log(0.95 / 0.05))  # log((1-beta)/alpha)
    assert test.lower == pytest.approx(math.log(0.05 / 0.95))  # log(beta/(1-alpha))
    step = math.log(0.55 / 0.45)
    test.add(14, 14)  # 14 steps of log(11/9) = 2.809 < 2.944
    assert test.llr == pytest.approx(14 * step) and test.decision is None
    test.add(1, 1)
    assert test.decision == "H1"
    test.add(0, 30)  # 15 up, 30 down
    assert test.llr == pytest.approx(-15 * step) and test.decision == "H0"
    with pytest.raises(ValueError):
        SPRT(0.55, 0.45)


def test_head_to_head_shares_are_complementary():
    tally = Tally(["a", "b", "c"], 3, rating=False)
    rng = random.Random(1)
    for deal in range(4):
        for rot in range(3):
            places = tuple(tuple(rng.sample([1, 2, 3], 3)) for _ in range(2))
            tally.add(GameRecord(deal * 3 + rot, deal, rot, (0, 1, 2), places,
                                 tuple(tuple(3 - p for p in r) for r in places)))
    tally.finish()
    assert tally.pairs[0][1].mean + tally.pairs[1][0].mean == pytest.approx(1.0)
    assert tally.bots[0].rounds == 24 and tally.bots[0].place.k == 4


# ---- schedule ------------------------------------------------------------------
@pytest.mark.parametrize("bots, seats", [(5, 5), (3, 5), (2, 4), (7, 5)])
def test_duplicate_deals_cover_every_seat(bots, seats):
    schedule = Schedule(bots, seats, 14, seed=3)
    games = list(schedule.games())
    assert len(games) == schedule.total_games == 14 * seats
    for deal in range(14):
        rotations = [g for g in games if g.deal == deal]
        assert len({g.deal_seed for g in rotations}) == 1  # the same cards every rotation
        table = Counter(rotations[0].seats)
        for seat in range(seats):  # every bot at the table plays every seat's hand
            assert Counter(g.seats[seat] for g in rotations) == table
    plays = Counter(b for g in games for b in g.seats)
    assert set(plays) == set(range(bots)) and max(plays.values()) - min(plays.values()) <= seats


def test_balanced_draw_with_more_bots_than_seats():
    games = [g for g in Schedule(7, 5, 42, seed=9).games() if g.rotation == 0]
    plays = Counter(b for g in games for b in g.seats)
    meets = Counter((a, b) for g in games for a in g.seats for b in g.seats if a < b)
    assert len(set(plays.values())) == 1  # everyone plays equally often
    assert len(meets) == 21 and max(meets.values()) - min(meets.values()) <= 2
    assert list(Schedule(7, 5, 42, seed=9).games()) == list(Schedule(7, 5, 42, seed=9).games())
    assert list(Schedule(7, 5, 42, seed=9).tables()) != list(Schedule(7, 5, 42, seed=10).tables())


# ---- the command -----------------------------------------------------------------
def test_same_results_for_j1_and_j2(tmp_path):
    code1, one = run_cli(tmp_path, *TINY, "-j1", "--out", str(tmp_path / "a.jsonl"), name="a")
    code2, two = run_cli(tmp_path, *TINY, "-j2", "--out", str(tmp_path / "b.jsonl"), name="b")
    assert code1 == code2 == 0 and one == two
    assert one["games"] == 15 and one["rounds"] == 30 and one["status"] == "complete"
    a, b = journal_contents(tmp_path / "a.jsonl"), journal_contents(tmp_path / "b.jsonl")
    assert a[0] == b[0] and sorted(a[1:]) == sorted(b[1:]) and len(a) == 16


def test_resume_after_sigkill_equals_uninterrupted_run(tmp_path):
    args = ["Classic", "random", "Cautious", "--matches", "60", "--rounds", "2", "--seed", "21"]
    _, reference = run_cli(tmp_path, *args, "-j1", "--out", str(tmp_path / "ref.jsonl"), name="ref")
    journal = tmp_path / "killed.jsonl"
    kill_after = random.randint(5, 60)  # a random moment
    proc = subprocess.Popen([sys.executable, "-m", "president.cli.main", "tournament", *args, "-j2", "--out", str(journal)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while (not journal.exists() or len(journal_lines(journal)) <= kill_after) and proc.poll() is None:
            assert time.monotonic() < deadline, "the tournament never journaled a game"
            time.sleep(0.005)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the tournament and its workers, mid-game
        proc.wait()
    done = len(journal_lines(journal)) - 1
    assert 0 < done < 300, f"killed after {done} games: not mid-tournament"
    code, resumed = run_cli(tmp_path, "--resume", str(journal), "-j2", name="resumed")
    assert code == 0 and resumed == reference
    lines = journal_lines(journal)
    assert len(lines) == 301 and len({json.loads(l)["game"] for l in lines[1:]}) == 300  # none lost or doubled


def test_truncated_last_line_is_ignored_and_rewritten(tmp_path):
    journal = tmp_path / "t.jsonl"
    _, reference = run_cli(tmp_path, *TINY, "-j1", "--out", str(journal), name="ref")
    text = journal.read_text()
    journal.write_text(text[: len(text) - 25])  # the last game cut short, as by a kill
    code, resumed = run_cli(tmp_path, "--resume", str(journal), "-j1", name="resumed")
    assert code == 0 and resumed == reference
    assert journal.read_text().count("\n") == 16 and all(json.loads(l) for l in journal_lines(journal))


def test_damaged_line_in_the_middle_is_an_error(tmp_path):
    journal = tmp_path / "t.jsonl"
    run_cli(tmp_path, *TINY, "-j1", "--out", str(journal))
    lines = journal_lines(journal)
    lines[3] = lines[3][:10]
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(DiagnosticError, match="t.jsonl:4:1: error: not JSON"):
        repair(journal)
    assert main(["tournament", "--resume", str(journal)]) == 3  # a bad file, the line named


def test_resuming_with_a_different_configuration_is_an_error(tmp_path, capsys):
    journal = tmp_path / "t.jsonl"
    run_cli(tmp_path, *TINY, "-j1", "--out", str(journal))
    before = journal.read_text()
    assert main(["tournament", *TINY[:-2], "--seed", "6", "--resume", str(journal)]) == 2
    assert "different configuration" in capsys.readouterr().err and journal.read_text() == before
    assert main(["tournament", *TINY, "--out", str(journal)]) == 2  # never overwrites earlier work
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize("bots, code, message", [
    (["Classic", "NoSuchBot"], 2, "unknown bot"),
    (["Classic", "random:depth=3"], 2, "random takes no parameters"),
    (["Classic", "missing.rul"], 2, "no such personality file"),
    (["Classic", "BROKEN"], 3, "broken.rul"),
    (["Classic"], 2, "at least two bots"),
])
def test_bad_bots_fail_clearly_before_any_game(tmp_path, capsys, monkeypatch, bots, code, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.rul").write_text("; broken\nlp  NoSuchVariable > 1\n")
    bots = [str(tmp_path / "broken.rul") if b == "BROKEN" else b for b in bots]
    assert main(["tournament", *bots, "--matches", "1", "--seed", "1"]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.glob("*.jsonl"))  # no game started, no results file


def test_sprt_stops_when_decided(tmp_path):
    args = ["Classic", "random", "--matches", "100", "--rounds", "1", "--seed", "2", "--sprt", "Classic", "random"]
    code, data = run_cli(tmp_path, *args, "-j1", "--out", str(tmp_path / "s.jsonl"))
    assert code == 0 and data["status"] == "decided" and data["sprt"]["decision"] == "H1"
    assert data["games"] < 500 and data["games"] % 5 == 0  # decided at a deal's end, well before the budget
    assert data["sprt"]["llr"] >= data["sprt"]["upper"] == pytest.approx(math.log(19))
    assert main(["tournament", "Classic", "random", "--sprt", "Classic", "Gambler", "--seed", "1"]) == 2


def test_ctrl_c_stops_cleanly_with_a_partial_table(tmp_path):
    journal = tmp_path / "c.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "president.cli.main", "tournament", "Classic", "random", "--matches",
                             "2000", "--rounds", "2", "--seed", "4", "-j2", "--out", str(journal)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            start_new_session=True, preexec_fn=as_at_a_terminal)
    deadline = time.monotonic() + 60
    while (not journal.exists() or len(journal_lines(journal)) < 10) and time.monotonic() < deadline \
            and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends to the terminal's process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in out and "Classic" in out and "--resume" in err and "Traceback" not in err


def test_csv_and_plot(tmp_path):
    code, data = run_cli(tmp_path, *TINY, "-j1", "--out", str(tmp_path / "p.jsonl"),
                         "--csv", str(tmp_path / "t.csv"), "--plot", str(tmp_path / "t.png"))
    assert code == 0
    rows = (tmp_path / "t.csv").read_text().splitlines()
    assert rows[0].startswith("rank,bot,rounds,place_1") and len(rows) == 4
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for bot in data["bots"]:
        assert bot["rounds"] == sum(bot["places"]) and bot["rating"]["sigma"] > 0
        lo, hi = bot["mean_place"]["ci95"]
        assert lo <= bot["mean_place"]["value"] <= hi


class FailsOnDeal2:
    """A play-match callable (module level, so spawned workers can unpickle it) that breaks on deal 2."""

    def __call__(self, specs, deal_seed, game_seed):
        if deal_seed == 2:
            raise RuntimeError("bot crashed")
        return [((1, 2, 3), (2, 1, 0))]


def test_a_game_failing_in_a_worker_is_reported_and_earlier_games_kept(tmp_path):
    schedule = Schedule(3, 3, 5, seed=1, deal_seed=lambda d: d)
    with TournamentJournal.create(tmp_path / "f.jsonl", {}) as journal:
        with pytest.raises(WorkerError, match="bot crashed"):
            run_tournament(schedule, ["a", "b", "c"], FailsOnDeal2(), Tally("abc", 3, rating=False), journal, jobs=2)
    kept = {r.index for r in records(tmp_path / "f.jsonl")}
    assert set(range(6)) <= kept and not kept & {6, 7, 8}  # deals 0 and 1 saved, deal 2 never


@dataclass(frozen=True)
class FailsInProcess:
    """Breaks from deal 2 on, but only when played in process `pid` (the tournament's own)."""

    pid: int

    def __call__(self, specs, deal_seed, game_seed):
        if deal_seed >= 2 and os.getpid() == self.pid:
            raise RuntimeError("bot crashed in the main process")
        return [((1, 2, 3), (2, 1, 0))]


def test_with_jobs_the_main_process_plays_too_and_its_failures_keep_the_workers_games(tmp_path):
    schedule = Schedule(3, 3, 30, seed=1, deal_seed=lambda d: d)
    with TournamentJournal.create(tmp_path / "f.jsonl", {}) as journal:
        with pytest.raises(WorkerError, match="crashed in the main process"):
            run_tournament(schedule, ["a", "b", "c"], FailsInProcess(os.getpid()), Tally("abc", 3, rating=False),
                           journal, jobs=2)
    kept = {r.index for r in records(tmp_path / "f.jsonl")}
    assert set(range(6)) <= kept  # deals 0 and 1, played before anything failed
    assert len(kept) < schedule.total_games  # it stopped


def test_ratings_count_each_match_once_by_its_total_points():
    from recycle.tournament.tally import match_ranks

    # Three rounds: seat 0 wins two, seat 2 one with more points; a tie shares the place.
    assert match_ranks([(2, 1, 0), (2, 0, 1), (0, 1, 2)]) == [1, 3, 2]
    assert match_ranks([(1, 1, 0)]) == [1, 1, 3]
    tally = Tally(["strong", "weak", "middle"], 3)
    for i in range(30):
        seats = [(0, 1, 2), (1, 2, 0), (2, 0, 1)][i % 3]
        points = tuple(tuple(2 if b == 0 else 0 if b == 1 else 1 for b in seats) for _ in range(4))
        places = tuple(tuple(3 - p for p in r) for r in points)
        tally.add(GameRecord(i, i // 3, i % 3, seats, places, points))
    tally.finish()
    mus = {b.name: b.mu for b in tally.bots}
    assert mus["strong"] > mus["middle"] > mus["weak"]
