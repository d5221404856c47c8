"""Tides of Time's first-pick equilibrium of the round: build the shipped table, and time the first pick.

    python bench/tides_equilibrium.py --build DIR [--workers 2]   # pair values (about 1 CPU hour), then solve
    python bench/tides_equilibrium.py --solve DIR                 # solve from DIR's pair values only
    python bench/tides_equilibrium.py --write DIR                 # the table from a stopped solve's strategy
    python bench/tides_equilibrium.py --timing [--hands 20]       # first-pick times (look-up; exact report)

--build values every pair of hands that can meet (hand k against each disjoint
hand l > k: 5,513,508 pairs, each a 5 x 5 game of exact subgame values from
`first_pick.root_matrices`, stored as float32) into DIR, resumable (a file per
100 hands and worker). --solve reads them into a `bayesian.SymmetricGame`,
runs predictive CFR+ until every hand's best-response gain is at most
--tolerance (or --iterations), quantizes the mixes to 1/65,535ths, measures
the quantized table's exploitability exactly (float64 sums over the pair
values) and writes recycle/games/tides/first_pick_equilibrium.npz.
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

from recycle.games.tides.bayesian import SymmetricGame, solve_symmetric, type_gains
from recycle.games.tides.hands import HANDS_COUNT, OPPONENT_HANDS, hand_bits, hand_masks, opponents_of
from recycle.games.tides.round_equilibrium import TABLE, first_pick_mix, from_quantized, hand_report, quantized
from timing import add_smoke_option, smoke

CHUNK = 100
OUTPUT = Path(__file__).resolve().parent.parent / "recycle" / "games" / "tides" / TABLE


def build_worker(worker: int, workers: int, out: Path) -> None:
    from recycle.games.tides.first_pick import root_matrices

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


def load_game(out: Path) -> SymmetricGame:
    """DIR's pairs as a `SymmetricGame`: each hand's 1,287 opponents in hand-number order (`opponents_of`),
    the pair (k, l) stored once and read from l's side as -M.T."""
    opponents = np.stack([opponents_of(k) for k in range(HANDS_COUNT)])
    keys = (np.arange(HANDS_COUNT)[:, None] * HANDS_COUNT + opponents).ravel()  # ascending

    def slot(k, l):
        return np.searchsorted(keys, k * HANDS_COUNT + l) - k * OPPONENT_HANDS

    payoff = np.full((HANDS_COUNT, 5, OPPONENT_HANDS, 5), np.nan, dtype=np.float32)
    seen: set[int] = set()
    for f in sorted(out.glob("w*_*.npz")):
        if f.name.endswith(".tmp.npz"):
            continue
        with np.load(f) as data:
            hands, counts = data["ks"], data["counts"]
            keep = np.array([int(k) not in seen for k in hands])  # a hand valued twice counts once
            seen.update(int(k) for k in hands)
            rows = np.repeat(keep, counts)
            k, l, m = np.repeat(hands, counts)[rows].astype(np.int64), data["ls"][rows].astype(np.int64), data["M"][rows]
        payoff[k, :, slot(k, l), :] = m
        payoff[l, :, slot(l, k), :] = -m.transpose(0, 2, 1)
    if np.isnan(payoff).any():
        raise SystemExit(f"{out}: not every hand's 1,287 opponents are valued (is the build finished?)")
    return SymmetricGame(opponents, payoff.reshape(HANDS_COUNT, 5, OPPONENT_HANDS * 5))


