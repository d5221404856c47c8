"""Tournaments on a Dask cluster (`--cluster`): the same results as -j1, nothing lost, files sent along."""
from __future__ import annotations

import dataclasses
import os
import shutil
import signal
from pathlib import Path

import pytest

from president.match.tournament import PresidentMatch
from president.game.settings import preset
from recycle.kernel import user_files as uploads
from recycle.tournament import Journal, Schedule, Tally, records, run_tournament
from recycle.tournament import cluster
from recycle.tournament.cluster import BLOCK, ClusterError, ClusterSpec, block_size, run_task

pytest.importorskip("distributed")

MINE = "; a user's personality, found by name in a rules folder\nLp\nL*\n"


def test_blocks_are_large_for_long_runs_and_feed_every_worker_thread_in_short_ones():
    assert block_size(10_000, 2) == BLOCK  # a long tournament: Dask's cost per task is paid rarely
    for units, threads in ((200, 64), (100, 2), (40, 8), (1, 1)):
        block = block_size(units, threads)
        assert 1 <= block <= BLOCK and (units // block >= 2 * threads or block == 1)
    assert block_size(None, 4) == BLOCK // 4


def test_without_a_fork_server_the_local_workers_are_spawned(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])  # as on Windows
    config = cluster.start_forkserver()
    assert "distributed.worker.multiprocessing-method" not in config
    assert config["distributed.worker.profile.enabled"] is False


def test_cluster_spec_text():
    assert ClusterSpec.parse("local") == ClusterSpec(None, 2)
    assert ClusterSpec.parse("local:3") == ClusterSpec(None, 3)
    assert ClusterSpec.parse("tcp://10.0.0.5:8786") == ClusterSpec("tcp://10.0.0.5:8786")
    assert str(ClusterSpec.parse("local:4")) == "local:4"
    # Dask's own default scheme is TCP: a bare HOST:PORT means it
    assert ClusterSpec.parse("10.0.0.5:8786") == ClusterSpec("tcp://10.0.0.5:8786")
    assert ClusterSpec.parse("sched.example:8786") == ClusterSpec("tcp://sched.example:8786")
    assert ClusterSpec.parse("[::1]:8786") == ClusterSpec("tcp://[::1]:8786")
    for bad in ("", "local:0", "local:x", "10.0.0.5", "10.0.0.5:port", "cluster", "a b:1"):
        with pytest.raises(ClusterError):
            ClusterSpec.parse(bad)


def test_a_worker_with_other_code_refuses_the_task():
    with pytest.raises(ClusterError, match="different version"):
        run_task(lambda unit: unit, [1], uploads.FileSet(), expected="0000000000000000")


def test_served_files_replace_the_disk(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "Mine.rul").write_text(MINE)
    play = PresidentMatch(preset("classic"), (rules,))
    with uploads.recording() as recorded:
        play.bot("Mine")
    files = recorded()
    shutil.rmtree(rules)  # the driver's folder is gone; a worker still has its copy
    with uploads.serving(files):
        assert play.bot("Mine").personality.rules
    with pytest.raises(Exception):
        play.bot("Mine")  # outside `serving`, the disk is read again: the file is gone


def _tournament(tmp_path: Path, name: str, play, specs, **options):
    schedule = Schedule(len(specs), play.players, 4, seed=11)
    tally = Tally(specs, play.players, rating=False)
    path = tmp_path / f"{name}.jsonl"
    journal = Journal.create(path, {"name": name})
    with journal:
        outcome = run_tournament(schedule, specs, play, tally, journal, **options)
    return outcome, tally.summary(), sorted(records(path, schedule), key=lambda r: r.index)


