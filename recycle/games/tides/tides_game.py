"""Native Tides of Time as a `Game` (`recycle.kernel.game`): a two-player round, no parameters.

    TidesGame().new_initial_state(7)     # TidesState.new(7)

It hosts the Tides bots (`Family.TIDES`) and every search player; it has no climbing
view, so rule personalities cannot play it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from recycle.kernel.game import PLACES, Capabilities, Family

from recycle.games.tides.state import TidesState

#: Hidden hands, worlds to sample, the Tides bots.
CAPABILITIES = Capabilities(families=frozenset({Family.TIDES}))


@dataclass(frozen=True)
class TidesGame:
    """A round of Tides of Time (the native engine; the RECYCLE file is `TidesOfTime2`)."""

    @property
    def name(self) -> str:
        return "TidesOfTime2"  # the name agents and commands know it by, the file's as the native round's

    @property
    def num_players(self) -> int:
        return 2

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {}

    @property
    def value_range(self) -> tuple[float, float]:
        return PLACES

    @property
    def capabilities(self) -> Capabilities:
        return CAPABILITIES

    def new_initial_state(self, seed: int, hands=None) -> TidesState:
        """A round dealt from `seed` (or from the two `hands` given)."""
        return TidesState.new(seed, hands)
