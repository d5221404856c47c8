"""Cluster faults are a user's, not our bugs: one line, a bounded wait, the run goes on where it can.

The slow test starts a real Dask scheduler with two good workers and two that cannot play (one
without the project, one with other code), as separate processes on this machine's loopback.
"""
from __future__ import annotations

import json
import pickle
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from recycle.climbing import adapter
from recycle.climbing.match import RecycleMatch
from recycle.kernel import user_files as uploads
from recycle.tournament import cluster
from recycle.tournament.cluster import ClusterError, worker_problem

pytest.importorskip("distributed")

HERE = Path(__file__).parent
GAMES = Path(adapter.__file__).parents[1] / "games"


def president(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "president.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_error_line(result: subprocess.CompletedProcess) -> str:
    """The run's error: exactly one line, and no traceback anywhere."""
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_a_bare_host_and_port_is_tcp():
    assert str(cluster.ClusterSpec.parse("127.0.0.1:8786")) == "tcp://127.0.0.1:8786"


def test_why_a_worker_cannot_play():
    assert worker_problem("abc", "abc") is None
    assert "different version" in worker_problem("abd", "abc")
    wrapped = Exception("ModuleNotFoundError(\"No module named 'recycle'\")")  # as Dask hands it back
    assert worker_problem(wrapped, "abc") == "cannot import the project (no module named 'recycle'): install it there"
    assert "failed its check (RuntimeError: no answer)" in worker_problem(RuntimeError("no answer"), "abc")


def test_nobody_listening_is_said_at_once(tmp_path):
    started = time.monotonic()
    result = president("tournament", "Classic", "random", "--matches", "1", "--rounds", "1", "--seed", "1",
                       "--cluster", f"127.0.0.1:{free_port()}", "--out", str(tmp_path / "t.jsonl"))
    assert result.returncode == 1
    assert "cannot reach a Dask scheduler" in one_error_line(result)
    assert time.monotonic() - started < 30


class _Silent(socketserver.BaseRequestHandler):
    def handle(self):  # takes the connection, never answers: as a dashboard's port does to Dask
        self.request.recv(1 << 16)
        time.sleep(30)


def test_a_port_that_takes_the_connection_but_is_no_scheduler(tmp_path):
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Silent)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        with pytest.raises(ClusterError, match="answers, but not as a Dask scheduler"):
            cluster.scheduler_identity(f"tcp://127.0.0.1:{port}", seconds=1)
    finally:
        server.shutdown()
        server.server_close()


class _FinishedButUnreachable:
    """A task the scheduler reported done, whose result can no longer be fetched: it died between."""
    status = "finished"

    def done(self) -> bool:
        return True

    def result(self):
        from distributed.comm.core import CommClosedError

        raise CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed")


def test_a_scheduler_that_dies_while_a_result_is_fetched_is_said_as_such():
    pool = object.__new__(cluster.ClusterWorkers)  # no scheduler: only the bookkeeping is exercised
    pool.spec, pool.tag, pool.client, pool.failure = "tcp://127.0.0.1:1", "game", None, None
    pool._pending = {_FinishedButUnreachable(): [0, 1]}
    with pytest.raises(ClusterError, match="stopped answering: the games finished before are kept"):
        pool.ready()


def test_jobs_and_cluster_together_are_refused(tmp_path):
    result = president("tournament", "Classic", "random", "-j", "2", "--cluster", "local:2",
                       "--out", str(tmp_path / "t.jsonl"))
    assert result.returncode == 2
    assert "-j 2 with --cluster" in one_error_line(result)


def test_without_dask_the_extra_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now fails
    with pytest.raises(ClusterError, match=r"pip install 'president-rul\[cluster\]'"):
        cluster._import_dask()


def test_a_climbing_game_given_by_path_plays_from_the_files_sent_along(tmp_path):
    """A worker never looks on its own disk: the game and its metadata (header or sidecar) travel."""
    folder = tmp_path / "games"
    folder.mkdir()
    header = folder / "Mine.gdl"
    shutil.copy(GAMES / "President5.gdl", header)
    text = (GAMES / "President5.gdl").read_text()
    sidecar = folder / "Side.gdl"
    sidecar.write_text("\n".join(line for line in text.splitlines() if "climbing:" not in line))
    (folder / "Side.climbing").write_text("climbing: hand=HAND table=TABLE order=VALUE\n")
    for path in (header, sidecar):
        with uploads.recording() as recorded:  # as the command does: the game and the bots
            play = RecycleMatch.of(str(path), None, None, ())
            play.bot("Classic")
            expected = play(("Classic", "random", "random", "random", "random"), 3, 4)
        files = recorded()
        worker_copy = pickle.loads(pickle.dumps(play))
        adapter._GAMES.clear()
        adapter._ADAPTERS.clear()  # a worker process starts with nothing read
        moved = tmp_path / "away"
        folder.rename(moved)  # the driver's files are not on the worker's disk
        try:
            with uploads.serving(files):
                assert worker_copy(("Classic", "random", "random", "random", "random"), 3, 4) == expected
        finally:
            moved.rename(folder)


