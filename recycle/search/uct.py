"""The tree of MCTS and ISMCTS: nodes, availability-aware UCB selection, backpropagation.

One loop serves both players; they differ only in where each iteration's
state comes from. UCT (`mcts`, cheating) starts every iteration from a copy
of the true state; ISMCTS (Cowling, Powley and Whitehouse 2012, the
single-observer variant) starts every iteration from a fresh determinization.
Nodes are keyed by action only, so one tree is shared by all
determinizations; an action may be illegal in some of them, which is why
each child counts its *availability* (how often it could have been chosen)
and UCB uses that instead of the parent's visits. In a perfect-information
tree every child is always available and this is plain UCT.

Rewards are vectors, one utility per player (first 1.0 ... last 0.0). A node
remembers who moved into it; its parent's mover picks the child with the
best UCB on *that player's* component (max^n-style multi-player MCTS).
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable

from recycle.kernel.protocol import GameState, apply_chosen

from recycle.search.common import Meter
from recycle.search.rollouts import Rollout
from recycle.search.traces import CandidateAction


class SearchNode:
    """Statistics of one action sequence from the root."""

    __slots__ = ("mover", "visits", "avail", "total", "children")

    def __init__(self, mover: int, players: int) -> None:
        self.mover = mover  # who chose the action leading here (-1 at the root)
        self.visits = 0
        self.avail = 1  # times the parent was visited with this action legal (creation counts)
        self.total = [0.0] * players  # summed reward vector
        self.children: dict[Any, SearchNode] = {}

    def mean(self, player: int) -> float:
        return self.total[player] / self.visits if self.visits else 0.0


#: An opponent model: (state, its legal actions, rng) -> the action the player to move takes.
Model = Callable[[GameState, list, random.Random], Any]


def iterate(root: SearchNode, state: GameState, rng: random.Random, c: float, rollout: Rollout,
            model: Model | None = None, searcher: int = -1) -> int:
    """One iteration on `state` (consumed): select, expand one node, roll out, back up.

    With a `model`, every player but `searcher` moves in the tree as the model
    says instead of by UCB: the tree then weighs the searcher's options against
    the replies the model expects, not against each opponent's best reply.
    Returns the forward-model calls made.
    """
    path = [root]
    node = root
    rand, log, sqrt = rng.random, math.log, math.sqrt
    apply = state.apply_legal  # every action below comes from state.legal_actions()
    calls = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        children = node.children
        if model is not None and (mover := state.current_player()) != searcher:
            action = model(state, legal, rng)
            child = children.get(action)
            apply_chosen(state, legal, action)
            calls += 1
            if child is None:  # a reply not seen before: a new node, then the rollout
                path.append(SearchNode(mover, len(root.total)))
                children[action] = path[-1]
                break
            node = child
            path.append(node)
            continue
        untried = [a for a in legal if a not in children]
        if untried:
            action = untried[int(rand() * len(untried))]
            node = children[action] = SearchNode(state.current_player(), len(root.total))
            apply(action)
            path.append(node)
            calls += 1
            break
        best, best_action, best_score = None, None, -1.0
        for a in legal:
            child = children[a]
            n = child.visits
            score = child.total[child.mover] / n + c * sqrt(log(child.avail) / n)
            child.avail += 1
            if score > best_score:
                best, best_action, best_score = child, a, score
        apply(best_action)
        node = best
        path.append(node)
        calls += 1
    rewards, steps = rollout.run(state, rng)
    backup(path, rewards)
    return calls + steps


def backup(path: list[SearchNode], rewards: tuple[float, ...]) -> None:
    """Add one reward vector to every node of an iteration's path."""
    for node in path:
        node.visits += 1
        total = node.total
        for i, r in enumerate(rewards):
            total[i] += r


def run(start: Callable[[], GameState], players: int, meter: Meter, rng: random.Random, c: float,
        rollout: Rollout, fresh_samples: bool, model: Model | None = None, searcher: int = -1) -> SearchNode:
    """Iterate while the budget lasts; `start()` gives each iteration's state."""
    root = SearchNode(-1, players)
    while meter.more():
        meter.calls += iterate(root, start(), rng, c, rollout, model, searcher)
        meter.iterations += 1
        if fresh_samples:
            meter.determinizations += 1
    return root


def most_visited(root: SearchNode, legal: list, player: int) -> tuple[Any, tuple[CandidateAction, ...]]:
    """The legal action with the most visits (ties: the better mean), and every root action's stats."""
    def key(a):
        child = root.children.get(a)
        return (child.visits, child.mean(player)) if child else (0, 0.0)

    ranked = sorted(legal, key=key, reverse=True)
    candidates = tuple(CandidateAction(str(a), root.children[a].visits if a in root.children else 0,
                                       root.children[a].mean(player) if a in root.children else None)
                       for a in ranked)
    return ranked[0], candidates
