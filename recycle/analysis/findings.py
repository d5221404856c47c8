"""What a designer can act on: the favoured seat, lead changes, how decisive the end is, where the game drags.

Each finding is computed from the game logs alone (so a run resumed from its
journal finds the same), carries a headline figure with its 95% interval, a
plain sentence whose verdict follows from that interval (`verdicts`), and the
games that show it best (their index in the analysis: `recycle analyze ...
--replay N` plays that very game again, move by move).

- **Favoured seat**: each seat's share of the wins (a first place shared by k
  is 1/k, as fairness counts it), in random play (the seat alone) and with the
  estimating AI in every seat; the headline is the most successful seat's share.
- **Lead changes**: in the all-AI games, the leader of each tenth of a play is
  the one player whose estimated places (the estimator's view of every player
  for the option played) summed over the tenth are strictly the best; a change
  is a tenth led by another player than the last (at most 9 per play: the
  lead curves' tenths, and no estimator noise read as a change). Counted per
  play (a game, or a President round), with where in the play they come.
- **Decisive end**: when the winner's own lead first passes 4/5 (decisiveness's
  moment): plays settled only in the last third of the winner's decisions, or
  never, are *late*; the headline is the share of late plays.
- **Drag**: decisions of the all-AI games with one real option: a single legal
  option, or several that the estimator values exactly alike (spread 0); as a
  share, by third of the play, and the longest runs of them.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from recycle.analysis.heuristics import DECISIVE_LEAD
from recycle.analysis.metrics import BINS
from recycle.analysis.records import ALL_AI, RANDOM, GameLog, Play
from recycle.analysis.stats import Interval, bootstrap, proportion, ratio, total
from recycle.analysis.verdicts import Band, verdict

#: Games shown for each finding.
EXAMPLES = 3
#: The thirds of a play, by position of a decision in it.
THIRDS = ("the first third", "the middle third", "the last third")


@dataclass(frozen=True)
class Example:
    """A game that shows a finding: its index in the analysis (what `--replay` takes), its seed, and why."""

    index: int
    seed: int
    note: str

    def to_json(self, replay: str | None = None) -> dict:
        out = {"game": self.index, "seed": self.seed, "note": self.note}
        return {**out, "replay": replay.format(index=self.index)} if replay else out


@dataclass(frozen=True)
class Finding:
    """One thing a designer can act on: a headline figure, what it means, and the games that show it."""

    key: str  # also the reference table's key of the headline figure
    title: str
    value: Interval | None  # the headline figure (None: not measurable here)
    lines: tuple[str, ...]  # the verdict line first, then details
    examples: tuple[Example, ...] = ()

    def to_json(self, replay: str | None = None) -> dict:
        value = self.value.to_json() if self.value else None
        return {"finding": self.key, "title": self.title, "value": value, "lines": list(self.lines),
                "examples": [e.to_json(replay) for e in self.examples]}


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def pct_bounds(iv: Interval) -> str:
    return f"[{pct(iv.low)}, {pct(iv.high)}]" if iv.known else "(no interval)"


def bands(key: str, unit: str) -> tuple[Band, ...]:
    """The verdict bands of a finding's headline figure (`unit`: what a play is, "game" or "round")."""
    inf = float("inf")
    return {
        "lead_changes": (Band(0, 0.5, "the lead seldom changes hands"),
                         Band(0.5, 2, "the lead changes hands a few times"),
                         Band(2, inf, "the lead changes hands often")),
        "late_decisions": (Band(0, 0.25, f"most {unit}s are settled well before the end"),
                           Band(0.25, 0.5, f"many {unit}s stay open until late"),
                           Band(0.5, inf, f"most {unit}s stay open until late")),
        "one_real_option": (Band(0, 0.2, "the players nearly always have a real choice"),
                            Band(0.2, 0.5, "a good share of the decisions offer no real choice"),
                            Band(0.5, inf, "most decisions offer no real choice: the game drags")),
    }[key]


def _rng(seed: int, what: str) -> random.Random:
    return random.Random(f"findings/{what}/{seed}")


# --- favoured seat -------------------------------------------------------------------------------------------

