"""Rollouts by a game's own cheap playout policy (`rollout=greedy`).

A rule personality as the rollout (`rollout=Classic`) plays like a person
but builds an observation and evaluates rules on every simulated move, which
makes an iteration many times dearer. A game may instead offer
`state.policy_playout(rng)`: a hand-tuned policy played in one loop at about
the cost of a random rollout (President's is in `president.game.playout`).
"""
from __future__ import annotations

import random

from recycle.kernel.protocol import GameState

from recycle.search.common import Rollout, SearchError


class PolicyRollout(Rollout):
    """Plays a state to its end with the game's `policy_playout(rng)`."""

    def __init__(self) -> None:
        super().__init__(None, "greedy")

    def run(self, state: GameState, rng: random.Random) -> tuple[tuple[float, ...], int]:
        playout = getattr(state, "policy_playout", None)
        if playout is None:
            raise SearchError(f"{type(state).__name__} has no playout policy: use rollout=random or an agent")
        steps = playout(rng)
        return state.results().utilities(), steps
