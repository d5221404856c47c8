"""The President view: a President observation as the condition engine reads it."""
from __future__ import annotations

from typing import Sequence

from personalities.view import ClimbingView, ExchangeView

from .cards import JOKER, Give, Play
from .observation import NO_RANK, PresidentObservation
from .state import Phase

_NORMAL = tuple(range(3, 16))
_REVERSED = tuple(range(15, 2, -1))


def president_view(obs: PresidentObservation, legal_actions: Sequence[Play | Give]) -> ClimbingView | ExchangeView:
    """The climbing view of `obs` (or the exchange view while cards are being given)."""
    if obs.phase is Phase.EXCHANGE:
        return ExchangeView(obs.counts, obs.pending[2], obs.pending[1],
                            actions={g.values: g for g in legal_actions})
    actions: dict = {}
    for action in legal_actions:
        if action.is_pass:
            actions[None] = action
        elif action.jokers == 0:  # rule players never spend wild jokers
            actions[(action.value, action.count)] = action
    can_pass = None in actions
    legal = frozenset(k for k in actions if k is not None)
    if not legal and not can_pass:  # only wild-joker plays are legal: offer them under their value
        for action in legal_actions:
            actions[(action.value, action.count)] = action
        legal = frozenset(k for k in actions if k is not None)
    me = obs.player
    unseen = [obs.settings.decks * 4] * 17
    unseen[JOKER] = obs.settings.jokers
    for v in range(17):
        if v < 3:
            unseen[v] = 0
        else:
            unseen[v] -= obs.counts[v] + obs.played_counts[v]
    opponents = [p for p in obs.still_in() if p != me]
    rank = obs.rank()
    higher = 0
    if rank != NO_RANK:
        my_place = obs.prev_places[me]
        higher = sum(1 for p in opponents if obs.prev_places[p] < my_place)
    up = obs.upcards
    return ClimbingView(
        hand=obs.counts,
        upcards=None if up is None else (up.value, up.count),
        legal=legal,
        can_pass=can_pass,
        unseen=tuple(unseen),
        opponent_counts=tuple(obs.sizes[p] for p in opponents),
        played=sum(obs.played_counts),
        deck_size=obs.settings.deck_size,
        order=_REVERSED if obs.reversed else _NORMAL,
        rank=rank,
        higher_players=higher,
        jokers_beat_singles=True,
        actions=actions,
    )
