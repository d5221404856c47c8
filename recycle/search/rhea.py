"""RHEA: the rolling horizon evolutionary algorithm as TAG ships it (and RMHC, its one-gene cousin).

An individual is a sequence of `length` (L, default 10) of the decider's own
actions. It is evaluated by playing it on a determinization of the decider's
information set with the forward model: before each of the decider's turns
the other players move at random (TAG's random opponent model); after each
of the decider's actions the state reached is valued by the game's
heuristic (`GameState.heuristic`), and the fitness is the discounted sum of
those values (`discount`, default 0.9), divided by the sum of the weights so
it reads on the utility scale. A sequence that reaches the end of the
episode early keeps the final utility for its remaining genes: going out
first must not look worse than staying in.

The first individual is random. Every generation mutates the best one:
`rhea` picks a gene and replaces it and every gene after it by random legal
actions, found by advancing the state (TAG's mutation for action spaces that
depend on the state); `rmhc` (random mutation hill climbing) replaces that
one gene only. A kept gene that is not legal in the world being played is
repaired by a random legal action. Child and parent are evaluated on the
same fresh world with the same random opponents (common random numbers),
and the better is kept (the child on a tie, so the search keeps moving). The
decision is the first gene of the best sequence.

Budget: `iterations` (generations, two evaluations each), `time` or `calls`
(forward-model calls, the other players' moves included); default 100.
"""
from __future__ import annotations

import random
from typing import Any, Sequence

from recycle.kernel.protocol import Decision, GameState, IllegalAction
from recycle.kernel.specs import AgentSpecError

from recycle.search.common import Budget, Meter, SearchAgent, sample_root, worlds
from recycle.search.specs import SpecReader
from recycle.search.traces import CandidateAction

#: The largest sequence a spec may ask for (a typo must not make every evaluation play a whole match).
MAX_LENGTH = 200
SUFFIX, ONE = "suffix", "one"  # mutation: from a gene to the end (rhea), or that gene only (rmhc)


class RHEAAgent(SearchAgent):
    """(1+1) evolution of the decider's next `length` actions against random opponents."""

    def __init__(self, name: str, budget: Budget, length: int = 10, discount: float = 0.9,
                 mutation: str = SUFFIX) -> None:
        self.name, self.budget, self.length, self.discount, self.mutation = name, budget, length, discount, mutation
        how = "mutated from a random gene onward" if mutation == SUFFIX else "one random gene mutated"
        self.method = (f"rolling horizon evolution ({length} actions, {how}, "
                       f"fitness the heuristic discounted by {discount:g}, random opponents)")

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        meter = self.budget.meter()
        root = sample_root(observation, rng)
        player = root.current_player()
        best: list = []
        tried: dict[int, list[float]] = {}  # index of the first gene in `legal` -> [evaluations, fitness sum]
        for world in worlds(meter, root, player, rng):
            seed = rng.getrandbits(64)
            if not best:
                best, fitness = self._play(world.clone(), player, [], lambda i: True, random.Random(seed), meter)
                self._count(tried, legal, best, fitness)
                continue
            cut = rng.randrange(len(best))
            fresh = (lambda i: i >= cut) if self.mutation == SUFFIX else (lambda i: i == cut)
            child, child_fitness = self._play(world.clone(), player, best, fresh, random.Random(seed), meter)
            _, parent_fitness = self._play(world.clone(), player, best, lambda i: False, random.Random(seed), meter)
            self._count(tried, legal, child, child_fitness)
            self._count(tried, legal, best, parent_fitness)
            if child_fitness >= parent_fitness:
                best = child
        chosen = _index(legal, best[0])
        order = sorted(tried, key=lambda i: (i != chosen, -tried[i][1] / tried[i][0]))
        candidates = tuple(CandidateAction(str(legal[i]), int(tried[i][0]), tried[i][1] / tried[i][0]) for i in order)
        return Decision(legal[chosen], self.trace(observation, legal[chosen], candidates, meter,
                                                  note="visits: sequences evaluated that start with the action; "
                                                       "value: their mean fitness"))

    def _play(self, state: GameState, player: int, genes: Sequence[Any], fresh, rng: random.Random,
              meter: Meter) -> tuple[list, float]:
        """Play a sequence (gene i drawn anew where `fresh(i)`, repaired where not legal): (genes, fitness)."""
        played: list = []
        fitness = total = 0.0
        weight = 1.0
        rand = rng.random
        while len(played) < self.length:
            while not state.is_terminal() and state.current_player() != player:  # the random opponents
                actions = state.legal_actions()
                state.apply_legal(actions[int(rand() * len(actions))])
                meter.calls += 1
            if state.is_terminal():
                break
            actions = state.legal_actions()
            i = len(played)
            gene = genes[i] if i < len(genes) and not fresh(i) else None
            if gene is None or gene not in actions:
                gene = actions[int(rand() * len(actions))]
            state.apply(gene)
            meter.calls += 1
            played.append(gene)
            fitness += weight * state.heuristic(player)
            total += weight
            weight *= self.discount
        if len(played) < self.length:  # the episode is over: its utility stands for the genes not played
            final = state.heuristic(player)
            for _ in range(self.length - len(played)):
                fitness += weight * final
                total += weight
                weight *= self.discount
        return played, fitness / total

    @staticmethod
    def _count(tried: dict[int, list[float]], legal: list, genes: list, fitness: float) -> None:
        acc = tried.setdefault(_index(legal, genes[0]), [0, 0.0])
        acc[0] += 1
        acc[1] += fitness


def _index(legal: list, action: Any) -> int:
    """Where a first gene (an action of a determinization) is in the observation's legal list."""
    for i, a in enumerate(legal):
        if a == action:
            return i
    text = str(action)
    for i, a in enumerate(legal):
        if str(a) == text:
            return i
    # A world drawn for the decider offered other options than its table: the game's options tell
    # more than its observation (docs/recycle-language.md, "Options and hidden cards").
    raise IllegalAction(f"the first gene {text!r} is not one of the decider's legal actions")


def read_spec(agent: str, params: dict[str, str], resolve, mutation: str) -> RHEAAgent:
    """The `rhea` and `rmhc` parameters: a budget, `length` (1..200) and `discount` (0..1]."""
    spec = SpecReader(agent, params, resolve)
    budget = spec.budget(100)
    length = spec.int("length", 10, 1, MAX_LENGTH)
    discount = spec.float("discount", 0.9, 0.0, 1.0)
    if discount <= 0:
        raise AgentSpecError(f"{agent}: discount must be more than 0 (1 = no discount)")
    spec.done()
    return RHEAAgent(spec.name, budget, length, discount, mutation)


def from_spec(params: dict[str, str], resolve) -> RHEAAgent:
    return read_spec("rhea", params, resolve, SUFFIX)
