"""A position described by hand (`president decide`) as a real game state, for any agent.

Rule personalities read a `ClimbingView` (`view.hypothetical_view`); search
players and other protocol agents need a `PresidentState` to sample from.
`hypothetical_state` builds one from the same validated view: I am seat 0,
the opponents still in sit at seats 1..k (k = how many card counts were
given), the players already out at seats k+1.. with the best places; the
upcards were played by seat k, the player just before me. The unseen cards
are dealt to the opponents with `rng` — an honest agent never looks at them
(its observation re-deals them), only the cheating baseline does.
"""
from __future__ import annotations

import random
from dataclasses import replace

from personalities.view import ClimbingView

from president.game.cards import play_of
from president.game.settings import Settings
from president.game.state import Phase, PresidentState


def hypothetical_state(settings: Settings, view: ClimbingView, played: list[int], rng: random.Random) -> PresidentState:
    """The state of a one-round table in which seat 0 holds `view.hand` and is to play.

    `played` are the values of the cards already played this round (the
    upcards come from the view and count as played too); `view` has been
    validated by `hypothetical_view` (counts within the pack, opponents' cards
    adding up to the unseen ones).
    """
    settings = replace(settings, rounds=1, target_score=0)
    state = PresidentState.new_match(settings, rng.getrandbits(63))
    lay, n = state.lay, settings.players
    free = lay.full
    mine = 0
    for value, held in enumerate(view.hand):
        mine |= lay.take(free, value, held)
    free &= ~mine
    gone = 0
    up = view.upcards
    for value in played + ([up[0]] * up[1] if up else []):
        gone |= lay.take(free & ~gone, value, 1)
    free &= ~gone
    bits = [b for b in range(free.bit_length()) if free >> b & 1]
    rng.shuffle(bits)
    k = len(view.opponent_counts)
    masks = [mine] + [0] * (n - 1)
    for seat, size in enumerate(view.opponent_counts, start=1):
        for b in bits[:size]:
            masks[seat] |= 1 << b
        del bits[:size]
    state.masks = masks
    state.counts = [lay.counts(m) for m in masks]
    state.sizes = [m.bit_count() for m in masks]
    state.played, state.played_counts = gone, lay.counts(gone)
    state.phase, state.current, state.pending = Phase.PLAY, 0, []
    state.upcards = play_of(*up) if up else None
    state.last_player = k if up else -1
    state.declined = 0
    finished = range(k + 1, n)  # out already, with the best places
    state.out = sum(1 << p for p in finished)
    state.places = [0] * n
    for place, p in enumerate(finished, start=1):
        state.places[p] = place
    state.best_free, state.worst_free = n - k, n
    state.history, state.gifts, state.bounds, state.known_public = [], [], [], []
    state.first_leader = 0
    return state
