"""Inference-aware determinization: sampled worlds weighed by what the play has revealed.

A plain determinization deals the unseen cards uniformly, as if the
opponents' passes said nothing. A game may offer `state.evidence(player, q)`:
an object whose `weight(world)` is the likelihood (0..1, up to a constant)
of the opponents' observed actions in that world under a playout model
(President: `president.inference.PassEvidence`, or with an opponent model
`ModelEvidence`, the opponents' recent decisions replayed under the model).
`weighted_sampler` then
draws worlds by rejection: each draw is kept with probability equal to its
weight; after `tries` draws the heaviest one seen is kept, so one
determinization never costs more than `tries` deals.
"""
from __future__ import annotations

import random
from typing import Callable

from recycle.kernel.protocol import GameState

#: Default number of draws per determinization.
TRIES = 8


def weighted_sampler(root: GameState, player: int, redeal: Callable[[random.Random], GameState], q: float,
                     tries: int = TRIES, model=None) -> Callable[[random.Random], GameState]:
    """`redeal` with its worlds kept in proportion to their evidence weight (bounded rejection);
    with an opponent `model`, the evidence is the opponents' decisions under that model.

    Returns `redeal` itself when the game offers no evidence or nothing was observed.
    """
    make = getattr(root, "evidence", None)
    evidence = (make(player, q) if model is None else make(player, q, model)) if make is not None else None
    if evidence is None or not evidence.events:
        return redeal
    weight = evidence.weight

    def draw(rng: random.Random) -> GameState:
        best, best_w = None, -1.0
        for _ in range(tries):
            world = redeal(rng)
            w = weight(world)
            if rng.random() < w:
                return world
            if w > best_w:
                best, best_w = world, w
        return best

    return draw
