"""The time an analysis has left, from what each kind of game is measured to cost.

An analysis plays three kinds of game whose costs differ a hundredfold (an all-AI
game estimates every seat's decisions). A rate over all the games finished so far
(what a plain progress bar shows) is wrong twice: while the cheap games go by it
promises minutes that turn out to be hours, and it jumps when the kind changes.
Here each kind's cost is its mean over its finished games (the scheduler plays the
first game of each kind first, `experiment.schedule`), and the time left is the
cost of what remains, shared by the processes that play it:

    left = sum over kinds k of (games of k left) x (mean seconds of a game of k) / processes

(the processes: `-j`, or the cluster's workers, never more than the games left). Until
every kind with games left has one measured, there is no estimate (`None`, shown as
"measuring"). Between two finished games the estimate counts down with the clock.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable


class Eta:
    """Time left of a run of games of several kinds; `finished(kind, seconds)` as each ends."""

    def __init__(self, kinds: Iterable[str], processes: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.left = Counter(kinds)  # games of each kind not finished
        self.processes = max(1, processes)
        self.clock = clock
        self._total: Counter = Counter()  # kind -> seconds over its finished games
        self._count: Counter = Counter()  # kind -> finished games
        self._estimate: float | None = None
        self._at = clock()

    def finished(self, kind: str, seconds: float) -> None:
        """A game of `kind` ended, having taken `seconds` where it was played."""
        if self.left[kind] > 0:
            self.left[kind] -= 1
        self._total[kind] += seconds
        self._count[kind] += 1
        self._estimate, self._at = self._work_left(), self.clock()

    def mean(self, kind: str) -> float | None:
        """Mean seconds of a game of `kind` (None: none finished yet)."""
        return self._total[kind] / self._count[kind] if self._count[kind] else None

    def _work_left(self) -> float | None:
        games = sum(self.left.values())
        if not games:
            return 0.0
        work = 0.0
        for kind, n in self.left.items():
            if n:
                m = self.mean(kind)
                if m is None:
                    return None  # a kind not measured yet: any figure would be a guess
                work += n * m
        return work / min(self.processes, games)

    def seconds_left(self) -> float | None:
        """The estimate, counted down since the last game ended (None: still measuring)."""
        if self._estimate is None:
            return None
        return max(0.0, self._estimate - (self.clock() - self._at))
