"""Benchmark of the native President engine: random rounds and decisions per second.

    python bench/bench_engine.py [--seconds 2] [--runs 5]

Plays one-round matches (5 players, classic) with random agents through the
same `play_game` loop every caller uses, and prints the median of several runs.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time

from president.settings import preset
from president.state import PresidentState
from recycle.kernel.protocol import RandomAgent, play_game

ONE_ROUND = dataclasses.replace(preset("classic"), rounds=1)  # 5 players, classic, one-round matches


def rounds_per_second(agents: list, seconds: float, seed: int) -> tuple[float, float]:
    """Full one-round matches (5 players, classic) for `seconds`: (rounds/s, decisions/s)."""
    rng = random.Random(seed)
    rounds = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = PresidentState.new_match(ONE_ROUND, seed * 1_000_003 + rounds)
        play_game(state, agents, rng)
        rounds += 1
        decisions += len(state.history)
    return rounds / elapsed, decisions / elapsed


def one_run(seconds: float, seed: int) -> tuple[float, float]:
    return rounds_per_second([RandomAgent()] * 5, seconds, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = [one_run(args.seconds, seed) for seed in range(args.runs)]
    print(f"random full rounds per second (5 players, classic): {statistics.median(r for r, _ in runs):,.0f}")
    print(f"decisions per second:                               {statistics.median(d for _, d in runs):,.0f}")
    print(f"(median of {args.runs} runs of {args.seconds:g} s)")


if __name__ == "__main__":
    main()
