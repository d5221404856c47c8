"""The game protocol every game implements and every agent uses.

A game is a small mutable state object behind a uniform interface (as in
OpenSpiel and TAG): whose turn it is, the legal actions, applying one, the
terminal test and per-player results, one player's observation, and
`determinize(player, rng)` — a full state consistent with everything that
player knows (CardStock's *Perspective*), which is what search players sample.

Agents are separate objects that see only an observation and the legal
actions; the game loop (`play_game`) is a few lines.
"""
from __future__ import annotations

import abc
import random
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Hashable, Protocol, Sequence, runtime_checkable

from recycle.kernel.game import Capabilities

#: `current_player()` of a finished game.
TERMINAL = -1


class GameError(Exception):
    """Base class of the errors a game raises."""


class IllegalAction(GameError):
    """An action the rules do not allow now; the message names the rule broken."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class ActionParseError(GameError, ValueError):
    """Text that is not the text form of any action of this game."""


@dataclass(frozen=True)
class Results:
    """Per-player outcome of a finished game.

    `ranks[p]` is player p's finishing place, 1 the best; tied players share a
    place. `scores[p]` is the game's own score for p (points in President).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...]

    def utilities(self) -> tuple[float, ...]:
        """Rewards in [0, 1] from finishing places: first 1.0, last 0.0.

        Search players maximise these, so they care about every place,
        not only about winning.
        """
        n = len(self.ranks)
        if n < 2:
            return (1.0,) * n
        return tuple((n - r) / (n - 1) for r in self.ranks)


def score_lead(scores: Sequence[float], player: int, goal: str = "max") -> float:
    """A heuristic from scores that mean something before the end: 0.5 plus half `player`'s lead over the
    mean of the others, relative to the two (0.5 level; towards 1 ahead, towards 0 behind).

    `goal="min"` when low scores win. With two players: 0.5 + 0.5 (mine - theirs) / (|mine| + |theirs|)."""
    mine = scores[player]
    others = sum(s for q, s in enumerate(scores) if q != player) / max(1, len(scores) - 1)
    total = abs(mine) + abs(others)
    lead = 0.5 + 0.5 * (mine - others) / total if total else 0.5
    return lead if goal == "max" else 1.0 - lead


