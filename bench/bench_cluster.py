"""Benchmark of `--cluster`: a tournament on a local Dask cluster against the same one at -j2.

    python bench/bench_cluster.py [--rounds 10000] [--runs 3] [--address tcp://HOST:8786] [--smoke]

Plays the same 10,000-round tournament of five rule personalities with `-j2`
(this process and one worker) and with `--cluster local:2` (a Dask scheduler
and two worker processes), alternating, each in a fresh process, and prints
rounds per second over the whole run (start-up included) and after the first
20% of games (what a long tournament sees), with the cluster's overhead.
`--address` also measures a cluster that is already running (two workers
started by hand, as docs/cluster.md shows), which pays no start-up.
"""
from __future__ import annotations

import argparse
import os
import statistics

from timing import add_smoke_option, fresh_tournament_speed, smoke


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds per run (default 10000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--address", help="also a running scheduler with two one-thread workers")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), rounds=100, runs=1)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    clusters = ["local:2"] + ([args.address] if args.address else [])
    runs: dict[str, list[tuple[float, float, float]]] = {"-j2": [], **{f"--cluster {c}": [] for c in clusters}}
    for seed in range(args.runs):  # alternating, so a drifting load hits every one alike
        runs["-j2"].append(fresh_tournament_speed(args.rounds, 2, seed))
        for c in clusters:
            runs[f"--cluster {c}"].append(fresh_tournament_speed(args.rounds, 2, seed, c))
    for name, figures in runs.items():
        print(f"{name:<18} {statistics.median(r[0] for r in figures):8,.0f} rounds/s whole run, "
              f"{statistics.median(r[1] for r in figures):8,.0f} after the first 20%, first game after "
              f"{statistics.median(r[2] for r in figures):.2f} s (median of {args.runs} runs of {args.rounds:,} rounds)")
    for c in clusters:
        for i, what in ((0, "whole run"), (1, "after the first 20%")):
            ratios = [b[i] / a[i] for a, b in zip(runs["-j2"], runs[f"--cluster {c}"])]
            print(f"--cluster {c} / -j2, {what}: {statistics.median(ratios):.2f} (overhead "
                  f"{100 * (1 - statistics.median(ratios)):.0f}%; per run: {', '.join(f'{r:.2f}' for r in ratios)})")


if __name__ == "__main__":
    main()
