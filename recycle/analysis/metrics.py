"""TAG's game metrics (from the all-random set) and the climbing figures (from the all-AI set).

TAG (Gaina et al.) reports, per game: decisions, action space, branching
factor, state size, hidden information, game length in rounds and turns,
reward spread and forward-model speed. Here, per game and then as the mean
over games (with its bootstrap interval) and sd/min/max:

- `decisions`, `choice_decisions` (more than one option), `branching_factor`
  (mean options per decision; also `branching_curve`, the mean over 10
  stretches of the game's progress), `action_space` (distinct option texts),
  `turns` (runs of decisions by the same player), `rounds` where the game has
  them, `state_size` (cards, storages and non-empty locations), `hidden_information`
  (share of cards the mover cannot see), `score_spread` (best minus worst final
  score), `ties` (share of games with a shared first place), `called` (ended by
  the choice limit), `score_seat_k`.

Climbing figures, for games of several episodes (a President match's rounds),
from the all-AI set (how the game goes when everyone plays well):
`president_keeps_title` (the round's President is President again next
round), `loser_climbs_out` (the Loser is not Loser next round),
`mean_place_after_place_k` (mean finishing place the round after finishing
k, i.e. by the rank held through the exchange), `exchange_worth` (the
previous Loser's mean place minus the previous President's: how many places
the title, through the exchange and the lead, is worth; 0 when rounds are
independent). For every game: `first_player_win_rate` (the first mover of
the first episode wins it) and `first_player_advantage` (that minus 1/np).
"""
from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from recycle.analysis.records import GameLog
from recycle.analysis.subject import Subject
from recycle.analysis.stats import Summaries, ratio, total

BINS = 10
SUMMARY_KEYS = ("decisions", "choice_decisions", "branching_factor", "action_space", "turns", "rounds",
                "state_size", "hidden_information", "score_spread", "ties", "called")


def game_metrics(log: GameLog) -> dict:
    """One all-random game's TAG figures, plus its options by stretch of progress (for the curve)."""
    ds = log.decisions
    m = len(ds)
    sizes = [d.size for d in ds if d.size is not None]
    hidden = [d.hidden for d in ds if d.hidden is not None]
    row: dict[str, Any] = {
        "decisions": m, "choice_decisions": sum(1 for d in ds if d.options > 1),
        "branching_factor": statistics.fmean(d.options for d in ds) if ds else 0.0,
        "action_space": log.actions,
        "turns": sum(1 for i, d in enumerate(ds) if i == 0 or ds[i - 1].player != d.player),
        "rounds": log.rounds, "state_size": statistics.fmean(sizes) if sizes else None,
        "hidden_information": statistics.fmean(hidden) if hidden else None,
        "score_spread": max(log.scores) - min(log.scores) if log.scores else 0.0,
        "ties": 1.0 if sum(1 for r in log.ranks if r == 1) > 1 else 0.0, "called": 1.0 if log.called else 0.0}
    for p, s in enumerate(log.scores):
        row[f"score_seat_{p}"] = s
    for b in range(BINS):
        row[f"bin{b}"], row[f"bin{b}_n"] = 0.0, 0
    for i, d in enumerate(ds):
        b = min(BINS - 1, int(BINS * i / m))
        row[f"bin{b}"] += d.options
        row[f"bin{b}_n"] += 1
    return row


def metric_keys(rows: Sequence[dict]) -> list[str]:
    keys = [k for k in SUMMARY_KEYS if any(r.get(k) is not None for r in rows)]
    every = set().union(*rows)  # (every row's keys, gathered in C: this runs once per bootstrap replicate)
    seats = sorted((k for k in every if k.startswith("score_seat_")), key=lambda k: int(k.rsplit("_", 1)[1]))
    return keys + seats


def metrics_compute(s: Summaries) -> dict[str, float]:
    """Means over the all-random games (the bootstrap's compute)."""
    rows = s.get("random") or []
    out: dict[str, float] = {}
    for key in metric_keys(rows):
        vals = [r[key] for r in rows if r.get(key) is not None]
        out[key] = statistics.fmean(vals) if vals else 0.0
    for b in range(BINS):
        n = total(rows, f"bin{b}_n")
        if n:
            out[f"branching_curve_{b}"] = total(rows, f"bin{b}") / n
    return out


