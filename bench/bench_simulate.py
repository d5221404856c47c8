"""`president simulate` rounds per second through the command, against a copy of the code from
before a change, alternating in the same minutes.

    python bench/bench_simulate.py [--players random] [--rounds 2000] [--runs 5] [--against DIR] [--smoke]

Each run is a whole `president simulate` process (start-up included, as in
bench/peers.py: matches of 10 rounds, so exchanges are played). With
`--against DIR` (the packages as they were, e.g. copied to /tmp/before),
every run of the tree is followed by one with `PYTHONPATH=DIR`, and the
ratio of each pair is printed: a drifting load hits both alike.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from timing import add_smoke_option, smoke, with_bytecode

ROOT = Path(__file__).resolve().parents[1]


def simulate_rate(players: str, rounds: int, path: str) -> tuple[float, float]:
    """Rounds per second of one whole `president simulate` run: (per wall-clock second, per CPU second).

    On a loaded machine the wall clock mostly measures the wait for a core; CPU time is steadier."""
    matches = max(1, rounds // 10)
    argv = [sys.executable, "-m", "president.cli.main", "simulate", "--players", players, "--matches", str(matches),
            "--rounds", "10", "--seed", "1", "--json", os.devnull]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd="/", env=dict(os.environ, PYTHONPATH=path))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return matches * 10 / wall, matches * 10 / cpu


def spread(values: list[float], fmt: str = ",.0f") -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}} .. {max(values):{fmt}})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="random")
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per run (matches of 10 rounds)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", metavar="DIR", help="packages from before a change, run alternately")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), rounds=10, runs=1)
    with_bytecode(ROOT, *([args.against] if args.against else []))
    tree, before = [], []
    for _ in range(args.runs):
        tree.append(simulate_rate(args.players, args.rounds, str(ROOT)))
        if args.against:
            before.append(simulate_rate(args.players, args.rounds, args.against))
    print(f"president simulate --players {args.players}: rounds/s, median (min .. max) of {args.runs} runs; "
          f"load average {os.getloadavg()[0]:.1f}")
    for clock, i in (("wall clock", 0), ("CPU time", 1)):
        print(f" per second of {clock}")
        print(f"  tree    {spread([t[i] for t in tree])}")
        if args.against:
            print(f"  before  {spread([b[i] for b in before])}")
            print(f"  ratio   {spread([t[i] / b[i] for t, b in zip(tree, before)], '.2f')}")


if __name__ == "__main__":
    main()
