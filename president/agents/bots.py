"""Turning bot names from the command line into President agents.

A BOT is `random`, an agent spec (`ismcts:iterations=1000`), a shipped
personality name (`Classic`), or a path to a `.rul` file.
"""
from __future__ import annotations

from pathlib import Path

from recycle.players import make_bot as make_game_bot
from recycle.kernel.protocol import Agent

from president.game.president_game import PresidentGame
from president.game.settings import Settings

#: Which agents a President table hosts is the same at every table (`president_game.CAPABILITIES`).
ANY_TABLE = PresidentGame(Settings())


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
    """The agent for one BOT argument (`recycle.players.make_bot` at a President table); raises
    AgentSpecError (an agent the game cannot host among them) or RulError with a clear message."""
    return make_game_bot(ANY_TABLE, spec, lambda name: personality_agent(name, rules_dirs))

