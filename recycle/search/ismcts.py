"""ISMCTS: single-observer information-set Monte Carlo tree search.

After Cowling, Powley and Whitehouse (2012). Every iteration searches a fresh
determinization of the decider's information set; the tree (in `tree.py`) is
keyed by actions and shared across determinizations, with availability
counts in UCB. Rewards are the episode's utility vectors, and each node's
mover maximises its own component.

Determinizations: one sample comes from `observation.sample_state`; each
iteration re-determinizes that sample from the decider's point of view,
which draws from the same information set (the sample keeps everything the
decider knows) without asking the observation again.

Endgame switch: when the decider can deduce every hidden card and two
players remain (`endgame_solvable`), the exact alpha-beta solver decides
instead (unless `endgame=off`, or the ending is bigger than `nodes`).
"""
from __future__ import annotations

import random
from typing import Any

from recycle.kernel.protocol import Decision

from . import uct
from .alphabeta import NODES, open_search
from .common import Budget, Rollout, SearchAgent, SpecReader, sampler


class ISMCTSAgent(SearchAgent):
    """Information-set MCTS (honest: it never sees hidden cards)."""

    method = "ISMCTS (single observer)"

    def __init__(self, name: str, budget: Budget, rollout: Rollout, c: float = 0.7, endgame: bool = True,
                 max_nodes: int = NODES) -> None:
        self.name, self.budget, self.rollout, self.c = name, budget, rollout, c
        self.endgame, self.max_nodes = endgame, max_nodes

    def search(self, observation: Any, legal: list, rng: random.Random) -> Decision:
        meter, root, solved, note = open_search(self, observation, legal, rng, self.endgame, self.max_nodes)
        if solved is not None:
            return solved
        player = root.current_player()
        redeal = sampler(root, player)
        node = uct.run(lambda: redeal(rng), root.num_players, meter, rng, self.c,
                        self.rollout, fresh_samples=True)
        action, candidates = uct.most_visited(node, legal, player)
        return Decision(action, self.trace(observation, action, candidates, meter, note=note))


def from_spec(params: dict[str, str], resolve) -> ISMCTSAgent:
    spec = SpecReader("ismcts", params, resolve)
    budget = spec.budget(1000)
    rollout = spec.rollout()
    c = spec.float("c", 0.7)
    endgame = spec.flag("endgame", True)
    max_nodes = spec.int("nodes", NODES)
    spec.done()
    return ISMCTSAgent(spec.name, budget, rollout, c, endgame, max_nodes)
