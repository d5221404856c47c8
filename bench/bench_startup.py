"""Start-up time of `president --help` and `recycle --help` (the aim: under 0.15 s), wall clock.

    python bench/bench_startup.py [--runs 20] [--against DIR] [--smoke]

Each run starts a fresh interpreter, as a user's command does. With
`--against DIR` (a copy of the packages from before a change), the same
commands run alternately with `PYTHONPATH=DIR`, so a drifting load hits
both alike, and the ratio is printed; `python -c pass` is the floor.
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

from timing import add_smoke_option, smoke

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {"python -c pass": ["-c", "pass"], "president --help": ["-m", "president.cli.main", "--help"],
            "recycle --help": ["-m", "recycle.cli.main", "--help"]}


def seconds(argv: list[str], path: str | None) -> tuple[float, float]:
    """(wall clock, CPU time) of one fresh process: on a loaded machine the wall clock is mostly
    waiting for a core, the CPU time is what the command costs."""
    env = dict(os.environ, PYTHONPATH=path) if path else os.environ
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], check=True, stdout=subprocess.DEVNULL, env=env, cwd="/")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--against", metavar="DIR", help="packages from before a change, run alternately")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), runs=1)
    variants = {"tree": str(ROOT)} | ({"before": args.against} if args.against else {})
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.runs):
        for name, argv in COMMANDS.items():
            for variant, path in variants.items():
                times.setdefault((name, variant), []).append(seconds(argv, path))
    print(f"median (min) of {args.runs} runs, wall clock / CPU seconds; load average {os.getloadavg()[0]:.1f}")
    for name in COMMANDS:
        line = f"  {name:18}"
        for variant in variants if name != "python -c pass" else ["tree"]:
            walls, cpus = zip(*times[(name, variant)])
            line += (f"  {variant} {statistics.median(walls):.3f} ({min(walls):.3f}) wall"
                     f" {statistics.median(cpus):.3f} cpu")
        if args.against and name != "python -c pass":
            ratios = [b[0] / t[0] for b, t in zip(times[(name, "before")], times[(name, "tree")])]
            line += f"   before/tree {statistics.median(ratios):.1f}x"
        print(line)


if __name__ == "__main__":
    main()
