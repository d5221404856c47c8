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
   seeds), and an AIVAT-like baseline over the random players' decisions, as
   correlation with the bot's deal means. A control with correlation rho cuts
   the deals needed by 1 / (1 - rho^2).
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import time
from pathlib import Path

from president.match.tournament import PresidentMatch
from president.game.settings import preset
from recycle.tournament import SPRT, Schedule, SprtPair, Tally, read_header, records
from recycle.tournament.schedule import derive_seed
from recycle.tournament.workers import play_one
from timing import add_smoke_option, smoke

ONE_ROUND = dataclasses.replace(preset("classic"), rounds=1)
TARGET = 0.05  # the half-width asked for, in points per round
MATCHUPS = [("Expert", "Classic"), ("RankAware", "Classic"), ("random", "Classic"), ("osla", "Classic")]
REFERENCES = ["random", "Aggressive", "Beginner", "osla:samples=1"]


def tournament(bot: str, opponent: str, deals: int, seed: int, kept: list | None = None) -> Tally:
    """`president tournament BOT OPPONENT x4 --rounds 1 --matches DEALS --seed SEED`, in this process
    (the game records appended to `kept` when given)."""
    specs = [bot] + [opponent] * 4
    play = PresidentMatch(ONE_ROUND)
    tally = Tally(specs, 5, rating=False)
    for game in Schedule(len(specs), 5, deals, seed).games():
        record = play_one(play, specs, game)
        tally.add(record)
        if kept is not None:
            kept.append(record)
    tally.finish()
    return tally


def sprt_deals(records: list, names: list[str]) -> str:
    """`--sprt BOT OPPONENT` (bot 0 above bot 1, H0 45%, H1 55%) replayed on the records: the deals each test
    needs to decide, and its verdict."""
    out = []
    for duplicate in (False, True):
        tally = Tally(names, 5, SprtPair(0, 1, SPRT(), duplicate=duplicate), rating=False)
        for record in records:
            if tally.decided:
                break
            tally.add(record)
        tally.finish()
        s = tally.summary()["sprt"]
        when = (f"{s['decision']} after {s['decided_after_games'] // 5} deals" if s["decision"]
                else f"undecided after {len(records) // 5} deals")
        out.append(f"{'duplicate' if duplicate else 'rounds'}: {when}")
    return "; ".join(out)


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
    """How often a small tournament's intervals, plain and duplicate, hold the pooled mean of all of them."""
    estimates = []
    for run in range(runs):
        bot_summary = tournament(bot, opponent, deals, 90_000 + run).summary()["bots"][0]
        estimates.append((bot_summary["mean_points"]["value"], bot_summary["mean_points"]["ci95"],
                          bot_summary["mean_points_duplicate"]["ci95"]))
    pooled = statistics.fmean(e[0] for e in estimates)
    plain = sum(lo <= pooled <= hi for _, (lo, hi), _ in estimates)
    dup = sum(lo <= pooled <= hi for _, _, (lo, hi) in estimates)
    return (f"coverage: {runs} tournaments of {deals} deals ({bot} vs 4 x {opponent}): the 95% interval holds the "
            f"pooled mean {pooled:.3f} in {plain / runs:.0%} (plain) and {dup / runs:.0%} (duplicate)")


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


def aivat_control(bot: str, opponent: str, deals: int) -> str:
    """An AIVAT-like baseline: at every decision of a random player (a policy known exactly: uniform), the
    bot's heuristic value (`GameState.heuristic`, points scale) of the action drawn less its mean over the
    legal actions. Its sum over a game has mean 0 whatever the heuristic; the question is how much of the
    bot's luck it explains (correlation with the bot's deal means)."""
    from president.agents.bots import make_bot
    from president.game.state import PresidentState
    from recycle.kernel.protocol import RandomAgent

    means, controls = [], []
    for d in range(deals):
        points = control = 0.0
        for rot in range(5):
            agents = [make_bot(bot if seat == rot else opponent) for seat in range(5)]
            state, rng = PresidentState.new_match(ONE_ROUND, derive_seed(9, "deal", d)), random.Random(d * 5 + rot)
            while not state.is_terminal():
                p, legal = state.current_player(), state.legal_actions()
                action = agents[p].choose(state.observation(p), legal, rng)
                if type(agents[p]) is RandomAgent and len(legal) > 1:
                    values = []
                    for a in legal:
                        child = state.clone()
                        child.apply(a)
                        values.append(4 * child.heuristic(rot))
                    control += values[legal.index(action)] - statistics.fmean(values)
                state.apply(action)
            points += state.results().scores[rot]
        means.append(points / 5)
        controls.append(control / 5)
    rho = statistics.correlation(means, controls)
    return (f"  AIVAT-like, {bot} vs 4 x {opponent}: correlation {rho:+.2f} -> {1 / (1 - rho * rho):.2f}x fewer deals "
            f"({deals} deals)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per match-up (0: only --journal)")
    parser.add_argument("--coverage", type=int, default=100, help="small tournaments for the coverage check (0: none)")
    parser.add_argument("--coverage-deals", type=int, default=30, help="deals of each coverage tournament")
    parser.add_argument("--journal", nargs="*", default=[], help="finished tournaments to add (their first bot)")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), deals=21, coverage=2, coverage_deals=21)
    print("\n".join(HEADER))
    sprts = []
    for bot, opponent in (MATCHUPS[:2] if args.smoke else MATCHUPS) if args.deals > 0 else ():
        start, kept = time.perf_counter(), []
        summary = tournament(bot, opponent, args.deals, 4001, kept).summary()
        print(row(f"{bot} (here, {time.perf_counter() - start:.0f} s)", summary["bots"][0], args.deals))
        sprts.append(f"  {bot} above {opponent}: " + sprt_deals(kept, [b["bot"] for b in summary["bots"]]))
    if sprts:
        print("SPRT, H0 45% against H1 55% of head-to-head rounds, on the same games:")
        print("\n".join(sprts))
    for path in args.journal:
        tally = Tally(read_header(path)["config"]["bot_labels"], 5, rating=False)
        for record in records(Path(path)):
            tally.add(record)
        tally.finish()
        summary = tally.summary()
        print(row(f"{summary['bots'][0]['bot']} ({Path(path).name})", summary["bots"][0], summary["bots"][0]["deals"]))
    if args.coverage:
        print(coverage("Expert", "Classic", args.coverage, args.coverage_deals))
    if args.deals > 0:
        deals = 3 if args.smoke else min(args.deals, 60)
        print(f"other controls, on top of the duplicate deals (osla vs 4 x Classic, {deals} deals):")
        print("\n".join(reference_controls("osla", "Classic", deals)))
        for bot, opponent in (("random", "Classic"), ("Classic", "random")):
            print(aivat_control(bot, opponent, deals))


if __name__ == "__main__":
    main()
