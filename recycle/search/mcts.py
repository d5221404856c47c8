"""UCT on the TRUE state: a CHEATING baseline.

It reads `observation.true_state()`, hidden cards included, and runs plain
UCT (the tree of `tree.py`, where every child is always available) on the
current episode. It exists to measure how much hidden information costs the
honest players; never use it as an opponent for people. Its name, its
explanations (`cheating: true`) and its method label all say so.
"""
from __future__ import annotations

import random
from typing import Any

from recycle.kernel.protocol import Decision

from recycle.search import uct
from recycle.search.common import Budget, SearchAgent, true_root
from recycle.search.rollouts import Rollout, opponent_model
from recycle.search.specs import SpecReader


class CheatingMCTSAgent(SearchAgent):
    """UCT searching the real state: sees every hidden card."""

    method = "UCT on the true state (CHEATING)"
    cheating = True

    def __init__(self, name: str, budget: Budget, rollout: Rollout, c: float = 0.7,
                 model: uct.Model | None = None) -> None:
        self.name, self.budget, self.rollout, self.c, self.model = name, budget, rollout, c, model
        if model is not None:
            self.method = "UCT on the true state (CHEATING; the other players move as the rollout agent would)"

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        meter = self.budget.meter()
        root = true_root(observation)
        node = uct.run(root.clone, root.num_players, meter, rng, self.c, self.rollout, fresh_samples=False,
                       model=self.model, searcher=root.current_player())
        action, candidates = uct.most_visited(node, legal, root.current_player())
        return Decision(action, self.trace(observation, action, candidates, meter))


def from_spec(params: dict[str, str], resolve) -> CheatingMCTSAgent:
    spec = SpecReader("mcts", params, resolve)
    budget = spec.budget(1000)
    rollout = spec.rollout()
    c = spec.float("c", 0.7)
    model = opponent_model(rollout, "mcts") if spec.flag("model", False) else None
    spec.done()
    return CheatingMCTSAgent(spec.name + " (cheating)", budget, rollout, c, model)
