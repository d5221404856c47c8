"""Benchmark of the search players: ISMCTS and PIMC iterations per second, 5-player President.

    python bench/bench_search.py [--runs 3] [--iterations 300] [--positions 24]
    python bench/bench_search.py --against ../old-checkout [--runs 5]

Positions are decision points (more than one legal action, hidden cards not
yet deducible) sampled evenly from seeded rounds of random play, so they
cover a round from the first lead to the last tricks; each iteration rolls
out to the end of the round (the search horizon). One run searches every
position once; the figure is total iterations over total time, and the
median of the runs is printed. Rates are per second of this process's CPU
time, so that other work on a shared machine does not distort them. The first lead of a round, where rollouts are
longest, is also reported alone.

`--against TREE` compares with another checkout (the code before a change):
each run is a fresh process, alternating between the two trees (A B, B A,
...), so a machine that gets busier or quieter favours neither.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from president.agents.bots import make_bot
from timing import add_smoke_option, smoke
from president.game.settings import preset
from president.game.state import PresidentState

HERE = Path(__file__).resolve().parents[1]


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


def cases(args: argparse.Namespace) -> list[tuple[str, str, list[PresidentState], str]]:
    """(label, agent spec, positions, unit) of every figure the benchmark reports."""
    points, leads = decision_points(args.positions), first_leads(max(2, args.positions // 6))
    return [(f"ISMCTS, {len(points)} positions across rounds", f"ismcts:iterations={args.iterations}", points,
             "iterations"),
            (f"ISMCTS, {len(leads)} first leads of a round", f"ismcts:iterations={args.iterations}", leads,
             "iterations"),
            (f"PIMC, {len(points)} positions (1 it = all actions)", f"pimc:samples={args.samples}", points,
             "iterations")]


def report(label: str, spec: str, states: list[PresidentState], runs: int, unit: str) -> None:
    results = [rate(spec, states, seed) for seed in range(runs)]
    its = statistics.median(r for r, _ in results)
    calls = statistics.median(c for _, c in results)
    print(f"{label:<46} {its:>9,.0f} {unit}/s   ({calls:,.0f} forward-model calls/s)")


def compare(args: argparse.Namespace) -> None:
    """Interleaved A/B runs of this benchmark on this tree and on `args.against`."""
    trees = {"this tree": HERE, "against": Path(args.against).resolve()}
    rates: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    for run in range(args.runs):
        order = list(trees) if run % 2 == 0 else list(trees)[::-1]
        for name in order:
            env = dict(os.environ, PYTHONPATH=str(trees[name]))
            command = [sys.executable, __file__, "--runs", "1", "--seed", str(run), "--emit-json",
                       "--iterations", str(args.iterations), "--samples", str(args.samples),
                       "--positions", str(args.positions)]
            out = subprocess.run(command, env=env, cwd=trees[name], capture_output=True, text=True, check=True)
            for label, value in json.loads(out.stdout).items():
                rates[name].setdefault(label, []).append(value)
    print(f"{'':<46} {'this tree':>10} {'against':>10}  ratio   (median of {args.runs} interleaved runs)")
    for label in rates["this tree"]:
        mine, theirs = statistics.median(rates["this tree"][label]), statistics.median(rates["against"][label])
        print(f"{label:<46} {mine:>10,.0f} {theirs:>10,.0f}  {mine / theirs:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations per decision")
    parser.add_argument("--samples", type=int, default=20, help="PIMC samples per decision")
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--against", metavar="TREE", help="another checkout to compare with, run by run")
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)  # one run, for --against
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), runs=1, iterations=10, samples=2, positions=2)
    if args.against:
        compare(args)
        return
    if args.emit_json:
        print(json.dumps({label: rate(spec, states, args.seed)[0] for label, spec, states, _ in cases(args)}))
        return
    for label, spec, states, unit in cases(args):
        report(label, spec, states, args.runs, unit)
    print(f"(median of {args.runs} runs, per CPU second; random rollouts to the end of the round)")


if __name__ == "__main__":
    main()