class GameState(abc.ABC):
    """One position of a game, including whose turn it is.

    States are mutable (`apply` changes them in place, which is what search
    wants); `clone` must be cheap.
    """

    num_players: int

    #: What search may use beyond the plain protocol (`recycle.kernel.game.Capabilities`): a game whose
    #: states override `neighbours`, `evidence`, `still_in`, `holdings` or `transposition_key` says so here, and
    #: search reads this instead of calling them to see whether they answer None.
    capabilities: ClassVar[Capabilities] = Capabilities()

    @abc.abstractmethod
    def current_player(self) -> int:
        """The player to act, or `TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> list[Any]:
        """The actions the current player may take, in a fixed order."""

    @abc.abstractmethod
    def apply(self, action: Any) -> None:
        """Play `action` for the current player; raises `IllegalAction`."""

    @abc.abstractmethod
    def clone(self) -> "GameState":
        """An independent copy."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """Has the game ended?"""

    @abc.abstractmethod
    def results(self) -> Results:
        """Finishing ranks and scores; only valid when terminal."""

    @abc.abstractmethod
    def observation(self, player: int) -> "Observation":
        """What `player` may know now (its own cards, public cards, history)."""

    @abc.abstractmethod
    def determinize(self, player: int, rng: random.Random) -> "GameState":
        """A full state consistent with `player`'s knowledge.

        Everything `player` knows stays as it is; everything it cannot know is
        re-dealt with `rng`, keeping every hand's size.
        """

    @abc.abstractmethod
    def parse_action(self, text: str) -> Any:
        """The action whose text form (`str(action)`) is `text`."""

    def truncated(self) -> "GameState":
        """A copy that ends with the current episode (a round of a match), for search.

        Its `results()` rank the players by that episode alone. Games without
        episodes return a plain clone.
        """
        return self.clone()

    def hidden_is_determined(self, player: int) -> bool:
        """True when `player` can deduce every hidden card (determinize is exact).

        Search players switch to exact solvers there.
        """
        return False

    # ---- fast paths: search calls these; a game overrides them to be faster ----
    def apply_legal(self, action: Any) -> None:
        """Apply an action that `legal_actions()` just gave, without checking it again.

        Search applies millions of such actions; any other action must go
        through the validating `apply`. Default: `apply`.
        """
        self.apply(action)

    def random_playout(self, rng: random.Random, draw: Callable[[int], int] | None = None) -> int:
        """Play uniformly random legal moves to the end; returns how many were made.

        Each move is `legal_actions()[i]` with `i = int(rng.random() * n)` (the
        search players' rollouts), or `i = draw(n)` when given (`play_game` passes
        `rng._randbelow`, the draw of `RandomAgent`). A game's own loop must make
        the same moves as this one, so results do not depend on which loop ran.
        """
        steps, rand = 0, rng.random
        while not self.is_terminal():
            actions = self.legal_actions()
            n = len(actions)
            if not n:
                raise GameError("no legal action in a position that is not over")
            self.apply_legal(actions[int(rand() * n) if draw is None else draw(n)])
            steps += 1
        return steps

    def determinizer(self, player: int) -> Callable[[random.Random], "GameState"]:
        """`determinize(player, rng)` as a function of `rng`, for many draws of one state.

        A game may work out what `player` knows once for all the draws.
        """
        return lambda rng: self.determinize(player, rng)

    def neighbours(self, player: int) -> Callable[["GameState", random.Random], "GameState | None"] | None:
        """For inference by a chain of small changes (`recycle.search.inference`): a function giving,
        for one of `player`'s determinizations, a random one next to it (a copy; the same world if
        the change changes nothing; None for a change the knowledge forbids). The proposals must be
        symmetric: each world is proposed from the other as often. None where the game offers none.
        """
        return None

    def still_in(self) -> Sequence[int] | None:
        """The players still taking part in the episode, or None where the game cannot say."""
        return None

    def holdings(self) -> tuple[Sequence[str], Sequence[Sequence[int]]] | None:
        """What each player holds, for beliefs (`recycle.kernel.beliefs`): the labels of the game's kinds
        of card ("" for an unused index) and, per player, how many of each kind it holds (rows aligned
        with the labels). May read hidden cards: only determinizations and the truth are asked. None
        where the game does not describe hands so."""
        return None

    def transposition_key(self) -> Hashable | None:
        """A key equal for states that play on identically (the endgame solver's table), or None."""
        return None

    def value_range(self, player: int) -> tuple[float, float]:
        """Bounds on `player`'s utility from here; the tighter, the more alpha-beta prunes."""
        return 0.0, 1.0

    def heuristic(self, player: int) -> float:
        """How good this state looks for `player`, in [0, 1] like `Results.utilities()` (TAG's `getScore`).

        What one-step look-ahead and the rolling-horizon players (`osla`, `rhea`, `rmhc`) value states
        by. A finished game is worth its utility; an unfinished one, by default, the neutral 0.5. A game
        overrides this with its own reading of a position (President: the places the hands' sizes
        promise; a RECYCLE game: its scores as they stand); it must be cheap, as it is called on every
        simulated state, and may use what `player` cannot see (search calls it on determinizations).
        """
        if self.is_terminal():
            return self.results().utilities()[player]
        return 0.5


class Observation(abc.ABC):
    """What one player may know now: its own cards, public cards, the history.

    Agents decide from observations only. Search players get full states
    through `sample_state(rng)`; only baselines labelled as cheating call
    `true_state()`. An observation is valid while the state it was taken from
    has not moved on (throughout an agent's `choose`).
    """

    __slots__ = ()

    #: The observing player.
    player: int

    @abc.abstractmethod
    def sample_state(self, rng: random.Random) -> GameState:
        """A full state consistent with everything this player knows, hidden cards re-dealt with `rng`.

        The result depends only on this observation and `rng`.
        """

    @abc.abstractmethod
    def true_state(self) -> GameState:
        """CHEATING: a copy of the real state, hidden cards included (labelled baselines only)."""


@dataclass(frozen=True)
class Decision:
    """An action together with the agent's account of why it chose it.

    `trace` is agent-specific; it offers `to_json()` and renders with rich.
    """

    action: Any
    trace: Any = None
    belief: Any = None  # what the agent believes the others hold (`recycle.kernel.beliefs.Belief`), if it says


def trace_json(trace: Any) -> Any:
    """A decision's trace for a JSON report: its own `to_json()` when it has one."""
    return trace.to_json() if hasattr(trace, "to_json") else trace


@runtime_checkable
class Agent(Protocol):
    """Something that chooses actions. `explain` is optional, and so is `draws_nothing_when_forced`:
    an agent whose attribute is true returns the one legal action, drawing nothing, when there is
    only one, so the game loop (`play_out`) applies it without asking (a third of a President
    table's turns)."""

    name: str

    def choose(self, observation: Observation, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """One of `legal_actions`."""


@runtime_checkable
class ExplainingAgent(Agent, Protocol):
    """An agent that can also say why: `explain` returns the action with a trace."""

    def explain(self, observation: Observation, legal_actions: Sequence[Any], rng: random.Random) -> Decision:
        """The action `choose` would take, with the agent's account of it."""


def decide(agent: Agent, observation: Any, legal_actions: Sequence[Any],
           rng: random.Random, explain: bool = False) -> Decision:
    """Ask `agent` for an action, with its trace when it can explain and we ask."""
    if explain and isinstance(agent, ExplainingAgent):
        return agent.explain(observation, legal_actions, rng)
    return Decision(agent.choose(observation, legal_actions, rng))


class RandomAgent:
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        n = len(legal_actions)
        if n:  # `randrange(n)` is `_randbelow(n)` after argument checks: the same draw, a third cheaper
            return legal_actions[rng._randbelow(n)]
        return legal_actions[rng.randrange(n)]  # raises, as it always did

    def explain(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Decision:
        action = self.choose(observation, legal_actions, rng)
        return Decision(action, {"agent": "random", "choices": len(legal_actions)})


#: Called after every decision: (state before the action, player, decision).
DecisionHook = Callable[[GameState, int, Decision], None]


def apply_chosen(state: GameState, legal: Sequence[Any], action: Any) -> None:
    """Apply an agent's `action`: unchecked if it *is* one of the `legal` objects `legal_actions()` just
    gave, else (an equal copy, a parsed action, a bug) through the checking `apply`."""
    for candidate in legal:
        if candidate is action:
            state.apply_legal(action)
            return
    state.apply(action)


def play_out(state: GameState, choosers: Sequence[Callable[[Any, Sequence[Any], random.Random], Any]],
             rng: random.Random, unasked: Sequence[bool] = ()) -> int:
    """Play `state` to the end, each move `choosers[player](observation, legal, rng)`; returns the moves made.

    The loop of simulations and of the search players' agent rollouts (methods looked
    up once; each action applied by `apply_chosen`). A player marked in `unasked` (its
    agent's `draws_nothing_when_forced`) is not asked when it has only one legal action.
    """
    is_terminal, current_player, observation = state.is_terminal, state.current_player, state.observation
    legal_actions, apply_legal = state.legal_actions, state.apply_legal
    forced = list(unasked) or [False] * len(choosers)
    moves = 0
    while not is_terminal():
        player = current_player()
        legal = legal_actions()
        if forced[player] and len(legal) == 1:
            apply_legal(legal[0])
        else:
            apply_chosen(state, legal, choosers[player](observation(player), legal, rng))
        moves += 1
    return moves


def unasked_when_forced(agents: Sequence[Any]) -> list[bool]:
    """Per agent, may the game loop skip it when it has one legal action (`Agent`)?"""
    return [bool(getattr(agent, "draws_nothing_when_forced", False)) for agent in agents]


def play_game(state: GameState, agents: Sequence[Agent], rng: random.Random,
              on_decision: DecisionHook | None = None, explain: bool = False) -> Results:
    """Play `state` to the end with one agent per seat; returns the results."""
    if on_decision is None and all(type(agent) is RandomAgent for agent in agents):
        # every seat random: the game's own loop makes the very moves of the loop below
        state.random_playout(rng, rng._randbelow)
        return state.results()
    if on_decision is None:  # the hot path of simulations: no Decision objects
        # a game's compiled loop for these agents, where it has one and it applies
        if state.capabilities.agents_playout and state.agents_playout(agents, rng) is not None:
            return state.results()
        play_out(state, [agent.choose for agent in agents], rng, unasked_when_forced(agents))
        return state.results()
    while not state.is_terminal():
        player = state.current_player()
        decision = decide(agents[player], state.observation(player), state.legal_actions(), rng, explain)
        on_decision(state, player, decision)
        state.apply(decision.action)
    return state.results()
