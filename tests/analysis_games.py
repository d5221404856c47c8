"""Tiny protocol games with known answers for the analysis tests (importable by worker processes)."""
from __future__ import annotations

import random
from dataclasses import dataclass

from recycle.kernel.protocol import TERMINAL, GameState, IllegalAction, Results
from recycle.kernel.protocol import Observation as ProtocolObservation


class Observation(ProtocolObservation):
    """What a player sees: nothing hidden but the coin; enough for the estimator."""

    __slots__ = ("_state", "player")

    def __init__(self, state: TinyState, player: int) -> None:
        self.player, self._state = player, state

    def sample_state(self, rng: random.Random) -> TinyState:
        return self._state.determinize(self.player, rng)

    def true_state(self) -> TinyState:
        return self._state.clone()


class TinyState(GameState):
    """Two players take `turns` turns each, choosing "a" or "b".

    kind "seat0": seat 0 always wins. kind "coin": a hidden fair coin drawn
    at the deal decides (symmetric). kind "choice": player 0's first choice
    decides ("a" wins for it, "b" loses), so its options differ by exactly 1.
    """

    num_players = 2

    def __init__(self, kind: str, coin: int, turns: int = 2) -> None:
        self.kind, self.coin, self.turns, self.moves = kind, coin, turns, []

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.moves) % 2

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else ["a", "b"]

    def apply(self, action) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r} is not a or b")
        self.moves.append(action)

    def clone(self) -> TinyState:
        c = TinyState(self.kind, self.coin, self.turns)
        c.moves = self.moves[:]
        return c

    def is_terminal(self) -> bool:
        return len(self.moves) >= 2 * self.turns

    def results(self) -> Results:
        if self.kind == "seat0":
            winner = 0
        elif self.kind == "coin":
            winner = self.coin
        else:
            winner = 0 if self.moves[0] == "a" else 1
        ranks = tuple(1 if p == winner else 2 for p in range(2))
        return Results(ranks, tuple(float(r == 1) for r in ranks))

    def observation(self, player: int) -> Observation:
        return Observation(self, player)

    def determinize(self, player: int, rng: random.Random) -> TinyState:
        c = self.clone()
        c.coin = rng.randrange(2)  # nobody sees the coin
        return c

    def parse_action(self, text: str) -> str:
        return text


@dataclass(frozen=True)
class TinySubject:
    """A subject (see `recycle.analysis.experiment`) for `TinyState`."""

    kind: str
    turns: int = 2

    @property
    def name(self) -> str:
        return f"tiny-{self.kind}"

    @property
    def players(self) -> int:
        return 2

    def new_state(self, seed: int) -> TinyState:
        return TinyState(self.kind, random.Random(seed).randrange(2), self.turns)

    def episode(self, state) -> int:
        return 0

    def places(self, state):
        return (state.results().ranks,)

    def rounds(self, state):
        return None

    def describe(self, state, player):
        return 1, 0.5
