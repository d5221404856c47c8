"""Benchmark of the native President engine: random rounds and decisions per second.

    python bench/bench_engine.py [--seconds 2] [--runs 5] [--smoke]

Plays one-round matches (5 players, classic) with random agents through the
same `play_game` loop every caller uses, and prints the median of several runs.
"""
from __future__ import annotations

import argparse
import statistics

from timing import add_smoke_option, random_rounds, smoke

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), seconds=0.05, runs=1)
    runs = [random_rounds(args.seconds, seed) for seed in range(args.runs)]
    print(f"random full rounds per second (5 players, classic): {statistics.median(r for r, _ in runs):,.0f}")
    print(f"decisions per second:                               {statistics.median(d for _, d in runs):,.0f}")
    print(f"(median of {args.runs} runs of {args.seconds:g} s)")


if __name__ == "__main__":
    main()
