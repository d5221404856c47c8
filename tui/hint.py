"""Hints: what a chosen personality would do in my place, with its trace."""
from __future__ import annotations

from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Select, Static

from tui.president.options import opponent_choices
from tui.shared.botjob import DecisionJob
from tui.president.session import Session
from tui.shared.traceview import TraceView

DEFAULT_ADVISER = "Classic"


class HintReady(Message):
    def __init__(self, token: int, decision=None, error: Exception | None = None) -> None:
        super().__init__()
        self.token, self.decision, self.error = token, decision, error


class HintScreen(ModalScreen[None]):
    """Asks the adviser in a worker thread (search players may think for a while)."""

    BINDINGS = [Binding("escape", "close", "Back"), Binding("h", "close", "Back", show=False)]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.token = 0

    def compose(self) -> ComposeResult:
        choices = opponent_choices(self.session.options.rules_dirs, fair_only=True)  # an adviser sees only my hand
        default = DEFAULT_ADVISER if any(spec == DEFAULT_ADVISER for _, spec in choices) else choices[0][1]
        with Vertical(id="hint-box", classes="dialog"):
            yield Static("Hint: what would this player do in your place?", classes="dialog-title")
            yield Select(choices, value=default, allow_blank=False, id="adviser")
            with VerticalScroll(id="hint-scroll"):
                yield TraceView(id="hint-trace")
            yield Static("escape: back to the table", classes="dim")

    def on_mount(self) -> None:
        self.ask(self.query_one("#adviser", Select).value)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL:
            self.ask(str(event.value))

    def ask(self, spec: str) -> None:
        view = self.query_one(TraceView)
        if not self.session.human_turn():
            view.update("Hints are given on your turn.")
            return
        try:
            job = self.session.hint_job(spec)
        except Exception as exc:  # a broken .rul file or a bad agent spec
            view.update(f"{spec} cannot advise: {exc}")
            return
        self.token += 1
        view.update(f"{spec} is thinking…")
        self.run_worker(partial(self._think, self.token, job), thread=True, exit_on_error=False, group="hint")

    def _think(self, token: int, job: DecisionJob) -> None:
        try:
            self.post_message(HintReady(token, job.run()))
        except Exception as exc:
            self.post_message(HintReady(token, error=exc))

    def on_hint_ready(self, message: HintReady) -> None:
        if message.token != self.token:
            return
        view = self.query_one(TraceView)
        if message.error is not None:
            view.update(f"the adviser failed: {message.error}")
            return
        view.border_title = f"would play: {message.decision.action}"
        view.show_trace(message.decision.trace, belief=message.decision.belief, names=self.session.names)

    def action_close(self) -> None:
        self.dismiss(None)
