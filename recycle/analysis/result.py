"""One game's analysis: play the three sets, compute every figure with its interval, write JSON/CSV/tables."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table

from recycle.analysis.estimator import DEFAULT_ROLLOUTS
from recycle.analysis.experiment import PlayUnit, Unit, run_units, units
from recycle.analysis.heuristics import HEURISTICS, NO_INTERVAL, HeuristicFigures, drama_threshold, summaries
from recycle.analysis.metrics import (
    ClimbingFigures,
    climbing_row,
    forward_model_speed,
    game_metrics,
    metrics_compute,
    spread_of,
)
from recycle.analysis.records import ALL_AI, ONE_AI, RANDOM, SETS, GameLog
from recycle.analysis.stats import DEFAULT_REPLICATES, TARGET_WIDTH, Bootstrap, Interval, bootstrap, proportion, total


@dataclass(frozen=True)
class Config:
    """Everything that determines an analysis's numbers (and names its journal)."""

    games: int = 100
    seed: int = 0
    estimator: str = "cardstock"
    rollouts: int = DEFAULT_ROLLOUTS
    replicates: int = DEFAULT_REPLICATES
    drama: str = "cardstock"

    def to_json(self) -> dict:
        return {"games": self.games, "seed": self.seed, "estimator": self.estimator, "rollouts": self.rollouts,
                "bootstrap": self.replicates, "drama": self.drama}


@dataclass
class Analysis:
    """The logs of one game's three sets and every figure computed from them."""

    name: str
    players: int
    config: Config
    logs: dict[str, list[GameLog]]
    heuristics: Bootstrap
    metrics: Bootstrap
    climbing: Bootstrap
    spreads: dict[str, dict] = field(default_factory=dict)  # sd/min/max of the TAG figures
    speed: dict[str, float] = field(default_factory=dict)
    extra_json: dict[str, Any] = field(default_factory=dict)  # e.g. a comparison with another analysis
    replay: str | None = None  # the command that replays game {index} of this analysis (set by the command)
    _findings: list | None = field(default=None, repr=False, compare=False)

    def findings(self) -> list:
        """What a designer can act on (`findings`), computed once from the logs."""
        if self._findings is None:
            from recycle.analysis.findings import findings

            self._findings = findings(self)
        return self._findings

    def figures(self) -> dict[str, tuple[str, Bootstrap]]:
        """figure name -> (group, bootstrap), in display order."""
        out: dict[str, tuple[str, Bootstrap]] = {}
        for name in HEURISTICS:
            if name in self.heuristics.point:
                out[name] = ("heuristics", self.heuristics)
        for b in (self.climbing, self.metrics):
            for name in b.point:
                out[name] = ("metrics", b)
        return out

    def interval(self, name: str) -> Interval:
        return self.figures()[name][1].interval(name)

    def to_json(self) -> dict:
        def entry(b: Bootstrap, name: str) -> dict:
            why = {"no_interval": b.no_interval[name]} if name in b.no_interval else {}
            return {**b.interval(name).to_json(), "games_needed": b.games_needed(name), **why,
                    **self.spreads.get(name, {})}

        heur = {n: entry(self.heuristics, n) for n in HEURISTICS if n in self.heuristics.point}
        metrics: dict[str, Any] = {n: entry(self.metrics, n) for n in self.metrics.point
                                   if not n.startswith("branching_curve_")}
        metrics["branching_curve"] = [entry(self.metrics, n) for n in self.metrics.point
                                      if n.startswith("branching_curve_")]
        metrics.update({n: entry(self.climbing, n) for n in self.climbing.point})
        metrics["forward_model"] = self.speed
        return {"game": self.name, "players": self.players, "games": self.config.games, **self.config.to_json(),
                "target_width": TARGET_WIDTH, "heuristics": heur, "metrics": metrics,
                "findings": self.findings_json(), **self.extra_json}

    def findings_json(self) -> list[dict]:
        """The findings, each with its replay commands and where it falls in the reference set."""
        from recycle.analysis.designer import reference_line

        return [{**f.to_json(self.replay), "reference": reference_line(self, f)} for f in self.findings()]

    def csv_row(self) -> dict[str, Any]:
        """One flat row: every figure's value, low and high (the corpus table)."""
        row: dict[str, Any] = {"game": self.name, "players": self.players, "games": self.config.games}
        for name, (_, b) in self.figures().items():
            iv = b.interval(name)
            row[name] = round(iv.value, 4)
            row[f"{name}_low"], row[f"{name}_high"] = ((round(iv.low, 4), round(iv.high, 4)) if iv.known
                                                       else (None, None))
        return row

    def table(self) -> Table:
        c = self.config
        table = Table(title=f"{self.name}: {self.players} players, {c.games} games per set, estimator "
                            f"{c.estimator} ({c.rollouts} rollouts), seed {c.seed}",
                      caption=f"95% intervals (bias-corrected bootstrap, {c.replicates} resamples; order and "
                              "first-player rates: Wilson score); games needed: games per set "
                              f"for an interval narrower than {TARGET_WIDTH} (counts and places: {TARGET_WIDTH:.0%} "
                              "of the value); variance has no interval (a maximum over games, which a "
                              "bootstrap cannot cover)")
        for col, just in (("figure", "left"), ("value", "right"), ("95% interval", "right"),
                          ("games needed", "right")):
            table.add_column(col, justify=just)
        group = None
        for name, (g, b) in self.figures().items():
            if name.startswith("branching_curve_"):
                continue
            if g != group and group is not None:
                table.add_section()
            group = g
            iv = b.interval(name)
            table.add_row(figure_label(name), number_text(iv.value), interval_text(iv),
                          str(b.games_needed(name)) if iv.known else "-")
        return table


