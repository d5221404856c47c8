"""CardStock's heuristics and the blog's measures, exactly as docs/analysis.md defines them.

Each game log is first reduced to a summary (sums and counts), and every
figure is a ratio of sums over games, so a bootstrap replicate only re-adds
summaries. The heuristics are defined on *plays* (`GameLog.plays()`): the
whole game, or one round of a President match (the episode the estimating
AI evaluates); a match's rounds stay together when games are resampled.

Choices the published definitions leave open, made here:
- a first place shared by tied players is a win for each of them (CardStock's ranks), in fairness and order;
- drama and decisiveness follow the winner; with tied winners, the lowest seat;
- coolness with no pair of consecutive leads is 1 (nothing dropped);
- convergence: x is the decision's position in its play scaled to 0..1
  (first 0, last 1), y the number of options scaled to 0..1 by the set's
  largest count ((options - 1) / (max - 1)); the least-squares slope of the
  pooled decisions is clipped to [-1, 1] and convergence is
  `1 - (slope / 2 + 0.5)`: 0.5 when the options stay level, above when
  they narrow as the game goes on;
- security counts, over the one-AI seat's consecutive estimated decisions
  in a play, those where its lead dropped, over its estimated decisions.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from .records import ALL_AI, ONE_AI, RANDOM, GameLog, Play
from .stats import Summaries, ratio, total

#: CardStock's weights of the five heuristics it scores with.
WEIGHTS = {"fairness": 0.5, "meaningful_moves": 0.5, "drama": 0.25, "decisiveness": 0.4, "coolness": 0.5}
#: The heuristics in the JSON's order (CardStock's five, their total, variance, the blog's three).
HEURISTICS = ("fairness", "meaningful_moves", "drama", "decisiveness", "coolness", "total", "variance",
              "order", "convergence", "security")
DECISIVE_LEAD = 0.8


def drama_threshold(players: int, kind: str = "cardstock") -> float:
    """0.5 (CardStock), or the blog's `(1 + (np-2)/(np-1)) / 2` for more than two players."""
    if kind == "blog" and players > 2:
        return (1 + (players - 2) / (players - 1)) / 2
    return 0.5


def fairness_of(r: float, players: int) -> float:
    """CardStock's fairness of seat 0's win share `r`: 1 when r = 1/np, 0 when it never (or always) wins."""
    f = 1 / players
    return r / f if r <= f else (1 - r) / (1 - f)


def seat_wins(log: GameLog, seat: int = 0) -> dict:
    plays = log.plays()
    return {"wins": sum(p.won(seat) for p in plays), "plays": len(plays)}


def security_summary(log: GameLog, seat: int = 0) -> dict:
    drops = n = 0
    for play in log.plays():
        leads = play.leads(seat)
        n += len(leads)
        drops += sum(1 for a, b in zip(leads, leads[1:]) if b < a)
    return {"sec_drops": drops, "sec_n": n}


def ai_summary(log: GameLog, threshold: float) -> dict:
    """Sums over one all-AI game for meaningful moves, drama, decisiveness, coolness and convergence."""
    spreads = [d.spread for d in log.decisions if d.values]
    out = {"spread": sum(spreads), "spread_n": len(spreads), "spread_max": max(spreads, default=0.0),
           "drama": 0.0, "drama_n": 0, "decisive": 0.0, "decisive_n": 0, "drops": 0, "pairs": 0,
           "cx": 0.0, "cy": 0.0, "cxy": 0.0, "cxx": 0.0, "cn": 0, "max_options": 0}
    for play in log.plays():
        _play_summary(play, log.players, threshold, out)
    return out


def _play_summary(play: Play, players: int, threshold: float, out: dict) -> None:
    winners = play.winners
    if winners:
        leads = play.leads(winners[0])
        for lead in leads:
            if lead < threshold:
                out["drama"] += math.sqrt(threshold - lead)
                out["drama_n"] += 1
        n = len(leads)
        if n:
            k = next((i for i, lead in enumerate(leads) if lead > DECISIVE_LEAD), n - 1)
            out["decisive"] += (n - k) / n
            out["decisive_n"] += 1
    for p in range(players):
        leads = play.leads(p)
        out["pairs"] += max(0, len(leads) - 1)
        out["drops"] += sum(1 for a, b in zip(leads, leads[1:]) if b < a)
    m = len(play.decisions)
    for i, d in enumerate(play.decisions):
        x = i / (m - 1) if m > 1 else 0.0
        out["cx"] += x
        out["cy"] += d.options
        out["cxy"] += x * d.options
        out["cxx"] += x * x
        out["cn"] += 1
        out["max_options"] = max(out["max_options"], d.options)


def summaries(sets: dict[str, Sequence[GameLog]], players: int, threshold: float) -> dict[str, list[dict]]:
    """Per set, one summary per game (the rows the bootstrap resamples)."""
    out: dict[str, list[dict]] = {}
    if sets.get(RANDOM):
        out[RANDOM] = [seat_wins(g) for g in sets[RANDOM]]
    if sets.get(ONE_AI):
        out[ONE_AI] = [{**seat_wins(g), **security_summary(g)} for g in sets[ONE_AI]]
    if sets.get(ALL_AI):
        out[ALL_AI] = [ai_summary(g, threshold) for g in sets[ALL_AI]]
    return out


def slope(rows: Sequence[dict]) -> float:
    """Least-squares slope of options on position over the pooled decisions (0 if undefined)."""
    n, sx, sy, sxy, sxx = (total(rows, k) for k in ("cn", "cx", "cy", "cxy", "cxx"))
    den = n * sxx - sx * sx
    return (n * sxy - sx * sy) / den if n > 1 and den > 1e-12 else 0.0


class HeuristicFigures:
    """`compute(summaries)` for the bootstrap: every heuristic from the summaries present.

    `max_options` (the all-AI set's largest option count, which scales
    convergence) is fixed from the full data so every replicate uses the same scale.
    """

    def __init__(self, players: int, max_options: int) -> None:
        self.players, self.max_options = players, max_options

    def __call__(self, s: Summaries) -> dict[str, float]:
        np_, out = self.players, {}
        if s.get(RANDOM):
            rows = s[RANDOM]
            out["fairness"] = fairness_of(ratio(total(rows, "wins"), total(rows, "plays")), np_)
        if s.get(ALL_AI):
            rows = s[ALL_AI]
            mm = ratio(total(rows, "spread"), total(rows, "spread_n"))
            out["meaningful_moves"] = mm
            out["drama"] = ratio(total(rows, "drama"), total(rows, "drama_n"))
            out["decisiveness"] = 1 - ratio(total(rows, "decisive"), total(rows, "decisive_n"), 1.0)
            out["coolness"] = 1 - ratio(total(rows, "drops"), total(rows, "pairs"))
            out["variance"] = mm + 0.2 * max((r["spread_max"] for r in rows), default=0.0)
            b = slope(rows) / (self.max_options - 1) if self.max_options > 1 else 0.0
            out["convergence"] = 1 - (max(-1.0, min(1.0, b)) / 2 + 0.5)
        if all(k in out for k in WEIGHTS):
            out["total"] = sum(out[k] * w for k, w in WEIGHTS.items())
        if s.get(ONE_AI):
            rows = s[ONE_AI]
            ewp = 1 / np_
            aiwp = ratio(total(rows, "wins"), total(rows, "plays"))
            out["order"] = (aiwp - ewp) / (1 - ewp)
            out["security"] = 1 - ratio(total(rows, "sec_drops"), total(rows, "sec_n"))
        return out