class _Cluster:
    """A scheduler and workers started as processes on loopback, stopped at the end."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.logs = tmp_path
        self.procs: list[subprocess.Popen] = []
        dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
        self.scheduler = self._start("scheduler", dask + ["--host", "127.0.0.1", "--port", str(self.port),
                                                            "--dashboard-address", "127.0.0.1:0"])

    def _start(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "w")
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.procs.append(proc)
        return proc

    def worker(self, name: str, mode: str | None = None) -> None:
        if mode is None:
            argv = [sys.executable, "-m", "distributed.cli.dask_worker", self.address, "--nthreads", "1",
                    "--no-dashboard"]
        else:
            argv = [sys.executable, str(HERE / "cluster_worker.py"), mode, self.address]
        self._start(name, argv)

    def wait_for_workers(self, n: int, seconds: float = 120) -> None:
        """Until the scheduler listens and `n` workers joined (processes start slowly on a busy machine)."""
        from distributed import Client

        deadline = time.monotonic() + seconds
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.2)
        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(n, timeout=max(1.0, deadline - time.monotonic()))

    def log_size(self, name: str) -> int:
        return (self.logs / f"{name}.log").stat().st_size

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.mark.slow
def test_a_real_scheduler_with_bad_workers_plays_as_one_process_and_a_dead_one_is_said(tmp_path):
    grid = _Cluster(tmp_path)
    try:
        for name in ("good1", "good2"):
            grid.worker(name)
        grid.worker("no-project", "no-project")
        grid.worker("other-version", "other-version")
        grid.wait_for_workers(4)
        game = tmp_path / "Mine.gdl"  # a climbing game given by path, with its header metadata
        shutil.copy(GAMES / "President5.gdl", game)
        common = ["Classic", "Cautious", "--matches", "3", "--seed", "5"]
        for extra in ([], ["--game", str(game)]):
            alone = president("tournament", *common, *extra, "--rounds", "2", "-j", "1",
                              "--out", str(tmp_path / f"alone{len(extra)}.jsonl"),
                              "--json", str(tmp_path / f"alone{len(extra)}.json"))
            assert alone.returncode == 0, alone.stderr
            on_cluster = president("tournament", *common, *extra, "--rounds", "2", "--cluster", grid.address,
                                   "--out", str(tmp_path / f"cluster{len(extra)}.jsonl"),
                                   "--json", str(tmp_path / f"cluster{len(extra)}.json"))
            assert on_cluster.returncode == 0, on_cluster.stderr
            said = on_cluster.stderr
            assert "cannot import the project (no module named" in said
            assert "runs a different version of the project" in said
            assert said.count("dashboard http://127.0.0.1:") == 1  # printed once, though not on a terminal
            got, want = (json.loads((tmp_path / f"{k}{len(extra)}.json").read_text()) for k in ("cluster", "alone"))
            assert got == want
        assert grid.log_size("no-project") < 100_000  # left out at once: no stream of failures

        # The scheduler dies mid-run: one line within 30 s, exit 1, and the finished games are kept.
        journal = tmp_path / "long.jsonl"
        run = subprocess.Popen([sys.executable, "-m", "president.cli.main", "tournament", "Classic", "Cautious",
                                "--matches", "400", "--seed", "5", "--cluster", grid.address, "--out", str(journal)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while (not journal.exists() or len(journal.read_text().splitlines()) < 3) and time.monotonic() < deadline:
            time.sleep(0.2)
        grid.scheduler.kill()
        killed_at = time.monotonic()
        _, err = run.communicate(timeout=60)
        assert time.monotonic() - killed_at < 30
        assert run.returncode == 1, err
        errors = [line for line in err.splitlines() if line.startswith("error:")]
        assert errors == [f"error: the Dask scheduler at {grid.address} stopped answering: "
                          "the games finished before are kept"], err
        assert "Traceback" not in err
        assert len(journal.read_text().splitlines()) >= 3
    finally:
        grid.stop()
