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
from recycle.kernel.suggest import hint

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
SEARCH_PLAYER_NAMES = ("alphabeta", "ismcts", "mcts", "pimc", "vote")


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


#: Agents written for some games only (they read those games' observations): agent -> the games, by
#: shipped name. Every other agent of the table plays any game through the protocol.
ONLY_AT: dict[str, tuple[str, ...]] = {"tides-seed": ("TidesOfTime2",), "tides-solver": ("TidesOfTime2",)}


def agents_for(game: str) -> list[str]:
    """The agents of the table that can play `game` (a shipped game's name, or a file), in table order."""
    name = game.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".gdl").removesuffix(".rcy").lower()
    return [agent for agent in AGENT_FACTORIES if agent not in ONLY_AT
            or name in (g.lower() for g in ONLY_AT[agent])]


def cannot_play(personality: str, game: str) -> str:
    """Why a rule personality cannot sit at `game` (no climbing view), and the agents that can."""
    return (f"{personality} is a President personality: it plays climbing games (a hand, cards to beat on the table), "
            f"and {game} is not one; agents that can play {game}: {', '.join(agents_for(game))}")


def make_agent(spec: str, fallback: Callable[[str], Agent | None] | None = None, game: str | None = None) -> Agent:
    """The agent a spec names. `fallback` resolves game-specific names (personalities); `game`, when given,
    refuses an agent written for other games (`agents_for`)."""
    name, params = parse_spec(spec)

    def resolve(inner: str) -> Agent:
        return make_agent(inner, fallback, game)

    factory = AGENT_FACTORIES.get(name.lower())
    if factory is not None and game is not None and name.lower() not in agents_for(game):
        raise AgentSpecError(f"{name} plays {', '.join(ONLY_AT[name.lower()])} only; agents that can play {game}: "
                             f"{', '.join(agents_for(game))}")
    if factory is not None:
        return factory(dict(params), resolve)
    if fallback is not None and not params:
        agent = fallback(spec)
        if agent is not None:
            return agent
    known = ", ".join(sorted(AGENT_FACTORIES))
    raise AgentSpecError(f"unknown bot {spec!r}{hint(name, _names(fallback is not None))}: use a shipped "
                         f"personality name, a .rul file, or one of: {known}")


def _names(personalities: bool) -> list[str]:
    """Every name a spec may start with: the agents, and the personalities when the game takes them."""
    if not personalities:
        return list(AGENT_FACTORIES)
    from personalities.catalog import known_names, search_dirs

    return [*AGENT_FACTORIES, *known_names(search_dirs())]
