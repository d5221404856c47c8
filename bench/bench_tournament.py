"""Benchmark of `president tournament`: rounds per second at -j1 and -j2, and peak memory.

    python bench/bench_tournament.py [--rounds 10000] [--memory-rounds 100000] [--runs 3]

Speed: a 5-personality tournament (Classic, Cautious, Aggressive, Gambler,
Counter; matches of 10 rounds) through the library, each run in a fresh
process as a user's command would be (imports, worker start-up and cold
caches included); the median of several runs. Memory: whole `president tournament` runs in a
child process (random bots, so 100,000 rounds take under a minute), reporting
getrusage ru_maxrss of the tournament process and of its worker, and
the peak of their summed RSS sampled from /proc every 50 ms. A small and a
large run show whether memory grows with the number of games. (Linux carries
a parent's RSS high-water mark into a forked child across exec, so the memory
runs go first, while this process is still small.)
Prints the load average first: on a shared machine, measure when it is quiet.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import ROUNDS_PER_MATCH, add_smoke_option, fresh_tournament_speed, smoke


MEASURE = """
import resource, sys
from president.cli.main import main
code = main(sys.argv[1:])
self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("RSS", self_kb, child_kb, code)
"""


def tree_rss_kb(pid: int) -> int:
    """Summed VmRSS of a process and all its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += int(next(l.split()[1] for l in status.splitlines() if l.startswith("VmRSS")))
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, StopIteration):
            pass  # the process ended meanwhile
    return total


def memory(rounds: int, jobs: int) -> tuple[float, float, float, float]:
    """(parent MB, largest worker MB, peak summed MB, seconds) of one CLI run of random bots."""
    deals = max(1, rounds // (5 * ROUNDS_PER_MATCH))
    with tempfile.TemporaryDirectory() as tmp:
        argv = ["tournament", "random", "random", "random", "random", "random", "--matches", str(deals),
                "--rounds", str(ROUNDS_PER_MATCH), "--seed", "1", "-j", str(jobs),
                "--out", str(Path(tmp) / "m.jsonl"), "--json", str(Path(tmp) / "m.json")]
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", MEASURE, *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, tree_rss_kb(proc.pid))
            time.sleep(0.05)
        elapsed = time.perf_counter() - start
        out = proc.stdout.read()
        played = json.loads((Path(tmp) / "m.json").read_text())["rounds"]
    assert played == deals * 5 * ROUNDS_PER_MATCH, played
    line = next(l for l in out.splitlines() if l.startswith("RSS"))
    _, self_kb, child_kb, _ = line.split()
    return int(self_kb) / 1024, int(child_kb) / 1024, peak / 1024, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds per speed run (default 10000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memory-rounds", type=int, default=100_000, help="rounds of the long run (default 100000)")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), rounds=30, runs=1, memory_rounds=300)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    for rounds in (max(1000, args.memory_rounds // 10), args.memory_rounds):
        parent, worker, peak, seconds = memory(rounds, 2)
        print(f"{rounds:,} rounds (random bots, -j2, {seconds:.0f} s): ru_maxrss parent {parent:.0f} MB + "
              f"its worker {worker:.0f} MB = {parent + worker:.0f} MB (-j2: this process and one worker); "
              f"sampled peak of the summed RSS {peak:.0f} MB")
    runs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
    for seed in range(args.runs):  # -j1 and -j2 alternate, so a drifting load hits both alike
        for jobs in (1, 2):
            runs[jobs].append(fresh_tournament_speed(args.rounds, jobs, seed))
    for jobs in (1, 2):
        whole, steady = [r[0] for r in runs[jobs]], [r[1] for r in runs[jobs]]
        print(f"-j{jobs}: {statistics.median(whole):,.0f} rounds/s whole run, {statistics.median(steady):,.0f} "
              f"after the first 20% (5 personalities, {ROUNDS_PER_MATCH}-round matches; median of {args.runs} runs "
              f"of {args.rounds} rounds: {', '.join(f'{r:,.0f}' for r in whole)}; first game after "
              f"{statistics.median(r[2] for r in runs[jobs]):.2f} s)")
    for i, name in ((0, "whole run"), (1, "after the first 20%")):
        ratios = [two[i] / one[i] for one, two in zip(runs[1], runs[2])]
        print(f"speed-up -j2 / -j1, {name}: {statistics.median(ratios):.2f}x "
              f"(per run: {', '.join(f'{r:.2f}' for r in ratios)})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
