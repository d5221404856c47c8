"""Does weighing the exchange cost the master any strength? A paired check on duplicate deals.

    python bench/exchange_strength.py [--deals 40] [--rounds 3] [--seed 35] [--smoke]
    python bench/exchange_strength.py --before SPEC [--first D] ...   # the master against another search

The exchange's evidence (`president.game.exchange_evidence`) only speaks in the
rounds after the first, so each deal is a match whose first round five
Expert play (no search spent where both versions are the same), then the
master level's search (uncapped: its iterations, whatever the machine's
load; told the table's names, as at a table) takes one seat, the seat
turning with the deal, beside four Expert for the remaining rounds. Each
deal is played twice from the same seed, the master weighing the exchange
(`ModelEvidence.EXCHANGE` on, as now) and not (before), and the master's
round points (4 for President ... 0 for Scum) in the rounds it played are
compared deal by deal: the mean difference per round with its 95% interval
(Student t over deals), printed as it goes.

`--before SPEC` compares the master level against another search instead
(both weighing the exchange), e.g. the master as it was: its chain of 300
worlds. `--first D` starts at deal D, so that runs in separate processes
split the deals between them.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
from unittest import mock

from president.agents.bots import make_bot
from president.game.inference import ModelEvidence
from president.agents.opponents import tell_opponents
from president.game.settings import preset
from president.game.state import PresidentState
from beliefs import MASTER
from timing import add_smoke_option, smoke

#: Student t quantiles (two-sided 95%) by degrees of freedom; 1.96 beyond.
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
       12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02, 60: 2.00}


def t95(df: int) -> float:
    return T95[max(k for k in T95 if k <= df)] if df < 120 else 1.96


def play(seed: int, seat: int, rounds: int, master: str, exchange: bool) -> list[int]:
    """The master's round points in the rounds after the first of one match."""
    settings = dataclasses.replace(preset("classic"), rounds=rounds)
    names = ["Expert"] * settings.players
    names[seat] = master
    state, rng = PresidentState.new_match(settings, seed), random.Random(seed ^ 0x5EED)
    expert, agent = make_bot("Expert"), make_bot(master)
    tell_opponents(agent, seat, names)
    with mock.patch.object(ModelEvidence, "EXCHANGE", exchange):
        while not state.is_terminal():
            p, legal = state.current_player(), state.legal_actions()
            bot = agent if p == seat and state.round_no > 0 else expert
            state.apply(bot.choose(state.observation(p), legal, rng))
    n = settings.players
    return [n - places[seat] for places in state.round_log[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per match (the master plays all but the first)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--before", default=None, metavar="SPEC", help="the search to compare the master "
                        "with (both weighing the exchange); without it, the master not weighing the exchange")
    parser.add_argument("--first", type=int, default=0, metavar="D", help="the first deal played")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), deals=1, rounds=2)
    master = MASTER.replace("iterations=1500", "iterations=30") if args.smoke else MASTER
    other = args.before.replace("iterations=1500", "iterations=30") if args.smoke and args.before else args.before
    diffs: list[float] = []
    for d in range(args.first, args.first + args.deals):
        seed, seat = args.seed * 1_000_003 + d, d % 5
        after = play(seed, seat, args.rounds, master, True)
        before = play(seed, seat, args.rounds, other, True) if other else play(seed, seat, args.rounds, master, False)
        diffs.append((sum(after) - sum(before)) / len(after))
        mean = statistics.fmean(diffs)
        half = t95(len(diffs) - 1) * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("inf")
        print(f"deal {d + 1:3d} seat {seat}: with the {'master' if other else 'exchange'} {after}, before {before}; "
              f"mean difference {mean:+.3f} points a round (95% {mean - half:+.3f} to {mean + half:+.3f})",
              flush=True)


if __name__ == "__main__":
    main()
