"""The table of agent names every command line accepts, built in one place.

`random` and the search players are listed here explicitly (no registration
by import side effect); games add their own names (a shipped personality, a
`.rul` path) through the `fallback` resolver of `make_agent`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Sequence

from recycle.kernel.game import Capabilities, Family, Game
from recycle.kernel.protocol import Agent, RandomAgent
from recycle.kernel.specs import AgentSpecError, fill_seats, parse_spec
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


def cannot_play(personality: str, game: "Game | str") -> str:
    """Why a rule personality cannot sit at `game` (no climbing view), and the agents that can."""
    title = display_name(game)
    return (f"{personality} is a President personality: it plays climbing games (a hand, cards to beat on the table), "
            f"and {title} is not one; agents that can play {title}: {', '.join(agents_for(game))}")


def make_agent(spec: str, fallback: Callable[[str], Agent | None] | None = None,
               game: "Game | str | None" = None) -> Agent:
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


def make_bots(game: Game, specs: Sequence[str], personality: Callable[[str], Agent | None] | None = None,
              ) -> tuple[list[Agent], list[str]]:
    """One agent per seat of `game` (fewer specs repeat in rotation), each its own object, and the seat
    specs: the one place agent specs become agents, for any game. An agent the game's capabilities
    exclude is refused by name with the reason (`refusal`); a personality name goes to `personality`,
    the game's own resolver (President's view, a RECYCLE climbing adapter), or, at a game without a
    climbing view and no resolver, is refused (`cannot_play`)."""
    seats = fill_seats(specs, game.num_players)
    check_agents_for(seats, game)
    resolve = personality if personality is not None else _no_personality(game)
    # Fresh objects per seat: stateful agents (search players) never share memory.
    return [make_bot(game, spec, resolve) for spec in seats], seats


def make_bot(game: Game, spec: str, personality: Callable[[str], Agent | None] | None = None) -> Agent:
    """The agent of one spec at `game` (see `make_bots`)."""
    if not spec.strip():
        raise AgentSpecError("empty bot name")
    return make_agent(spec, personality if personality is not None else _no_personality(game), game=game)


def _no_personality(game: Game) -> Callable[[str], Agent | None]:
    """A resolver for a game no rule personality can play: a personality's name is refused, naming the
    agents that can play; any other name is left unknown."""
    def refuse(name: str) -> Agent | None:
        from personalities.catalog import find_personality

        if find_personality(name) is not None:
            raise AgentSpecError(cannot_play(name, game))
        return None
    return refuse


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

#: Why a game lacking a capability (`recycle.kernel.game.Capabilities`) cannot host an agent needing it.
NEED_WORDS = {
    "determinize": "it samples the worlds a seat cannot tell apart, and the game deals none",
    "true_state": "it reads every hidden card, and the game shows it none",
    "climbing_view": "it reads a climbing view (a hand, cards to beat on the table), and the game has none",
    Family.TIDES.value: "it reads a Tides of Time observation: it plays TidesOfTime2 only",
}


@dataclass(frozen=True)
class AgentTraits:
    """What an agent of the table needs from a game (names of `Capabilities` fields or `Family` values),
    declared beside its factory; a game hosts it when its capabilities offer them all."""

    needs: frozenset[str] = frozenset()
    cheats: bool = False  # reads every hidden card (`Observation.true_state()`): a baseline, not a fair opponent

    def plays(self, game: "Game | str") -> bool:
        return not capabilities_of(game).missing(self.needs)


#: The search players that sample worlds (all but the cheating `mcts`).
_SAMPLING = AgentTraits(frozenset({"determinize"}))

#: name -> traits; `random` needs nothing of a game.
AGENT_TRAITS: dict[str, AgentTraits] = {
    **{name: _SAMPLING for name in SEARCH_PLAYER_NAMES},
    "mcts": AgentTraits(frozenset({"true_state"}), cheats=True),
    "tides-seed": AgentTraits(frozenset({Family.TIDES.value})),
    "tides-solver": AgentTraits(frozenset({Family.TIDES.value})),
}


def game_name(game: "Game | str") -> str:
    """A game as the traits name it: a shipped name or a file's stem, in lower case."""
    name = game if isinstance(game, str) else game.name
    return name.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".gdl").removesuffix(".rcy").lower()


def capabilities_of(game: "Game | str") -> Capabilities:
    """A game's capabilities; a game given by name only (tests, old callers) is taken to be one of the
    plain protocol, hosting the Tides agents when it is `TidesOfTime2`."""
    if not isinstance(game, str):
        return game.capabilities
    return Capabilities(families=frozenset({Family.TIDES}) if game_name(game) == "tidesoftime2" else frozenset())


def display_name(game: "Game | str") -> str:
    return game if isinstance(game, str) else game.name


def agent_traits(name: str) -> AgentTraits:
    """What the agent `name` (a name of `AGENT_FACTORIES`) declares; plain traits for any other name."""
    return AGENT_TRAITS.get(name.lower(), AgentTraits())


def agents_for(game: "Game | str") -> list[str]:
    """The names of `AGENT_FACTORIES` that can play `game` (its capabilities), in table order."""
    return [name for name in AGENT_FACTORIES if agent_traits(name).plays(game)]


def refusal(name: str, game: "Game | str") -> str:
    """Why agent `name` cannot sit at `game` (the capability it needs that the game lacks), and the agents
    that can (cheating ones labelled)."""
    missing = capabilities_of(game).missing(agent_traits(name).needs)
    why = "; ".join(NEED_WORDS.get(need, f"it needs {need}") for need in missing)
    able = ", ".join(n + (" (cheating)" if agent_traits(n).cheats else "") for n in agents_for(game))
    personality = ", or a personality" if capabilities_of(game).climbing_view or game == PRESIDENT else ""
    title = display_name(game)
    return f"{name} cannot play {title} ({why}); agents that can play {title}: {able}{personality}"


def unplayable_agent(spec: str, game: "Game | str") -> str | None:
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


def check_agents_for(specs: list[str] | tuple[str, ...], game: "Game | str") -> None:
    """Raise `AgentSpecError` for a spec naming an agent that cannot play `game`, naming those that can."""
    for spec in specs:
        name = unplayable_agent(spec, game)
        if name is not None:
            raise AgentSpecError(refusal(name, game))
