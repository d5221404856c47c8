"""OSLA: one-step look-ahead, TAG's greedy baseline.

Every legal action is applied once to a determinization of the decider's
information set, and the state it leads to is valued by the game's heuristic
(`GameState.heuristic`: President, the place the hands' sizes promise; a
RECYCLE game, its scores as they stand; a finished episode, its utility).
In a game of hidden information the value is averaged over `samples`
determinizations, all actions sharing each one. The best mean wins; equal
means are broken at random (with the decision's own stream), since a
heuristic that cannot tell two actions apart says nothing about the order
they are listed in.

Budget: `samples` (determinizations; `iterations` is a synonym), `time` or
`calls`; default 10 samples.
"""
from __future__ import annotations

import random
from typing import Any

from recycle.kernel.protocol import Decision

from recycle.search.common import Budget, SearchAgent, sample_root, worlds
from recycle.search.specs import SpecReader
from recycle.search.traces import CandidateAction

#: Values closer than this are equal (sums of floats over samples).
TIE = 1e-9


class OSLAAgent(SearchAgent):
    """Greedy: the action whose next state the heuristic likes best, over sampled worlds."""

    method = "one-step look-ahead (each action's next state valued by the game's heuristic)"

    def __init__(self, name: str, budget: Budget) -> None:
        self.name, self.budget = name, budget

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        meter = self.budget.meter()
        root = sample_root(observation, rng)
        player = root.current_player()
        totals = [0.0] * len(legal)
        for world in worlds(meter, root, player, rng):
            for i, a in enumerate(legal):
                state = world.clone()
                state.apply(a)
                meter.calls += 1
                totals[i] += state.heuristic(player)
        top = max(totals)
        best = [i for i, v in enumerate(totals) if v >= top - TIE]
        chosen = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        n = meter.iterations
        order = sorted(range(len(legal)), key=lambda i: (i != chosen, -totals[i]))
        candidates = tuple(CandidateAction(str(legal[i]), n, totals[i] / n) for i in order)
        note = f"{len(best)} actions tied; one drawn at random" if len(best) > 1 else ""
        return Decision(legal[chosen], self.trace(observation, legal[chosen], candidates, meter, note=note))


def from_spec(params: dict[str, str], resolve) -> OSLAAgent:
    spec = SpecReader("osla", params, resolve)
    budget = spec.budget(10, unit="samples")
    spec.done()
    return OSLAAgent(spec.name, budget)
