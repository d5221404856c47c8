"""How long `president play` takes to show the table (the aim: within 1 s of the command).

    python bench/bench_play_start.py [--runs 10] [--smoke]

Each run starts a fresh interpreter that runs `president play --seed 1`
exactly as the command does, except that the Textual app runs headless (an
80x24 screen, no terminal needed); the clock runs from starting the process
to the first screen drawn with the table on it (the hand, the seats). Prints
the median, minimum and maximum wall clock, and `python -c pass` as the floor.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from timing import add_smoke_option, smoke

CHILD = """
import asyncio
from president.cli.commands import play
import tui.president.app

def headless(self):  # the app's own class (its CSS is found beside it), run without a terminal
    async def first_screen():
        async with self.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            print("table shown" if self.screen.query("#hand") else type(self.screen).__name__, flush=True)
    asyncio.run(first_screen())

play.has_terminal = lambda: True
tui.president.app.PresidentApp.run = headless
from president.cli import main
main(["play", "--seed", "1"])
"""


def seconds(code: str, marker: str | None) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    if marker:
        for line in proc.stdout:
            if marker in line:
                break
        else:
            raise SystemExit("the app never showed the table")
        elapsed = time.perf_counter() - start
    proc.wait()
    return elapsed if marker else time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), runs=1)
    floor, table = [], []
    for _ in range(args.runs):  # alternating, so a drifting load hits both alike
        floor.append(seconds("pass", None))
        table.append(seconds(CHILD, "table shown"))
    for name, values in (("python -c pass", floor), ("president play: table shown", table)):
        print(f"{name:<30} median {statistics.median(values):.3f} s (min {min(values):.3f}, "
              f"max {max(values):.3f}) over {args.runs} runs")


if __name__ == "__main__":
    main()
