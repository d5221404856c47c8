"""The game under analysis, declared: what `recycle analyze` and `president analyze` ask of a game.

Implemented on each game's side (`recycle.interp.analysis_subject.RecycleSubject`,
`president.match.analysis.PresidentSubject`), so this package imports no game: neither
the RECYCLE reader nor its interpreter (an import-linter contract holds it).
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from recycle.kernel.protocol import GameState


@runtime_checkable
class Subject(Protocol):
    """A game under analysis: small, immutable and picklable (worker processes and a cluster rebuild it)."""

    @property
    def name(self) -> str:
        """What reports call it."""

    @property
    def players(self) -> int:
        """Seats at its table."""

    def new_state(self, seed: int) -> GameState:
        """A game dealt from `seed` (the same seed, the same game in every process)."""

    def episode(self, state: Any) -> int:
        """Which episode (round) the decision about to be taken belongs to; 0 for a game of one."""

    def places(self, state: Any) -> tuple[tuple[int, ...], ...]:
        """Per episode of a finished game, each player's place (1 the best)."""

    def rounds(self, state: Any) -> int | None:
        """How many rounds a finished game had; None for a game without rounds."""

    def describe(self, state: Any, player: int) -> tuple[int, float]:
        """The state's size (cards in play, storages, places) and the share of cards hidden from `player`."""


@runtime_checkable
class CalledSubject(Subject, Protocol):
    """A subject whose engine may call a game at a limit (RECYCLE's choice limit) rather than by its rules."""

    def called(self, state: Any) -> bool:
        """Was the game ended by the engine's limit?"""


def was_called(subject: Subject, state: Any) -> bool:
    """Did the engine call this game at a limit? Never, for a subject whose engine has none."""
    return isinstance(subject, CalledSubject) and bool(subject.called(state))
