"""Where games are played: in this process (-j1) or in a lean pool of spawned workers.

Why not `concurrent.futures`: its manager and feeder threads cost the parent
about half a millisecond per game, and on a 2-core machine every cycle the
parent spends is taken from a worker. Here each worker has one pipe; the
parent's main thread sends a game (a small frozen dataclass) down it and waits
on all pipes at once. Workers are `spawn`ed and rebuild their agents from the
spec strings, so nothing but strings and seeds crosses a process boundary.
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
from typing import Callable, Iterator, Sequence

from .journal import GameRecord
from .schedule import Game

#: (agent spec per seat, deal seed, game seed) -> per round: (place per seat, points per seat)
PlayMatch = Callable[[tuple[str, ...], int, int], Sequence[tuple[Sequence[int], Sequence[float]]]]


class WorkerError(RuntimeError):
    """A game failed in a worker (the message carries its traceback) or a worker died."""


def play_one(play: PlayMatch, specs: Sequence[str], game: Game) -> GameRecord:
    """Play one scheduled game and record it."""
    rounds = play(tuple(specs[b] for b in game.seats), game.deal_seed, game.game_seed)
    return GameRecord(game.index, game.deal, game.rotation, game.seats,
                      tuple(tuple(int(p) for p in places) for places, _ in rounds),
                      tuple(tuple(points) for _, points in rounds))


class InlineWorker:
    """-j1: plays each game in this process when its result is asked for."""

    def __init__(self, play: PlayMatch, specs: Sequence[str]) -> None:
        self._run = functools.partial(play_one, play, tuple(specs))
        self._queue: deque[Game] = deque()

    def has_room(self) -> bool:
        return not self._queue

    def submit(self, game: Game) -> None:
        self._queue.append(game)

    @property
    def busy(self) -> int:
        return len(self._queue)

    def finished(self) -> list[GameRecord]:
        return [self._run(self._queue.popleft())]  # a failure raises right here

    def check(self) -> None:
        pass

    def ready(self) -> list[GameRecord]:
        return []

    def close(self, now: bool = False) -> None:
        self._queue.clear()


def _worker_main(conn: Connection, play: PlayMatch, specs: tuple[str, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # already inherited; kept for other start methods
    run = functools.partial(play_one, play, specs)
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

    def __init__(self, jobs: int, play: PlayMatch, specs: Sequence[str], depth: int = 2) -> None:
        self.jobs, self.depth, self._args = jobs, depth, (play, tuple(specs))
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
        while self.failure and self._waiting():
            records += self._receive(wait(self._waiting()))
        return sorted(records, key=lambda r: r.index)

    def check(self) -> None:
        if self.failure:
            raise WorkerError(self.failure)

    def ready(self) -> list[GameRecord]:
        """Games already done, without waiting (after Ctrl-C)."""
        try:
            return self._receive([c for c in self._waiting() if c.poll()])
        except (OSError, EOFError):
            return []

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