@pytest.mark.slow
def test_local_cluster_equals_one_process_even_when_a_worker_dies(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "Mine.rul").write_text(MINE)
    settings = dataclasses.replace(preset("classic"), rounds=2)
    play = PresidentMatch(settings, (rules,))
    specs = ["Mine", "Classic", "random"]
    _, expected, expected_records = _tournament(tmp_path, "one", play, specs)

    with uploads.recording() as recorded:
        for spec in specs:
            play.bot(spec)
    files = recorded()
    shutil.rmtree(rules)  # the workers must play from the files sent with the tasks

    killed, statuses = [], set()

    def kill_a_worker_once(done: int) -> None:
        statuses.add(cluster.status_line())
        if done >= 3 and not killed:
            pids = sorted(p.pid for p in _worker_processes())
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

    outcome, summary, got_records = _tournament(tmp_path, "cluster", play, specs,
                                                cluster=ClusterSpec(None, 2), files=files,
                                                progress=kill_a_worker_once)
    assert outcome.status == "complete" and outcome.played == len(expected_records)
    assert killed, "a worker was killed mid-run"
    assert any(s.startswith("cluster local:2: 2 workers, dashboard 127.0.0.1:") for s in statuses)
    assert cluster.status_line() == ""  # closed: no cluster in use
    assert summary == expected
    assert [(r.index, r.places, r.points) for r in got_records] == \
           [(r.index, r.places, r.points) for r in expected_records]


def _worker_processes():
    """The worker processes of a local cluster: forked by the fork server, a child of this process."""
    import psutil

    me = psutil.Process()
    servers = [p for p in me.children() if "forkserver" in " ".join(p.cmdline())]
    return [p for server in servers for p in server.children()]


@pytest.mark.slow
def test_cluster_run_killed_then_resumed_equals_an_uninterrupted_run(tmp_path):
    import json
    import subprocess
    import sys
    import time

    from president.cli import main

    args = ["Classic", "random", "Cautious", "--matches", "30", "--rounds", "2", "--seed", "21"]
    assert main(["tournament", *args, "-j1", "--out", str(tmp_path / "ref.jsonl"),
                 "--json", str(tmp_path / "ref.json")]) == 0
    reference = json.loads((tmp_path / "ref.json").read_text())
    journal = tmp_path / "killed.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "president.cli.main", "tournament", *args, "--cluster", "local:2",
                             "--out", str(journal)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while (not journal.exists() or journal.read_text().count("\n") <= 5) and proc.poll() is None:
            assert time.monotonic() < deadline, "the tournament never journaled a game"
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the driver, its scheduler and its workers
        proc.wait()
    done = journal.read_text().count("\n") - 1
    assert 0 < done < 150, f"killed after {done} games: not mid-tournament"
    assert main(["tournament", "--resume", str(journal), "--cluster", "local:2",
                 "--json", str(tmp_path / "resumed.json")]) == 0
    assert json.loads((tmp_path / "resumed.json").read_text()) == reference
    lines = journal.read_text().splitlines()
    assert len({json.loads(line)["game"] for line in lines[1:]}) == len(lines) - 1 == 150  # none lost or doubled


@pytest.mark.slow
def test_a_tiny_evolution_on_a_local_cluster_equals_one_process(tmp_path, monkeypatch):
    from president.cli import main

    monkeypatch.chdir(tmp_path)
    tiny = ["Classic.rul", "--generations", "1", "--population", "2", "--deals", "2", "--rounds", "1",
            "--seed", "4", "--against", "Cautious,Gambler"]
    assert main(["evolve", *tiny, "--journal", "a.jsonl", "--out", "a.rul"]) == 0
    assert main(["evolve", *tiny, "--journal", "b.jsonl", "--out", "b.rul", "--cluster", "local:2"]) == 0
    assert (tmp_path / "a.rul").read_text() == (tmp_path / "b.rul").read_text()


@pytest.mark.slow
def test_an_analysis_on_a_local_cluster_equals_one_process():
    from recycle.analysis import Config, RecycleSubject, analyze
    from recycle.games import game_path

    subject = RecycleSubject(game_path("Poker5"))
    config = Config(games=3, seed=5, rollouts=2, replicates=200)
    here = analyze(subject, config, speed=False).to_json()
    there = analyze(subject.with_text(), config, cluster=ClusterSpec(None, 2), speed=False).to_json()
    assert there == here and here["games"] == 3
