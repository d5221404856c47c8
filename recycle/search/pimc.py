"""PIMC: perfect-information Monte Carlo (CardStock's Monte Carlo player).

Each sample is one determinization of the decider's information set; every
legal action is played on it and the rest of the episode is rolled out. The
action with the best mean utility wins (ties: the earliest legal action).
All actions share each determinization, which makes their comparison fairer
than independent samples would.

Budget: `samples` (determinizations; `iterations` is a synonym), `time` or
`calls`. Endgame switch as in ISMCTS.
"""
from __future__ import annotations

import random
from typing import Any

from recycle.kernel.protocol import Decision

from recycle.search.alphabeta import NODES, open_search

from recycle.search.common import Budget, SearchAgent, best_by, worlds
from recycle.search.rollouts import Rollout
from recycle.search.specs import SpecReader
from recycle.search.traces import CandidateAction


class PIMCAgent(SearchAgent):
    """Flat Monte Carlo over determinizations."""

    method = "PIMC (flat Monte Carlo over determinizations)"

    def __init__(self, name: str, budget: Budget, rollout: Rollout, endgame: bool = True,
                 max_nodes: int = NODES) -> None:
        self.name, self.budget, self.rollout, self.endgame, self.max_nodes = name, budget, rollout, endgame, max_nodes

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        meter, root, solved, note = open_search(self, observation, legal, rng, self.endgame, self.max_nodes)
        if solved is not None:
            return solved
        player = root.current_player()
        totals = dict.fromkeys(legal, 0.0)
        tally = self.tally(player, believe)
        for world in worlds(meter, root, player, rng, tally):
            for a in legal:
                state = world.clone()
                state.apply(a)
                rewards, steps = self.rollout.run(state, rng)
                totals[a] += rewards[player]
                meter.calls += steps + 1
        n = meter.iterations
        action = best_by(legal, totals.__getitem__)
        ranked = sorted(legal, key=totals.__getitem__, reverse=True)
        candidates = tuple(CandidateAction(str(a), n, totals[a] / n) for a in ranked)
        return Decision(action, self.trace(observation, action, candidates, meter, note=note), self.believed(tally))


def from_spec(params: dict[str, str], resolve) -> PIMCAgent:
    spec = SpecReader("pimc", params, resolve)
    budget = spec.budget(20, unit="samples")
    rollout = spec.rollout()
    endgame = spec.flag("endgame", True)
    max_nodes = spec.int("nodes", NODES)
    spec.done()
    return PIMCAgent(spec.name, budget, rollout, endgame, max_nodes)