def seat_win_rates(logs: Sequence[GameLog], players: int, seed: int, replicates: int) -> list[Interval]:
    """Each seat's share of the plays it won (a shared first place: 1/k each, as fairness counts it),
    with bootstrap intervals over games."""
    rows = [{"plays": len(g.plays()), **{f"w{p}": float(sum(pl.win_share(p) for pl in g.plays()))
                                         for p in range(players)}} for g in logs]

    def compute(s):
        r = s[RANDOM]
        return {f"w{p}": ratio(total(r, f"w{p}"), total(r, "plays")) for p in range(players)}

    b = bootstrap({RANDOM: rows}, compute, random.Random(f"seat-rates/{seed}"), replicates)
    return [b.interval(f"w{p}") for p in range(players)]


def _seat_line(rates: Sequence[Interval], where: str, logs: Sequence[GameLog]) -> tuple[int, str]:
    games, unit = len(logs), "rounds" if any(len(g.episodes) > 1 for g in logs) else "games"
    n = len(rates)
    fair = 1 / n
    best = max(range(n), key=lambda p: (rates[p].value, -p))
    worst = min(range(n), key=lambda p: (rates[p].value, p))
    iv = rates[best]
    v = verdict(iv, (Band(-float("inf"), fair, f"seat {best} wins no more often than its fair share"),
                     Band(fair, float("inf"), f"seat {best} is favoured")), games)
    line = (f"{where}, seat {best} wins most: {pct(iv.value)} {pct_bounds(iv)} of the {unit} against a fair "
            f"share of {pct(fair)} ({100 * (iv.value - fair):+.0f} points; seat {worst} least, "
            f"{pct(rates[worst].value)}): {v.sentence()}")
    return best, line


def _won(logs: Sequence[GameLog], seat: int) -> list[Example]:
    out = []
    for g in logs:
        shares = [pl.win_share(seat) for pl in g.plays()]
        if any(shares):
            whole = sum(1 for s in shares if s == 1)
            note = (f"seat {seat} won" if len(shares) == 1 and whole else f"seat {seat} shared first place"
                    if len(shares) == 1 else f"seat {seat} won {sum(1 for s in shares if s)} of {len(shares)} rounds")
            out.append(Example(g.index, g.seed, note))
        if len(out) == EXAMPLES:
            break
    return out


def favoured_seat(logs: dict[str, list[GameLog]], players: int, seed: int, replicates: int) -> Finding:
    games = len(logs.get(RANDOM, []))
    rates = seat_win_rates(logs.get(RANDOM, []), players, seed, replicates) if games else []
    if not rates:
        return Finding("seat_advantage", "Favoured seat", None, ("No random games: nothing to tell.",))
    best, line = _seat_line(rates, "In random play", logs[RANDOM])
    lines, examples = [line], _won(logs[RANDOM], best)
    if logs.get(ALL_AI):
        ai = seat_win_rates(logs[ALL_AI], players, seed + 1, replicates)
        _, ai_line = _seat_line(ai, "With the estimating AI in every seat", logs[ALL_AI])
        lines.append(ai_line)
    iv = rates[best]
    shift = 1 / players
    return Finding("seat_advantage", "Favoured seat",
                   Interval(iv.value - shift, iv.low - shift, iv.high - shift), tuple(lines), tuple(examples))


# --- lead changes --------------------------------------------------------------------------------------------

