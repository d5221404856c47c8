"""Fewer deals for the same confidence: the deals a ±0.05 points-per-round interval needs, with and without
the duplicate correction (`president tournament --correction duplicate`), and what other controls add.

    python bench/variance.py [--deals 200] [--coverage 100] [--journal FILE ...] [--smoke]

1. Match-ups of one bot against four Classic (one-round matches, duplicate deals,
   every deal played from every seat), played here with the tournament's own
   schedule, match and tally. For the bot: the mean points per round, the
   plain 95% interval (floored at independent rounds, the tournament's default)
   and the duplicate one (the deals' own spread), and the deals each needs for
   ±0.05 (the half-width scales as 1/sqrt(deals)). `--journal` adds the bots of
   finished tournaments (e.g. the strength ladder's, `bench/strength.py --out`).
2. Coverage: `--coverage` independent small tournaments of one match-up; the
   share of their duplicate intervals that hold the mean of all of them
   (95% is honest; much less would mean the correction claims too much).
3. Other controls measured on top of the duplicate deals: each deal's value as
   played by a fixed reference agent in the bot's seats (same opponents, same
   seeds), as correlation with the bot's deal means. A control with correlation
   rho cuts the deals needed by 1 / (1 - rho^2).
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import time
from pathlib import Path

from president.matches import PresidentMatch
from president.settings import preset
from recycle.tournament import Schedule, Tally, read_header, records
from recycle.tournament.schedule import derive_seed
from recycle.tournament.workers import play_one
from timing import add_smoke_option, smoke

ONE_ROUND = dataclasses.replace(preset("classic"), rounds=1)
TARGET = 0.05  # the half-width asked for, in points per round
MATCHUPS = [("Expert", "Classic"), ("RankAware", "Classic"), ("random", "Classic"), ("osla", "Classic")]
REFERENCES = ["random", "Aggressive", "Beginner", "osla:samples=1"]


def tournament(bot: str, opponent: str, deals: int, seed: int) -> Tally:
    """`president tournament BOT OPPONENT x4 --rounds 1 --matches DEALS --seed SEED`, in this process."""
    specs = [bot] + [opponent] * 4
    play = PresidentMatch(ONE_ROUND)
    tally = Tally(specs, 5, rating=False)
    for game in Schedule(len(specs), 5, deals, seed).games():
        tally.add(play_one(play, specs, game))
    tally.finish()
    return tally


def needed(half: float | None, deals: int) -> float:
    return math.nan if not half else deals * (half / TARGET) ** 2


def row(label: str, bot: dict, deals: int) -> str:
    plain, dup = bot["mean_points"], bot["mean_points_duplicate"]
    hp, hd = [(e["ci95"][1] - e["ci95"][0]) / 2 if e["ci95"][0] is not None else None for e in (plain, dup)]
    np_, nd = needed(hp, deals), needed(hd, deals)
    return (f"| {label} | {deals} | {plain['value']:.3f} ± {hp:.3f} | {dup['value']:.3f} ± {hd:.3f} | "
            f"{np_:,.0f} | {nd:,.0f} | {np_ / nd:.2f}x |")


HEADER = ["| match-up (bot vs 4 x Classic) | deals | points/round, plain | duplicate | deals for ±0.05, plain "
          "| duplicate | fewer |", "| --- | ---: | --- | --- | ---: | ---: | ---: |"]


def coverage(bot: str, opponent: str, runs: int, deals: int) -> str:
    """How often a small tournament's duplicate interval holds the pooled mean."""
    estimates = []
    for run in range(runs):
        est = tournament(bot, opponent, deals, 90_000 + run).summary()["bots"][0]["mean_points_duplicate"]
        estimates.append((est["value"], *est["ci95"]))
    pooled = statistics.fmean(e[0] for e in estimates)
    held = sum(lo <= pooled <= hi for _, lo, hi in estimates)
    return (f"coverage: {runs} tournaments of {deals} deals ({bot} vs 4 x {opponent}): the duplicate 95% interval "
            f"holds the pooled mean {pooled:.3f} in {held} ({held / runs:.0%})")


def reference_controls(bot: str, opponent: str, deals: int) -> list[str]:
    """Correlation of the bot's deal means with those of reference agents in its seats (same deals and seeds)."""
    play = PresidentMatch(ONE_ROUND)
    series: dict[str, list[float]] = {spec: [] for spec in [bot] + REFERENCES}
    for d in range(deals):
        for spec in series:
            total = 0.0
            for rot in range(5):
                seats = [opponent] * 5
                seats[rot] = spec
                total += play(tuple(seats), derive_seed(9, "deal", d), derive_seed(9, "game", d, rot))[0][1][rot]
            series[spec].append(total / 5)
    out = []
    for spec in REFERENCES:
        rho = statistics.correlation(series[bot], series[spec]) if statistics.pstdev(series[spec]) else 0.0
        out.append(f"  reference {spec}: correlation {rho:+.2f} -> {1 / (1 - rho * rho):.2f}x fewer deals")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per match-up (0: only --journal)")
    parser.add_argument("--coverage", type=int, default=100, help="small tournaments for the coverage check (0: none)")
    parser.add_argument("--journal", nargs="*", default=[], help="finished tournaments to add (their first bot)")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), deals=21, coverage=2)
    print("\n".join(HEADER))
    for bot, opponent in (MATCHUPS[:2] if args.smoke else MATCHUPS) if args.deals > 0 else ():
        start = time.perf_counter()
        summary = tournament(bot, opponent, args.deals, 4001).summary()
        print(row(f"{bot} (here, {time.perf_counter() - start:.0f} s)", summary["bots"][0], args.deals))
    for path in args.journal:
        tally = Tally(read_header(path)["config"]["bot_labels"], 5, rating=False)
        for record in records(Path(path)):
            tally.add(record)
        tally.finish()
        summary = tally.summary()
        print(row(f"{summary['bots'][0]['bot']} ({Path(path).name})", summary["bots"][0], summary["bots"][0]["deals"]))
    if args.coverage:
        print(coverage("Expert", "Classic", args.coverage, 30 if not args.smoke else 21))
    if args.deals > 0:
        deals = 3 if args.smoke else min(args.deals, 60)
        print(f"other controls, on top of the duplicate deals (osla vs 4 x Classic, {deals} deals):")
        print("\n".join(reference_controls("osla", "Classic", deals)))


if __name__ == "__main__":
    main()
