"""What the search players share: budgets, root states, the agent shell.

Rollouts are `rollouts.py`, traces `traces.py`, the players' parameters `specs.py`.

Search players know games only through the protocol of `recycle.kernel.protocol`:
honest players search from `Observation.sample_state(rng)` and nothing else;
only the *cheating* MCTS baseline calls `Observation.true_state()`. For speed
they use the state's fast paths (`apply_legal`, `random_playout`,
`determinizer`, and for the endgame solver `transposition_key`,
`value_range`, `still_in`), which every state has and a game may override.

Every search optimises the current episode (a round of a President match):
the root is `sample.truncated()`, and rewards are `Results.utilities()` of
that episode (first 1.0 ... last 0.0), one component per player.

Determinism: a search draws one 64-bit seed from the caller's `rng` and runs
on its own `random.Random`, so the same `rng` state gives the same decision
(and the caller's stream advances by one draw whatever the budget). Time
budgets are the exception: how many iterations fit in the time varies.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from recycle.kernel.beliefs import FORCED, Belief, BeliefTally, observation_belief
from recycle.kernel.protocol import Decision, GameState, Observation

from recycle.search.traces import CandidateAction, SearchTrace

BUDGET_KINDS = ("iterations", "time", "calls")
MAX_SECONDS = 3600.0  # the largest `time=` budget per move


class SearchError(Exception):
    """A game or observation that search players cannot work with."""


# ---- budgets --------------------------------------------------------------
@dataclass(frozen=True)
class Budget:
    """How much a search may do per move: `iterations`, wall-clock `time` (s) or forward-model `calls`.

    A forward-model call is one `apply` on a simulated state (tree moves,
    rollout moves, solver moves); clones and determinizations are not counted.
    A search always completes at least one iteration, and checks the budget
    between iterations, so `calls` and `time` may overshoot by one iteration.

    `cap` (seconds, 0 = none) bounds the wall clock of an `iterations` or
    `calls` budget too: the search stops at whichever comes first, so a player
    at the table never keeps a person waiting longer than `cap` (plus one
    iteration) even on a loaded machine, while its strength on an idle one is
    that of its iteration budget.
    """

    kind: str
    amount: float
    cap: float = 0.0

    def meter(self) -> "Meter":
        return Meter(self)

    def __str__(self) -> str:
        return f"{self.kind}={self.amount:g}" + (f",cap={self.cap:g}" if self.cap else "")


class Meter:
    """Counts one search's iterations and forward-model calls against its budget."""

    __slots__ = ("kind", "limit", "cap", "iterations", "calls", "determinizations", "start")

    def __init__(self, budget: Budget) -> None:
        self.kind, self.limit, self.cap = budget.kind, budget.amount, budget.cap
        self.iterations = self.calls = self.determinizations = 0
        self.start = time.perf_counter()

    def more(self) -> bool:
        if self.iterations == 0:
            return True
        if self.cap and time.perf_counter() - self.start >= self.cap:
            return False
        if self.kind == "iterations":
            return self.iterations < self.limit
        if self.kind == "calls":
            return self.calls < self.limit
        return time.perf_counter() - self.start < self.limit

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def deadline(self, share: float) -> float | None:
        """When `share` of the wall-clock limit (a `time` budget, or the `cap`) runs out; None without one."""
        seconds = self.limit if self.kind == "time" else self.cap
        return self.start + seconds * share if seconds else None


# ---- root states ----------------------------------------------------------
def sample_root(observation: Any, rng: random.Random) -> GameState:
    """One determinization of the observer's information set, cut at the end of the episode."""
    _require_observation(observation)
    return observation.sample_state(rng).truncated()


def true_root(observation: Any) -> GameState:
    """CHEATING: the real state (hidden cards included), cut at the end of the episode."""
    _require_observation(observation)
    return observation.true_state().truncated()