def stretch_leaders(decisions) -> list[tuple[int, int, int, int | None]]:
    """(tenth, its first decision, new leader, previous leader or None) each time the leader of a tenth of the
    play differs from the last one. A tenth's leader is the one player whose estimated places (the
    estimator's view of every player for the option played), summed over the tenth's decisions, are
    strictly the best, compared exactly; a tie or a tenth without estimates leaves the leader as it was.
    Summed over a stretch, not read at each decision, so that the noise of a K-rollout estimate does not
    pass for a change of leader."""
    m = len(decisions)
    sums: dict[int, list] = {}
    first: dict[int, int] = {}
    for i, d in enumerate(decisions):
        if d.view:
            b = min(BINS - 1, BINS * i // m)
            first.setdefault(b, i)
            row = sums.setdefault(b, [0] * len(d.view))
            for p, v in enumerate(d.view[:len(row)]):
                row[p] += v
    leader, out = None, []
    for b in sorted(sums):
        top = max(sums[b])
        leaders = [p for p, v in enumerate(sums[b]) if v == top]
        if len(leaders) == 1 and leaders[0] != leader:
            out.append((b, first[b], leaders[0], leader))
            leader = leaders[0]
    return out


def lead_changes(play: Play) -> list[int]:
    """The tenths of the play (1..9) whose leader took over from another (`stretch_leaders`)."""
    return [b for b, _, _, before in stretch_leaders(play.decisions) if before is not None]


def _third(i: int, m: int) -> int:
    return min(2, 3 * i // m) if m else 0


def lead_finding(logs: Sequence[GameLog], seed: int, replicates: int) -> Finding:
    title = "Lead changes"
    if not logs:
        return Finding("lead_changes", title, None, ("No all-AI games: nothing to tell.",))
    if not any(d.view for g in logs for d in g.decisions):
        return Finding("lead_changes", title, None, ("Not measured: the estimator does not estimate every "
                                                     "player's place (CardStock's estimator does).",))
    rows, by_third, per_game = [], [0, 0, 0], []
    for g in logs:
        at = [lead_changes(play) for play in g.plays()]
        for b in (b for tenths in at for b in tenths):
            by_third[_third(b, BINS)] += 1
        changes = sum(map(len, at))
        rows.append({"changes": changes, "plays": len(at), "none": at.count([])})
        per_game.append((changes, g))
    b = bootstrap({ALL_AI: rows}, lambda s: {"c": ratio(total(s[ALL_AI], "changes"), total(s[ALL_AI], "plays"))},
                  _rng(seed, "lead"), replicates)
    iv = b.interval("c")
    unit = "round" if any(r["plays"] > 1 for r in rows) else "game"
    v = verdict(iv, bands("lead_changes", unit), len(logs))
    lines = [f"The lead changes hands {iv.value:.2f} {iv.bounds(2)} times per {unit} in the all-AI games (the "
             f"leader of each tenth of the {unit}, by estimated place; at most {BINS - 1} changes): {v.sentence()}"]
    plays = total(rows, "plays")
    lines.append(f"{pct(ratio(total(rows, 'none'), plays))} of the {unit}s keep their first leader "
                 "throughout.")
    if sum(by_third):
        k = max(range(3), key=lambda t: by_third[t])
        lines.append(f"Most changes come in {THIRDS[k]} of the {unit} ({pct(by_third[k] / sum(by_third))} of "
                     "them).")
    top = sorted((x for x in per_game if x[0]), key=lambda x: (-x[0], x[1].index))[:EXAMPLES]
    examples = [Example(g.index, g.seed, f"{c} lead change{'s' if c != 1 else ''}") for c, g in top]
    return Finding("lead_changes", title, iv, tuple(lines), tuple(examples))


# --- decisive end --------------------------------------------------------------------------------------------

def settled_at(play: Play) -> tuple[int, int] | None:
    """(k, n): the winner's lead first passed 4/5 at its decision k of n (k = n: never); None without leads."""
    if play.winner is None:
        return None
    leads = play.leads(play.winner)
    if not leads:
        return None
    n = len(leads)
    return next((i for i, lead in enumerate(leads) if lead > DECISIVE_LEAD), n), n


def _late(k: int, n: int) -> bool:
    return 3 * k >= 2 * n  # in the last third of the winner's decisions, or never (k = n)


def decisive_finding(logs: Sequence[GameLog], seed: int, replicates: int) -> Finding:
    title = "Decisive end"
    if not logs:
        return Finding("late_decisions", title, None, ("No all-AI games: nothing to tell.",))
    rows, seen = [], []
    for g in logs:
        late = plays = 0
        for j, play in enumerate(g.plays()):
            at = settled_at(play)
            if at is None:
                continue
            plays += 1
            late += _late(*at)
            seen.append((Fraction(at[0], at[1]), g, j, play.winner, at))
        rows.append({"late": late, "plays": plays})
    plays = int(total(rows, "plays"))
    if not plays:
        return Finding("late_decisions", title, None, ("Not measured: no estimated decisions of a winner.",))
    late = int(total(rows, "late"))
    if all(r["plays"] == 1 for r in rows):  # one yes/no per game: Wilson, as order's interval
        iv = Interval(late / plays, *proportion(late, plays))
    else:
        b = bootstrap({ALL_AI: rows}, lambda s: {"l": ratio(total(s[ALL_AI], "late"), total(s[ALL_AI], "plays"))},
                      _rng(seed, "late"), replicates)
        iv = b.interval("l")
    unit = "round" if any(r["plays"] > 1 for r in rows) else "game"
    v = verdict(iv, bands("late_decisions", unit), len(logs))
    never = sum(1 for x in seen if x[4][0] == x[4][1])
    lines = [f"{pct(iv.value)} {pct_bounds(iv)} of the all-AI {unit}s are settled only in the last third of the "
             f"winner's decisions or never (its estimated place first above 4/5): {v.sentence()}",
             f"The winner was never clearly ahead in {never} of {plays} {unit}s."]
    examples = []
    where = (lambda j: f"round {j + 1}: ") if unit == "round" else (lambda j: "")
    for when, g, j, winner, (k, n) in sorted((x for x in seen if _late(*x[4])),
                                              key=lambda x: (-x[0], x[1].index))[:EXAMPLES - 1]:
        examples.append(Example(g.index, g.seed, f"{where(j)}seat {winner} won, never clearly ahead" if k == n else
                                f"{where(j)}seat {winner} won, clear only at its decision {k + 1} of {n}"))
    when, g, j, winner, (k, n) = min(seen, key=lambda x: (x[0], x[1].index))
    if k < n and not any(e.index == g.index for e in examples):
        examples.append(Example(g.index, g.seed, f"{where(j)}seat {winner} won, clear from its decision {k + 1} "
                                                 f"of {n} (the earliest)"))
    return Finding("late_decisions", title, iv, tuple(lines), tuple(examples))


# --- drag ----------------------------------------------------------------------------------------------------

def no_real_choice(d) -> bool:
    """One legal option, or several the estimator values exactly alike."""
    return d.options == 1 or (bool(d.values) and len(d.values) > 1 and d.spread == 0)


def longest_run(play: Play) -> tuple[int, int]:
    """(first decision, length) of the longest run of decisions with no real choice in the play."""
    best, start, run = (0, 0), 0, 0
    for i, d in enumerate(play.decisions):
        if no_real_choice(d):
            start, run = (i, 1) if run == 0 else (start, run + 1)
            best = max(best, (run, -start))
        else:
            run = 0
    return -best[1], best[0]


def drag_finding(logs: Sequence[GameLog], seed: int, replicates: int) -> Finding:
    title = "Where the game drags"
    rows, thirds, counts, runs = [], [0, 0, 0], [0, 0, 0], []
    for g in logs:
        dull = forced = 0
        for j, play in enumerate(g.plays()):
            m = len(play.decisions)
            for i, d in enumerate(play.decisions):
                counts[_third(i, m)] += 1
                if no_real_choice(d):
                    dull += 1
                    forced += d.options == 1
                    thirds[_third(i, m)] += 1
            start, length = longest_run(play)
            if length:
                runs.append((length, g, j, start, m))
        rows.append({"dull": dull, "forced": forced, "n": len(g.decisions)})
    if not total(rows, "n"):
        return Finding("one_real_option", title, None, ("No all-AI games: nothing to tell.",))
    b = bootstrap({ALL_AI: rows}, lambda s: {"d": ratio(total(s[ALL_AI], "dull"), total(s[ALL_AI], "n"))},
                  _rng(seed, "drag"), replicates)
    iv = b.interval("d")
    v = verdict(iv, bands("one_real_option", "game"), len(logs))
    dull, forced = total(rows, "dull"), total(rows, "forced")
    lines = [f"{pct(iv.value)} {pct_bounds(iv)} of the all-AI decisions have one real option (a single legal "
             f"option, or options the estimator values exactly alike): {v.sentence()}"]
    if dull:
        lines.append(f"Of these, {pct(forced / dull)} are forced (one legal option). By third of the game: "
                     + ", ".join(f"{pct(ratio(t, c))} in {name}" for t, c, name in zip(thirds, counts, THIRDS))
                     + ".")
    episodic = any(len(g.plays()) > 1 for g in logs)
    examples = []
    for length, g, j, start, m in sorted(runs, key=lambda x: (-x[0], x[1].index))[:EXAMPLES]:
        where = f"round {j + 1}, " if episodic else ""
        examples.append(Example(g.index, g.seed, f"{where}decisions {start + 1}-{start + length} of {m}: "
                                                 f"{length} in a row with one real option"))
    return Finding("one_real_option", title, iv, tuple(lines), tuple(examples))


def findings(analysis) -> list[Finding]:
    """Every finding of an analysis (from its logs; the same for a run resumed from its journal)."""
    c, logs = analysis.config, analysis.logs
    ai = logs.get(ALL_AI, [])
    return [favoured_seat(logs, analysis.players, c.seed, c.replicates),
            lead_finding(ai, c.seed, c.replicates),
            decisive_finding(ai, c.seed, c.replicates),
            drag_finding(ai, c.seed, c.replicates)]
