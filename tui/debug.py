"""The AI debug screen: pick a bot decision of this round, read its full trace."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList
from textual.widgets.option_list import Option

from .session import Session
from .traceview import TraceView


class DebugScreen(Screen[None]):
    """Decisions of this round and the last on the left (newest first, preselected), the trace on the right."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("d", "close", "Back", show=False),
        Binding("t", "toggle_json", "Tree/JSON"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.records = session.round_decisions()[::-1]  # newest first: usually the one to look at
        self.as_json = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="debug-main"):
            options = [Option(r.label, id=str(i)) for i, r in enumerate(self.records)]
            yield OptionList(*options, id="decisions")
            with VerticalScroll(id="trace-scroll"):
                yield TraceView(id="trace")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"AI debug · {self.session.round_text()} · {len(self.records)} bot decision(s)"
        decisions = self.query_one("#decisions", OptionList)
        if self.records:
            decisions.highlighted = 0
            decisions.focus()
        else:
            self.query_one(TraceView).update("No bot has decided anything this round yet.")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def _show(self, index: int | None) -> None:
        if index is None or not 0 <= index < len(self.records):
            return
        record = self.records[index]
        view = self.query_one(TraceView)
        view.border_title = f"{record.name} ({self.session.personality_name(record.player)}) · {record.action}"
        view.show_trace(record.trace, self.as_json)

    def action_toggle_json(self) -> None:
        self.as_json = not self.as_json
        self._show(self.query_one("#decisions", OptionList).highlighted)

    def action_close(self) -> None:
        self.dismiss(None)

