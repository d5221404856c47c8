"""CardStock's heuristics and the blog's measures, exactly as docs/analysis.md defines them.

Each game log is first reduced to a summary (sums and counts), and every
figure is a ratio of sums over games, so a bootstrap replicate only re-adds
summaries. The heuristics are defined on *plays* (`GameLog.plays()`): the
whole game, or one round of a President match (the episode the estimating
AI evaluates); a match's rounds stay together when games are resampled.

Ties, as CardStock's own scorer (its `Scoring/Scorer.cs`) counts them:
- fairness: a first place shared by k players is 1/k of a win for each;
- drama and decisiveness follow the winner; with tied winners, the highest of the tied seats.

Exactness: leads are compared with each other and with the thresholds
(0.5 or the blog's 5/6 for drama, 0.8 for decisiveness) as fractions, never
as rounded floats: CardStock's estimates are exact ratios (`records`), and a
float estimate (a search player's) is compared at its exact binary value.

Choices the published definitions leave open, made here:
- order (the blog's) counts a shared first place as a win for the one-AI seat: the reading that
  reproduces the published orders (Ninety-Eight's 0.91 exactly);
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
from fractions import Fraction
from numbers import Real

from recycle.analysis.records import ALL_AI, ONE_AI, RANDOM, GameLog, Play
from recycle.analysis.stats import Summaries, ratio, total

#: CardStock's weights of the five heuristics it scores with.
WEIGHTS = {"fairness": 0.5, "meaningful_moves": 0.5, "drama": 0.25, "decisiveness": 0.4, "coolness": 0.5}
#: The heuristics in the JSON's order (CardStock's five, their total, variance, the blog's three).
HEURISTICS = ("fairness", "meaningful_moves", "drama", "decisiveness", "coolness", "total", "variance",
              "order", "convergence", "security")
#: The winner's lead above which the game counts as decided (exactly 4/5).
DECISIVE_LEAD = Fraction(4, 5)
#: A scaled slope smaller than this is level (the float sums of a level game leave ~1e-15).
LEVEL = 1e-9
#: Figures with no valid bootstrap interval (see `HeuristicFigures`).
NO_INTERVAL = {"variance": "a maximum over games, which a bootstrap cannot cover"}


def drama_threshold(players: int, kind: str = "cardstock") -> Fraction:
    """1/2 (CardStock), or the blog's `(1 + (np-2)/(np-1)) / 2` for more than two players (5/6 for four)."""
    if kind == "blog" and players > 2:
        return (1 + Fraction(players - 2, players - 1)) / 2
    return Fraction(1, 2)


def fairness_of(r: Real, players: int) -> float:
    """CardStock's fairness of seat 0's win share `r`: 1 when r = 1/np, 0 when it never (or always) wins.
    (`r` exact, a `Fraction`, decides the branch exactly.)"""
    f = Fraction(1, players)
    return float(r / f if r <= f else (1 - r) / (1 - f))


def win_unit(players: int) -> int:
    """A whole win in integer units in which every 1/k share (k <= players) is whole: lcm(1..players)."""
    return math.lcm(*range(1, players + 1))


def seat_wins(log: GameLog, seat: int = 0) -> dict:
    """Seat's wins: shares (1/k of a shared first place, in `win_unit` units) and whole first places."""
    plays, unit = log.plays(), win_unit(log.players)
    return {"shares": sum(int(p.win_share(seat) * unit) for p in plays), "wins": sum(p.won(seat) for p in plays),
            "plays": len(plays)}


def drops(leads: Sequence[Real]) -> int:
    """How many times the lead fell from one decision to the next (compared exactly)."""
    return sum(1 for a, b in zip(leads, leads[1:]) if b < a)


def security_summary(log: GameLog, seat: int = 0) -> dict:
    dropped = n = 0
    for play in log.plays():
        leads = play.leads(seat)
        n += len(leads)
        dropped += drops(leads)
    return {"sec_drops": dropped, "sec_n": n}


