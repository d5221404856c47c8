"""The table of agent names every command line accepts, built in one place.

`random` and the search players are listed here explicitly (no registration
by import side effect); games add their own names (a shipped personality, a
`.rul` path) through the `fallback` resolver of `make_agent`.
"""
from __future__ import annotations

import importlib
from typing import Callable

from recycle.kernel.protocol import Agent, RandomAgent
from recycle.kernel.specs import AgentSpecError, parse_spec

#: A factory takes the spec's parameters and a resolver for nested specs (`rollout=Classic`).
AgentFactory = Callable[[dict[str, str], Callable[[str], Agent]], Agent]


def _imported_when_used(module: str, attribute: str) -> AgentFactory:
    """A factory whose module is imported at its first use: the search players and the Tides
    agents cost ~0.2 s of imports that `simulate --players random,Classic` never needs."""
    def factory(params: dict[str, str], resolve: Callable[[str], Agent]) -> Agent:
        return getattr(importlib.import_module(module), attribute)(params, resolve)
    return factory


#: The names of `recycle.search.SEARCH_PLAYERS` (each `recycle.search.NAME.from_spec`), listed here so
#: that this table is built without importing the search players; tests/test_cli_help.py checks both agree.
SEARCH_PLAYER_NAMES = ("alphabeta", "ismcts", "mcts", "osla", "pimc", "rhea", "rmhc", "vote")


def _random(params: dict[str, str], resolve: Callable[[str], Agent]) -> Agent:
    if params:
        raise AgentSpecError(f"random takes no parameters, got {', '.join(params)}")
    return RandomAgent()


#: name -> factory; the one table of agents a spec may name.
AGENT_FACTORIES: dict[str, AgentFactory] = {
    "random": _random,
    **{name: _imported_when_used(f"recycle.search.{name}", "from_spec") for name in SEARCH_PLAYER_NAMES},
    # Tides of Time only (native or RECYCLE TidesOfTime2)
    "tides-seed": _imported_when_used("recycle.games.tides.agents", "seed_from_spec"),
    "tides-solver": _imported_when_used("recycle.games.tides.agents", "solver_from_spec"),
}


def make_agent(spec: str, fallback: Callable[[str], Agent | None] | None = None) -> Agent:
    """The agent a spec names. `fallback` resolves game-specific names (personalities)."""
    name, params = parse_spec(spec)

    def resolve(inner: str) -> Agent:
        return make_agent(inner, fallback)

    factory = AGENT_FACTORIES.get(name.lower())
    if factory is not None:
        return factory(dict(params), resolve)
    if fallback is not None and not params:
        agent = fallback(spec)
        if agent is not None:
            return agent
    known = ", ".join(sorted(AGENT_FACTORIES))
    raise AgentSpecError(f"unknown bot {spec!r}: use a shipped personality name, a .rul file, or one of: {known}")
