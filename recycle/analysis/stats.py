"""Bootstrap intervals over games, the games a narrow interval needs, and differences between analyses.

Every figure is a function of per-game summaries (`heuristics`, `metrics`);
a bootstrap replicate resamples the games of each experiment set with
replacement (each set on its own, games as the unit: the rounds of one
President match stay together) and recomputes every figure. Replicates come
from one seeded `random.Random`, so the same seed gives the same intervals.
An interval is the bias-corrected percentile interval (`bias_corrected`); a
figure no resampling can cover (a maximum) has none (`Interval.none`).
"""
from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from statistics import NormalDist

#: The interval width the report asks "how many games for?".
TARGET_WIDTH = 0.05
#: Figures on the 0..1 scale: the target width is absolute (others: relative to the value).
UNIT_SCALE = frozenset({"fairness", "meaningful_moves", "drama", "decisiveness", "coolness", "total", "variance",
                        "order", "convergence", "security", "hidden_information", "ties", "called",
                        "first_player_win_rate", "first_player_advantage", "president_keeps_title",
                        "loser_climbs_out"})
DEFAULT_REPLICATES = 1000

Summaries = Mapping[str, Sequence[dict]]
Compute = Callable[[Summaries], dict[str, float]]


@dataclass(frozen=True)
class Interval:
    """A figure with its 95% bootstrap interval; `low` and `high` are NaN where the figure has
    no valid interval (a maximum: see `heuristics.NO_INTERVAL`)."""

    value: float
    low: float
    high: float

    @classmethod
    def none(cls, value: float) -> Interval:
        """The figure alone: no interval can be given for it."""
        return cls(value, math.nan, math.nan)

    @property
    def known(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high))

    @property
    def width(self) -> float:
        return self.high - self.low

    def bounds(self, digits: int = 3) -> str:
        """`[low, high]`, or "no interval"."""
        return f"[{self.low:.{digits}f}, {self.high:.{digits}f}]" if self.known else "no interval"

    def to_json(self) -> dict:
        """The figure and its bounds (null where it has no interval), to 6 decimals: for reading
        (a journal keeps the games, from which every figure is recomputed exactly)."""
        return {"value": _round(self.value), "low": _round(self.low), "high": _round(self.high)}

    @classmethod
    def from_json(cls, data: dict) -> Interval:
        return cls(float(data["value"]), float(data["low"]), float(data["high"]))

    def __str__(self) -> str:
        return f"{self.value:.3f} {self.bounds()}"


