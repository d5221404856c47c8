"""Tides of Time's first-pick equilibrium: build the shipped table, and time the first pick.

    python bench/tides_equilibrium.py --build DIR [--workers 2]   # pair values (about 1 CPU hour), then solve
    python bench/tides_equilibrium.py --solve DIR                 # solve from DIR's pair values only
    python bench/tides_equilibrium.py --timing [--hands 20]       # first-pick times (table; exact report)

--build values every pair of hands that can meet (hand k against each disjoint
hand l > k: 5,513,508 pairs, each a 5 x 5 game of exact subgame values from
`first_pick.root_matrices`) into DIR, resumable (a file per 100 hands and
worker); --solve reads them into a `bayesian.PairGame`, runs predictive CFR+
until every hand's best-response gain is at most --tolerance, and writes
recycle/games/tides/first_pick_equilibrium.npz. Both print their figures.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recycle.games.tides.bayesian import PairGame, solve
from recycle.games.tides.equilibrium import TABLE, first_pick_mix, first_pick_report, strategy_table
from recycle.games.tides.first_pick import root_matrices, tables, tree
from recycle.games.tides.hands import HANDS_COUNT, hand_bits, hand_masks, opponents_of
from recycle.games.tides.state import TidesState

CHUNK = 100


def build_worker(worker: int, workers: int, out: Path) -> None:
    done: set[int] = set()
    for f in out.glob(f"w{worker}_*.npz"):
        with np.load(f) as data:
            done |= set(data["ks"].tolist())
    chunk = len(list(out.glob(f"w{worker}_*.npz")))
    rows: list = []
    started = time.perf_counter()

    def flush():
        nonlocal chunk, rows
        if rows:
            ks, ls, ms = zip(*rows)
            tmp = out / f"w{worker}_{chunk}.tmp.npz"
            np.savez(tmp, ks=np.array(ks, dtype=np.int32), counts=np.array([len(x) for x in ls], dtype=np.int32),
                     ls=np.concatenate(ls).astype(np.int32), M=np.concatenate(ms))
            os.replace(tmp, out / f"w{worker}_{chunk}.npz")
            chunk, rows = chunk + 1, []

    for k in range(worker, HANDS_COUNT, workers):
        if k in done:
            continue
        opp = opponents_of(k)
        opp = opp[opp > k]
        m = root_matrices(int(hand_masks()[k]), opponents=hand_bits()[opp]) if len(opp) else np.zeros((0, 5, 5))
        rows.append((k, opp, m.astype(np.float32)))
        if len(rows) >= CHUNK:
            flush()
            print(f"worker {worker}: hand {k:,} of {HANDS_COUNT:,}, {time.perf_counter() - started:.0f} s", flush=True)
    flush()


def load_pairs(out: Path) -> PairGame:
    ks, ls, ms, seen = [], [], [], set()
    for f in sorted(out.glob("w*_*.npz")):
        if f.name.endswith(".tmp.npz"):
            continue
        with np.load(f) as data:
            hands, counts = data["ks"], data["counts"]
            keep = np.array([int(k) not in seen for k in hands])  # a hand valued twice counts once
            seen.update(int(k) for k in hands)
            rows = np.repeat(keep, counts)
            ks.append(np.repeat(hands, counts)[rows])
            ls.append(data["ls"][rows])
            ms.append(data["M"][rows])
    k, l = np.concatenate(ks), np.concatenate(ls)
    game = PairGame.build(HANDS_COUNT, k, l, np.concatenate(ms))
    if len(k) != HANDS_COUNT * 1287 // 2 or (game.meets != 1287).any():
        raise SystemExit(f"{out}: {len(k):,} pairs, not every hand's 1,287 opponents (is the build finished?)")
    return game


def solve_table(out: Path, tolerance: float, max_iterations: int) -> None:
    started = time.perf_counter()
    game = load_pairs(out)
    print(f"{len(game.k):,} pairs loaded in {time.perf_counter() - started:.0f} s", flush=True)
    started = time.perf_counter()

    def progress(t: int, gain: float) -> None:
        print(f"iteration {t}: largest gain at a hand {gain:.2e}, {time.perf_counter() - started:.0f} s", flush=True)

    def keep(solution) -> None:  # every better table is written: a long solve can be stopped at any time
        np.savez_compressed(TABLE, strategy=solution.strategy)
        print(f"  written: exploitability {solution.exploitability:.2e}", flush=True)

    solution = solve(game, tolerance=tolerance, max_iterations=max_iterations, progress=progress, keep=keep)
    seconds = time.perf_counter() - started
    mixed = int(((solution.strategy > 0).sum(axis=1) > 1).sum())
    print(f"solved in {solution.iterations} iterations, {seconds:.0f} s: exploitability "
          f"{solution.exploitability:.2e} points a game (mean gain), largest gain at a hand "
          f"{solution.gains.max():.2e}; {mixed:,} of {HANDS_COUNT:,} hands mix; written to {TABLE}")


def timing(hands: int) -> None:
    t = time.perf_counter()
    tables(), tree(), strategy_table()
    print(f"setup once per process (tables, tree, equilibrium table): {time.perf_counter() - t:.2f} s")
    look, report, cpu = [], [], []
    for i in range(hands):
        hand = TidesState.new(10_000 + i).hands[0]
        t = time.perf_counter()
        first_pick_mix(hand)
        look.append(time.perf_counter() - t)
        t, c = time.perf_counter(), time.process_time()
        first_pick_report(hand)
        report.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(f"first pick over {hands} hands: the equilibrium mix (table) median {statistics.median(look) * 1e6:.0f} us; "
          f"with the exact report (values, best-response gain) median {statistics.median(report):.2f} s "
          f"(CPU {statistics.median(cpu):.2f} s), max {max(report):.2f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, metavar="DIR", help="value every pair of hands into DIR, then solve")
    ap.add_argument("--solve", type=Path, metavar="DIR", help="solve from DIR's pair values")
    ap.add_argument("--workers", type=int, default=1, help="processes for --build (default 1)")
    ap.add_argument("--tolerance", type=float, default=1e-4, help="largest gain at any hand (default 1e-4)")
    ap.add_argument("--iterations", type=int, default=3000, help="most CFR iterations (default 3000)")
    ap.add_argument("--timing", action="store_true", help="time the first pick")
    ap.add_argument("--hands", type=int, default=20, help="hands for --timing (default 20)")
    args = ap.parse_args()
    if args.build:
        args.build.mkdir(parents=True, exist_ok=True)
        procs = [multiprocessing.Process(target=build_worker, args=(w, args.workers, args.build))
                 for w in range(args.workers)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
    if args.build or args.solve:
        solve_table(args.build or args.solve, args.tolerance, args.iterations)
    if args.timing:
        timing(args.hands)
    if not (args.build or args.solve or args.timing):
        ap.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
