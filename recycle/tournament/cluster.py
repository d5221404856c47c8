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
bots and the game travel with the tasks (`recycle.kernel.user_files`).

Dask is an optional extra (`pip install ".[cluster]"`); nothing imports it
unless `--cluster` is given.
"""
from __future__ import annotations

import functools
import importlib.util
import logging
import sys
import time
import uuid
from typing import Any, Callable

from recycle.kernel import user_files as uploads
from recycle.kernel.user_files import FileSet

from recycle.tournament.cluster_checks import (  # noqa: F401  (re-exported: the commands and tests name them here)
    CONNECT_SECONDS, NO_WORKER_SECONDS, ClusterError, ClusterSpec, cluster_argument, fingerprint,
    refuse_jobs_with_cluster, run_task, scheduler_identity, worker_identity, worker_problem)
from recycle.tournament.workers import InlineWorker, RunUnit, SharedWorkers, WorkerError

#: Work units per task at most: a block of matches keeps Dask's per-task cost (milliseconds, in the
#: scheduler and the client, on the cores that play) small beside play: 8 cost 8-12% of a 2-core
#: machine, 32 nothing measurable. A run of few units gets smaller blocks (see `block_size`).
BLOCK = 32
#: Tasks queued per worker thread, so no worker waits for the next one.
DEPTH = 2


def block_size(units: int | None, threads: int) -> int:
    """Units per task for a run of `units` (None: not known) on `threads` worker threads: BLOCK, but
    small enough that every thread's queue gets DEPTH blocks twice over."""
    if units is None:
        return BLOCK // 4
    return max(1, min(BLOCK, units // (2 * DEPTH * threads)))


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
FORKSERVER_PRELOAD = ["distributed", "president.agents.bots", "recycle.tournament.runner", __name__,
                      "recycle.tournament.cluster_checks"]


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


def _announce(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class ClusterWorkers:
    """The pool interface of `workers` (has_room, submit, busy, finished, check, ready, close) over Dask.

    Every worker is checked when it joins (`worker_identity`); one that cannot import the project
    or runs another version is named once and left out: the run's data and tasks go only to the
    workers that passed, so a bad worker neither stalls nor fails the run. Every wait is bounded:
    a scheduler that stops answering, or a cluster left with no worker able to play, ends the run
    with a `ClusterError` (its finished games are already journaled)."""

    def __init__(self, spec: ClusterSpec, run: RunUnit, files: FileSet = FileSet(), tag: str = "game",
                 units: int | None = None, announce: Callable[[str], None] = _announce) -> None:
        global _live
        local = spec.address is None and importlib.util.find_spec("distributed") is not None
        config = start_forkserver() if local else {}
        distributed = _import_dask()
        self._wait = distributed.wait
        self.spec, self.run, self.tag, self.announce = spec, run, tag, announce
        self._cluster = self.client = None
        self._pending: dict[Any, list[int]] = {}  # future -> its units' indexes
        self._block: list = []  # units waiting to fill a task
        self._checked: dict[str, str | None] = {}  # worker address -> why it cannot play (None: it can)
        self.failure: str | None = None
        self._quiet = _QuietDask()  # Dask's own log lines would repeat, as tracebacks, what we say in one
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
                scheduler_identity(spec.address)
                self.client = distributed.Client(spec.address, timeout=f"{CONNECT_SECONDS}s")
        except ClusterError:
            self.close()
            raise
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {spec}: {exc}") from None
        self._fingerprint = fingerprint()
        self._name = uuid.uuid4().hex[:16]  # tells this pool's tasks from another driver's on the scheduler
        self._check_workers(wait_for_one=True)
        self.threads = max(1, sum(self.client.nthreads(self.playing).values()))
        self._connected, self._counted_at = len(self.playing), time.monotonic()
        self.dashboard = self._dashboard_link()
        link = f", dashboard {self.dashboard}" if self.dashboard else ""
        self.announce(f"cluster {spec}: {len(self.playing)} worker{'s' * (len(self.playing) != 1)}{link}")
        self.use(run, files, units)
        _live = self

    @property
    def playing(self) -> list[str]:
        """The workers that passed their check and are still connected."""
        return sorted(a for a, problem in self._checked.items() if problem is None)

    def _check_workers(self, wait_for_one: bool = False) -> None:
        """Check the workers that joined since the last call; forget those that left. With
        `wait_for_one`, wait (bounded) until at least one worker can play."""
        deadline = time.monotonic() + NO_WORKER_SECONDS
        while True:
            connected = set(self.client.nthreads())
            for gone in set(self._checked) - connected:
                del self._checked[gone]
            new = sorted(connected - set(self._checked))
            if new:
                answers = self.client.run(worker_identity, workers=new, on_error="return")
                for address in new:
                    problem = worker_problem(answers.get(address, RuntimeError("no answer")), self._fingerprint)
                    self._checked[address] = problem
                    if problem:
                        self.announce(f"cluster {self.spec}: worker {address} left out: it {problem}")
            if self.playing or not wait_for_one:
                return
            if time.monotonic() > deadline:
                left_out = len(self._checked)
                raise ClusterError(f"no worker of the cluster {self.spec} can play after {NO_WORKER_SECONDS} s "
                                   f"({left_out} left out, see above): start workers with this project "
                                   "installed (the same version)")
            time.sleep(0.5)

    def use(self, run: RunUnit, files: FileSet, units: int | None = None) -> None:
        """Play the next `units` units (None: not known) with `run` and `files` (sent once to every
        worker that plays, not with each task); the cluster and its workers stay (a run that
        measures in many rounds keeps one cluster)."""
        if self._pending or self._block:
            raise RuntimeError("use() while units are still being played")
        self.run, self.block = run, block_size(units, self.threads)
        # Task keys unique to this pool and this use: Dask answers a key it still holds with the
        # result it has, so a key reused by the next round (evolution measures in many) could
        # return the last round's block, whose units are not this round's.
        self._uses = getattr(self, "_uses", 0) + 1
        self._files = self.client.scatter(files, workers=self.playing, broadcast=True)
        self._run = self.client.scatter(run, workers=self.playing, broadcast=True)

    def _dashboard_link(self) -> str:
        """The scheduler's dashboard address ("" if it serves none); asked once, as it never changes."""
        try:
            return self.client.dashboard_link or ""
        except (KeyError, AttributeError):  # a scheduler started without a dashboard
            return ""

    def workers(self) -> int:
        return len(self.playing)

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
                                        key=f"{self.tag}-{first}-{self._uses}-{self._name}", pure=False,
                                        workers=self.playing, allow_other_workers=False)
            self._pending[future] = [u.index for u in self._block]
            self._block = []

    @property
    def busy(self) -> int:
        return sum(map(len, self._pending.values())) + len(self._block)

    def finished(self) -> list[Any]:
        """Blocks (bounded: see the class) until at least one task is done; every done unit's
        result, in index order."""
        self._send()  # a part-filled block goes now: nothing else is coming before we wait
        alone_since = None
        while True:
            self._lost_scheduler()
            try:
                self._wait(list(self._pending), timeout=1.0, return_when="FIRST_COMPLETED")
                break
            except TimeoutError:
                pass
            except Exception:  # the scheduler went away while we waited
                self._lost_scheduler(gone=True)
                raise
            now = time.monotonic()
            if now - self._counted_at >= 1.0:  # one scheduler call a second at most
                try:
                    self._check_workers()
                except OSError:
                    self._lost_scheduler(gone=True)
                    raise
                self._connected, self._counted_at = len(self.playing), now
            if self.playing:
                alone_since = None
            elif alone_since is None:
                alone_since = now
            elif now - alone_since > NO_WORKER_SECONDS:
                raise ClusterError(f"the cluster {self.spec} has had no worker able to play for "
                                   f"{NO_WORKER_SECONDS} s: the finished {self.tag}s are kept")
        return self._collect()

    def _lost_scheduler(self, gone: bool = False) -> None:
        """Raise if the client lost its scheduler for good (Dask gives up reconnecting after a
        while); `gone`: a call to it failed just now."""
        if gone or self.client.status not in ("running", "connecting", "newly-created"):
            raise ClusterError(f"the Dask scheduler at {self.spec} stopped answering: the {self.tag}s "
                               "finished before are kept")

    def ready(self) -> list[Any]:
        return self._collect()

    def _collect(self) -> list[Any]:
        results = []
        for future in [f for f in self._pending if f.done()]:
            if future.status not in ("finished", "error", "cancelled"):
                continue  # "lost" since done() answered (its worker died): Dask computes it again
            indexes = self._pending.pop(future)
            if future.status == "finished":
                try:
                    results += future.result()  # fetched from the scheduler: it may be gone by now
                except OSError:
                    self._lost_scheduler(gone=True)
            elif future.status == "cancelled":  # not by us (close() cancels only what it drops)
                self._lost_scheduler()
                self.failure = self.failure or f"{self.tag}s {indexes[0]}-{indexes[-1]} were cancelled by the cluster"
            else:
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
            try:
                if self._pending:
                    client.cancel(list(self._pending))
                client.close(timeout=CONNECT_SECONDS)
            except Exception:  # a scheduler already gone: there is nothing left to close
                pass
            self._pending.clear()
            self._block = []
            self.client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None
        self._quiet.restore()


class _QuietDask:
    """Dask's driver-side loggers silenced while a pool lives (restored after)."""

    NAMES = ("distributed", "distributed.client", "distributed.core", "distributed.comm", "tornado")

    def __init__(self) -> None:
        self.levels = {name: logging.getLogger(name).level for name in self.NAMES}
        for name in self.NAMES:
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)

    def restore(self) -> None:
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)
        self.levels = {}


def open_pool(jobs: int, run: RunUnit, cluster: ClusterSpec | None = None, files: FileSet = FileSet(),
              tag: str = "game", units: int | None = None, block: int | None = None):
    """Where a run's `units` work units (None: not known) are played: a Dask cluster, this process
    and jobs - 1 workers, or here. `block`: units per cluster task (None: `block_size`'s)."""
    if cluster is not None:
        workers = ClusterWorkers(cluster, run, files, tag, units)
        if block is not None:
            workers.block = block
        return workers
    if files.texts or files.folders:  # read once, used throughout: a file edited mid-run changes nothing
        run = functools.partial(uploads.served_call, files, run)
    return SharedWorkers(jobs, run) if jobs > 1 else InlineWorker(run)
