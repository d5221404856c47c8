"""Simulated matches and their statistics (what `president simulate` prints).

Pure logic, no printing: `simulate()` plays matches and returns a
`SimulationResult` with per-seat finishing-position counts and points.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from recycle.kernel.protocol import Agent, play_game

from president.game.settings import Settings
from president.game.state import PresidentState


def match_seed(seed: int, match: int) -> int:
    """The seed of one match, derived from the run's seed (same in any process)."""
    return random.Random(f"president/{seed}/match/{match}").getrandbits(63)


@dataclass
class SeatStats:
    """What one seat did over all simulated rounds."""

    name: str
    places: list[int]  # places[k] = rounds finished in place k+1
    points: float = 0.0
    points_sq: float = 0.0
    match_wins: float = 0.0  # shared wins count fractionally

    @property
    def rounds(self) -> int:
        return sum(self.places)

    @property
    def mean_points(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    def points_ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean points per round."""
        n = self.rounds
        if n < 2:
            return float("nan")
        var = (self.points_sq - self.points ** 2 / n) / (n - 1)
        return 1.96 * math.sqrt(max(var, 0.0) / n)

    @property
    def mean_place(self) -> float:
        return sum((k + 1) * c for k, c in enumerate(self.places)) / self.rounds if self.rounds else 0.0


@dataclass
class SimulationResult:
    seed: int
    matches: int
    settings: Settings
    seats: list[SeatStats] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "matches": self.matches,
            "settings": self.settings.describe(),
            "seats": [
                {
                    "seat": i,
                    "bot": s.name,
                    "rounds": s.rounds,
                    "places": s.places,
                    "place_share": [c / s.rounds if s.rounds else 0.0 for c in s.places],
                    "mean_place": s.mean_place,
                    "mean_points": s.mean_points,
                    "mean_points_ci95": s.points_ci95(),
                    "match_wins": s.match_wins,
                }
                for i, s in enumerate(self.seats)
            ],
        }


def simulate(settings: Settings, agents: Sequence[Agent], names: Sequence[str], matches: int, seed: int,
             progress: Callable[[int], None] | None = None, deal=None) -> SimulationResult:
    """Play `matches` matches, seat i always played by `agents[i]`; every match's first round
    starts from `deal` (a `president.game.deals.Deal`) when one is given."""
    n = settings.players
    result = SimulationResult(seed, matches, settings, [SeatStats(names[i], [0] * n) for i in range(n)])
    for m in range(matches):
        mseed = match_seed(seed, m)
        state = PresidentState.new_match(settings, mseed, deal=None if deal is None else deal.hands)
        rng = random.Random(mseed ^ 0x5EED)
        results = play_game(state, agents, rng)
        for places in state.round_log:
            for p, place in enumerate(places):
                stats = result.seats[p]
                stats.places[place - 1] += 1
                pts = n - place
                stats.points += pts
                stats.points_sq += pts * pts
        winners = [p for p, r in enumerate(results.ranks) if r == 1]
        for p in winners:
            result.seats[p].match_wins += 1 / len(winners)
        if progress:
            progress(m + 1)
    return result
