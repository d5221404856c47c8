"""Benchmark of the search players: ISMCTS and PIMC iterations per second, 5-player President.

    python bench/bench_search.py [--runs 3] [--iterations 300] [--positions 24]

Positions are decision points (more than one legal action, hidden cards not
yet deducible) sampled evenly from seeded rounds of random play, so they
cover a round from the first lead to the last tricks; each iteration rolls
out to the end of the round (the search horizon). One run searches every
position once; the figure is total iterations over total time, and the
median of the runs is printed. Rates are per second of this process's CPU
time, so that other work on a shared machine does not distort them. The first lead of a round, where rollouts are
longest, is also reported alone.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time

from president.bots import make_bot
from president.settings import preset
from president.state import PresidentState


def decision_points(count: int, seed: int = 2024) -> list[PresidentState]:
    settings = dataclasses.replace(preset("classic"), rounds=1)
    rng = random.Random(seed)
    found: list[PresidentState] = []
    for game in range(1000):
        state = PresidentState.new_match(settings, seed + game)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and not state.hidden_is_determined(state.current_player()):
                found.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])
        if len(found) >= 4 * count:
            break
    step = len(found) / count
    return [found[int(i * step)] for i in range(count)]


def first_leads(count: int) -> list[PresidentState]:
    settings = dataclasses.replace(preset("classic"), rounds=1)
    return [PresidentState.new_match(settings, 7 + i) for i in range(count)]


def rate(spec: str, states: list[PresidentState], seed: int) -> tuple[float, float]:
    """(iterations per second, forward-model calls per second) over `states`."""
    agent = make_bot(spec)
    rng = random.Random(seed)
    iterations = calls = 0
    start = time.process_time()  # CPU time: the machine is shared, wall time is noisy
    for state in states:
        p = state.current_player()
        trace = agent.explain(state.observation(p), state.legal_actions(), rng).trace
        iterations += trace.iterations
        calls += trace.calls
    elapsed = time.process_time() - start
    return iterations / elapsed, calls / elapsed


def report(label: str, spec: str, states: list[PresidentState], runs: int, unit: str) -> None:
    results = [rate(spec, states, seed) for seed in range(runs)]
    its = statistics.median(r for r, _ in results)
    calls = statistics.median(c for _, c in results)
    print(f"{label:<46} {its:>9,.0f} {unit}/s   ({calls:,.0f} forward-model calls/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations per decision")
    parser.add_argument("--samples", type=int, default=20, help="PIMC samples per decision")
    parser.add_argument("--positions", type=int, default=24)
    args = parser.parse_args()
    points, leads = decision_points(args.positions), first_leads(max(2, args.positions // 6))
    report(f"ISMCTS, {len(points)} positions across rounds", f"ismcts:iterations={args.iterations}",
           points, args.runs, "iterations")
    report(f"ISMCTS, {len(leads)} first leads of a round", f"ismcts:iterations={args.iterations}",
           leads, args.runs, "iterations")
    report(f"PIMC, {len(points)} positions (1 it = all actions)", f"pimc:samples={args.samples}",
           points, args.runs, "iterations")
    print(f"(median of {args.runs} runs, per CPU second; random rollouts to the end of the round)")


if __name__ == "__main__":
    main()
