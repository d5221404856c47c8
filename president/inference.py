"""What passes reveal: the likelihood of a determinization under the greedy playout model.

An opponent who passed on a single 9 while holding a lone 10 played against
the way nearly everybody plays; worlds where it held one are less likely.
`PassEvidence` turns every observed pass of the round into a factor: if, in
a sampled world, the passing player's hand *at that moment* would have let
the greedy policy (`playout.cheap_answer`) answer the upcards, the world's
weight is multiplied by `q` (the chance of such a pass), else by 1.

The public course of the round (who passed on which upcards, in which
direction) does not depend on hidden cards, so it is worked out once per
decision by replaying the round's plays from its reconstructed start; each
world then costs a few comparisons per pass. A player's hand at a pass is
its hand in the world plus everything it played after that pass.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from recycle.kernel.protocol import GameError

from .cards import Play
from .playout import cheap_answer
from .settings import EqualValue

if TYPE_CHECKING:
    from .state import PresidentState


class PassEvidence:
    """The passes of the round so far, as seen by `observer`, ready to weigh worlds."""

    __slots__ = ("events", "q", "_equal")

    def __init__(self, state: "PresidentState", observer: int, q: float) -> None:
        self.q, self._equal = q, False
        # (player, count needed, top value, reversed, cards played later per value)
        self.events: list[tuple[int, int, int, bool, list[int]]] = []
        passes = _passes(state)
        if passes is None:
            return
        equal = state.settings.equal_value is not EqualValue.NO
        later = {p: [0] * 17 for p in range(state.num_players)}  # walking back through the round
        history = [(p, a) for p, a in state.history if isinstance(a, Play)]
        events = []
        for i in range(len(history) - 1, -1, -1):
            p, action = history[i]
            if action.count:
                row = later[p]
                row[action.value] += action.count - action.jokers
                row[16] += action.jokers
            elif p != observer and i in passes:
                need, top, rev = passes[i]
                events.append((p, need, top, rev, later[p][:]))
        self.events, self._equal = events, equal

    def weight(self, world: "PresidentState") -> float:
        """The world's likelihood factor: q for every pass the greedy policy would not have made."""
        w, q = 1.0, self.q
        counts, sizes = world.counts, world.sizes
        equal = self._equal
        for p, need, top, rev, later in self.events:
            hand = [a + b for a, b in zip(counts[p], later)]
            if cheap_answer(hand, sizes[p] + sum(later), need, top, rev, equal):
                w *= q
        return w


def _passes(state: "PresidentState") -> dict[int, tuple[int, int, bool]] | None:
    """index in the round's plays -> (count, value, reversed) of the upcards passed on; None if unknown.

    Replays the round's plays on a copy whose hands are put back to where the
    play phase started (each player's cards now plus those it played).
    """
    from .state import Phase

    if state.phase is not Phase.PLAY:
        return {}
    replay = state.clone()
    lay, played = state.lay, state.played
    masks = replay.masks
    plays = [(p, a) for p, a in state.history if isinstance(a, Play)]
    for p, action in plays:
        if action.count:
            taken = lay.take(played, action.value, action.count - action.jokers)
            if action.jokers:
                taken |= lay.take(played, 16, action.jokers)
            played &= ~taken
            masks[p] |= taken
    replay.counts = [lay.counts(m) for m in masks]
    replay.sizes = [m.bit_count() for m in masks]
    replay.played, replay.played_counts = 0, [0] * 17
    replay.upcards, replay.last_player, replay.declined, replay.out = None, -1, 0, 0
    n = replay.num_players
    replay.places, replay.best_free, replay.worst_free = [0] * n, 1, n
    replay.reversed, replay.history, replay.current = False, [], state.first_leader
    out: dict[int, tuple[int, int, bool]] = {}
    for i, (p, action) in enumerate(plays):
        if replay.current != p or replay.phase is not Phase.PLAY:
            return None  # not the round this state remembers (a hand-made position): no evidence
        if not action.count and replay.upcards is not None:
            out[i] = (replay.upcards.count, replay.upcards.value, replay.reversed)
        try:
            replay.apply(action)
        except GameError:  # a position that cannot be replayed gives no evidence
            return None
    return out
