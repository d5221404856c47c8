"""Plain-language verdicts that follow from a figure's interval, never from its value alone.

A figure's scale is cut into bands, each with what it means ("seat 0 wins
close to its fair share"). The verdict names a band only when the whole 95%
interval lies in it; when the interval reaches into two or more bands it
says "cannot tell yet" and how many more games per set would most likely
settle it (interval widths shrink as 1/sqrt(games); the side of the interval
that crosses the nearest boundary must shrink inside it). A figure without
an interval (see `stats.Interval.none`) gets its band from the value, and the
verdict says that no interval backs it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from recycle.analysis.stats import Interval


#: Beyond this many games per set, "more games would tell" is no advice: the value is on a boundary.
MAX_GAMES = 10**9


@dataclass(frozen=True)
class Band:
    """Values from `low` (included) to `high` (excluded; the last band includes its top) mean `text`."""

    low: float
    high: float
    text: str


@dataclass(frozen=True)
class Verdict:
    """What the interval lets one say: the bands it reaches, and the games that would settle it."""

    bands: tuple[Band, ...]  # every band the interval reaches, in scale order (one: settled)
    more_games: int | None  # games per set to add for a settled verdict (None: settled, or no estimate)
    backed: bool = True  # False: the figure has no interval, the band is the value's

    @property
    def settled(self) -> bool:
        return len(self.bands) == 1

    def sentence(self) -> str:
        if self.settled:
            text = self.bands[0].text
            return f"{text}." if self.backed else f"{text} (from the value alone: this figure has no interval)."
        options = " or ".join(b.text for b in self.bands)
        more = (f": about {self.more_games} more games per set would tell" if self.more_games
                else ": the value sits on the boundary between them")
        return f"cannot tell yet whether {options}{more}."


def _band_of(x: float, bands: Sequence[Band]) -> int:
    for i, b in enumerate(bands):
        if b.low <= x < b.high:
            return i
    return 0 if x < bands[0].low else len(bands) - 1  # outside the scale: the nearest end


def verdict(iv: Interval, bands: Sequence[Band], games: int) -> Verdict:
    """The verdict the interval `iv` (from `games` games per set) supports on `bands` (in order)."""
    if not iv.known:
        return Verdict((bands[_band_of(iv.value, bands)],), None, backed=False)
    first, last = _band_of(iv.low, bands), _band_of(iv.high, bands)
    reached = tuple(bands[first:last + 1])
    if len(reached) == 1:
        return Verdict(reached, None)
    return Verdict(reached, more_games(iv, bands, games))


def more_games(iv: Interval, bands: Sequence[Band], games: int) -> int | None:
    """Games per set to add so that an interval of the same shape around the same value, narrowed
    as 1/sqrt(games), lies in the value's band (None when the value is on a boundary: more than
    `MAX_GAMES` would be needed)."""
    i = _band_of(iv.value, bands)
    band = bands[i]
    below = iv.value - band.low if i > 0 else math.inf  # room before the band's edges
    above = band.high - iv.value if i < len(bands) - 1 else math.inf
    factor = 0.0
    for side, room in ((iv.value - iv.low, below), (iv.high - iv.value, above)):
        if side <= 0 or room == math.inf:
            continue
        if room <= 0:
            return None
        factor = max(factor, side / room)
    if games * factor * factor > MAX_GAMES:
        return None  # the value sits on (or a hair from) a boundary: no number of games settles it
    need = math.floor(games * factor * factor * (1 + 1e-9)) + 1  # strictly inside (a band's top is excluded)
    return max(1, need - games)
