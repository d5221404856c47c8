"""Playing a tournament's schedule: the journal, resume, SPRT and Ctrl-C stops.

The game-specific part is a *play-match* callable (`workers.PlayMatch`):
given the agent spec of every seat, a deal seed and a game seed, it plays one
match and returns, per round, every seat's place and points. It must be
picklable (a module-level function or an instance of a module-level class):
workers are started with `spawn` and rebuild their agents from the spec
strings for every game, so no agent state crosses games or processes and
results cannot depend on which worker played what.

Games finish in any order; each is journaled at once, then counted by the
tally strictly in index order through a small reordering buffer. Games are
only handed out within a window ahead of the first uncounted one, which
bounds that buffer (and what a kill can leave unfinished) by the window.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from recycle.tournament.journal import GameRecord, Journal, JournalError
from recycle.tournament.schedule import Schedule
from recycle.tournament.tally import Tally
from recycle.kernel.user_files import FileSet

from recycle.tournament.cluster import ClusterSpec, open_pool
from recycle.tournament.workers import PlayMatch, match_runner

COMPLETE, DECIDED, INTERRUPTED = "complete", "decided", "interrupted"


@dataclass
class RunOutcome:
    status: str  # COMPLETE, DECIDED (the SPRT stopped it) or INTERRUPTED (Ctrl-C)
    replayed: int  # games read back from the journal
    played: int  # games played by this run


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
                   progress: Callable[[int], None] | None = None,
                   cluster: ClusterSpec | None = None, files: FileSet = FileSet()) -> RunOutcome:
    """Play every game of `schedule` not already in `replay` (a resumed journal's records).

    Returns when all games are counted, the tally's SPRT has decided, or on
    Ctrl-C; in every case the tally holds a consistent prefix of the games. With
    `cluster`, the games are played on a Dask cluster, with `files` (the user files
    the caller read while checking the bots) sent along.
    """
    feeder = _Feeder(tally, journal, progress)
    replayed = played = 0
    run = match_runner(play, specs)
    workers = open_pool(jobs, run, cluster, files, units=schedule.total_games)
    window = workers.window if cluster else 16 * jobs + 8
    games = schedule.games()
    upcoming = next(games, None)
    status = COMPLETE
    try:
        for record in replay:
            if tally.decided:
                break
            feeder.accept(record, fresh=False)
            replayed += 1
        while not tally.decided:
            while upcoming is not None and workers.has_room() and upcoming.index < feeder.next + window:
                game, upcoming = upcoming, next(games, None)
                if game.index < feeder.next:
                    continue  # counted from the journal
                if game.index in feeder.pending:
                    if feeder.pending[game.index].seats != game.seats:
                        raise JournalError(f"{journal.path}: game {game.index} does not match this schedule")
                    continue
                workers.submit(game)
            if not workers.busy:
                break
            for record in workers.finished():
                feeder.accept(record, fresh=True)
                played += 1
            workers.check()  # a failed game stops the tournament, after its finished games are saved
    except KeyboardInterrupt:
        status = INTERRUPTED
        for record in workers.ready():  # games that finished meanwhile are work too: keep them
            feeder.accept(record, fresh=True)
            played += 1
    finally:
        workers.close(now=status != COMPLETE or tally.decided or workers.busy > 0)
    if tally.decided:
        status = DECIDED if status == COMPLETE else status
    elif status == COMPLETE and feeder.next < schedule.total_games:
        raise JournalError(f"{journal.path}: games are missing after game {feeder.next}")
    tally.finish()
    return RunOutcome(status, replayed, played)
