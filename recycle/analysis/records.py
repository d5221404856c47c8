"""What one analysed game leaves behind: its decisions and its outcome, as small value types.

Every figure of the analysis is computed from these logs alone (never from
live states), so the formulas can be tested on hand-made logs with known
answers, logs can be journaled as JSON lines (a folder run resumes from
them), and a worker process sends back nothing but a `GameLog`.

Exactness: CardStock's estimates are ratios of integers (finishing places
summed over rollouts), kept as `Fraction`s, so that two leads that are
mathematically equal compare equal and a lead compares exactly with a
threshold (0.5, 0.8, 5/6). The journal writes a fraction as its text
("5/6") and any other number in full (`repr`), never rounded: a log read
back is equal to the log written, and so is every figure computed from it.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real
from typing import Any

#: The three experiment sets, in the order they are played (CardStock's).
RANDOM, ONE_AI, ALL_AI = "random", "one_ai", "all_ai"
SETS = (RANDOM, ONE_AI, ALL_AI)


@dataclass(frozen=True)
class DecisionRecord:
    """One decision: who moved, how many options there were, and what the estimator thought.

    `values[m]` is the mover's estimated win rate (0 always last .. 1 always
    first) of option `m`, a `Fraction` when the estimator's values are exact
    ratios (CardStock's), else a float (a search player's mean); None where no estimator decided (a random seat) or
    the estimator gave no values (a search player with one legal action).
    `view[p]` is every player's estimate for the option chosen, when the
    estimator provides it (CardStock's "lead list" of all players).
    `size` and `hidden` (state size, share of cards hidden from the mover)
    are recorded in the all-random set only, where TAG measures them.
    """

    player: int
    options: int
    episode: int = 0
    values: tuple[Real, ...] | None = None
    view: tuple[Real, ...] | None = None
    size: int | None = None
    hidden: float | None = None

    @property
    def lead(self) -> Real | None:
        """The best option's estimate (CardStock's `lead`)."""
        return max(self.values) if self.values else None

    @property
    def spread(self) -> Real | None:
        """Best minus worst option estimate (CardStock's `spread`; 0 for a forced move)."""
        return max(self.values) - min(self.values) if self.values else None

    def to_json(self) -> list:
        return [self.player, self.options, self.episode, _numbers_json(self.values), _numbers_json(self.view),
                self.size, self.hidden]

    @classmethod
    def from_json(cls, row: Sequence[Any]) -> DecisionRecord:
        player, options, episode, values, view, size, hidden = row
        return cls(int(player), int(options), int(episode), _numbers(values), _numbers(view),
                   None if size is None else int(size), None if hidden is None else _finite(hidden))


@dataclass(frozen=True)
class GameLog:
    """One game of one experiment set: its decisions and how it ended.

    `episodes[e][p]` is player p's place (1 the best, ties share) in episode
    e: a round of a President match, or the whole game when the game has no
    episodes. `ranks`/`scores` are the game's final results. `actions` is the
    number of distinct option texts seen (TAG's action space).
    """

    index: int
    set: str
    seed: int
    players: int
    decisions: tuple[DecisionRecord, ...]
    episodes: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    actions: int = 0
    called: bool = False  # ended by the choice limit and scored as it stood
    rounds: int | None = None  # rounds where the game has them
    extra: dict = field(default_factory=dict, compare=False)

    def to_line(self) -> str:
        data = {"game": self.index, "set": self.set, "seed": self.seed, "players": self.players,
                "episodes": self.episodes, "ranks": self.ranks, "scores": self.scores,
                "actions": self.actions, "called": self.called, "rounds": self.rounds,
                "decisions": [d.to_json() for d in self.decisions]}
        return json.dumps(data, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameLog:
        return cls(int(data["game"]), str(data["set"]), int(data["seed"]), int(data["players"]),
                   tuple(DecisionRecord.from_json(r) for r in data["decisions"]),
                   tuple(tuple(int(p) for p in e) for e in data["episodes"]),
                   tuple(int(r) for r in data["ranks"]), tuple(float(s) for s in data["scores"]),
                   int(data.get("actions", 0)), bool(data.get("called", False)), data.get("rounds"))

    def plays(self) -> list[Episode]:
        """The game cut into its episodes: each with its decisions and its places."""
        by_episode: list[list[DecisionRecord]] = [[] for _ in self.episodes]
        for d in self.decisions:
            if 0 <= d.episode < len(by_episode):
                by_episode[d.episode].append(d)
        return [Episode(tuple(ds), places) for ds, places in zip(by_episode, self.episodes)]


@dataclass(frozen=True)
class Episode:
    """One episode: the unit CardStock's heuristics are defined on (a game, or a round of a match)."""

    decisions: tuple[DecisionRecord, ...]
    places: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that finished first (several when they share the place), lowest first."""
        return tuple(p for p, place in enumerate(self.places) if place == 1)

    @property
    def winner(self) -> int | None:
        """The seat whose leads drama and decisiveness follow: with a shared first place, the
        highest of the tied seats (CardStock's scorer keeps the last winner it meets)."""
        return self.winners[-1] if self.winners else None

    def won(self, seat: int) -> bool:
        """Did seat finish first, tied or not (CardStock's ranks: a shared first place is rank 0)?"""
        return self.places[seat] == 1

    def win_share(self, seat: int) -> Fraction:
        """Seat's share of the win: 1/k when k players share first place (CardStock's fairness), else 0."""
        return Fraction(1, len(self.winners)) if self.places[seat] == 1 else Fraction(0)

    def leads(self, player: int) -> list[Real]:
        """The player's own leads at its estimated decisions, in order."""
        return [d.lead for d in self.decisions if d.player == player and d.values]


def _numbers_json(values: tuple[Real, ...] | None) -> list | None:
    """A fraction as its text ("5/6", "1"), a float as itself (JSON writes its shortest exact repr)."""
    return None if values is None else [str(v) if isinstance(v, Fraction) else v for v in values]


def _numbers(values) -> tuple[Real, ...] | None:
    if values is None:
        return None
    return tuple(_fraction(v) if isinstance(v, str) else _finite(v) for v in values)


def _fraction(text: str) -> Fraction:
    if len(text) > 64:  # a journal line is user input: no giant numbers
        raise ValueError(f"an estimate written as {text[:20]}...")
    try:
        return Fraction(text)
    except ZeroDivisionError:
        raise ValueError(f"an estimate of {text}") from None


def _finite(v) -> float:
    x = float(v)
    if not math.isfinite(x):
        raise ValueError(f"an estimate of {v!r}")
    return x
