"""The reference set a game's figures are set against: our shipped games and CardStock's published games.

The shipped games' figures live in `reference.json` (package data), written
by `bench/analysis_reference.py` from analyses of every shipped game; the
file says how (command, games per set, seed, estimator, date, version). The
published games' figures are those CardStock's authors published for four
games of their corpus (100-game runs; docs/analysis.md, "Against the
published values"): order, fairness, convergence, spread, drama, security.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

#: CardStock's authors' published values (docs/analysis.md): order, fairness, convergence, spread, drama, security.
PUBLISHED = {
    "Agram": (0.28, 0.96, 0.56, 0.05, 0.27, 0.27), "Hearts": (0.52, 0.87, 0.54, 0.14, 0.46, 0.34),
    "Ninety-Eight": (0.91, 0.68, 0.50, 0.37, 0.39, 0.60), "Stealing Bundles": (0.36, 0.88, 0.51, 0.14, 0.51, 0.19),
}
PUBLISHED_KEYS = ("order", "fairness", "convergence", "meaningful_moves", "drama", "security")
PUBLISHED_SOURCE = ("CardStock's authors' published values for four games of their corpus (100 games per set; "
                    "their 'spread' is our meaningful_moves; drama at the blog's threshold)")
#: The figures compared: the heuristics, then the findings' headline figures.
COMPARED = ("fairness", "meaningful_moves", "drama", "decisiveness", "coolness", "total", "order", "convergence",
            "security", "seat_advantage", "lead_changes", "late_decisions", "one_real_option")


@dataclass(frozen=True)
class Reference:
    """The shipped games' figures (game -> figure -> value) and how they were made."""

    shipped: dict[str, dict[str, float]]
    source: dict

    def published(self, figure: str) -> dict[str, float]:
        if figure not in PUBLISHED_KEYS:
            return {}
        k = PUBLISHED_KEYS.index(figure)
        return {game: values[k] for game, values in PUBLISHED.items()}

    def others(self, figure: str, exclude: str = "") -> dict[str, float]:
        """The shipped games' values of `figure`, but the game `exclude` (a game is not its own reference)."""
        return {g: f[figure] for g, f in self.shipped.items() if figure in f and g != exclude}

    def placing(self, figure: str, value: float, exclude: str = "") -> str:
        """Where `value` falls among the reference games: "above 3 of 5 shipped games (0.21-0.80, median 0.45)"."""
        parts = []
        for label, values in (("shipped", self.others(figure, exclude)), ("published", self.published(figure))):
            if not values:
                continue
            xs = sorted(values.values())
            below = sum(1 for x in xs if x < value)
            lo, hi = min(values, key=values.get), max(values, key=values.get)
            spread = (f"{lo}: {values[lo]:.2f}" if len(xs) == 1 else f"from {values[lo]:.2f}, {lo}, to "
                      f"{values[hi]:.2f}, {hi}; median {statistics.median(xs):.2f}")
            parts.append(f"above {below} of {len(xs)} {label} game{'s' if len(xs) > 1 else ''} ({spread})")
        return "; ".join(parts)


def describe_source(source: dict) -> str:
    """One line on how the shipped games' figures were made."""
    if not source:
        return "no shipped games' figures in this installation"
    return (f"shipped games: {source.get('games', '?')} games per set, seed {source.get('seed', '?')}, estimator "
            f"{source.get('estimator', '?')} ({source.get('rollouts', '?')} rollouts), made by "
            f"{source.get('command', 'bench/analysis_reference.py')} on {source.get('date', '?')} "
            f"(version {source.get('version', '?')})")


@lru_cache(maxsize=1)
def reference() -> Reference:
    """The installed reference set (shipped games' figures empty when the file is missing)."""
    try:
        data = json.loads(resources.files("recycle.analysis").joinpath("reference.json").read_text("utf-8"))
    except (FileNotFoundError, OSError, ValueError):
        return Reference({}, {})
    return Reference({str(g): {str(k): float(v) for k, v in f.items()} for g, f in data.get("games", {}).items()},
                     dict(data.get("source", {})))


def headline(analysis, found) -> dict[str, float]:
    """The compared figures of one analysis: its heuristics and its findings' headline values."""
    out = {h: analysis.heuristics.point[h] for h in COMPARED if h in analysis.heuristics.point}
    for f in found:
        if f.value is not None and f.key in COMPARED:
            out[f.key] = f.value.value
    return out