def _require_observation(observation: Any) -> None:
    if not isinstance(observation, Observation):
        raise SearchError(f"{type(observation).__name__} is not an Observation of the game protocol: "
                          "search players cannot play this game")


def sampler(state: GameState, player: int) -> Callable[[random.Random], GameState]:
    """`state.determinize(player, rng)` as a function of `rng`, prepared once where the game can.

    A search draws a new determinization of the same root on every
    iteration; a game's `determinizer(player)` works out what `player`
    knows once for all of them.
    """
    return state.determinizer(player)


def worlds(meter: Meter, root: GameState, player: int, rng: random.Random,
           tally: BeliefTally | None = None) -> Iterator[GameState]:
    """The states of a sampling search's iterations, while the budget lasts, counting each (and adding
    each to `tally`, the searcher's belief).

    The first iteration searches `root` itself (already one determinization);
    every later one a fresh determinization of it from `player`'s point of view.
    """
    world, redeal = root, sampler(root, player)
    while meter.more():
        if meter.iterations:
            world = redeal(rng)
            meter.determinizations += 1
        if tally is not None:
            tally.add(world)
        yield world
        meter.iterations += 1


def remaining_players(state: GameState) -> int | None:
    """How many players are still in the episode, if the game says (`still_in()`), else None."""
    if state.capabilities.still_in:
        return len(state.still_in())
    return 2 if state.num_players == 2 else None


def endgame_solvable(state: GameState, player: int) -> bool:
    """Is this an exact two-player ending for `player`: every hidden card known, two players left?"""
    return state.hidden_is_determined(player) and remaining_players(state) == 2


# ---- the agent shell ------------------------------------------------------

class SearchAgent:
    """Base of the search players: `choose` is `explain` without the trace."""

    name = "search"
    method = "search"
    cheating = False

    def choose(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if len(legal_actions) == 1:  # as `explain` does (the same draw), without working out a belief
            rng.getrandbits(64)
            return legal_actions[0]
        return self.explain(observation, legal_actions, rng, believe=False).action

    def explain(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random,
                believe: bool = True) -> Decision:
        """The decision with its trace; with its belief unless `believe` is off (`choose`: nobody reads it,
        and counting every world would cost a few percent of a search's iterations)."""
        own = random.Random(rng.getrandbits(64))  # a private stream: see the module docstring
        legal = list(legal_actions)
        if len(legal) == 1:
            return Decision(legal[0], self.trace(observation, legal[0], (CandidateAction(str(legal[0])),),
                                                 Meter(Budget("iterations", 0)), note="the only legal action"),
                            observation_belief(observation, FORCED))
        return self.search(observation, legal, own, believe)

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        raise NotImplementedError

    @staticmethod
    def tally(player: int, believe: bool) -> BeliefTally | None:
        """Where a sampling search adds up its worlds, when a belief is wanted."""
        return BeliefTally(player) if believe else None

    def believed(self, tally: BeliefTally | None, how: str = "searched") -> Belief | None:
        """The search's belief: the average of the worlds it searched (`recycle.kernel.beliefs`)."""
        if tally is None:
            return None
        return tally.belief(f"{tally.worlds} world{'' if tally.worlds == 1 else 's'} {how}")

    def trace(self, observation: Any, action: Any, candidates: tuple[CandidateAction, ...], meter: Meter,
              **extra: Any) -> SearchTrace:
        player = observation.player
        return SearchTrace(self.name, extra.pop("method", self.method), player, str(action), candidates,
                           meter.iterations, meter.seconds(), meter.determinizations, meter.calls,
                           cheating=self.cheating, **extra)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def best_by(legal: Sequence[Any], key: Callable[[Any], Any]) -> Any:
    """The first legal action with the largest key (ties: the earliest in legal order)."""
    best, best_key = legal[0], key(legal[0])
    for a in legal[1:]:
        k = key(a)
        if k > best_key:
            best, best_key = a, k
    return best

