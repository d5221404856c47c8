"""What the table is doing: exchanging cards, playing a round, or done.

Its own module because the exchange, the playout policy and inference read it,
and the state (which imports them) owns the transitions."""
from __future__ import annotations

import enum


class Phase(enum.Enum):
    """What the table is doing."""

    EXCHANGE = "exchange"
    """Between rounds: the President and Vice-President choose cards to give."""
    PLAY = "play"
    """A round is being played."""
    OVER = "over"
    """The match has ended."""
