"""What the round reveals: the likelihood of a determinization under a model of the players.

`ModelEvidence` (with `model=on`) replays the opponents' recent decisions
under the search's opponent model, and weighs the hands by the exchange
before the round (`exchange_evidence`); `PassEvidence` (below) uses only
passes, under the greedy playout policy.

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

import random
from typing import TYPE_CHECKING

from recycle.kernel.protocol import GameError

from president.game.cards import Play
from president.game.exchange_evidence import ExchangeEvidence
from president.game.playout import cheap_answer
from president.game.settings import EqualValue
from president.game.phase import Phase

if TYPE_CHECKING:
    from president.game.state import PresidentState


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
        history = _round_plays(state)
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

    def weight(self, world: "PresidentState", floor: float = 0.0) -> float:
        """The world's likelihood factor: q for every pass the greedy policy would not have made
        (once below `floor`, the rest is not asked: see `ModelEvidence.weight`)."""
        w, q = 1.0, self.q
        counts, sizes = world.counts, world.sizes
        equal = self._equal
        for p, need, top, rev, later in self.events:
            hand = [a + b for a, b in zip(counts[p], later)]
            if cheap_answer(hand, sizes[p] + sum(later), need, top, rev, equal):
                w *= q
                if w < floor:
                    break
        return w


class ModelEvidence:
    """The opponents' recent decisions of the round, weighed by an opponent model (`infer=` with `model=on`).

    For each of the last `RECENT` decisions of a player other than `observer`,
    the public position at that moment is kept (from the replay of the round);
    a world's weight is multiplied by `q` for every such decision the model,
    given that player's hand in the world at that moment, would not have made.

    A player's decisions depend on its own hand only, so the weight is a
    product of one factor per player, and each factor is remembered by that
    player's hand: a chain's step swaps one card between two players, so the
    others' factors are looked up, not replayed (the model is asked once per
    hand a player is given; a model that flips coins is asked on the
    evidence's own seeded generator, so the same worlds always weigh the same).
    """

    RECENT = 48  # most of a round
    #: Whether the exchange before the round weighs the hands too (off only to measure what it adds).
    EXCHANGE = True

    __slots__ = ("events", "q", "model", "_rng", "exchange", "_by_player", "_known")

    def __init__(self, state: "PresidentState", observer: int, q: float, model) -> None:
        self.q, self.model, self._rng = q, model, random.Random(0)
        # the gifts before the round (none in the first)
        self.exchange = ExchangeEvidence(state, observer) if self.EXCHANGE else None
        self.events: list[tuple["PresidentState", int, Play, list[int]]] = []
        # player -> (its decisions weighed, most recent first; hand -> factor of the hands weighed to the end)
        self._by_player: dict[int, tuple[list, dict[tuple[int, ...], float]]] = {}
        self._known = hasattr(model, "factor")  # the opponents' own policies (`recycle.search.inference.Known`)
        plays = _round_plays(state)
        others = [i for i, (p, _) in enumerate(plays) if p != observer]
        recent = set(others[-self.RECENT:])  # the decisions weighed: only their positions are copied
        snapshots: dict[int, "PresidentState"] = {}

        def keep(i: int, p: int, action: Play, replay: "PresidentState") -> None:
            if i in recent:
                snapshots[i] = replay.clone()

        if not _replay(state, keep):
            return
        later = {p: [0] * 17 for p in range(state.num_players)}
        events = []
        for i in range(len(plays) - 1, -1, -1):  # a hand at decision i: now, plus what it played from i on
            p, action = plays[i]
            if action.count:
                later[p][action.value] += action.count - action.jokers
                later[p][16] += action.jokers
            if i in snapshots:
                events.append((snapshots[i], p, action, later[p][:]))
        self.events = events
        for event in events:
            self._by_player.setdefault(event[1], ([], {}))[0].append(event)

    def weight(self, world: "PresidentState", floor: float = 0.0) -> float:
        """The world's likelihood factor; once it falls below `floor` the rest of the decisions are
        not asked (the value returned is then an upper bound still below `floor`)."""
        w = self.exchange.weight(world) if self.exchange else 1.0
        todo = []
        for p, (events, memo) in self._by_player.items():  # the hands already weighed first: free
            hand = tuple(world.counts[p])
            factor = memo.get(hand)
            if factor is None:
                todo.append((events, memo, hand))
            else:
                w *= factor
        for events, memo, hand in todo:
            if w < floor:
                break
            factor, whole = self._factor(events, hand, w, floor)
            w *= factor
            if not whole:  # stopped below the floor: an upper bound, not remembered
                break
            memo[hand] = factor
        return w

    def _factor(self, events: list, hand: tuple[int, ...], w: float, floor: float) -> tuple[float, bool]:
        """One player's factor given its `hand` now (the product of its decisions' likelihoods), and
        whether all were asked (not once `w` times the factor fell below `floor`)."""
        factor, q, model, rng, known = 1.0, self.q, self.model, self._rng, self._known
        for snapshot, p, action, later in events:
            saved = snapshot.counts[p]
            snapshot.counts[p] = [a + b for a, b in zip(hand, later)]
            try:
                if known:
                    factor *= model.factor(snapshot, p, snapshot.legal_actions(), action, q, rng)
                elif model(snapshot, snapshot.legal_actions(), rng) != action:
                    factor *= q
            finally:
                snapshot.counts[p] = saved
            if w * factor < floor:
                return factor, False
        return factor, True


def _passes(state: "PresidentState") -> dict[int, tuple[int, int, bool]] | None:
    """index in the round's plays -> (count, value, reversed) of the upcards passed on; None if unknown."""
    out: dict[int, tuple[int, int, bool]] = {}

    def seen(i: int, p: int, action: Play, replay: "PresidentState") -> None:
        if not action.count and replay.upcards is not None:
            out[i] = (replay.upcards.count, replay.upcards.value, replay.reversed)

    return out if _replay(state, seen) else None


def _replay(state: "PresidentState", seen) -> bool:
    """Replay the round's plays on a copy whose hands are put back to where the play phase started
    (each player's cards now plus those it played), calling `seen(i, player, action, replay)` before
    each; False if there is no round to replay (an exchange) or it cannot be replayed (a hand-made
    position).
    """
    if state.phase is not Phase.PLAY:
        return False
    replay = state.clone()
    lay, played = state.lay, state.played
    masks = replay.masks
    plays = _round_plays(state)
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
    for i, (p, action) in enumerate(plays):
        if replay.current != p or replay.phase is not Phase.PLAY:
            return False  # not the round this state remembers (a hand-made position): no evidence
        seen(i, p, action, replay)
        try:
            replay.apply(action)
        except GameError:  # a position that cannot be replayed gives no evidence
            return False
    return True


def _round_plays(state: "PresidentState") -> list[tuple[int, Play]]:
    """The round's plays and passes in order, as (player, play): the history without skipped turns."""
    return [(p, a) for p, a in state.history if isinstance(a, Play)]
