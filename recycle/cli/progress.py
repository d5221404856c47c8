"""The live progress bar of `output.progress_bar`, imported only where one is drawn (a terminal)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text


class RateColumn(ProgressColumn):
    """Items per second, e.g. `312.4 games/s`."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} {self.unit}/s" if speed else f"- {self.unit}/s", style="cyan")


class StatusColumn(ProgressColumn):
    """A line of text asked for at every refresh (where the games are played: a cluster's workers)."""

    def __init__(self, status: Callable[[], str]) -> None:
        super().__init__()
        self.status = status

    def render(self, task) -> Text:
        return Text(self.status(), style="dim")


class EtaColumn(ProgressColumn):
    """The time left as the caller estimates it (`eta()` seconds, None: "measuring")."""

    def __init__(self, eta: Callable[[], float | None]) -> None:
        super().__init__()
        self.eta = eta

    def render(self, task) -> Text:
        left = self.eta()
        if left is None:
            return Text("measuring", style="progress.remaining")
        s = int(left + 0.5)
        return Text(f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}", style="progress.remaining")


@contextmanager
def live_bar(console: Console, total: int, label: str, unit: str, status: Callable[[], str] | None,
             eta: Callable[[], float | None] | None = None) -> Iterator[Callable[[int], None]]:
    extra = (StatusColumn(status),) if status else ()
    remaining = EtaColumn(eta) if eta else TimeRemainingColumn()
    with Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), RateColumn(unit),
                  TimeElapsedColumn(), TextColumn("ETA"), remaining, *extra,
                  console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)
