"""Tides of Time strength table: duplicate deals with the seats swapped, 95% intervals.

    python bench/tides_strength.py [--deals-scale 1.0] [--json tides_strength.json]

Every deal is played twice on the native round, bot A in seat 0 then in
seat 1 (the same two hands, so luck of the deal cancels out). Per matchup:
A's mean margin per game (its score minus B's) and A's win rate (a tie counts
one half), each with a 95% interval from `recycle.tournament.stats.ClusterSum`
clustered by deal (the two games of a deal are not independent).

ISMCTS at one second per move would measure the load of this shared 2-core
machine as much as the player, so it plays with an iteration budget:
`ISMCTS_ITERATIONS`, about what `ismcts:time=1` ran per decision of one game on
this machine (5,900 to 27,600 over the eight real decisions, median 11,400;
`--measure` prints them).
Also printed: the first-pick time of tides-solver (a look-up in the round's equilibrium table; its
`explain` also values the hand: one batch of 1,287 subgame trees), of its previous first pick
(`tides-solver:first=one-sided`: the batch, then the one-sided Bayesian game's solve), of the one
before (`first=mean`) and of tides-seed (cold, per hand; wall clock and CPU time, as the machine is
shared), and positions solved per second (`--speed`: only those; `--no-speed`: the table only).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recycle.games.tides.equilibrium import first_pick_report
from recycle.games.tides.first_pick import hand_games, seed_first_pick, solver_first_pick, tables, tree
from recycle.games.tides.round_equilibrium import first_pick_mix, hand_report, strategy_table
from recycle.games.tides.state import TidesState, random_hands
from recycle.kernel.protocol import play_game
from recycle.players import make_agent
from recycle.tournament.stats import ClusterSum
from timing import add_smoke_option, smoke

ISMCTS_ITERATIONS = 10_000
#: (bot A, bot B, deals): each deal is two games.
PREVIOUS = "tides-solver:first=one-sided"  # the solver with its previous first pick (one-sided game)
MEAN = "tides-solver:first=mean"  # the one before: the best mean as if both hands were known
MATCHUPS = [
    ("tides-solver", "random", 200),
    ("tides-solver", "tides-seed", 200),
    ("tides-solver", f"ismcts:iterations={ISMCTS_ITERATIONS}", 30),
    ("tides-seed", "random", 300),
    (PREVIOUS, "tides-seed", 200),
    ("tides-solver", PREVIOUS, 400),
    (MEAN, "tides-seed", 200),
]


def play_matchup(a: str, b: str, deals: int) -> dict:
    margin, wins = ClusterSum(), ClusterSum()
    agents = {a: make_agent(a), b: make_agent(b)} if a != b else {a: make_agent(a)}
    started = time.perf_counter()
    for i in range(deals):
        hands = random_hands(random.Random(f"tides-strength/{i}"))
        total, won = 0.0, 0.0
        for a_seat in (0, 1):
            seats = [agents[a], agents[b]] if a_seat == 0 else [agents[b], agents[a]]
            result = play_game(TidesState.new(hands=hands), seats, random.Random(f"tides-strength/{i}/{a_seat}"))
            mine, theirs = result.scores[a_seat], result.scores[1 - a_seat]
            total += mine - theirs
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        margin.add(total, 2)
        wins.add(won, 2, sq=won)  # per game 1 / 0.5 / 0
    return {"a": a, "b": b, "deals": deals, "games": 2 * deals, "margin": margin.mean,
            "margin_ci": margin.mean_ci(), "win_rate": wins.mean, "win_ci": wins.rate_ci(),
            "seconds": round(time.perf_counter() - started, 1)}


def first_pick_times(hands: int = 20) -> dict:
    tables(), tree(), strategy_table()  # one-time setup, reported apart
    out = {}
    for name, fn in (("tides-solver", first_pick_mix), ("tides-solver explain", hand_report),
                     (PREVIOUS, first_pick_report), (MEAN, solver_first_pick), ("tides-seed", seed_first_pick)):
        times, cpu = [], []
        for i in range(hands):
            hand = TidesState.new(10_000 + i).hands[0]
            for cached in (hand_report, first_pick_report, hand_games, solver_first_pick, seed_first_pick):
                cached.cache_clear()
            t, c = time.perf_counter(), time.process_time()
            fn(hand)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        out[name] = {"median_s": statistics.median(times), "max_s": max(times), "cpu_median_s": statistics.median(cpu)}
    return out


def positions_per_second(deals: int = 20) -> dict:
    """Positions per CPU second: the first pick's batch (positions x opponent hands), and the exact
    recursion from the first swap on (a fresh cache per deal, every position of the rest of the round)."""
    from recycle.games.tides.agents import first_pick_positions
    from recycle.games.tides.solver import Values

    hand = TidesState.new(10_000).hands[0]
    solver_first_pick.cache_clear(), hand_games.cache_clear()
    c = time.process_time()
    _, hands = solver_first_pick(hand)
    batch = hands * first_pick_positions() / (time.process_time() - c)
    solved, seconds = 0, 0.0
    for i in range(deals):
        s = TidesState.new(20_000 + i)
        s.apply(s.legal_actions()[0])
        s.apply(s.legal_actions()[0])
        values = Values()
        c = time.process_time()
        values.value(s.kingdoms[0], s.kingdoms[1], s.hands[0], s.hands[1])
        seconds += time.process_time() - c
        solved += values.positions
    return {"first_pick_batch": batch, "after_swap": solved / seconds, "after_swap_positions": solved / deals}


def measure_ismcts() -> list[int]:
    agent = make_agent("ismcts:time=1")
    state, its = TidesState.new(5), []
    while not state.is_terminal():
        p = state.current_player()
        d = agent.explain(state.observation(p), state.legal_actions(), random.Random(1))
        if d.trace.iterations:
            its.append(d.trace.iterations)
        state.apply(d.action)
    return its


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals-scale", type=float, default=1.0, help="multiply every matchup's deals (default 1)")
    ap.add_argument("--json", default=None, help="also write the figures as JSON")
    ap.add_argument("--measure", action="store_true", help="only print ismcts:time=1 iterations per decision")
    ap.add_argument("--speed", action="store_true", help="only print first-pick times and positions per second")
    ap.add_argument("--no-speed", action="store_true", help="skip the first-pick times and positions per second")
    ap.add_argument("--only", type=int, nargs="*", default=None, metavar="K",
                    help="play only these matchups (0-based rows of MATCHUPS)")
    add_smoke_option(ap)
    args = smoke(ap.parse_args(), only=[3], deals_scale=0.0)  # two deals of tides-seed against random
    if args.measure:
        its = measure_ismcts()
        print(f"ismcts:time=1 iterations per decision: {its} (median {statistics.median(its):.0f})")
        return 0
    t = time.perf_counter()
    tables(), tree(), strategy_table()
    setup = time.perf_counter() - t
    picks: dict = {}
    if not (args.smoke or args.no_speed):  # the smoke run checks the table only
        picks = first_pick_times()
        print(f"first pick (cold, 20 hands; setup {setup:.2f} s once per process): "
              + "; ".join(f"{k} median {v['median_s']:.4f} s (CPU {v['cpu_median_s']:.4f} s), max {v['max_s']:.4f} s"
                          for k, v in picks.items()))
        speed = positions_per_second()
        print(f"positions per CPU second: first-pick batch {speed['first_pick_batch']:,.0f} (position x opponent hand); "
              f"exact recursion after the first swap {speed['after_swap']:,.0f} "
              f"({speed['after_swap_positions']:,.0f} positions per round)")
    if args.speed:
        return 0
    rows = []
    print("| A | B | deals (games) | A's margin per game [95% CI] | A's win rate [95% CI] | seconds |")
    print("|---|---|---|---|---|---|")
    for k, (a, b, deals) in enumerate(MATCHUPS):
        if args.only is not None and k not in args.only:
            continue
        r = play_matchup(a, b, max(2, round(deals * args.deals_scale)))
        rows.append(r)
        lo, hi = r["margin_ci"]
        wlo, whi = r["win_ci"]
        print(f"| {a} | {b} | {r['deals']} ({r['games']}) | {r['margin']:+.2f} [{lo:+.2f}, {hi:+.2f}] | "
              f"{r['win_rate']:.3f} [{wlo:.3f}, {whi:.3f}] | {r['seconds']:.0f} |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"first_pick": picks, "setup_s": setup, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
