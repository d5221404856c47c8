"""Incremental results of a tournament: per-bot figures, head-to-head, ratings, SPRT, alpha-rank.

Games must be added in index order (the runner guarantees it whatever order
they finish in): the OpenSkill update and the SPRT's stopping point depend on
order, and floating-point sums do too, so this is what makes results identical
for any number of processes and after a resume. Memory is constant in the
number of games: only the running deal's partial totals are kept besides the
per-bot and per-pair sums.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

from recycle.tournament.journal import GameRecord
from recycle.tournament.stats import DUPLICATE_MIN_DEALS, SPRT, ClusterSum

MU, SIGMA = 25.0, 25.0 / 3  # OpenSkill's defaults


@dataclass
class BotTally:
    """Everything counted for one bot (a seat-round is one 'round played')."""

    name: str
    places: list[int]  # places[k]: rounds finished in place k+1
    first: ClusterSum = field(default_factory=ClusterSum)
    last: ClusterSum = field(default_factory=ClusterSum)
    place: ClusterSum = field(default_factory=ClusterSum)
    points: ClusterSum = field(default_factory=ClusterSum)
    mu: float = MU
    sigma: float = SIGMA

    @property
    def rounds(self) -> int:
        return sum(self.places)

    @property
    def ordinal(self) -> float:
        """Conservative skill estimate mu - 3 sigma (what the table is sorted by)."""
        return self.mu - 3 * self.sigma


@dataclass
class SprtPair:
    """The SPRT of bot `a` finishing above bot `b` in head-to-head rounds."""

    a: int
    b: int
    test: SPRT
    decided_at: int | None = None  # games counted when it decided
    duplicate: bool = False  # stop on the deals' own spread (`--correction duplicate`), not on rounds'

    def duplicate_llr(self, pair: ClusterSum) -> float:
        """The generalised SPRT's log-likelihood ratio on the pair's per-deal shares (0 before
        `DUPLICATE_MIN_DEALS` deals: their spread is not known yet)."""
        if pair.k < DUPLICATE_MIN_DEALS:
            return 0.0
        return self.test.normal_llr(pair.mean, pair.variance(duplicate=True))

    def decision(self, pair: ClusterSum) -> str | None:
        """The verdict of the test that stops the tournament."""
        return self.test.decide(self.duplicate_llr(pair)) if self.duplicate else self.test.decision


class Tally:
    """Aggregates game records of a tournament with `len(names)` bots at `seats` seats."""

    def __init__(self, names: Sequence[str], seats: int, sprt: SprtPair | None = None,
                 rating: bool = True) -> None:
        self.names = list(names)
        self.seats = seats
        self.bots = [BotTally(name, [0] * seats) for name in names]
        nb = len(names)
        self.pairs = [[ClusterSum() for _ in range(nb)] for _ in range(nb)]  # [a][b]: a above b
        self.sprt = sprt
        self.games = 0
        self.rounds = 0
        self._deal: int | None = None
        self._partial: dict[tuple, list[float]] = {}
        self._model = _openskill_model() if rating else None
        # Rating objects are kept, not rebuilt per round: creating one costs a uuid.
        self._ratings = [self._model.rating(mu=MU, sigma=SIGMA) for _ in names] if rating else []

    # ---- adding -------------------------------------------------------
    def add(self, game: GameRecord) -> None:
        """Count one game (the next in index order)."""
        if self._deal is not None and game.deal != self._deal:
            self._close_deal()
        self._deal = game.deal
        part = self._partial
        self.rounds += len(game.places)
        for s, bot in enumerate(game.seats):  # per seat, the sums over the match's rounds
            acc = part.setdefault(("bot", bot), [0.0] * 7)
            counts = self.bots[bot].places
            for places, points in zip(game.places, game.points):
                place, pts = places[s], points[s]
                counts[place - 1] += 1
                acc[0] += 1
                acc[1] += place == 1
                acc[2] += place == self.seats
                acc[3] += place
                acc[4] += pts
                acc[5] += place * place
                acc[6] += pts * pts
        self._head_to_head(game.seats, game.places)
        if self._model is not None:
            self._rate(game.seats, match_ranks(game.points))
        self.games += 1
        if game.rotation == self.seats - 1:  # the deal's last rotation: its clusters are complete
            self._close_deal()
            self._deal = None

    def _head_to_head(self, seats: Sequence[int], rounds: Sequence[Sequence[int]]) -> None:
        part = self._partial
        for s, a in enumerate(seats):
            for t, b in enumerate(seats):
                if a != b:  # a bot in two seats does not play itself
                    won = squares = 0.0
                    for places in rounds:
                        w = 1.0 if places[s] < places[t] else 0.5 if places[s] == places[t] else 0.0
                        won += w
                        squares += w * w
                    acc = part.setdefault(("pair", a, b), [0.0, 0.0, 0.0])
                    acc[0] += won
                    acc[1] += len(rounds)
                    acc[2] += squares

    def _rate(self, seats: Sequence[int], places: Sequence[int]) -> None:
        """One Plackett-Luce update on a match's finishing order (see `match_ranks`).

        A bot in several seats is several teams; its new rating is the mean of theirs.
        """
        if len(set(seats)) == len(seats):
            new = self._model.rate([[self._ratings[b]] for b in seats], ranks=list(places))
            for b, team in zip(seats, new):
                self._ratings[b] = team[0]
                self.bots[b].mu, self.bots[b].sigma = team[0].mu, team[0].sigma
            return
        # One object per seat: rate() deep-copies its input, which would merge repeated objects.
        teams = [[self._model.rating(mu=self.bots[b].mu, sigma=self.bots[b].sigma)] for b in seats]
        new = self._model.rate(teams, ranks=list(places))
        sums: dict[int, list[float]] = {}
        for b, team in zip(seats, new):
            acc = sums.setdefault(b, [0.0, 0.0, 0])
            acc[0] += team[0].mu
            acc[1] += team[0].sigma
            acc[2] += 1
        for b, (mu, sigma, count) in sums.items():
            self.bots[b].mu, self.bots[b].sigma = mu / count, sigma / count
            self._ratings[b] = self._model.rating(mu=mu / count, sigma=sigma / count)

    def _close_deal(self) -> None:
        for key, acc in self._partial.items():
            if key[0] == "bot":
                bot = self.bots[key[1]]
                m = acc[0]
                bot.first.add(acc[1], m)
                bot.last.add(acc[2], m)
                bot.place.add(acc[3], m, acc[5])
                bot.points.add(acc[4], m, acc[6])
            else:
                self.pairs[key[1]][key[2]].add(acc[0], acc[1], acc[2])
        sprt = self.sprt
        if sprt is not None and sprt.decided_at is None:
            acc = self._partial.get(("pair", sprt.a, sprt.b))
            if acc:
                sprt.test.add(acc[0], acc[1])
            if sprt.decision(self.pairs[sprt.a][sprt.b]) is not None:
                sprt.decided_at = self.games
        self._partial = {}

    def finish(self) -> None:
        """Close a deal left incomplete (an interrupted or stopped tournament)."""
        if self._partial:
            self._close_deal()
        self._deal = None

    @property
    def decided(self) -> bool:
        return self.sprt is not None and self.sprt.decided_at is not None

    # ---- reporting ----------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """Every figure, JSON-ready; call `finish()` first."""
        bots = []
        for b in self.bots:
            n = b.rounds
            bots.append({
                "bot": b.name, "rounds": n, "deals": b.place.k, "places": b.places,
                "place_share": [c / n if n else 0.0 for c in b.places],
                "first_rate": _estimate(b.first, rate=True), "last_rate": _estimate(b.last, rate=True),
                "mean_place": _estimate(b.place), "mean_points": _estimate(b.points),
                "mean_points_duplicate": _estimate(b.points, duplicate=True),
                "rating": {"mu": b.mu, "sigma": b.sigma, "ordinal": b.ordinal} if self._model else None,
            })
        h2h = [{"bot": self.names[a], "other": self.names[c], "rounds": self.pairs[a][c].m,
                **_estimate(self.pairs[a][c], rate=True)}
               for a in range(len(self.names)) for c in range(len(self.names)) if a != c and self.pairs[a][c].m]
        from recycle.tournament.ranking import rankings  # numpy: imported when a summary is made, not by every worker

        return {"games": self.games, "rounds": self.rounds, "bots": bots, "head_to_head": h2h,
                **rankings(self.names, h2h), "sprt": self._sprt_summary()}

    def _sprt_summary(self) -> dict[str, Any] | None:
        if self.sprt is None:
            return None
        s, t = self.sprt, self.sprt.test
        a, b = self.names[s.a], self.names[s.b]
        pair = self.pairs[s.a][s.b]
        decision = s.decision(pair)
        verdict = {"H1": f"H1 accepted: {a} finishes above {b} more often than not",
                   "H0": f"H0 accepted: {a} does not finish above {b} more often than not",
                   None: "undecided: the budget ran out first"}[decision]
        llr = s.duplicate_llr(pair)
        return {"a": self.names[s.a], "b": self.names[s.b], "p0": t.p0, "p1": t.p1, "alpha": t.alpha,
                "beta": t.beta, "llr": t.llr, "lower": t.lower, "upper": t.upper,
                "a_above_b": t.successes, "rounds": t.successes + t.failures,
                "decision": decision, "decided_after_games": s.decided_at, "verdict": verdict,
                "stopped_by": "duplicate" if s.duplicate else "rounds",
                # both tests, whichever stops: the rounds' Bernoulli one and the deals' generalised one
                "rounds_test": {"llr": t.llr, "decision": t.decision},
                "duplicate_test": {"llr": llr, "decision": t.decide(llr), "deals": pair.k}}


def _estimate(acc: ClusterSum, rate: bool = False, duplicate: bool = False) -> dict[str, float]:
    """Value and 95% interval; None where there is too little data (JSON has no NaN)."""
    lo, hi = acc.rate_ci() if rate else acc.mean_ci(duplicate=duplicate)
    return {"value": _finite(acc.mean), "ci95": [_finite(lo), _finite(hi)]}


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else x


def _openskill_model():
    from openskill.models import PlackettLuce  # imported here: only the parent rates

    return PlackettLuce(mu=MU, sigma=SIGMA)


def match_ranks(points: Sequence[Sequence[float]]) -> list[int]:
    """Each seat's place in a match by its total points over the rounds (ties share a place).

    The match is the game that ratings count: its rounds are not independent
    (ranks carry over through the exchange), and one update per match, not per
    round, keeps the rating library's cost off the tournament's critical path.
    """
    totals = [sum(round_points[s] for round_points in points) for s in range(len(points[0]))]
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]
