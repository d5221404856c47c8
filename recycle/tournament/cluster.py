"""Games played on a Dask cluster: `--cluster tcp://HOST:8786` or `--cluster local[:N]`.

The same work units the local pool plays (one match, or one analysed game,
each seeded from the run's seed and its index) go to Dask's scheduler, which
hands them to any worker; results come back to this process, which journals
and counts them exactly as with `-j`, so a run's results do not depend on
where its games were played. Dask re-runs the tasks of a worker that dies;
each task's result is taken once, so nothing is counted twice.

Workers get everything from the task: the code is the installed project
(checked: a worker whose project differs from the driver's refuses the task,
see `fingerprint`), and the user files the driver read while checking the
bots and the game travel with the tasks (`recycle.kernel.uploads`).

Dask is an optional extra (`pip install ".[cluster]"`); nothing imports it
unless `--cluster` is given.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import re
import socket
import time
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from recycle.kernel import uploads
from recycle.kernel.uploads import FileSet

from .workers import InlineWorker, RunUnit, SharedWorkers, WorkerError

_LOCAL = re.compile(r"local(?::(\d+))?")
_ADDRESS = re.compile(r"(tcp|tls|inproc|ucx|ws|wss)://\S+")
#: Work units per task at most: a block of matches keeps Dask's per-task cost (milliseconds, in the
#: scheduler and the client, on the cores that play) small beside play: 8 cost 8-12% of a 2-core
#: machine, 32 nothing measurable. A run of few units gets smaller blocks (see `block_size`).
BLOCK = 32
#: Tasks queued per worker thread, so no worker waits for the next one.
DEPTH = 2
PACKAGES = ("recycle", "president", "personalities")


def block_size(units: int | None, threads: int) -> int:
    """Units per task for a run of `units` (None: not known) on `threads` worker threads: BLOCK, but
    small enough that every thread's queue gets DEPTH blocks twice over."""
    if units is None:
        return BLOCK // 4
    return max(1, min(BLOCK, units // (2 * DEPTH * threads)))


class ClusterError(ValueError):
    """A `--cluster` value that is no cluster, or a cluster that cannot be reached or used."""


@dataclass(frozen=True)
class ClusterSpec:
    """Where to play: a running scheduler's address, or a local cluster of `workers` processes."""

    address: str | None
    workers: int = 2

    @classmethod
    def parse(cls, text: str) -> "ClusterSpec":
        text = text.strip()
        local = _LOCAL.fullmatch(text)
        if local:
            workers = int(local.group(1) or 2)
            if not 1 <= workers <= 256:
                raise ClusterError(f"--cluster {text}: a local cluster has 1 to 256 workers")
            return cls(None, workers)
        if _ADDRESS.fullmatch(text):
            return cls(text)
        raise ClusterError(f"--cluster {text!r}: give a scheduler's address (tcp://HOST:8786) "
                           "or local[:N] for a cluster of N worker processes on this machine")

    def __str__(self) -> str:
        return self.address or f"local:{self.workers}"


def fingerprint() -> str:
    """A digest of the project's code and data as installed here (same on driver and workers, or refused)."""
    digest = hashlib.sha256()
    for package in PACKAGES:
        stack = [resources.files(package)]
        files = []
        while stack:
            for entry in stack.pop().iterdir():
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        stack.append(entry)
                elif entry.name.endswith((".py", ".rul", ".gdl", ".tcss")):
                    files.append(entry)
        for entry in sorted(files, key=lambda e: str(e)[len(str(resources.files(package))):]):
            digest.update(str(entry)[len(str(resources.files(package))):].encode())
            digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _worker_fingerprint() -> str:
    return fingerprint()  # once per worker process: its code does not change under it


def run_task(run: RunUnit, units: list, files: FileSet, expected: str) -> list:
    """A block of work units on a worker: refuse a different project, then play with the driver's files."""
    mine = _worker_fingerprint()
    if mine != expected:
        raise ClusterError(f"worker {socket.gethostname()} runs a different version of the project "
                           f"(code {mine}, the driver's {expected}): install the same version on every worker")
    with uploads.serving(files):
        return [run(unit) for unit in units]


def _import_dask():
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'president-rul[cluster]'") from None
    return distributed


#: Dask settings for the workers of a local cluster: no statistical profiler sampling the games'
#: stacks every 10 ms (a few percent of every worker's time, for a dashboard page nobody reads here),
#: and workers forked from one server process that has imported Dask and the project once, instead
#: of each worker process importing them anew (a CPU-second per worker, on the run's cores).
#: (Where there is no fork server, on Windows, the workers are spawned as Dask does by default.)
LOCAL_WORKER_CONFIG = {"distributed.worker.profile.enabled": False,
                       "distributed.worker.multiprocessing-method": "forkserver"}
#: What the fork server imports before forking the workers: Dask's worker and what plays the games.
FORKSERVER_PRELOAD = ["distributed", "president.bots", "recycle.tournament.runner", __name__]


def start_forkserver() -> dict:
    """Start the fork server of a local cluster's workers now, importing what they will need, so
    that it does so on another core while this process imports Dask (a no-op once it runs);
    the Dask settings for the local cluster's workers."""
    import multiprocessing
    from multiprocessing import forkserver

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return {k: v for k, v in LOCAL_WORKER_CONFIG.items() if not k.endswith("multiprocessing-method")}
    multiprocessing.get_context("forkserver").set_forkserver_preload(FORKSERVER_PRELOAD)
    forkserver.ensure_running()
    return LOCAL_WORKER_CONFIG


_live: "ClusterWorkers | None" = None  # the cluster this process is playing on now, for status_line()


def status_line() -> str:
    """What the cluster in use is doing, for a progress bar ("" when none is in use)."""
    pool = _live
    return pool.status() if pool is not None else ""


class ClusterWorkers:
    """The pool interface of `workers` (has_room, submit, busy, finished, check, ready, close) over Dask."""

    def __init__(self, spec: ClusterSpec, run: RunUnit, files: FileSet = FileSet(), tag: str = "game",
                 units: int | None = None) -> None:
        global _live
        local = spec.address is None and importlib.util.find_spec("distributed") is not None
        config = start_forkserver() if local else {}
        distributed = _import_dask()
        self._wait = distributed.wait
        self.spec, self.run, self.tag = spec, run, tag
        self._cluster = self.client = None
        self._pending: dict[Any, list[int]] = {}  # future -> its units' indexes
        self._block: list = []  # units waiting to fill a task
        self.failure: str | None = None
        try:
            if spec.address is None:
                import dask

                # The fork server runs already (start_forkserver); Dask's own first call would also
                # import every optional package it knows (numpy: 0.1 s) here, to preload them there.
                distributed.utils._forkserver_preload_set = True
                with dask.config.set(config):  # the nannies pass it on to their workers
                    self._cluster = distributed.LocalCluster(n_workers=spec.workers, threads_per_worker=1,
                                                             processes=True, dashboard_address=":0")
                self.client = distributed.Client(self._cluster)
            else:
                self.client = distributed.Client(spec.address, timeout="10s")
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {spec}: {exc}") from None
        self.threads = max(1, sum(self.client.nthreads().values()))
        self._connected, self._counted_at = len(self.client.nthreads()), time.monotonic()
        self.dashboard = self._dashboard_link()
        self._fingerprint = fingerprint()
        self.use(run, files, units)
        _live = self

    def use(self, run: RunUnit, files: FileSet, units: int | None = None) -> None:
        """Play the next `units` units (None: not known) with `run` and `files` (sent once to every
        worker, not with each task); the cluster and its workers stay (a run that measures in many
        rounds keeps one cluster)."""
        if self._pending or self._block:
            raise RuntimeError("use() while units are still being played")
        self.run, self.block = run, block_size(units, self.threads)
        self._files = self.client.scatter(files, broadcast=True)
        self._run = self.client.scatter(run, broadcast=True)

    def _dashboard_link(self) -> str:
        """The scheduler's dashboard address ("" if it serves none); asked once, as it never changes."""
        try:
            return self.client.dashboard_link or ""
        except (KeyError, AttributeError):  # a scheduler started without a dashboard
            return ""

    def workers(self) -> int:
        return len(self.client.nthreads())

    @property
    def window(self) -> int:
        """How far ahead of the first uncounted game a tournament may hand out games: every worker
        thread's queue of blocks twice over, so a slow block at the head never idles the others."""
        return 2 * DEPTH * self.threads * self.block + self.block

    def status(self) -> str:
        """For the progress bar: the workers connected (counted at most once a second) and the dashboard."""
        workers = f"cluster {self.spec}: {self._connected} worker{'s' * (self._connected != 1)}"
        link = self.dashboard.removeprefix("http://")
        return f"{workers}, dashboard {link}" if link else workers

    def has_room(self) -> bool:
        return len(self._pending) < DEPTH * self.threads

    def submit(self, unit: Any) -> None:
        self._block.append(unit)
        if len(self._block) >= self.block:
            self._send()

    def _send(self) -> None:
        if self._block:
            first = self._block[0].index
            future = self.client.submit(run_task, self._run, self._block, self._files, self._fingerprint,
                                        key=f"{self.tag}-{first}-{self._fingerprint}-{id(self)}", pure=False)
            self._pending[future] = [u.index for u in self._block]
            self._block = []

    @property
    def busy(self) -> int:
        return sum(map(len, self._pending.values())) + len(self._block)

    def finished(self) -> list[Any]:
        """Blocks until at least one task is done; every done unit's result, in index order."""
        self._send()  # a part-filled block goes now: nothing else is coming before we wait
        self._wait(list(self._pending), return_when="FIRST_COMPLETED")
        now = time.monotonic()
        if now - self._counted_at >= 1.0:  # one scheduler call a second at most
            self._connected, self._counted_at = self.workers(), now
        return self._collect()

    def ready(self) -> list[Any]:
        return self._collect()

    def _collect(self) -> list[Any]:
        results = []
        for future in [f for f in self._pending if f.done()]:
            indexes = self._pending.pop(future)
            if future.status == "finished":
                results += future.result()
            elif future.status != "cancelled":
                exc = future.exception()
                self.failure = self.failure or (f"{self.tag}s {indexes[0]}-{indexes[-1]} failed on the cluster: "
                                                f"{type(exc).__name__}: {exc}")
        return sorted(results, key=lambda r: r.index)

    def check(self) -> None:
        if self.failure:
            raise WorkerError(self.failure)

    def close(self, now: bool = False) -> None:
        global _live
        if _live is self:
            _live = None
        client = self.client
        if client is not None:
            if self._pending:
                client.cancel(list(self._pending))
            self._pending.clear()
            self._block = []
            client.close()
            self.client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def open_pool(jobs: int, run: RunUnit, cluster: ClusterSpec | None = None, files: FileSet = FileSet(),
              tag: str = "game", units: int | None = None):
    """Where a run's `units` work units (None: not known) are played: a Dask cluster, this process
    and jobs - 1 workers, or here."""
    if cluster is not None:
        return ClusterWorkers(cluster, run, files, tag, units)
    if files.texts or files.folders:  # read once, used throughout: a file edited mid-run changes nothing
        run = functools.partial(uploads.served_call, files, run)
    return SharedWorkers(jobs, run) if jobs > 1 else InlineWorker(run)



def cluster_argument(text: str) -> ClusterSpec:
    """`--cluster` as an argparse `type` (its message, not argparse's generic one)."""
    import argparse

    try:
        return ClusterSpec.parse(text)
    except ClusterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
