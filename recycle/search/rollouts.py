"""How a search plays a simulated state to its end, and an agent as the other players' model.

A rollout is uniformly random moves (`Rollout()`), an agent's moves (`rollout=Classic`)
or the game's own cheap policy (`PolicyRollout`, `rollout=greedy`).
"""
from __future__ import annotations

import random
from typing import Any

from recycle.kernel.protocol import Agent, GameState, RandomAgent, play_out, unasked_when_forced
from recycle.kernel.specs import AgentSpecError

from recycle.search.common import SearchError


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
