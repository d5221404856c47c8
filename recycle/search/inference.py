"""Inference-aware determinization: sampled worlds weighed by what the play has revealed.

A plain determinization deals the unseen cards uniformly, as if the
opponents' passes said nothing. A game may offer `state.evidence(player, q)`:
an object whose `weight(world)` is the likelihood (0..1, up to a constant)
of the opponents' observed actions in that world under a playout model
(President: `president.game.inference.PassEvidence`, or with an opponent model
`ModelEvidence`, the opponents' decisions of the round replayed under the
model). Worlds are then drawn in proportion to their weight, in one of two ways:

- a *chain* (`pool=N`, where the game offers `neighbours`): the search's
  first N determinizations are the steps of a Metropolis chain that starts
  at the likeliest of a few deals and moves by small changes (President:
  one unknown card swapped between two opponents), each accepted with
  probability min(1, new weight / old weight); later determinizations are
  copies of the chain's worlds. A uniform deal almost never agrees with a
  long stretch of the opponents' decisions, so drawing from scratch either
  keeps poor worlds or, weighed hard, very few of them; small steps find
  and stay among the likely ones. A step weighs one world, stopping as soon
  as it is sure to be refused, and each world is weighed once;
- *rejection* (otherwise): every determinization deals until a world is kept
  with probability equal to its weight; after `tries` deals the heaviest one
  seen is kept, so one determinization never costs more than `tries` deals.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from recycle.kernel.protocol import GameState

Redeal = Callable[[random.Random], GameState]
Neighbour = Callable[[GameState, random.Random], "GameState | None"]

#: The longest chain a spec may ask for (each of its worlds is kept: a copy of the game state).
POOL_MAX = 10_000


@dataclass(frozen=True)
class Inference:
    """How a search weighs its determinizations: `q`, the likelihood factor of a decision the model
    would not have made (0 = off), and the sampling method: a chain of `pool` worlds, else rejection
    with at most `tries` deals."""

    q: float = 0.0
    tries: int = 8
    pool: int = 0
    #: Opt-in: the opponents' own policies, (seat, model) pairs, when the table shows who they are
    #: (their personalities' names are public). A known opponent's decisions are weighed by its own
    #: policy, mixed with the generic model (`Known`); the others' by the generic model alone.
    known: tuple[tuple[int, Any], ...] = field(default=(), compare=False)

    def knowing(self, policies: dict[int, Any]) -> "Inference":
        """This inference, with the opponents' known policies (seat -> model) given as input."""
        return replace(self, known=tuple(sorted(policies.items(), key=lambda kv: kv[0])))

    def describe(self) -> str:
        """For a search's trace: what the worlds are weighed by, and how they are drawn."""
        how = f"a chain of {self.pool} worlds" if self.pool else f"rejection, at most {self.tries} deals each"
        return f"what the opponents did (q={self.q:g}), {how}"

    def sampler(self, root: GameState, player: int, redeal: Redeal, model=None) -> Redeal:
        """`redeal` with its worlds drawn in proportion to their evidence weight; `redeal` itself
        when inference is off, the game offers no evidence, or nothing was observed. With an
        opponent `model`, the evidence is the opponents' decisions under that model."""
        make = getattr(root, "evidence", None) if self.q else None
        if make is None:
            evidence = None
        elif model is None:
            evidence = make(player, self.q)
        else:
            evidence = make(player, self.q, Known(model, dict(self.known)) if self.known else model)
        if evidence is None or not evidence.events:
            return redeal
        neighbour = root.neighbours(player) if self.pool else None
        if neighbour is not None:
            return _chain(redeal, neighbour, evidence.weight, self.pool)
        return _rejecter(redeal, evidence.weight, self.tries)


#: No inference.
OFF = Inference()


class Known:
    """The opponent model of an inference that knows some opponents' policies: a known opponent's
    decision has the likelihood of a mixture, `1 - MIX` its own policy and `MIX` the generic model
    (1 if it makes that decision, else q), so a wrong guess of an opponent lowers the weights without
    making every world impossible. A policy is asked once (a rule personality without a `Random`
    condition is a function of its hand and the table), or `samples` times (its attribute) when it
    flips coins: the share of those draws making the decision is its likelihood."""

    #: The generic model's share in a known opponent's policy.
    MIX = 0.05

    __slots__ = ("generic", "policies")

    def __init__(self, generic, policies: dict[int, Any]) -> None:
        self.generic, self.policies = generic, policies

    def factor(self, state: GameState, player: int, legal: list, action, q: float, rng: random.Random) -> float:
        """The likelihood factor of `player` having made `action` in `state` (up to a constant)."""
        own = self.policies.get(player)
        if own is None:
            return 1.0 if self.generic(state, legal, rng) == action else q
        samples = getattr(own, "samples", 1)
        likely = sum(own(state, legal, rng) == action for _ in range(samples)) / samples
        if likely == 1.0:
            return 1.0
        generic = q if own is self.generic or self.generic(state, legal, rng) != action else 1.0
        return (1 - self.MIX) * likely + self.MIX * generic


#: Deals searched for the chain's first world: the heaviest of them.
START = 20


def _chain(redeal: Redeal, neighbour: Neighbour, weight: Callable[..., float], size: int) -> Redeal:
    """The first `size` draws walk a Metropolis chain over worlds (each step proposes a neighbour
    and moves there with probability min(1, its weight / the current one's)); every later draw
    is a copy of one of the chain's worlds, uniformly."""
    pool: list[GameState] = []  # the chain's worlds: the last is where it stands
    weight_now = [0.0]  # the weight of pool[-1]

    def step(rng: random.Random) -> None:
        if not pool:  # start from the likeliest of a few deals
            world, w = None, -1.0
            for _ in range(START):
                deal = redeal(rng)
                dw = weight(deal, w)  # below the best so far it cannot win: not weighed to the end
                if dw > w:
                    world, w = deal, dw
        else:
            world, w = pool[-1], weight_now[0]
            proposal = neighbour(world, rng)
            if proposal is not None and proposal is not world:
                bar = rng.random() * w  # accepted with probability min(1, weight / w)
                pw = weight(proposal, bar)
                if pw >= bar:
                    world, w = proposal, pw
        weight_now[0] = w
        pool.append(world)

    def draw(rng: random.Random) -> GameState:
        if len(pool) < size:
            step(rng)
            return pool[-1].clone()  # the search plays on its copy
        return pool[rng.randrange(size)].clone()

    return draw


def _rejecter(redeal: Redeal, weight: Callable[[GameState], float], tries: int) -> Redeal:
    def draw(rng: random.Random) -> GameState:
        best, best_w = None, -1.0
        for _ in range(tries):
            world = redeal(rng)
            w = weight(world)
            if rng.random() < w:
                return world
            if w > best_w:
                best, best_w = world, w
        return best

    return draw
