"""Native President as a `Game` (`recycle.kernel.game`): one value per table's settings.

    game = PresidentGame(preset("classic"))
    state = game.new_initial_state(7)          # PresidentState.new_match(settings, 7)

Its capabilities are its states' (inference's chain and evidence, who is still in,
transposition keys, the greedy playout policy) plus the climbing view: rule
personalities play it natively (`president/game/view.py`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from recycle.kernel.game import PLACES, Capabilities

from president.game.settings import Settings
from president.game.state import PresidentState

#: The game's name where agents and commands name it (`recycle.players.PRESIDENT`).
NAME = "President"


@dataclass(frozen=True)
class PresidentGame:
    """President at a table of these settings (players, decks, rules, rounds)."""

    settings: Settings

    @property
    def name(self) -> str:
        return NAME

    @property
    def num_players(self) -> int:
        return self.settings.players

    @property
    def parameters(self) -> Mapping[str, Any]:
        return self.settings.describe()

    @property
    def value_range(self) -> tuple[float, float]:
        return PLACES

    @property
    def capabilities(self) -> Capabilities:
        return CAPABILITIES

    def new_initial_state(self, seed: int, deal=None) -> PresidentState:
        """A match dealt from `seed` (its first round from `deal`, hands per seat, when given)."""
        return PresidentState.new_match(self.settings, seed, deal)


#: The same for every table: hidden hands, everything search may use, rule personalities welcome.
CAPABILITIES = replace(PresidentState.capabilities, climbing_view=True)