def figure_label(name: str) -> str:
    """A figure's name in words, as tables show it (`mean_place_after_place_1` -> `mean place after place 1`);
    JSON and CSV keep the name."""
    return name.replace("_", " ")


def number_text(x: float) -> str:
    """A figure with four or five significant digits: `0.417`, `12.25`, `306.2` (the columns stay narrow)."""
    return f"{x:.3f}" if abs(x) < 10 else f"{x:.2f}" if abs(x) < 100 else f"{x:.1f}"


def interval_text(iv) -> str:
    """`[0.265–0.302]`: one word, so a narrow column moves it whole to its own line; "no interval"
    for a figure no valid interval covers (variance, a maximum)."""
    return f"[{number_text(iv.low)}–{number_text(iv.high)}]" if iv.known else "no interval"


def compute(name: str, players: int, logs: dict[str, list[GameLog]], config: Config) -> Analysis:
    """Every figure and interval from the logs (played now or read back from a journal)."""
    rng = random.Random(f"analysis-bootstrap/{config.seed}")
    threshold = drama_threshold(players, config.drama)
    heur_rows = summaries(logs, players, threshold)
    max_options = max((d.options for g in logs.get(ALL_AI, []) for d in g.decisions), default=1)
    heur = bootstrap(heur_rows, HeuristicFigures(players, max_options), rng, config.replicates, NO_INTERVAL)
    metric_rows = {RANDOM: [game_metrics(g) for g in logs.get(RANDOM, [])]}
    met = bootstrap(metric_rows, metrics_compute, rng, config.replicates)
    episodic = any(len(g.episodes) > 1 for g in logs.get(ALL_AI, []))
    climb_rows = {ALL_AI: [climbing_row(g) for g in logs.get(ALL_AI, [])]}
    climb = bootstrap(climb_rows, ClimbingFigures(players, episodic), rng, config.replicates)
    _shares_as_proportions(heur, climb, heur_rows, climb_rows, players)
    spreads = {k: spread_of(metric_rows[RANDOM], k) for k in met.point}
    return Analysis(name, players, config, logs, heur, met, climb, spreads)


def _shares_as_proportions(heur: Bootstrap, climb: Bootstrap, heur_rows: dict, climb_rows: dict,
                           players: int) -> None:
    """Order and the first player's win rate are shares of games won (one play per game, yes or
    no): their intervals are Wilson score intervals (`stats.proportion`), which hold for few
    games and shares near 0 or 1, where the bootstrap's do not (order covered the pooled value
    of 20 seeds in 14 of 20 runs of Ninety-Eight). Matches of several rounds keep the bootstrap
    (their rounds are not independent)."""
    rows = heur_rows.get(ONE_AI, [])
    if "order" in heur.point and rows and all(r["plays"] == 1 for r in rows):
        ewp = 1 / players
        lo, hi = proportion(int(total(rows, "wins")), len(rows), 1 / (1 - ewp), ewp)
        heur.fixed["order"] = Interval(heur.point["order"], lo, hi)
    rows = climb_rows.get(ALL_AI, [])
    n = int(total(rows, "first_n"))
    if "first_player_win_rate" in climb.point and n and n == len(rows):
        wins = int(total(rows, "first_win"))
        for name, shift in (("first_player_win_rate", 0.0), ("first_player_advantage", 1 / players)):
            lo, hi = proportion(wins, n, 1.0, shift)
            climb.fixed[name] = Interval(climb.point[name], lo, hi)


def todo_units(config: Config, done: Iterable[GameLog] = ()) -> list[Unit]:
    """The units of an analysis that `done` (a journal's logs) does not hold."""
    have = {log.index for log in done}
    return [u for u in units(config.games, config.seed) if u.index not in have]


def analyze(subject: Any, config: Config, jobs: int = 1, progress: Callable[[int], None] | None = None,
            done: Iterable[GameLog] = (), on_log: Callable[[GameLog], None] | None = None,
            speed: bool = True, cluster=None, on_played: Callable[[GameLog, float], None] | None = None) -> Analysis:
    """Play the units not in `done` (a journal's logs), then compute every figure. `on_played`
    sees each game played with the seconds it took (the ETA, `eta.Eta`)."""
    logs = {log.index: log for log in done}
    todo = todo_units(config, logs.values())
    count = [len(logs)]

    def seen(log: GameLog) -> None:
        count[0] += 1
        if on_log:
            on_log(log)
        if progress:
            progress(count[0])

    if progress:
        progress(count[0])
    for log in run_units(PlayUnit(subject, config.estimator, config.rollouts), todo, jobs, seen, cluster,
                         on_played):
        logs[log.index] = log
    by_set = {s: sorted((g for g in logs.values() if g.set == s), key=lambda g: g.index) for s in SETS}
    analysis = compute(subject.name, subject.players, by_set, config)
    if speed:
        analysis.speed = forward_model_speed(subject, config.seed)
    return analysis


__all__ = ["Analysis", "Config", "Unit", "analyze", "compute"]
