"""Turning bot names from the command line into President agents.

A BOT is `random`, an agent spec (`ismcts:iterations=1000`), a shipped
personality name (`Classic`), or a path to a `.rul` file.
"""
from __future__ import annotations

from pathlib import Path

from recycle.kernel.specs import AgentSpecError, fill_seats
from recycle.players import make_agent
from recycle.kernel.protocol import Agent


def personality_agent(spec: str, rules_dirs: tuple[Path, ...] = ()) -> Agent | None:
    """A rule player for a personality name or `.rul` path, or None if `spec` is neither."""
    from personalities.catalog import find_personality
    from personalities.player import RulePlayer

    from president.game.view import president_view

    personality = find_personality(spec, rules_dirs)
    if personality is None:
        return None
    return RulePlayer(personality, president_view)


def make_bot(spec: str, rules_dirs: tuple[Path, ...] = ()) -> Agent:
    """The agent for one BOT argument; raises AgentSpecError or RulError with a clear message."""
    if not spec.strip():
        raise AgentSpecError("empty bot name")
    return make_agent(spec, lambda name: personality_agent(name, rules_dirs), game="President")


def make_bots(specs: list[str], players: int, rules_dirs: tuple[Path, ...] = ()) -> tuple[list[Agent], list[str]]:
    """One agent per seat, fewer specs than seats repeated in rotation; and the seats' names for results
    (the spec; `Classic (your copy)` for the user's edited copy of a shipped personality)."""
    from personalities.catalog import shown_name

    seats = fill_seats(specs, players)
    made = {s: make_bot(s, rules_dirs) for s in dict.fromkeys(specs)}
    # Each seat gets its own agent object so that stateful agents never share memory.
    agents = [made[s] if seats.index(s) == i else make_bot(s, rules_dirs) for i, s in enumerate(seats)]
    from president.agents.opponents import tell_opponents  # the seats' names are public: a search may ask for them

    for i, agent in enumerate(agents):
        tell_opponents(agent, i, seats, rules_dirs)
    return agents, [shown_name(s, rules_dirs) for s in seats]
