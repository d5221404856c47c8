"""The game's own description (`?`, and at the start of `recycle play`) and every storage value (`v`).

The description is the game file's opening comment (`recycle.about`); the values
screen lists all storage the person may see (all of it is public in RECYCLE),
including the encodings the table leaves out (`recycle.labels.human_sized`).
"""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from recycle.about import About

from tui.anygame.board import Board
from tui.anygame.render import followed


class AboutScreen(ModalScreen[None]):
    """The game's description and how it is scored; any of esc, enter, ? or q closes it."""

    BINDINGS = [Binding("escape", "dismiss", "Back"), Binding("enter", "dismiss", show=False),
                Binding("question_mark", "dismiss", show=False), Binding("q", "dismiss", show=False)]

    def __init__(self, title: str, about: About, legend: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.game_title, self.about, self.legend = title, about, legend

    def compose(self) -> ComposeResult:
        about = self.about
        with Vertical(id="over-box", classes="about"):
            yield Static(Text(f"{self.game_title}: {about.title or 'no description in the file'}", style="bold"),
                         id="over-title")
            with VerticalScroll(id="about-scroll"):
                yield Static(Text(about.text or "The game file opens with no comment saying what it is."),
                             id="about-text")
                yield Static(Text(about.scoring, style="bold"), id="about-scoring")
                if self.legend:
                    yield Static(Text("cards: " + "\n       ".join(self.legend), style="dim"), id="about-legend")
            yield Static("↑↓ scroll · esc / enter back to the table", id="over-keys")


class ValuesScreen(ModalScreen[None]):
    """Every storage value of the board, by owner (the table shows only the human-sized ones)."""

    BINDINGS = [Binding("escape", "dismiss", "Back"), Binding("v", "dismiss", show=False),
                Binding("q", "dismiss", show=False)]

    def __init__(self, board: Board, names: frozenset[str]) -> None:
        super().__init__()
        self.board, self.names = board, names

    def compose(self) -> ComposeResult:
        table = Table(box=None, pad_edge=False)
        for name, justify in (("owner", "left"), ("storage", "left"), ("value", "right")):
            table.add_column(name, justify=justify)
        for owner in self.board.owners:
            for name, value in owner.storage:
                table.add_row(owner.tag, name, str(value), style="" if followed(name, value, self.names) else "dim")
        with Vertical(id="over-box", classes="about"):
            yield Static(Text("every value the game keeps (dim: not shown on the table)", style="bold"),
                         id="over-title")
            with VerticalScroll(id="about-scroll"):
                yield Static(table)
            yield Static("esc back to the table", id="over-keys")


def hidden_values(board: Board, names: frozenset[str]) -> int:
    """How many storage values the table leaves out (the game's own arithmetic)."""
    return sum(1 for o in board.owners for n, v in o.storage if not followed(n, v, names))
