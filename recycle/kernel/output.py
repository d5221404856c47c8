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

from recycle.cli.arguments import is_stdout, open_output


@contextmanager
def progress_bar(console: Console, total: int, label: str, unit: str = "games",
                 status: Callable[[], str] | None = None,
                 eta: Callable[[], float | None] | None = None) -> Iterator:
    """Yields `advance(done)`; draws a live bar only on a terminal, with `status()` after it if given.
    `eta()`: the seconds left as the caller knows them (None: not yet known), instead of rich's
    guess from the mean rate (wrong when the items differ in cost)."""
    if not console.is_terminal or total <= 1:
        yield lambda done: None
        return
    from recycle.cli.progress import live_bar  # rich's progress module only where a bar is drawn

    with live_bar(console, total, label, unit, status, eta) as advance:
        yield advance


def write_json(path: str | Path, data: object) -> None:
    """`data` as indented JSON into `path` (a file or a pipe), or onto standard output for `-`."""
    text = json.dumps(data, indent=2) + "\n"
    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        with open_output(path) as fh:
            fh.write(text)


def write_csv(path: str | Path, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A CSV file or pipe (or standard output for `-`): the header line, then the rows."""
    with (nullcontext(sys.stdout) if is_stdout(path) else open_output(path, newline="")) as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def mean_or_zero(xs: Sequence[float]) -> float:
    """The mean, or 0.0 for no values (a table cell, never an error)."""
    return statistics.fmean(xs) if xs else 0.0
