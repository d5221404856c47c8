"""The play-match callable of `president tournament` for native President matches.

It is sent to worker processes (picklable), so this module is lean: a
President tournament's workers never import the RECYCLE reader and
interpreter (`recycle.climbing.match` plays RECYCLE climbing games).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from recycle.kernel.protocol import play_game

from president.agents.bots import make_bot, make_bots
from president.game.observation import round_points
from president.game.settings import Settings
from president.game.state import PresidentState


@dataclass(frozen=True)
class PresidentMatch:
    """Plays one President match (the tournament's play-match callable; picklable)."""

    settings: Settings
    rules_dirs: tuple[Path, ...] = ()

    def __call__(self, specs: tuple[str, ...], deal_seed: int, game_seed: int) -> list[tuple[tuple, tuple]]:
        # Fresh agents every match: no agent state can leak between games or workers.
        agents, _ = make_bots(list(specs), self.settings.players, self.rules_dirs)
        state = PresidentState.new_match(self.settings, deal_seed)
        play_game(state, agents, random.Random(game_seed))
        return [(places, round_points(places)) for places in state.round_log]

    @property
    def players(self) -> int:
        return self.settings.players

    def bot(self, spec: str):
        return make_bot(spec, self.rules_dirs)
