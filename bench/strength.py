"""The search players' strength table: duplicate-deal tournaments with 95% intervals.

    python bench/strength.py [--out strength] [--report] [--measure]

Runs `president tournament` (-j1; each deal replayed with the seats rotated)
and prints one row per bot. A tournament whose JSON is already in `--out`
is not played again, so an interrupted run continues and `--report` only
prints the table:

1. the nine shipped personalities (balanced draws): the best one by points;
2. ISMCTS at `ISMCTS_ITERATIONS` iterations per move (one second of this
   machine, see `--measure`) against four copies of that best personality,
   three times (three seeds: independent replications, then pooled by deal);
3. ISMCTS at `time=1.0` (wall clock) against the same, a smaller check;
4. PIMC (`samples=20`) against four random players;
then the endgame check: won two-player endings, played by the search
players with their alpha-beta switch against the perfect solver and
against random, must all be won.

Every table has five seats, so a bot's finish-above rate (the share of its
table mates it finishes above) is its points per round / 4: in place k it
finishes above 5 - k of the other four. The interval on that rate is the
tournament's own (Student t over per-deal totals) divided by 4.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from president.bots import make_bot
from president.settings import preset
from president.state import PresidentState
from recycle.search import Solver
from recycle.tournament import ClusterSum, records

PERSONALITIES = ["Aggressive", "Beginner", "Cautious", "Classic", "Closer", "Counter", "Gambler", "RankAware",
                 "TwoHoarder"]
#: ISMCTS iterations in one second per move: the median of iterations per CPU second over searched
#: decisions of real 5-player matches (`--measure`) on the 2-core reference machine: 8,062, 6,878 and
#: 7,533 in three runs of 40-60 decisions (CPU time: the machine was shared; a wall-clock second gave
#: only about 2,000 while it was fully loaded).
ISMCTS_ITERATIONS = 7000
SEATS = 5


def tournaments(best: str) -> list[tuple[str, list[str]]]:
    """(name, arguments of `president tournament`) in order; `best` is the best personality."""
    return [
        ("personalities", PERSONALITIES + ["--matches", "400", "--rounds", "2", "--seed", "2026"]),
        (f"ismcts_vs_{best.lower()}", [f"ismcts:iterations={ISMCTS_ITERATIONS}"] + [best] * 4
         + ["--matches", "30", "--rounds", "1", "--seed", "2028"]),
        (f"ismcts_vs_{best.lower()}_b", [f"ismcts:iterations={ISMCTS_ITERATIONS}"] + [best] * 4
         + ["--matches", "30", "--rounds", "1", "--seed", "2029"]),
        (f"ismcts_vs_{best.lower()}_c", [f"ismcts:iterations={ISMCTS_ITERATIONS}"] + [best] * 4
         + ["--matches", "30", "--rounds", "1", "--seed", "2030"]),
        (f"ismcts_time1_vs_{best.lower()}", ["ismcts:time=1.0"] + [best] * 4
         + ["--matches", "15", "--rounds", "1", "--seed", "2028"]),
        ("pimc_vs_random", ["pimc:samples=20"] + ["random"] * 4 + ["--matches", "100", "--rounds", "2",
                                                                   "--seed", "2027"]),
    ]


def run(out: Path, name: str, args: list[str]) -> dict:
    """The tournament's JSON summary, playing it first unless `out` has it."""
    summary = out / f"{name}.json"
    if not summary.exists():
        command = [sys.executable, "-m", "president.cli", "tournament", *args, "-j1",
                   "--out", str(out / f"{name}.jsonl"), "--json", str(summary)]
        (out / f"{name}.cmd").write_text(" ".join(["president", *command[3:]]) + "\n")
        with open(out / f"{name}.txt", "w") as log:
            subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, check=True)
    return json.loads(summary.read_text())


def best_personality(data: dict) -> str:
    return max(data["bots"], key=lambda b: b["mean_points"]["value"])["bot"]


def row(bot: str, name: str, rounds: float, deals: int, points: float, low: float, high: float) -> str:
    share = SEATS - 1  # the finish-above rate is points per round / 4
    return (f"| {bot} | {name} | {rounds:,.0f} | {deals} | {points / share:.1%} ({low / share:.1%}-{high / share:.1%})"
            f" | {points:.2f} ({low:.2f}-{high:.2f}) |")


def rows(name: str, data: dict, only_first: bool) -> list[str]:
    bots = data["bots"][:1] if only_first else sorted(data["bots"], key=lambda b: -b["mean_points"]["value"])
    return [row(b["bot"], name, b["rounds"], b["deals"], b["mean_points"]["value"], *b["mean_points"]["ci95"])
            for b in bots]


