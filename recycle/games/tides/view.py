"""Tides of Time observations from either version: native, or the RECYCLE `TidesOfTime2`.

The Tides agents reason on a `TidesObservation`. On the RECYCLE version they
read one from the RECYCLE observation (locations and the `INPLAY` memory the
game file keeps, see its header): my HAND and PICK, both KINGDOMs, whether the
opponent's PICK holds a card, and the ten cards in play (known to both players
from the first reveal on), which give the opponent's cards. Actions are
matched back by the card they move.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from recycle.kernel.protocol import GameError

from recycle.games.tides.cards import Card, CardParseError, mask_of
from recycle.games.tides.state import TidesObservation


class NotTidesError(GameError):
    """An observation or action that is not of Tides of Time (either version)."""


def tides_observation(observation: Any) -> TidesObservation:
    """The native observation, or one read from a RECYCLE `TidesOfTime2` observation."""
    if isinstance(observation, TidesObservation):
        return observation
    locations = getattr(observation, "locations", None)
    if locations is None:
        raise NotTidesError(f"{type(observation).__name__} is not a Tides of Time observation: the Tides agents "
                            "play TidesOfTime2 (native or RECYCLE) only")
    me = observation.player
    opp = 1 - me
    where = dict(locations)

    def cards(name: str) -> int:
        found = where.get(name, ())
        if isinstance(found, int):
            raise NotTidesError(f"{name} is hidden from p{me}: not the TidesOfTime2 game file")
        return mask_of(Card.parse(text) for text in found)

    if f"p{me} iloc HAND" not in where and f"p{me} iloc PICK" not in where:
        raise NotTidesError("no HAND location: not the TidesOfTime2 game file")
    hand, pick = cards(f"p{me} iloc HAND"), cards(f"p{me} iloc PICK")
    kingdoms = (cards("p0 vloc KINGDOM"), cards("p1 vloc KINGDOM"))
    turn = kingdoms[0].bit_count()
    opp_pick = where.get(f"p{opp} iloc PICK", 0)
    in_play = cards("game mem INPLAY")
    opponent = in_play & ~(hand | pick | kingdoms[0] | kingdoms[1]) if turn else None
    return TidesObservation(me, observation.current_player, turn, hand, pick.bit_length() - 1 if pick else 0,
                            kingdoms, bool(opp_pick), opponent, ())


def card_of(action: Any) -> Card:
    """The card an action picks: a native `Card`, or the card a RECYCLE option moves."""
    if isinstance(action, Card):
        return action
    try:
        return Card.parse(str(action))
    except CardParseError:
        raise NotTidesError(f"{action} does not pick a Tides of Time card") from None


def action_for(card: Card, legal: Sequence[Any]) -> Any:
    """The legal action that picks `card`."""
    for action in legal:
        if card_of(action) == card:
            return action
    raise NotTidesError(f"{card} is not among the legal picks")
