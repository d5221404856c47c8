"""The play-match callable of tournaments at a RECYCLE climbing game (`--game`).

Picklable and lean: the reader and interpreter are imported only when it plays.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from recycle.kernel.protocol import play_game


@dataclass(frozen=True)
class RecycleMatch:
    """Plays one game of a RECYCLE climbing game (`--game`; picklable): one round, placed by the game's ranks."""

    game: str  # the game file
    players: int
    meta: str | None = None  # --climbing; None: the game's header comment or sidecar file
    fallback: str = "random"
    rules_dirs: tuple[Path, ...] = ()

    @classmethod
    def of(cls, game: str, climbing: str | None, fallback: str | None,
           rules_dirs: tuple[Path, ...]) -> "RecycleMatch":
        from recycle.games import game_path
        from recycle.climbing.adapter import loaded
        from recycle.interp import new_game

        path = game_path(game)
        return cls(path, new_game(loaded(path), 0).num_players, climbing, fallback or "random", rules_dirs)

    def bot(self, spec: str):
        from recycle.climbing.adapter import make_climbing_bot

        return make_climbing_bot(spec, self.game, fallback=self.fallback, rules_dirs=self.rules_dirs, meta=self.meta)

    def __call__(self, specs: tuple[str, ...], deal_seed: int, game_seed: int) -> list[tuple[tuple, tuple]]:
        from recycle.climbing.adapter import loaded, make_climbing_bots
        from recycle.interp import new_game

        agents, _ = make_climbing_bots(specs, self.game, self.players, fallback=self.fallback,
                                       rules_dirs=self.rules_dirs, meta=self.meta)
        results = play_game(new_game(loaded(self.game), deal_seed), agents, random.Random(game_seed))
        return [(results.ranks, results.scores)]
