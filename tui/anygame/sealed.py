"""A bot's reasoning while it holds what the person cannot see: sealed until the game is over.

A bot decides from its own observation: its trace names its cards, the options its
hand gives and the values it found for them. While the game runs, the person sees
the decision as they saw it done (`recycle.labels`) and this in place of the trace;
the open-hands mode and the end of the game open every trace.
"""
from __future__ import annotations

from rich.text import Text


class SealedTrace:
    """Stands for a bot's trace the person may not read yet."""

    def __init__(self, name: str) -> None:
        self.name = name

    def summary(self) -> str:
        return f"{self.name}: sealed until the game is over"

    def note(self) -> str:
        return ("It decided from cards you cannot see (its hand, a face-down pick); its reasoning names "
                "them. It opens when the game is over, or play with --open-hands to see everything.")

    def __rich__(self) -> Text:
        return Text(self.note(), style="italic")

    def to_json(self) -> dict:
        return {"sealed": self.summary(), "why": self.note()}


def knows_more(state, bot: int, person: int) -> bool:
    """Does `bot` see a card `person` cannot (a non-empty place only it sees), or know where a
    hidden card is? Then its reasoning may name what the person cannot see."""
    visible = state.table.visible
    if any(cards and visible(key, bot) and not visible(key, person) for key, cards in state.st.locs.items()):
        return True
    return any(q == bot for q, _ in state.st.known)
