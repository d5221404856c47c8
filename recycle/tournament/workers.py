"""Where games are played: in this process (-j1), or in it and a lean pool of spawned
workers (-jN: N - 1 workers, see `SharedWorkers`).

Why not `concurrent.futures`: its manager and feeder threads cost the parent
about half a millisecond per game, and on a 2-core machine every cycle the
parent spends is taken from a worker. Here each worker has one pipe; the
parent's main thread sends a game (a small frozen dataclass) down it and waits
on all pipes at once. Workers are `spawn`ed and rebuild their agents from the
spec strings, so nothing but strings and seeds crosses a process boundary.

The pool runs any *work unit*: a picklable `run(unit)` callable, where a unit
and its result both have an `index` (a tournament's `run` is
`match_runner(play, specs)`, playing a scheduled `Game` into a `GameRecord`;
`recycle.analysis` plays one game of one experiment set into a `GameLog`).
"""
from __future__ import annotations

import functools
import multiprocessing
import signal
import threading
import traceback
from collections import deque
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator, Sequence

from recycle.tournament.journal import GameRecord
from recycle.tournament.schedule import Game

#: (agent spec per seat, deal seed, game seed) -> per round: (place per seat, points per seat)
PlayMatch = Callable[[tuple[str, ...], int, int], Sequence[tuple[Sequence[int], Sequence[float]]]]
#: One work unit (anything with an `index`) -> its result (anything with the same `index`); picklable.
RunUnit = Callable[[Any], Any]


class WorkerError(RuntimeError):
    """A game failed in a worker (the message carries its traceback) or a worker died."""


def play_one(play: PlayMatch, specs: Sequence[str], game: Game) -> GameRecord:
    """Play one scheduled game and record it."""
    rounds = play(tuple(specs[b] for b in game.seats), game.deal_seed, game.game_seed)
    return GameRecord(game.index, game.deal, game.rotation, game.seats,
                      tuple(tuple(int(p) for p in places) for places, _ in rounds),
                      tuple(tuple(points) for _, points in rounds))


def match_runner(play: PlayMatch, specs: Sequence[str]) -> RunUnit:
    """A tournament's work: a scheduled `Game` -> its `GameRecord` (picklable)."""
    return functools.partial(play_one, play, tuple(specs))


class InlineWorker:
    """-j1: plays each game in this process when its result is asked for."""

    def __init__(self, run: RunUnit) -> None:
        self._run = run
        self._queue: deque = deque()

    def has_room(self) -> bool:
        return not self._queue

    def submit(self, game: Game) -> None:
        self._queue.append(game)

    @property
    def busy(self) -> int:
        return len(self._queue)

    def finished(self) -> list[GameRecord]:
        record = self._run(self._queue[0])  # a failure raises right here, the game still queued
        self._queue.popleft()
        return [record]

    @property
    def current(self) -> int:
        """The index of the game being played (or next to be)."""
        return self._queue[0].index

    def check(self) -> None:
        pass

    def ready(self) -> list[GameRecord]:
        return []

    def close(self, now: bool = False) -> None:
        self._queue.clear()


def _worker_main(conn: Connection, run: RunUnit) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # already inherited; kept for other start methods
    while True:
        try:
            game = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone (killed, perhaps): nothing to report to
        if game is None:
            return
        try:
            reply = (True, run(game))
        except Exception:
            reply = (False, f"game {game.index} failed in a worker:\n{traceback.format_exc()}")
        conn.send(reply)


