"""What a match at the table leaves for the screens: the turns of a trick, a round's result, the standings,
and what one action did."""
from __future__ import annotations

from dataclasses import dataclass, field

from president.game.cards import Card
from president.game.observation import round_points


@dataclass(frozen=True)
class Turn:
    """One turn of the trick on the table: who, the very cards played (suits included), or why none."""

    player: int
    cards: tuple[Card, ...] = ()
    note: str = ""  # "pass" or "skipped" when no cards


@dataclass(frozen=True)
class RoundResult:
    """A finished round: places, the points each scored, and the match score after it."""

    round: int  # 1-based
    places: tuple[int, ...]
    scores: tuple[int, ...]
    match_over: bool

    @property
    def points(self) -> tuple[int, ...]:
        return round_points(self.places)


@dataclass(frozen=True)
class Standing:
    """One player's line in the final standings."""

    player: int
    points: int
    places: tuple[int, ...]  # per round
    presidencies: int  # rounds finished first


@dataclass
class Outcome:
    """What applying one action did: lines for the log, and the round result if it ended one."""

    lines: list[str] = field(default_factory=list)
    result: RoundResult | None = None