def spread_of(rows: Sequence[dict], key: str) -> dict:
    """sd, min and max of one figure over games (not resampled: they describe the games)."""
    vals = [r[key] for r in rows if r.get(key) is not None]
    if not vals:
        return {}
    return {"sd": round(statistics.stdev(vals), 6) if len(vals) > 1 else 0.0,
            "min": round(min(vals), 6), "max": round(max(vals), 6)}


def climbing_row(log: GameLog) -> dict:
    """Transitions between consecutive episodes of one game, and the first mover's first episode."""
    n, eps = log.players, log.episodes
    row: dict[str, float] = {"keep": 0, "prev_p": 0, "climb": 0, "prev_l": 0, "first_win": 0.0, "first_n": 0}
    for k in range(1, n + 1):
        row[f"after{k}"], row[f"after{k}_n"] = 0, 0
    for before, after in zip(eps, eps[1:]):
        for p in range(n):
            row[f"after{before[p]}"] += after[p]
            row[f"after{before[p]}_n"] += 1
            if before[p] == 1:
                row["prev_p"] += 1
                row["keep"] += after[p] == 1
            if before[p] == n:
                row["prev_l"] += 1
                row["climb"] += after[p] != n
    first = next((d for d in log.decisions if d.episode == 0), None)
    if first is not None and eps:
        row["first_win"] = 1.0 if eps[0][first.player] == 1 else 0.0
        row["first_n"] = 1
    return row


class ClimbingFigures:
    """`compute(summaries)` for the climbing figures of the all-AI set."""

    def __init__(self, players: int, episodic: bool) -> None:
        self.players, self.episodic = players, episodic

    def __call__(self, s: Summaries) -> dict[str, float]:
        rows = s.get("all_ai") or []
        if not rows:
            return {}
        n = self.players
        rate = ratio(total(rows, "first_win"), total(rows, "first_n"))
        out = {"first_player_win_rate": rate, "first_player_advantage": rate - 1 / n}
        if self.episodic:
            out["president_keeps_title"] = ratio(total(rows, "keep"), total(rows, "prev_p"))
            out["loser_climbs_out"] = ratio(total(rows, "climb"), total(rows, "prev_l"))
            for k in range(1, n + 1):
                out[f"mean_place_after_place_{k}"] = ratio(total(rows, f"after{k}"), total(rows, f"after{k}_n"))
            out["exchange_worth"] = out[f"mean_place_after_place_{n}"] - out["mean_place_after_place_1"]
        return out


def forward_model_speed(subject: Subject, seed: int, seconds: float = 0.3) -> dict[str, float]:
    """TAG's forward-model speed: states copied, option lists built and actions applied per second.

    Random games are played for about `seconds`, each operation timed on its
    own. A timing: it varies from run to run, unlike every other figure.
    """
    rng = random.Random(seed)
    t_copy = t_list = t_apply = 0.0
    copies = lists = applies = 0
    deadline = time.perf_counter() + seconds
    game = 0
    while time.perf_counter() < deadline and game < 10_000:
        state = subject.new_state(rng.getrandbits(63))
        game += 1
        while not state.is_terminal():
            t0 = time.perf_counter()
            state.clone()
            t1 = time.perf_counter()
            legal = state.legal_actions()
            t2 = time.perf_counter()
            state.apply(legal[int(rng.random() * len(legal))])
            t3 = time.perf_counter()
            t_copy, t_list, t_apply = t_copy + t1 - t0, t_list + t2 - t1, t_apply + t3 - t2
            copies, lists, applies = copies + 1, lists + 1, applies + 1
    return {"copies_per_s": round(ratio(copies, t_copy)), "option_lists_per_s": round(ratio(lists, t_list)),
            "actions_per_s": round(ratio(applies, t_apply))}
