"""How good a President position looks for one player: the heuristic of one-step look-ahead and RHEA.

A player already out is worth the utility of its place. A player still in
is placed among those still in by the *work* left in its hand: its cards,
less half a card for each two and joker (cards that win a trick when
played, so they take a turn, not a chase), ties sharing the places, and
every card of work left costs a fiftieth of a place more (so a hand that
gets smaller looks better even where the order does not change, and going
out beats holding one card that would still finish first). The
estimate's utility is what `PresidentState.heuristic` returns, on the scale
of `Results.utilities()` (first 1.0, last 0.0), so a finished round and an
unfinished one compare directly.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from president.game.cards import JOKER, TWO

if TYPE_CHECKING:
    from president.game.state import PresidentState

#: What a two or a joker takes off a hand's work: it ends a trick, so it is rarely chased.
MASTER_CARD_WORK = 0.5
#: Places a card of work left costs: 13 cards cost a quarter of a place.
PLACE_PER_CARD = 0.02


def work(state: "PresidentState", player: int) -> float:
    """The cards `player` still has to get rid of, the masters counted at half."""
    counts = state.counts[player]
    return state.sizes[player] - MASTER_CARD_WORK * (counts[TWO] + counts[JOKER])


def round_heuristic(state: "PresidentState", player: int) -> float:
    """The utility of the place `player`'s work left promises this round (see the module docstring)."""
    n = state.num_players
    if state.places[player]:
        return (n - state.places[player]) / (n - 1)
    mine = work(state, player)
    ahead = 0.0
    for other in state.still_in():
        if other != player:
            theirs = work(state, other)
            ahead += 1.0 if theirs < mine else 0.5 if theirs == mine else 0.0
    place = min(state.best_free + ahead + PLACE_PER_CARD * mine, state.worst_free)
    return (n - place) / (n - 1)