@contextmanager
def children_ignore_ctrl_c() -> Iterator[None]:
    """Processes started inside ignore SIGINT from birth: Ctrl-C is the parent's to handle.

    An ignored signal stays ignored across exec, so a worker still importing
    cannot die with a traceback; meanwhile the parent blocks SIGINT (a blocked
    signal stays pending on Linux even while ignored) and gets it right after.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler if handler is not None else signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class ProcessWorkers:
    """`jobs` spawned processes, each with `depth` games queued so none waits for the parent."""

    def __init__(self, jobs: int, run: RunUnit, depth: int = 2) -> None:
        self.jobs, self.depth, self._args = jobs, depth, (run,)
        self._sent: dict[Connection, deque[int]] = {}
        self._procs: list = []
        self._dead: set[Connection] = set()
        self.failure: str | None = None  # the first game's failure, raised by check()

    def _start(self) -> None:
        """Started at the first game, so resuming a finished tournament starts none."""
        ctx = multiprocessing.get_context("spawn")
        for _ in range(self.jobs):
            parent_end, child_end = ctx.Pipe()
            proc = ctx.Process(target=_worker_main, args=(child_end, *self._args), daemon=True)
            with children_ignore_ctrl_c():
                proc.start()
            child_end.close()  # so the parent sees EOF if the worker dies
            self._sent[parent_end] = deque()
            self._procs.append(proc)

    def has_room(self) -> bool:
        return not self._procs or any(len(q) < self.depth for q in self._sent.values())

    def submit(self, game: Game) -> None:
        if not self._procs:
            self._start()
        conn = min(self._sent, key=lambda c: len(self._sent[c]))
        conn.send(game)
        self._sent[conn].append(game.index)

    @property
    def busy(self) -> int:
        return sum(len(q) for q in self._sent.values())

    def finished(self) -> list[GameRecord]:
        """Blocks until at least one game is done; returns every done game, in index order.

        After a failure it first collects every game still queued on healthy
        workers (finished work is never thrown away), then `check()` raises.
        """
        records = self._receive(wait(self._waiting()))
        if self.failure:
            records += self.drain()
        return sorted(records, key=lambda r: r.index)

    def check(self) -> None:
        if self.failure:
            raise WorkerError(self.failure)

    def ready(self) -> list[GameRecord]:
        """Games already done, without waiting (after Ctrl-C, or between games played here)."""
        try:
            return self._receive([c for c in self._waiting() if c.poll()])
        except (OSError, EOFError):
            return []

    def drain(self) -> list[GameRecord]:
        """Every game still queued on a healthy worker, waiting for each (before a failure is raised)."""
        records: list[GameRecord] = []
        while self._waiting():
            records += self._receive(wait(self._waiting()))
        return records

    def _waiting(self) -> list[Connection]:
        return [c for c, q in self._sent.items() if q and c not in self._dead]

    def _receive(self, conns) -> list[GameRecord]:
        records = []
        for conn in conns:
            try:
                ok, payload = conn.recv()
            except EOFError:
                self._dead.add(conn)
                self.failure = self.failure or "a worker process died while playing (out of memory, or killed?)"
                continue
            self._sent[conn].popleft()
            if ok:
                records.append(payload)
            else:
                self.failure = self.failure or payload
        return records

    def close(self, now: bool = False) -> None:
        """Stop the workers; `now` abandons games in progress (Ctrl-C, SPRT stop, errors)."""
        for conn in self._sent:
            try:
                conn.send(None)
            except OSError:
                pass
        for proc in self._procs:
            proc.join(timeout=0.2 if now else 5)
            if proc.is_alive():
                proc.terminate()
                proc.join()
        for conn in self._sent:
            conn.close()


class SharedWorkers:
    """-jN (N > 1): N - 1 spawned workers, and this process plays too.

    On a machine with N cores this keeps N processes playing with none started
    in vain: this process plays from its first moment while the workers are
    still starting, and its own bookkeeping (journal, tally) costs no extra
    process a core. The workers' queues are filled first, `depth` deep, so they
    never wait while this process plays a game; this process takes a game only
    when they are full, and collects their results between its games.
    """

    def __init__(self, jobs: int, run: RunUnit, depth: int = 3) -> None:
        self.pool = ProcessWorkers(jobs - 1, run, depth)
        self.own = InlineWorker(run)
        self.failure: str | None = None

    def has_room(self) -> bool:
        return self.pool.has_room() or self.own.has_room()

    def submit(self, game: Game) -> None:
        (self.pool if self.pool.has_room() else self.own).submit(game)

    @property
    def busy(self) -> int:
        return self.pool.busy + self.own.busy

    def finished(self) -> list[GameRecord]:
        if not self.own.busy:
            return self.pool.finished()
        try:
            records = self.own.finished()
        except Exception:  # as a worker's failure: first keep the games the workers finish
            index = self.own.current
            self.own.close()
            self.failure = f"game {index} failed:\n{traceback.format_exc()}"
            return sorted(self.pool.drain(), key=lambda r: r.index)
        return sorted(records + self.pool.ready(), key=lambda r: r.index)

    def check(self) -> None:
        if self.failure:
            raise WorkerError(self.failure)
        self.pool.check()

    def ready(self) -> list[GameRecord]:
        return self.pool.ready()

    def close(self, now: bool = False) -> None:
        self.own.close()
        self.pool.close(now)
