"""A yes/no question over any screen (quit, open the bots' hands, revert a personality), and a
footer whose quit key stays in sight at every width.

    self.app.push_screen(Confirm("Quit President?", "quit"), lambda yes: yes and self.app.exit())
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

QUIT_ACTIONS = {"quit", "app.quit"}


class Confirm(ModalScreen[bool]):
    """Dismissed with True (y, enter on yes) or False (n, escape); `yes` labels the yes button."""

    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > #confirm-box { width: 64; max-width: 100%; height: auto; border: thick $warning;
                             background: $surface; padding: 1 2; }
    Confirm #confirm-buttons { height: auto; margin-top: 1; }
    Confirm #confirm-buttons Button { margin-right: 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", show=False),
        Binding("n", "answer(False)", "No", show=False),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, yes: str = "yes", no: str = "no", purpose: str = "") -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no
        self.purpose = purpose  # what is asked ("quit"), for a caller that must not ask twice

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(self.question)
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes} (y)", variant="warning", id="yes", compact=True)
                yield Button(f"{self.no} (n)", id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # enter alone never does the irreversible thing

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class QuitFooter(Footer):
    """The footer with the quit key docked on the right: the other keys flow before it and are cut
    first in a narrow terminal, so quitting is always shown."""

    DEFAULT_CSS = "QuitFooter FooterKey.-quit { dock: right; padding-left: 1; }"  # a gap before it, over cut keys

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if getattr(widget, "action", None) in QUIT_ACTIONS:  # a FooterKey
                widget.add_class("-quit")
            yield widget
