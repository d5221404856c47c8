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

Opponent model (`model=on`, with an agent rollout such as `rollout=Classic`):
in the tree, every other player moves as the rollout agent would instead of
by UCB, so the decider's options are weighed against the replies it expects
from the people (or bots) at the table, not against each opponent's best
reply. Against rule personalities this is what makes the search strong
(README, "Search players").

Known opponents (`names=on`, with `model=on` and `infer=`): the agent may be
told the table's names (`president.agents.opponents.tell_opponents`, by whoever
seats it: a table, a tournament, `decide`); every opponent that is a rule
personality then has its decisions weighed by its own rules instead of the
rollout agent's (`inference.Known`). Nothing hidden is read: the names are
shown at the table.

Endgame switch: when the decider can deduce every hidden card and two
players remain (`endgame_solvable`), the exact alpha-beta solver decides
instead (unless `endgame=off`, or the ending is bigger than `nodes`).
"""
from __future__ import annotations

import random
from typing import Any

from recycle.kernel.protocol import Decision
from recycle.kernel.specs import AgentSpecError

from recycle.search import parallel, uct
from recycle.search.alphabeta import NODES, open_search
from recycle.search.common import Budget, SearchAgent
from recycle.search.rollouts import Rollout, opponent_model
from recycle.search.specs import SpecReader
from recycle.search.inference import OFF, POOL_MAX, Inference


class ISMCTSAgent(SearchAgent):
    """Information-set MCTS (honest: it never sees hidden cards)."""

    method = "ISMCTS (single observer)"

    def __init__(self, name: str, budget: Budget, rollout: Rollout, c: float = 0.7, endgame: bool = True,
                 max_nodes: int = NODES, inference: Inference = OFF, trees: int = 1,
                 jobs: int = 1, model: uct.Model | None = None, names: bool = False) -> None:
        self.name, self.budget, self.rollout, self.c = name, budget, rollout, c
        self.endgame, self.max_nodes = endgame, max_nodes
        self.inference = inference  # inference-aware determinization
        self.trees, self.jobs = trees, jobs  # root parallelism: see parallel.py
        self.model = model  # the other players' moves in the tree (model=on), else UCB for everyone
        self.names = names  # may be told the table's names, to weigh known opponents by their own rules
        if model is not None:
            self.method = "ISMCTS (single observer; the other players move as the rollout agent would)"
        if inference.q:
            self.method += f"; worlds weighed by {inference.describe()}"

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        meter, root, solved, note = open_search(self, observation, legal, rng, self.endgame, self.max_nodes)
        if solved is not None:
            return solved
        player = root.current_player()
        tally = self.tally(player, believe)
        if self.trees > 1:
            node = parallel.run_trees(root, player, meter, rng, self.budget, self.trees, self.jobs, self.c,
                                      self.rollout, self.inference, self.model, tally)
        else:
            node = parallel.grow(root, player, meter, rng, self.c, self.rollout, self.inference, self.model, tally)
        action, candidates = uct.most_visited(node, legal, player)
        how = "searched, weighed by what the opponents did" if self.inference.q else "searched"
        return Decision(action, self.trace(observation, action, candidates, meter, note=note),
                        self.believed(tally, how))


def from_spec(params: dict[str, str], resolve) -> ISMCTSAgent:
    spec = SpecReader("ismcts", params, resolve)
    budget = spec.budget(1000)
    rollout = spec.rollout()
    c = spec.float("c", 0.7)
    endgame = spec.flag("endgame", True)
    max_nodes = spec.int("nodes", NODES)
    infer = spec.float("infer", 0.0)
    if infer >= 1.0:
        raise AgentSpecError("ismcts: infer is the chance of a revealing pass, below 1 (0 = off)")
    inference = Inference(infer, spec.int("tries", OFF.tries), spec.int("pool", OFF.pool, low=0))
    if inference.pool > POOL_MAX:
        raise AgentSpecError(f"ismcts: pool is at most {POOL_MAX:,} worlds")
    trees = spec.int("trees", 1)
    jobs = spec.int("jobs", 1)
    if trees > 64 or jobs > 64:
        raise AgentSpecError("ismcts: trees and jobs are at most 64")
    model = opponent_model(rollout, "ismcts") if spec.flag("model", False) else None
    names = spec.flag("names", False)
    if names and (model is None or not infer):
        raise AgentSpecError("ismcts: names=on weighs the opponents' decisions by their own rules: it needs "
                             "model=on and infer=")
    spec.done()
    return ISMCTSAgent(spec.name, budget, rollout, c, endgame, max_nodes, inference, trees, jobs, model, names)
