"""The estimating AI: an agent that plays *and* says what each of its options is worth.

`CardStockEstimator` is CardStock's PIPMC player: for every legal option, K
random rollouts, each from a fresh determinization of what the mover may not
see; an option's estimate is the mean of its rollouts' `Results.utilities()`
(`((np - 1) - mean finishing position) / (np - 1)`, docs/analysis.md's option value),
and the best option is played (ties: the first). The estimate is kept exact:
the rollouts' places are summed as integers and the value is the `Fraction`
`sum(np - rank) / ((np - 1) * rollouts)`, so equal estimates are equal
whatever the number of rollouts, and the analysis compares them exactly. Forced moves (one option)
are estimated too, as CardStock does, so they count with spread 0.

Any agent whose `explain` trace lists candidates with values (the search
players' `SearchTrace`) can replace it: `estimates(agent, ...)` reads the
values of its candidates (mean utility, the same 0..1 scale). Rollouts and
searches cover the current episode (`truncated()`), like every search player.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real
from typing import Any

from recycle.kernel.protocol import Agent, Decision, GameState, IllegalAction
from recycle.kernel.specs import AgentSpecError, int_param, parse_spec
from recycle.search.common import sample_root, sampler

#: CardStock's NUMTESTS: rollouts per option.
DEFAULT_ROLLOUTS = 10
CARDSTOCK = "cardstock"


@dataclass(frozen=True)
class Estimates:
    """An estimator's account of one decision: each option's value for the mover, every player's for the choice
    (`Fraction`s from CardStock's estimator, floats from a search player)."""

    values: tuple[Real, ...]
    view: tuple[Real, ...] | None = None

    def to_json(self) -> dict:
        return {"values": [round(float(v), 4) for v in self.values],
                "view": None if self.view is None else [round(float(v), 4) for v in self.view]}


class CardStockEstimator:
    """CardStock's estimating AI (PIPMC): K random rollouts per option, each from a fresh determinization."""

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS) -> None:
        if rollouts < 1:
            raise AgentSpecError("rollouts must be at least 1")
        self.rollouts = rollouts
        self.name = f"{CARDSTOCK}:rollouts={rollouts}"

    def choose(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        return self.explain(observation, legal_actions, rng).action

    def explain(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Decision:
        own = random.Random(rng.getrandbits(64))  # one draw from the caller's stream, whatever K is
        root = sample_root(observation, own)
        player = root.current_player()
        redeal = sampler(root, player)
        n = root.num_players
        points = [[0] * n for _ in legal_actions]  # sum over rollouts of np - rank: integers, exact
        done = [0] * len(legal_actions)  # rollouts made (an option may not apply in a determinization)
        for m, action in enumerate(legal_actions):
            row = points[m]
            for _ in range(self.rollouts):
                world = redeal(own)
                if not _played_out(world, action, m, own):  # what `Rollout(None).run` plays, read as ranks
                    continue
                ranks = world.results().ranks
                done[m] += 1
                for p in range(n):
                    row[p] += n - ranks[p]
        values = tuple(_value(row[player], k, n) for row, k in zip(points, done))
        best = max(range(len(values)), key=lambda i: (values[i], -i))
        view = tuple(_value(v, done[best], n) for v in points[best])
        return Decision(legal_actions[best], Estimates(values, view))


def _value(points: int, rollouts: int, players: int) -> Fraction:
    """The mean utility `(np - rank) / (np - 1)` of `rollouts` rollouts whose `np - rank` sum to `points`."""
    if not rollouts:
        return Fraction(0)
    if players < 2:
        return Fraction(1)  # `Results.utilities()`: a lone player always wins
    return Fraction(points, (players - 1) * rollouts)


def _played_out(world: GameState, action: Any, index: int, rng: random.Random) -> bool:
    """The mover's option played in a determinization (`_apply`), then a random playout; False
    where the option does not apply. A RECYCLE state plays both in one (`played_out`: the option
    played by the loop of a stage's rounds, not by the general machine, the same moves)."""
    both = getattr(world, "played_out", None)
    if both is not None:
        return both(action, index, rng)
    if not _apply(world, action, index):
        return False
    world.random_playout(rng)
    return True


def _apply(world: GameState, action: Any, index: int) -> bool:
    """Play the mover's option in a determinization: by identity, by text, else by position.

    A random playout follows, which only counts the options of every position where counting is
    proven to offer what exploring would (a RECYCLE state's `counting`, see `recycle.interp.counting`):
    the position this option leads to is counted too instead of explored (3 to 7% of a BigTwo4 all-AI
    game; the same moves and draws, so the same logs)."""
    if hasattr(world, "counting"):
        world.counting = True  # reset by the playout, which sets it again for its own positions
    return _play_option(world, action, index)


def _play_option(world: GameState, action: Any, index: int) -> bool:
    """`_apply` whatever the state counts: by identity, by text, else by position."""
    try:
        world.apply(action)
        return True
    except IllegalAction:
        legal = world.legal_actions()  # an option naming hidden cards reads differently here
        if index < len(legal):
            world.apply(legal[index])
            return True
        return False


def estimates(decision: Decision, legal: Sequence[Any]) -> Estimates | None:
    """The option values an estimating agent reported with its decision, in `legal` order, or None.

    CardStock's estimator reports `Estimates`; a search player's `SearchTrace`
    lists candidates (by action text) with mean values; candidates it never
    tried (or a lone legal action) carry no value and are left out.
    """
    trace = decision.trace
    if isinstance(trace, Estimates):
        return trace
    candidates = getattr(trace, "candidates", None)
    if not candidates:
        return None
    by_text = {c.action: c.value for c in candidates if getattr(c, "value", None) is not None}
    values = tuple(by_text[str(a)] for a in legal if str(a) in by_text)
    return Estimates(values) if values else None


def make_estimator(spec: str, rollouts: int = DEFAULT_ROLLOUTS, fallback=None) -> Agent:
    """The estimating agent a spec names: `cardstock[:rollouts=K]` or any agent that explains with values."""
    name, params = parse_spec(spec)
    if name.lower() == CARDSTOCK:
        k = int_param(dict(params), "rollouts", rollouts, 1)
        unknown = set(params) - {"rollouts"}
        if unknown:
            raise AgentSpecError(f"cardstock takes rollouts=K, not {', '.join(sorted(unknown))}")
        return CardStockEstimator(k)
    from recycle.players import make_agent

    agent = make_agent(spec, fallback)
    if not hasattr(agent, "explain"):
        raise AgentSpecError(f"{spec} cannot be an estimator: it does not report what its options are worth "
                             "(use cardstock or a search player such as ismcts or pimc)")
    return agent
