"""What the search players share: budgets, root states, rollouts, traces, spec parsing.

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

from rich import box
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from recycle.kernel.beliefs import FORCED, Belief, BeliefTally, observation_belief
from recycle.kernel.specs import MAX_INT_PARAM, AgentSpecError, float_param, int_param
from recycle.kernel.protocol import Agent, Decision, GameState, Observation, RandomAgent, play_out, unasked_when_forced

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


# ---- rollouts -------------------------------------------------------------
class Rollout:
    """Plays a state to its end: uniformly random moves, or the moves of an agent.

    `run` changes the state in place and returns (utilities, moves made).
    """

    def __init__(self, agent: Agent | None = None, spec: str = "random") -> None:
        self.agent = None if agent is None or type(agent) is RandomAgent else agent
        self.spec = spec

    def run(self, state: GameState, rng: random.Random) -> tuple[tuple[float, ...], int]:
        agent = self.agent
        if agent is None:  # the hot path: no observations, no agent calls
            steps = state.random_playout(rng)
        else:
            steps = None  # the game's compiled loop, where it has one and it applies (the same moves)
            if state.capabilities.agents_playout:
                steps = state.agents_playout([agent] * state.num_players, rng)
            if steps is None:
                steps = play_out(state, [agent.choose] * state.num_players, rng,
                                 unasked_when_forced([agent]) * state.num_players)
        return state.results().utilities(), steps


class AgentModel:
    """An agent as an opponent model inside a search tree: (state, legal, rng) -> its move there."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def __call__(self, state: GameState, legal: list, rng: random.Random) -> Any:
        return self.agent.choose(state.observation(state.current_player()), legal, rng)


def opponent_model(rollout: Rollout, agent_name: str) -> AgentModel:
    """The rollout's agent as the model of the other players (`model=on`); only an agent can be one."""
    if rollout.agent is None:
        raise AgentSpecError(f"{agent_name}: model=on plays the other players as the rollout agent does: "
                             f"give one, e.g. rollout=Classic (not {rollout.spec})")
    return AgentModel(rollout.agent)


# ---- traces ---------------------------------------------------------------
@dataclass(frozen=True)
class CandidateAction:
    """One root action: how often it was tried and what it is worth to the decider."""

    action: str
    visits: int = 0
    value: float | None = None  # mean utility (0 last .. 1 first) over its simulations
    exact: float | None = None  # the solver's value: exact, or an upper bound when `bound`
    votes: float | None = None  # determinizations that chose it (vote)
    bound: bool = False  # `exact` is only an upper bound (alpha-beta proved the action worse)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"action": self.action, "visits": self.visits}
        for key in ("value", "exact", "votes"):
            v = getattr(self, key)
            if v is not None:
                out["upper_bound" if key == "exact" and self.bound else key] = round(v, 4)
        return out

    def cell(self, key: str) -> str:
        v = getattr(self, key)
        if v is None:
            return "-"
        return f"≤{v:.3f}" if key == "exact" and self.bound else f"{v:.3f}"


@dataclass(frozen=True)
class SearchTrace:
    """How a search player reached one decision."""

    agent: str
    method: str
    player: int
    action: str
    candidates: tuple[CandidateAction, ...]
    iterations: int = 0
    seconds: float = 0.0
    determinizations: int = 0
    calls: int = 0
    solver: bool = False  # did the exact endgame solver decide?
    solver_nodes: int = 0
    cheating: bool = False
    note: str = ""

    def to_json(self) -> dict:
        return {"agent": self.agent, "method": self.method, "player": self.player, "action": self.action,
                "cheating": self.cheating, "iterations": self.iterations, "seconds": round(self.seconds, 4),
                "determinizations": self.determinizations, "forward_model_calls": self.calls,
                "endgame_solver": self.solver, "solver_nodes": self.solver_nodes, "note": self.note or None,
                "candidates": [c.to_json() for c in self.candidates]}

    def summary(self) -> str:
        how = "exact endgame solver" if self.solver else f"{self.iterations} iterations"
        return f"{self.agent} (player {self.player}) plays {self.action}: {self.method}, {how}"

    def __rich__(self) -> Tree:
        title = Text.assemble((self.agent, "bold"), f" (player {self.player}) → ", (self.action, "bold green"))
        if self.cheating:
            title.append("  CHEATING: searched the true state", style="bold red")
        tree = Tree(title)
        facts = [self.method, f"{self.iterations} iterations", f"{self.seconds:.3f} s",
                 f"{self.determinizations} determinizations", f"{self.calls} forward-model calls",
                 f"endgame solver {'used' if self.solver else 'not used'}"]
        if self.solver_nodes:
            facts.append(f"{self.solver_nodes} solver nodes")
        tree.add(Text(" · ".join(facts), style="dim"))
        if self.note:
            tree.add(Text(self.note, style="italic"))
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("action")
        table.add_column("visits", justify="right")
        columns = [k for k in ("value", "exact", "votes") if any(getattr(c, k) is not None for c in self.candidates)]
        for key in columns:
            table.add_column({"value": "mean value", "exact": "exact value"}.get(key, key), justify="right")
        for c in self.candidates:
            style = "bold green" if c.action == self.action else ""
            table.add_row(c.action, str(c.visits), *(c.cell(k) for k in columns), style=style)
        tree.add(table)
        return tree


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


