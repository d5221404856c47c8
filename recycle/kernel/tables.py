"""Console tables that fit 80 columns: names never cut, figures wrapped at their spaces.

rich squeezes a table wider than the terminal by shrinking its widest columns
evenly, which cuts a short word (`Preside…`) in a narrow column while a long
name column keeps room to spare. So a figures column is made no wider than
its longest word (`fitted`, when the table is too wide): a value and its interval (`46.7% (3-96)`) then
take two lines, a header of two words (`mean place`) too, and a name column
(`add_name_column`) keeps its whole width.
"""
from __future__ import annotations

import io
from typing import Sequence

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

#: A name column is as wide as its longest name up to this; longer names are folded onto more lines, never cut.
NAME_WIDTH = 24


def add_name_column(table: Table, header: str, names: Sequence[str], extra: int = 0) -> None:
    """A column of names (bots, games) that other columns make room for; `extra`: characters added to each."""
    longest = max((len(name) + extra for name in names), default=len(header))
    table.add_column(header, no_wrap=longest <= NAME_WIDTH, overflow="fold")


def _words(cell: object) -> list[str]:
    text = cell.plain if isinstance(cell, Text) else Text.from_markup(str(cell)).plain
    return text.split()


def natural_width(table: Table) -> int:
    """How wide `table` is drawn with no column squeezed."""
    console = Console(width=10_000, file=io.StringIO())
    return Measurement.get(console, console.options, table).maximum


def fitted(table: Table, width: int) -> Table:
    """`table`, its figure columns (right-justified ones that wrap) no wider than their longest word when it is
    wider than `width`: they wrap at their spaces instead of rich cutting their words."""
    if natural_width(table) <= width:
        return table
    for column in table.columns:
        if column.justify == "right" and not column.no_wrap:
            words = _words(column.header) + [w for cell in column._cells for w in _words(cell)]
            column.max_width = max(map(len, words), default=1)
    return table