def pooled(out: Path, names: list[str]) -> str:
    """The first bot's row over the deals of several tournaments (each deal one cluster, as in a tournament)."""
    points = ClusterSum()
    for name in names:
        by_deal: dict[int, list[float]] = {}
        for record in records(out / f"{name}.jsonl"):
            seat = record.seats.index(0)
            by_deal.setdefault(record.deal, []).extend(r[seat] for r in record.points)
        for values in by_deal.values():
            points.add(sum(values), len(values), sum(v * v for v in values))
    return row("(pooled)", " + ".join(names), points.m, points.k, points.mean, *points.mean_ci())


# ---- the endgame switch -----------------------------------------------------
def won_endings(count: int, first_seed: int = 5000) -> list[PresidentState]:
    """Two-player endings of random 3-5 player rounds that the player to move wins with the right move only.

    Won: the solver's best value is the better of the two places left; some
    other legal move loses it.
    """
    found, seed = [], first_seed
    while len(found) < count:
        players = 3 + seed % 3
        settings = dataclasses.replace(preset("classic"), players=players, rounds=1)
        state, rng = PresidentState.new_match(settings, seed), random.Random(seed)
        while not state.is_terminal() and len(state.still_in()) > 2:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        seed += 1
        if state.is_terminal() or len(state.legal_actions()) < 2 or sum(state.sizes) > 14:
            continue
        state = state.truncated()
        me, n = state.current_player(), state.num_players
        values, _ = Solver(me).root_values(state, state.legal_actions())
        best = max(values.values())
        if best == (n - state.best_free) / (n - 1) and min(values.values()) < best:  # won, but can be lost
            found.append(state)
    return found


def endgame_check(count: int) -> str:
    """Play every won ending with each search player against two opponents; report the losses."""
    tried = lost = 0
    endings = won_endings(count)
    for spec in ("ismcts:iterations=200", "pimc:samples=10", "vote:samples=5"):
        for opponent in ("alphabeta", "random"):
            for start in endings:
                state, rng = start.clone(), random.Random(tried)
                me = state.current_player()
                mine, theirs = make_bot(spec), make_bot(opponent)
                while not state.is_terminal():
                    p = state.current_player()
                    state.apply((mine if p == me else theirs).choose(state.observation(p), state.legal_actions(), rng))
                tried += 1
                lost += state.round_log[-1][me] != start.best_free  # won: the better of the two places
    return (f"endgame switch: {len(endings)} won two-player endings x 3 search players x 2 opponents "
            f"(perfect solver, random) = {tried} games, {lost} lost")


def measure(decisions: int = 40, iterations: int = 4000) -> str:
    """ISMCTS iterations per CPU second over searched decisions of real matches against Classic."""
    settings = dataclasses.replace(preset("classic"), rounds=2)
    rates: list[float] = []
    seed = 0
    while len(rates) < decisions:
        state, seat, rng = PresidentState.new_match(settings, 500 + seed), seed % SEATS, random.Random(seed)
        agents = [make_bot("Classic") for _ in range(SEATS)]
        agents[seat] = make_bot(f"ismcts:iterations={iterations}")
        while not state.is_terminal() and len(rates) < decisions:
            p, legal = state.current_player(), state.legal_actions()
            start = time.process_time()
            decision = agents[p].explain(state.observation(p), legal, rng)
            cpu = time.process_time() - start
            if p == seat and len(legal) > 1 and not decision.trace.solver:
                rates.append(decision.trace.iterations / cpu)
            state.apply(decision.action)
        seed += 1
    q = statistics.quantiles(rates, n=4)
    return (f"ISMCTS iterations per CPU second, {decisions} searched decisions: median {statistics.median(rates):,.0f}"
            f" (quartiles {q[0]:,.0f}-{q[2]:,.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="strength", help="folder of the tournaments' commands, logs and JSON")
    parser.add_argument("--report", action="store_true", help="only print the table of the tournaments in --out")
    parser.add_argument("--measure", action="store_true", help="measure ISMCTS iterations per second first")
    parser.add_argument("--endings", type=int, default=40, help="won two-player endings for the endgame check")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.measure:
        print(measure())
    def wanted(name: str) -> bool:
        return not args.report or (out / f"{name}.json").exists()

    results: dict[str, dict] = {}
    name, tournament = tournaments("Classic")[0]
    if wanted(name):
        results[name] = run(out, name, tournament)
    best = best_personality(results["personalities"]) if "personalities" in results else "Classic"
    for name, tournament in tournaments(best)[1:]:  # against the best personality found
        if wanted(name):
            results[name] = run(out, name, tournament)
    print("| bot | tournament | rounds | deals | finish-above rate (95% CI) | points/round (95% CI) |")
    print("| --- | --- | ---: | ---: | --- | --- |")
    for name, data in results.items():
        print("\n".join(rows(name, data, only_first=name != "personalities")))
    replications = [name for name in results if name.startswith("ismcts_vs_")]
    if len(replications) > 1:
        print(pooled(out, replications))
    print(endgame_check(args.endings))


if __name__ == "__main__":
    main()
