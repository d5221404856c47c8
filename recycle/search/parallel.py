"""Root parallelism for ISMCTS: independent trees of one decision, merged at the root.

`trees=N` splits the budget among N trees, each on its own seed drawn in
order from the decision's stream; their root statistics (visits, summed
rewards per action) are added up and the most visited action wins. With
`jobs=J` the trees are grown in J processes (spawned once, then kept), but
every tree depends only on its seed and its share of the budget, so the
decision is the same for any J: same seed, same move. (Time budgets are the
exception, as everywhere: each tree then gets the whole time when trees run
side by side, a 1/N share when they run one after another.)
"""
from __future__ import annotations

import atexit
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from recycle.kernel.beliefs import BeliefTally
from recycle.kernel.protocol import GameState

from recycle.search import uct
from recycle.search.common import Budget, Meter, sampler
from recycle.search.rollouts import Rollout
from recycle.search.inference import Inference

_POOLS: dict[int, Executor] = {}


def grow(root: GameState, player: int, meter: Meter, rng: random.Random, c: float, rollout: Rollout,
         inference: Inference, model: uct.Model | None = None, tally: BeliefTally | None = None) -> uct.SearchNode:
    """One ISMCTS tree of `root` for `player`, grown while `meter` allows; every world searched is
    added to `tally` (before the iteration plays on it)."""
    redeal = inference.sampler(root, player, sampler(root, player), model)

    def start() -> GameState:
        world = redeal(rng)
        if tally is not None:
            tally.add(world)
        return world

    return uct.run(start, root.num_players, meter, rng, c, rollout, fresh_samples=True, model=model,
                   searcher=player)


def _tree(root: GameState, player: int, budget: Budget, seed: int, c: float, rollout: Rollout,
          inference: Inference, model: uct.Model | None
          ) -> tuple[dict[Any, tuple[int, list[float]]], int, int, int, BeliefTally]:
    """One tree's root statistics, counters and worlds (run in a worker process, or here)."""
    meter, tally = budget.meter(), BeliefTally(player)
    node = grow(root, player, meter, random.Random(seed), c, rollout, inference, model, tally)
    stats = {a: (child.visits, child.total) for a, child in node.children.items()}
    return stats, meter.iterations, meter.calls, meter.determinizations, tally


def shares(budget: Budget, trees: int, side_by_side: bool) -> list[Budget]:
    """Each tree's budget: iterations and calls split as evenly as possible (at least 1 each)."""
    if budget.kind == "time":
        seconds = budget.amount if side_by_side else budget.amount / trees
        return [Budget("time", seconds)] * trees
    total = int(budget.amount)
    cap = budget.cap if side_by_side else budget.cap / trees
    return [Budget(budget.kind, max(1, total // trees + (i < total % trees)), cap) for i in range(trees)]


def _pool(jobs: int) -> Executor:
    if jobs not in _POOLS:
        _POOLS[jobs] = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
        atexit.register(_POOLS[jobs].shutdown, cancel_futures=True)
    return _POOLS[jobs]


def run_trees(root: GameState, player: int, meter: Meter, rng: random.Random, budget: Budget, trees: int,
              jobs: int, c: float, rollout: Rollout, inference: Inference,
              model: uct.Model | None = None, tally: BeliefTally | None = None) -> uct.SearchNode:
    """`trees` trees (in `jobs` processes), merged into one root node; `meter` gets their counts,
    `tally` their worlds."""
    seeds = [rng.getrandbits(64) for _ in range(trees)]
    tasks = [(root, player, share, seed, c, rollout, inference, model)
             for share, seed in zip(shares(budget, trees, jobs > 1), seeds)]
    if jobs > 1:
        results = list(_pool(jobs).map(_tree, *zip(*tasks)))
    else:
        results = [_tree(*task) for task in tasks]
    merged = uct.SearchNode(-1, root.num_players)
    for stats, iterations, calls, determinizations, worlds in results:
        if tally is not None:
            tally.merge(worlds)
        meter.iterations += iterations
        meter.calls += calls
        meter.determinizations += determinizations
        for action, (visits, total) in stats.items():
            child = merged.children.get(action)
            if child is None:
                child = merged.children[action] = uct.SearchNode(player, root.num_players)
            child.visits += visits
            child.total = [a + b for a, b in zip(child.total, total)]
        merged.visits += sum(visits for visits, _ in stats.values())
    return merged