# ---- specs ----------------------------------------------------------------
_TRUE, _FALSE = ("on", "true", "yes", "1"), ("off", "false", "no", "0")


class SpecReader:
    """Reads one search player's `key=value` parameters; every error names the player."""

    def __init__(self, agent: str, params: dict[str, str], resolve: Callable[[str], Agent]) -> None:
        self.agent, self.params, self.resolve = agent, dict(params), resolve
        self.accepted: list[str] = []
        self.name = agent + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")

    def _wrap(self, fn, *args):
        try:
            return fn(self.params, *args)
        except AgentSpecError as err:
            raise AgentSpecError(f"{self.agent}: {err}") from None

    def int(self, key: str, default: int, low: int = 1, high: int = MAX_INT_PARAM) -> int:
        self.accepted.append(key)
        return self._wrap(int_param, key, default, low, high)

    def float(self, key: str, default: float, low: float = 0.0, high: float = float(MAX_INT_PARAM)) -> float:
        self.accepted.append(key)
        return self._wrap(float_param, key, default, low, high)

    def flag(self, key: str, default: bool) -> bool:
        self.accepted.append(key)
        text = self.params.pop(key, None)
        if text is None:
            return default
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        raise AgentSpecError(f"{self.agent}: {key} must be on or off, not {text!r}")

    def budget(self, default: int, unit: str = "iterations") -> Budget:
        """One of `unit`, `time` or `calls`; `unit=default` when none is given.

        `unit` is `iterations`, `samples` (with `iterations` as a synonym) or
        `nodes` (a solver's forward-model calls, with `calls` as a synonym).
        """
        names = {"samples": ["samples", "iterations"], "nodes": ["nodes", "calls"]}.get(unit, [unit])
        keys = names + ["time"] + (["calls"] if "calls" not in names else [])
        self.accepted.extend(keys)
        given = [k for k in keys if k in self.params]
        if len(given) > 1:
            raise AgentSpecError(f"{self.agent}: give one budget, not {' and '.join(given)}")
        key = given[0] if given else names[0]
        if key == "time":
            # finite and at most an hour a move: `time=inf` or `nan` would never return
            seconds = self._wrap(float_param, "time", 1.0, 0.0, MAX_SECONDS)
            if seconds <= 0:
                raise AgentSpecError(f"{self.agent}: time must be more than 0 seconds")
            return Budget("time", seconds)
        kind = "calls" if key == "calls" or unit == "nodes" else "iterations"
        amount = self._wrap(int_param, key, default, 1)
        self.accepted.append("cap")
        cap = self._wrap(float_param, "cap", 0.0, 0.0, MAX_SECONDS)  # seconds; 0 = no cap
        return Budget(kind, amount, cap)

    def rollout(self) -> Rollout:
        self.accepted.append("rollout")
        spec = self.params.pop("rollout", "random") or "random"
        if spec.lower() == "random":
            return Rollout(None, "random")
        if spec.lower() == "greedy":  # the game's own cheap playout policy
            return PolicyRollout()
        try:
            return Rollout(self.resolve(spec), spec)
        except AgentSpecError as err:
            raise AgentSpecError(f"{self.agent}: rollout={spec}: {err}") from None

    def done(self) -> None:
        """Reject any parameter not read."""
        if self.params:
            unknown = ", ".join(sorted(self.params))
            raise AgentSpecError(f"{self.agent} does not take {unknown}; it takes {', '.join(self.accepted)}")


class PolicyRollout(Rollout):
    """Rollouts by a game's own cheap playout policy (`rollout=greedy`).

    A rule personality as the rollout (`rollout=Classic`) plays like a person but builds an
    observation and evaluates rules on every simulated move, which makes an iteration many times
    dearer. A game may instead offer `state.policy_playout(rng)`: a hand-tuned policy played in one
    loop at about the cost of a random rollout (President's is in `president.game.playout`)."""

    def __init__(self) -> None:
        super().__init__(None, "greedy")

    def run(self, state: GameState, rng: random.Random) -> tuple[tuple[float, ...], int]:
        if not state.capabilities.policy_playout:
            raise SearchError(f"{type(state).__name__} has no playout policy: use rollout=random or an agent")
        steps = state.policy_playout(rng)
        return state.results().utilities(), steps
