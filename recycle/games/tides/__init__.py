"""Tides of Time, one round, natively: cards, scoring, the game state, and its two bots.

The RECYCLE version of the same round is `recycle/games/TidesOfTime2.gdl`;
`crosscheck` plays both on the same deals. See docs/tides.md for
the rules followed, and docs/recycle-games.md for the seed bot's defects.
"""
from recycle.games.tides.cards import DECK, Card, CardParseError
from recycle.games.tides.scoring import scores
from recycle.games.tides.state import DealError, TidesObservation, TidesState

__all__ = ["DECK", "Card", "CardParseError", "DealError", "TidesObservation", "TidesState", "scores"]
