"""The President table's AI debug screen: the generic `DebugScreen` over the match's decisions,
showing during a round only what the person may know (`hiding.py`).

A decision of a finished round is shown whole; one of the round being played
is masked (its bot's cards and what follows from them) unless the person opens
the hands (`o`, after a confirmation), which the table marks and the match
record keeps (`Session.opened_rounds`).
"""
from __future__ import annotations

from textual.binding import Binding

from tui.shared.botjob import DecisionRecord
from tui.shared.confirm import Confirm, QuitFooter
from tui.president.hiding import seat_view
from tui.president.session import HUMAN, Session
from tui.shared.traceview import DebugScreen


def shown_records(session: Session) -> list[DecisionRecord]:
    """Every bot decision of the match as the person may see it now."""
    if session.open_hands or session.over:
        return list(session.decisions)
    current = session.round_number
    return [r if r.round < current else seat_view(r, session.gift_receivers.get(r.number) == HUMAN)
            for r in session.decisions]


def hands_text(session: Session) -> str:
    """What the screen shows of the round being played, and the key that changes it."""
    if session.over:
        return "match over: all shown whole"
    if session.open_hands:
        return "OPEN HANDS (o: hide)"
    return "bots' cards hidden this round (o: open hands)"


class PresidentDebugScreen(DebugScreen):
    """The debug screen with the round being played masked, and the open-hands key."""

    BINDINGS = [Binding("o", "open_hands", "Open hands")]

    def __init__(self, session: Session) -> None:
        self.session = session
        super().__init__(shown_records(session), session.names, subtitle=session.round_text(),
                         describe=lambda r: f"{r.name} ({session.bot_name(r.player)}) · {r.action}",
                         empty="No bot has decided anything yet.")

    def footer(self) -> QuitFooter:
        return QuitFooter(show_command_palette=False, compact=True)

    def banner(self) -> str:
        return f"{super().banner()} · {hands_text(self.session)}"

    def action_open_hands(self) -> None:
        if self.session.over:
            self.notify("The match is over: every decision is shown whole.")
            return
        if self.session.open_hands:
            self._set_open(False)
            return
        self.app.push_screen(Confirm("Open the bots' hands? Their cards and everything that follows from them "
                                     "are shown for the rest of the match (o again hides them), and the match "
                                     "record notes the rounds in which they were open.", yes="open hands",
                                     no="keep hidden"), lambda yes: self._set_open(True) if yes else None)

    def _set_open(self, on: bool) -> None:
        self.session.set_open_hands(on)
        self.set_records(shown_records(self.session))


def debug_screen(session: Session) -> DebugScreen:
    """Every bot decision of the match (the session keeps them all), newest first."""
    return PresidentDebugScreen(session)
