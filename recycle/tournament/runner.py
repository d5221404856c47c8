"""Playing a tournament's schedule: worker processes, the journal, resume, stops.

The game-specific part is a *play-match* callable: given the agent spec of
every seat, a deal seed and a game seed, it plays one match and returns, per
round, every seat's place and points. It must be picklable (a module-level
function or an instance of a module-level class): workers are started with
`spawn` and rebuild their agents from the spec strings for every game, so no
agent state crosses games or processes and results cannot depend on which
worker played what.

Games finish in any order; each is journaled at once, then counted by the
tally strictly in index order through a small reordering buffer. Games are
only handed out within a window ahead of the first uncounted one, which
bounds that buffer (and what a kill can leave unfinished) by the window.
"""
from __future__ import annotations

import functools
import multiprocessing
import signal
import threading
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from .journal import GameRecord, Journal, JournalError
from .schedule import Game, Schedule
from .tally import Tally

#: (agent spec per seat, deal seed, game seed) -> per round: (place per seat, points per seat)
PlayMatch = Callable[[tuple[str, ...], int, int], Sequence[tuple[Sequence[int], Sequence[float]]]]

COMPLETE, DECIDED, INTERRUPTED = "complete", "decided", "interrupted"


@dataclass
class RunOutcome:
    status: str  # COMPLETE, DECIDED (the SPRT stopped it) or INTERRUPTED (Ctrl-C)
    replayed: int  # games read back from the journal
    played: int  # games played by this run


def play_one(play: PlayMatch, specs: Sequence[str], game: Game) -> GameRecord:
    """Play one scheduled game and record it."""
    rounds = play(tuple(specs[b] for b in game.seats), game.deal_seed, game.game_seed)
    return GameRecord(game.index, game.deal, game.rotation, game.seats,
                      tuple(tuple(int(p) for p in places) for places, _ in rounds),
                      tuple(tuple(points) for _, points in rounds))


_WORKER_PLAY: Callable[[Game], GameRecord] | None = None


def _init_worker(play: PlayMatch, specs: Sequence[str]) -> None:
    global _WORKER_PLAY
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # already inherited; kept for other start methods
    _WORKER_PLAY = functools.partial(play_one, play, tuple(specs))


def _worker_game(game: Game) -> GameRecord:
    return _WORKER_PLAY(game)


@contextmanager
def _children_ignore_ctrl_c() -> Iterator[None]:
    """Processes started inside ignore SIGINT from birth: Ctrl-C is the parent's to handle.

    An ignored signal stays ignored across exec, so a worker still importing
    cannot die with a traceback; meanwhile the parent blocks SIGINT (a blocked
    signal stays pending on Linux even while ignored) and gets it right after.
    Threads started inside (the pool's manager) inherit the block for good,
    so Ctrl-C always reaches the main thread.
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


class _Inline:
    """A stand-in for the process pool with -j1: plays each game when submitted."""

    def __init__(self, play: PlayMatch, specs: Sequence[str]) -> None:
        self._play = functools.partial(play_one, play, tuple(specs))

    def submit(self, _fn, game: Game) -> Future:
        future: Future = Future()
        future.set_result(self._play(game))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


class _Feeder:
    """Journals finished games and counts them in index order."""

    def __init__(self, tally: Tally, journal: Journal, progress: Callable[[int], None] | None) -> None:
        self.tally, self.journal, self.progress = tally, journal, progress
        self.pending: dict[int, GameRecord] = {}
        self.next = 0  # the first game not counted yet

    def accept(self, record: GameRecord, fresh: bool) -> None:
        if record.index < self.next or record.index in self.pending:
            raise JournalError(f"{self.journal.path}: game {record.index} appears twice")
        if fresh:
            self.journal.append(record)
        self.pending[record.index] = record
        while self.next in self.pending and not self.tally.decided:
            self.tally.add(self.pending.pop(self.next))
            self.next += 1
        if self.progress:
            self.progress(self.next + len(self.pending))


def run_tournament(schedule: Schedule, specs: Sequence[str], play: PlayMatch, tally: Tally, journal: Journal,
                   jobs: int = 1, replay: Iterable[GameRecord] = (),
                   progress: Callable[[int], None] | None = None) -> RunOutcome:
    """Play every game of `schedule` not already in `replay` (a resumed journal's records).

    Returns when all games are counted, the tally's SPRT has decided, or on
    Ctrl-C; in every case the tally holds a consistent prefix of the games.
    """
    feeder = _Feeder(tally, journal, progress)
    replayed = played = 0
    window = 4 * jobs + 4
    if jobs > 1:  # no process starts before the first submit
        pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_init_worker, initargs=(play, tuple(specs)))
    else:
        pool = _Inline(play, specs)
    games = schedule.games()
    upcoming = next(games, None)
    in_flight: dict[Future, int] = {}
    status = COMPLETE
    try:
        for record in replay:
            if tally.decided:
                break
            feeder.accept(record, fresh=False)
            replayed += 1
        while not tally.decided:
            while (upcoming is not None and len(in_flight) < 2 * jobs
                   and upcoming.index < feeder.next + window):
                game, upcoming = upcoming, next(games, None)
                if game.index < feeder.next:
                    continue  # counted from the journal
                if game.index in feeder.pending:
                    if feeder.pending[game.index].seats != game.seats:
                        raise JournalError(f"{journal.path}: game {game.index} does not match this schedule")
                    continue
                with _children_ignore_ctrl_c():  # the pool starts its workers inside submit
                    in_flight[pool.submit(_worker_game, game)] = game.index
            if not in_flight:
                break
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=in_flight.__getitem__):  # journal order: reproducible with -j1
                del in_flight[future]
                feeder.accept(future.result(), fresh=True)
                played += 1
    except KeyboardInterrupt:
        status = INTERRUPTED
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    if status == INTERRUPTED:  # games that finished while stopping are work too: keep them
        for future in sorted(in_flight, key=in_flight.__getitem__):
            if future.done() and not future.cancelled() and future.exception() is None:
                feeder.accept(future.result(), fresh=True)
                played += 1
    elif tally.decided:
        status = DECIDED
    elif feeder.next < schedule.total_games:
        raise JournalError(f"{journal.path}: games are missing after game {feeder.next}")
    tally.finish()
    return RunOutcome(status, replayed, played)