def _round(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(x, 6)


_NORMAL = NormalDist()


def bias_corrected(sorted_reps: Sequence[float], value: float) -> tuple[float, float]:
    """The quantiles (of the replicates) bounding a 95% bias-corrected interval (Efron's BC):
    plain percentiles covered the pooled value of 20 seeds in 16 of 20 runs for the total,
    BC in 19 (`bench/analysis_coverage.py`, docs/analysis.md). Where the
    replicates fall mostly below the point value (a figure biased low, e.g. one that peaks at
    the truth, as fairness does), the interval moves up by as much; a figure the resampling
    does not bias gets the plain 2.5% and 97.5% percentiles."""
    n = len(sorted_reps)
    below = bisect_left(sorted_reps, value)
    share = (below + (bisect_right(sorted_reps, value) - below) / 2) / n
    share = min(max(share, 0.5 / n), 1 - 0.5 / n)
    z0 = _NORMAL.inv_cdf(share)
    z = _NORMAL.inv_cdf(0.975)
    return _NORMAL.cdf(2 * z0 - z), _NORMAL.cdf(2 * z0 + z)


def proportion(successes: int, n: int, scale: float = 1.0, shift: float = 0.0) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of `n` independent yes/no outcomes, mapped by
    `(p - shift) * scale`: valid where a bootstrap of a share is not (few games, a share near
    0 or 1: all 20 wins resample to a zero-width interval)."""
    from recycle.tournament.stats import wilson

    low, high = wilson(successes, n)
    return (low - shift) * scale, (high - shift) * scale


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation between order statistics."""
    if not sorted_values:
        return math.nan
    pos = q * (len(sorted_values) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


@dataclass
class Bootstrap:
    """Point values and bootstrap replicates of every figure of one analysis."""

    point: dict[str, float]
    replicates: dict[str, list[float]]
    games: int  # games per set (what `games_needed` scales)
    no_interval: Mapping[str, str] = field(default_factory=dict)  # figure -> why it has no interval
    fixed: dict[str, Interval] = field(default_factory=dict)  # intervals found otherwise (`proportion`)

    def interval(self, name: str) -> Interval:
        value = self.point[name]
        if name in self.no_interval:
            return Interval.none(value)
        if name in self.fixed:
            return self.fixed[name]
        reps = sorted(v for v in self.replicates.get(name, []) if not math.isnan(v))
        if not reps:
            return Interval(value, value, value)
        low, high = bias_corrected(reps, value)
        return Interval(value, percentile(reps, low), percentile(reps, high))

    def intervals(self) -> dict[str, Interval]:
        return {name: self.interval(name) for name in self.point}

    def games_needed(self, name: str, width: float = TARGET_WIDTH) -> int:
        """Games per set for a 95% interval narrower than `width` (widths shrink as 1/sqrt(games)).

        Figures on the 0..1 scale (heuristics, rates, shares) use `width` as it
        is; counts and places (decisions, scores...) use `width` x their value,
        0.05 meaning "within 5%".
        """
        if name in self.no_interval:
            return self.games  # more games make no interval
        if name not in UNIT_SCALE and self.point.get(name):
            width *= abs(self.point[name])
        return games_needed(self.interval(name).width, self.games, width)


def games_needed(current_width: float, games: int, width: float = TARGET_WIDTH) -> int:
    if math.isnan(current_width):
        return games
    return max(1, math.ceil(games * (max(current_width, 0.0) / width) ** 2))


def bootstrap(summaries: Summaries, compute: Compute, rng: random.Random,
              replicates: int = DEFAULT_REPLICATES, no_interval: Mapping[str, str] | None = None) -> Bootstrap:
    """Recompute `compute` on `replicates` resamples of each set's games (the figures in
    `no_interval` keep none: no valid interval comes from resampling them)."""
    point = compute(summaries)
    skip = dict(no_interval or {})
    reps: dict[str, list[float]] = {name: [] for name in point if name not in skip}
    names = sorted(summaries)  # a fixed order of draws, whatever order the mapping has
    draw = rng.random
    for _ in range(replicates):
        sample = {}
        for s in names:
            rows = summaries[s]
            n = len(rows)
            sample[s] = [rows[int(draw() * n)] for _ in range(n)] if n else rows
        for name, value in compute(sample).items():
            if name in reps:
                reps[name].append(value)
    games = max((len(rows) for rows in summaries.values()), default=0)
    return Bootstrap(point, reps, games, {k: v for k, v in skip.items() if k in point})


@dataclass(frozen=True)
class Difference:
    """One figure of analysis B minus the same of analysis A, with its 95% interval."""

    figure: str
    diff: Interval

    @property
    def significant(self) -> bool:
        """Does the 95% interval of the difference exclude 0?"""
        return self.diff.low > 0 or self.diff.high < 0


def difference(a: Bootstrap, b: Bootstrap, name: str) -> Difference:
    """B - A, its interval from the replicates paired by position (independent resamples)."""
    ra, rb = a.replicates.get(name, []), b.replicates.get(name, [])
    diffs = sorted(y - x for x, y in zip(ra, rb) if not (math.isnan(x) or math.isnan(y)))
    value = b.point[name] - a.point[name]
    if name in a.no_interval or name in b.no_interval:
        return Difference(name, Interval.none(value))
    if not diffs:
        return Difference(name, Interval(value, value, value))
    return Difference(name, Interval(value, percentile(diffs, 0.025), percentile(diffs, 0.975)))


def total(rows: Sequence[dict], key: str) -> float:
    """The rows' `key` summed in their order (so a figure is the same to the last bit however it is
    called; `map` keeps the order of the generator it replaced, at a third of its cost)."""
    return sum(map(itemgetter(key), rows))


def ratio(num: float, den: float, empty: float = 0.0) -> float:
    return num / den if den else empty
