"""The table of agent names every command line accepts, built in one place.

`random` and the search players are listed here explicitly (no registration
by import side effect); games add their own names (a shipped personality, a
`.rul` path) through the `fallback` resolver of `make_agent`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
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


def cannot_play(personality: str, game: str) -> str:
    """Why a rule personality cannot sit at `game` (no climbing view), and the agents that can."""
    return (f"{personality} is a President personality: it plays climbing games (a hand, cards to beat on the table), "
            f"and {game} is not one; agents that can play {game}: {', '.join(agents_for(game))}")


def make_agent(spec: str, fallback: Callable[[str], Agent | None] | None = None, game: str | None = None) -> Agent:
    """The agent a spec names. `fallback` resolves game-specific names (personalities); `game`, when given,
    refuses an agent written for other games (`agents_for`)."""
    name, params = parse_spec(spec)

    def resolve(inner: str) -> Agent:
        # A rollout is played at every iteration of the search around it: a search there multiplies
        # the cost per move without a bound (issue 33: minutes for `iterations=2`), so none is one.
        inner_name = parse_spec(inner)[0].lower()
        if inner_name in SEARCH_PLAYER_NAMES:
            raise AgentSpecError(f"a search player ({inner_name}) cannot play inside another search: it would "
                                 "run at every iteration; give random, greedy or a personality")
        return make_agent(inner, fallback, game)

    factory = AGENT_FACTORIES.get(name.lower())
    if factory is not None and game is not None and not agent_traits(name).plays(game):
        raise AgentSpecError(refusal(name.lower(), game))
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


# ---- what each agent can play -------------------------------------------------------------
#: The native President table's name among the games an agent declares (RECYCLE games go by their
#: file's name, e.g. `TidesOfTime2`).
PRESIDENT = "President"


@dataclass(frozen=True)
class AgentTraits:
    """What an agent of the table needs from a game, declared beside its factory."""

    games: tuple[str, ...] = ()  # the only games it can play (by name); () means every game of the protocol
    cheats: bool = False  # reads every hidden card (`Observation.true_state()`): a baseline, not a fair opponent

    def plays(self, game: str) -> bool:
        return not self.games or game_name(game) in {g.lower() for g in self.games}


#: name -> traits, for the agents that do not play every game fairly (the others: `AgentTraits()`).
AGENT_TRAITS: dict[str, AgentTraits] = {
    "mcts": AgentTraits(cheats=True),
    "tides-seed": AgentTraits(games=("TidesOfTime2",)),
    "tides-solver": AgentTraits(games=("TidesOfTime2",)),
}


def game_name(game: str) -> str:
    """A game as the traits name it: a shipped name or a file's stem, in lower case."""
    return game.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".gdl").removesuffix(".rcy").lower()


def agent_traits(name: str) -> AgentTraits:
    """What the agent `name` (a name of `AGENT_FACTORIES`) declares; plain traits for any other name."""
    return AGENT_TRAITS.get(name.lower(), AgentTraits())


def agents_for(game: str) -> list[str]:
    """The names of `AGENT_FACTORIES` that can play `game` (a shipped game's name, or a file), in table order."""
    return [name for name in AGENT_FACTORIES if agent_traits(name).plays(game)]


def refusal(name: str, game: str) -> str:
    """Why agent `name` cannot sit at `game`, and the agents that can (cheating ones labelled)."""
    only = " or ".join(agent_traits(name).games)
    able = ", ".join(n + (" (cheating)" if agent_traits(n).cheats else "") for n in agents_for(game))
    personality = ", or a personality" if game == PRESIDENT else ""
    return f"{name} cannot play {game} (it plays {only} only); agents that can play {game}: {able}{personality}"


def unplayable_agent(spec: str, game: str) -> str | None:
    """The first agent name in `spec` (nested specs such as `rollout=` included) that cannot play
    `game`, or None. Names outside the table (personalities) are the game's own to judge."""
    try:
        name, params = parse_spec(spec)
    except AgentSpecError:
        return None  # make_agent says what is wrong with it
    if name.lower() in AGENT_FACTORIES and not agent_traits(name).plays(game):
        return name.lower()
    for value in params.values():
        inner = unplayable_agent(value, game) if value and value[0].isalpha() else None
        if inner:
            return inner
    return None


def check_agents_for(specs: list[str] | tuple[str, ...], game: str) -> None:
    """Raise `AgentSpecError` for a spec naming an agent that cannot play `game`, naming those that can."""
    for spec in specs:
        name = unplayable_agent(spec, game)
        if name is not None:
            raise AgentSpecError(refusal(name, game))
