"""The President table's AI debug screen: the generic `DebugScreen` over the match's decisions."""
from __future__ import annotations

from .session import Session
from .traceview import DebugScreen


def debug_screen(session: Session) -> DebugScreen:
    """Every bot decision of the match (the session keeps them all), newest first."""
    return DebugScreen(session.decisions, session.names, subtitle=session.round_text(),
                       describe=lambda r: f"{r.name} ({session.personality_name(r.player)}) · {r.action}",
                       empty="No bot has decided anything yet.")