def solve_table(out: Path, tolerance: float, max_iterations: int) -> None:
    started = time.perf_counter()
    game = load_game(out)
    print(f"{HANDS_COUNT * OPPONENT_HANDS // 2:,} pairs loaded in {time.perf_counter() - started:.0f} s", flush=True)
    started, cpu = time.perf_counter(), time.process_time()

    def progress(t: int, gains) -> None:
        print(f"iteration {t}: gain at a hand largest {gains.max():.2e}, mean (exploitability) {gains.mean():.2e}; "
              f"{time.perf_counter() - started:.0f} s", flush=True)

    def keep(solution) -> None:  # every better strategy is saved: a long solve can be stopped (then --write)
        np.savez(out / "strategy.tmp.npz", strategy=solution.strategy, iterations=solution.iterations)
        os.replace(out / "strategy.tmp.npz", out / "strategy.npz")

    solution = solve_symmetric(game, tolerance=tolerance, max_iterations=max_iterations, progress=progress, keep=keep)
    print(f"solved: {solution.iterations} iterations, {time.process_time() - cpu:.0f} s CPU "
          f"({time.perf_counter() - started:.0f} s wall)")
    write(game, solution.strategy, solution.iterations)


def write_saved(out: Path) -> None:
    """The table from the last strategy a solve saved in `out`."""
    game = load_game(out)
    with np.load(out / "strategy.npz") as data:
        write(game, data["strategy"], int(data["iterations"]))


def write(game: SymmetricGame, strategy: np.ndarray, iterations: int) -> None:
    q = quantized(strategy)
    gains = type_gains(game, from_quantized(q))  # the table as shipped, measured
    np.savez_compressed(OUTPUT, strategy=q, exploitability=gains.mean(), largest_gain=gains.max(),
                        iterations=iterations)
    mixed = int(((q > 0).sum(axis=1) > 1).sum())
    print(f"  written {OUTPUT.name} ({OUTPUT.stat().st_size:,} bytes): exploitability {gains.mean():.2e} points a "
          f"game, largest gain at a hand {gains.max():.2e}; {mixed:,} of {HANDS_COUNT:,} hands mix", flush=True)
    print(f"  unquantized: exploitability {type_gains(game, strategy).mean():.2e}", flush=True)


def timing(hands: int) -> None:
    from recycle.games.tides.round_equilibrium import strategy_table
    from recycle.games.tides.state import TidesState

    t = time.perf_counter()
    strategy_table(), opponents_of(0)
    print(f"table loaded once per process: {time.perf_counter() - t:.3f} s")
    look, report, cpu = [], [], []
    for i in range(hands):
        hand = TidesState.new(10_000 + i).hands[0]
        t = time.perf_counter()
        first_pick_mix(hand)
        look.append(time.perf_counter() - t)
        t, c = time.perf_counter(), time.process_time()
        hand_report(hand)
        report.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(f"first pick over {hands} hands: the equilibrium mix (look-up) median {statistics.median(look) * 1e6:.0f} us, "
          f"max {max(look) * 1e6:.0f} us; the exact report (explain: values, gain) median {statistics.median(report):.2f} s "
          f"(CPU {statistics.median(cpu):.2f} s), max {max(report):.2f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, metavar="DIR", help="value every pair of hands into DIR, then solve")
    ap.add_argument("--solve", type=Path, metavar="DIR", help="solve from DIR's pair values")
    ap.add_argument("--write", type=Path, metavar="DIR", help="write the table from the strategy a stopped "
                                                              "solve saved in DIR")
    ap.add_argument("--workers", type=int, default=1, help="processes for --build (default 1)")
    ap.add_argument("--tolerance", type=float, default=1e-4, help="largest gain at any hand (default 1e-4)")
    ap.add_argument("--iterations", type=int, default=3000, help="most CFR iterations (default 3000)")
    ap.add_argument("--timing", action="store_true", help="time the first pick")
    ap.add_argument("--hands", type=int, default=20, help="hands for --timing (default 20)")
    add_smoke_option(ap)
    args = smoke(ap.parse_args(), timing=True, hands=2, build=None, solve=None, write=None)  # two hands' first-pick times
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
    if args.write:
        write_saved(args.write)
    if args.timing:
        timing(args.hands)
    if not (args.build or args.solve or args.write or args.timing):
        ap.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
