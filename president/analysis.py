"""Native President as a subject of `recycle analyze`'s machinery (`president analyze`).

A game of the analysis is one match of `settings.rounds` rounds; its
episodes are the rounds, so CardStock's heuristics are computed per round
(the estimating AI values its places in the current round, like every
search player) and the climbing figures follow players from round to round.
Lean and picklable: worker processes rebuild it from the settings.
"""
from __future__ import annotations

from dataclasses import dataclass

from president.game.settings import Settings
from president.game.state import Phase, PresidentState


@dataclass(frozen=True)
class PresidentSubject:
    """President with these settings, for the analysis experiments."""

    settings: Settings
    label: str = "president"

    @property
    def name(self) -> str:
        return self.label

    @property
    def players(self) -> int:
        return self.settings.players

    def new_state(self, seed: int) -> PresidentState:
        return PresidentState.new_match(self.settings, seed)

    def episode(self, state: PresidentState) -> int:
        return state.round_no

    def places(self, state: PresidentState) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(p) for p in state.round_log)

    def rounds(self, state: PresidentState) -> int:
        return len(state.round_log)

    def called(self, state: PresidentState) -> bool:
        return False

    def describe(self, state: PresidentState, player: int) -> tuple[int, float]:
        """Cards in the pack plus its storages (hands, the table, the played pile); the share hidden from `player`.

        During play every hand but the mover's is hidden; played cards are public.
        """
        deck = self.settings.deck_size
        hidden = sum(size for p, size in enumerate(state.sizes) if p != player)
        if state.phase is Phase.OVER:
            hidden = 0
        return deck + self.settings.players + 2, hidden / deck
