"""The determinization vote: solve many determinizations, play the most chosen action.

Each sample is one determinization of the decider's information set, solved
as if its cards were open:
- where two players remain, exactly, with alpha-beta (`Solver`);
- otherwise with `bounded_values`: max^n to `depth` plies (default 2: my move
  and the next player's reply), non-terminal leaves valued by the mean of
  `rollouts` rollouts (default 1, random or `rollout=` policy).
The action(s) with the best value in that determinization get its vote
(split evenly when several tie). The most voted action is played; ties go to
the better mean value over all samples, then to the earliest legal action.
If the decider can deduce every hidden card, all determinizations are the
same position: it is solved once and that is the decision.

Budget: `samples` (`iterations` is a synonym), `time` or `calls`.
"""
from __future__ import annotations

import random
from typing import Any

from recycle.kernel.protocol import Decision


from recycle.search.alphabeta import NODES, Solver, SolverLimit, bounded_values, open_search
from recycle.search.common import Budget, SearchAgent, best_by, remaining_players, worlds
from recycle.search.rollouts import Rollout
from recycle.search.specs import SpecReader
from recycle.search.traces import CandidateAction


class VoteAgent(SearchAgent):
    """Majority vote of per-determinization solutions."""

    method = "determinization vote"

    def __init__(self, name: str, budget: Budget, depth: int, rollouts: int, rollout: Rollout,
                 max_nodes: int = NODES) -> None:
        self.name, self.budget, self.depth, self.rollouts = name, budget, depth, rollouts
        self.rollout, self.max_nodes = rollout, max_nodes

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        meter, root, solved, note = open_search(self, observation, legal, rng, True, self.max_nodes)
        if solved is not None:
            return solved
        player = root.current_player()
        solvable = not note  # the solver gave up on the root: its determinizations are as big
        votes = dict.fromkeys(legal, 0.0)
        totals = dict.fromkeys(legal, 0.0)
        tally = self.tally(player, believe)
        for world in worlds(meter, root, player, rng, tally):
            values = None
            if solvable and remaining_players(world) == 2:
                try:
                    values, exact = Solver(player, self.max_nodes, meter).root_values(world, legal)
                except SolverLimit:
                    solvable = False  # too big to solve exactly: bounded search from now on
            if values is None:
                values = bounded_values(world, player, legal, self.depth, self.rollouts, self.rollout, rng, meter)
                exact = set(legal)
            top = max(values.values())
            winners = [a for a in legal if a in exact and values[a] >= top - 1e-9]
            for a in legal:
                totals[a] += values[a]
            for a in winners:
                votes[a] += 1 / len(winners)
        n = meter.iterations
        key = lambda a: (round(votes[a], 9), totals[a])  # noqa: E731
        action = best_by(legal, key)
        ranked = sorted(legal, key=key, reverse=True)
        candidates = tuple(CandidateAction(str(a), n, totals[a] / n, votes=votes[a]) for a in ranked)
        return Decision(action, self.trace(observation, action, candidates, meter, note=note), self.believed(tally))


def from_spec(params: dict[str, str], resolve) -> VoteAgent:
    spec = SpecReader("vote", params, resolve)
    budget = spec.budget(20, unit="samples")
    depth = spec.int("depth", 2)
    rollouts = spec.int("rollouts", 1)
    rollout = spec.rollout()
    max_nodes = spec.int("nodes", NODES)
    spec.done()
    return VoteAgent(spec.name, budget, depth, rollouts, rollout, max_nodes)
