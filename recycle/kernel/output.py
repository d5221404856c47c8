"""Output helpers shared by every command: progress bars, JSON and CSV files.

Every command that prints a table can also write it for machines; the
progress bar shows only when the output is a terminal.
"""
from __future__ import annotations

import statistics

import csv
import json
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Callable, Iterator, Sequence

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


@contextmanager
def progress_bar(console: Console, total: int, label: str, unit: str = "games",
                 status: Callable[[], str] | None = None) -> Iterator:
    """Yields `advance(done)`; draws a live bar only on a terminal, with `status()` after it if given."""
    if not console.is_terminal or total <= 1:
        yield lambda done: None
        return
    extra = (StatusColumn(status),) if status else ()
    with Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), RateColumn(unit),
                  TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), *extra,
                  console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def write_json(path: str | Path, data: object) -> None:
    """`data` as indented JSON into `path`, or onto standard output for `-`."""
    text = json.dumps(data, indent=2) + "\n"
    if str(path) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(path).write_text(text, encoding="utf-8")


def write_csv(path: str | Path, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A CSV file (or standard output for `-`): the header line, then the rows."""
    with (nullcontext(sys.stdout) if str(path) == "-" else open(path, "w", newline="", encoding="utf-8")) as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def mean_or_zero(xs: Sequence[float]) -> float:
    """The mean, or 0.0 for no values (a table cell, never an error)."""
    return statistics.fmean(xs) if xs else 0.0