def ai_summary(log: GameLog, threshold: Fraction) -> dict:
    """Sums over one all-AI game for meaningful moves, drama, decisiveness, coolness and convergence."""
    spreads = [d.spread for d in log.decisions if d.values]
    out = {"spread": float(sum(spreads)), "spread_n": len(spreads), "spread_max": float(max(spreads, default=0)),
           "drama": 0.0, "drama_n": 0, "decisive": 0.0, "decisive_n": 0, "drops": 0, "pairs": 0,
           "cx": 0.0, "cy": 0.0, "cxy": 0.0, "cxx": 0.0, "cn": 0, "max_options": 0}
    for play in log.plays():
        _play_summary(play, log.players, threshold, out)
    return out


def _play_summary(play: Play, players: int, threshold: Fraction, out: dict) -> None:
    winner = play.winner
    if winner is not None:
        leads = play.leads(winner)
        for lead in leads:
            if lead < threshold:
                out["drama"] += math.sqrt(Fraction(threshold) - Fraction(lead))  # the gap exact, then its root
                out["drama_n"] += 1
        n = len(leads)
        if n:
            k = next((i for i, lead in enumerate(leads) if lead > DECISIVE_LEAD), n - 1)
            out["decisive"] += (n - k) / n
            out["decisive_n"] += 1
    for p in range(players):
        leads = play.leads(p)
        out["pairs"] += max(0, len(leads) - 1)
        out["drops"] += drops(leads)
    m = len(play.decisions)
    for i, d in enumerate(play.decisions):
        x = i / (m - 1) if m > 1 else 0.0
        out["cx"] += x
        out["cy"] += d.options
        out["cxy"] += x * d.options
        out["cxx"] += x * x
        out["cn"] += 1
        out["max_options"] = max(out["max_options"], d.options)


def _share_kept(dropped: int, n: int) -> float:
    """`1 - dropped / n` from the integer counts, rounded once (1 when there is nothing to count)."""
    return float(1 - Fraction(dropped, n)) if n else 1.0


def summaries(sets: dict[str, Sequence[GameLog]], players: int, threshold: Fraction) -> dict[str, list[dict]]:
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

    Variance is CardStock's meaningful moves plus 0.2 x the largest spread of
    any decision: a maximum, which a bootstrap cannot cover (a resample never
    exceeds the sample's maximum; its percentile interval covered the pooled
    value of 20 seeds in 8 of 20 runs), so it is reported without an interval
    (`NO_INTERVAL`). `max_options` (the all-AI set's largest option count, which scales
    convergence) is fixed from the full data so every replicate uses the same scale.
    """

    def __init__(self, players: int, max_options: int) -> None:
        self.players, self.max_options = players, max_options

    def __call__(self, s: Summaries) -> dict[str, float]:
        np_, out = self.players, {}
        if s.get(RANDOM):
            rows = s[RANDOM]
            plays = total(rows, "plays")
            r = Fraction(total(rows, "shares"), win_unit(np_) * plays) if plays else Fraction(0)
            out["fairness"] = fairness_of(r, np_)
        if s.get(ALL_AI):
            rows = s[ALL_AI]
            mm = ratio(total(rows, "spread"), total(rows, "spread_n"))
            out["meaningful_moves"] = mm
            out["drama"] = ratio(total(rows, "drama"), total(rows, "drama_n"))
            out["decisiveness"] = 1 - ratio(total(rows, "decisive"), total(rows, "decisive_n"), 1.0)
            out["coolness"] = _share_kept(total(rows, "drops"), total(rows, "pairs"))
            out["variance"] = mm + 0.2 * max((r["spread_max"] for r in rows), default=0.0)  # no interval
            b = slope(rows) / (self.max_options - 1) if self.max_options > 1 else 0.0
            b = 0.0 if abs(b) < LEVEL else b  # options that never change: rounding noise is not a slope
            out["convergence"] = 1 - (max(-1.0, min(1.0, b)) / 2 + 0.5)
        if all(k in out for k in WEIGHTS):
            out["total"] = sum(out[k] * w for k, w in WEIGHTS.items())
        if s.get(ONE_AI):
            rows = s[ONE_AI]
            ewp = 1 / np_
            aiwp = ratio(total(rows, "wins"), total(rows, "plays"))  # whole first places (see the module)
            out["order"] = (aiwp - ewp) / (1 - ewp)
            out["security"] = _share_kept(total(rows, "sec_drops"), total(rows, "sec_n"))
        return out
