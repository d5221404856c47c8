"""Benchmark of the `.rul` reader on big files: CPU seconds to check them, fast line reader
against the grammar alone.

    python bench/bench_rul_reader.py [--lines 10000] [--runs 5] [--smoke]

Files (generated, seeded): N lines of well-formed rules with 0 to 4 conditions, and N/2
lines each naming two unknown variables (the "did you mean" search). Each is checked with
`check_text` as shipped, and again with the fast line reader switched off (every line
through the pyparsing grammar: the reader before the fast path), runs interleaved; the
median of the runs is printed with the ratio.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import time

from timing import add_smoke_option, smoke

from personalities import grammar
from personalities.reader import check_text

CONDITIONS = ["CardVal < Q", "Lead = 1", "TotMyTwos > 2", "NumThisVal >= 2", "CardVal > 9", "Random < 50"]
NEVER = re.compile(r"(?!)")  # matches nothing: every line goes through the grammar


def rules_file(lines: int, rng: random.Random) -> str:
    return "; big\n" + "".join(f"{rng.choice(['Lp', 'H*', 'Ls', 'A', '3'])} "
                               f"{' '.join(rng.choice(CONDITIONS) for _ in range(rng.randint(0, 4)))}\n"
                               for _ in range(lines))


def unknown_file(lines: int) -> str:
    return "".join(f"Lp Cardvl{i} < {i % 9} Leed{i} = 1\n" for i in range(lines))


def timed(text: str, fast: bool) -> float:
    saved = grammar._FAST_RULE
    if not fast:
        grammar._FAST_RULE = NEVER
    try:
        started = time.process_time()  # CPU time: the machine may be shared
        check_text(text, "bench.rul")
        return time.process_time() - started
    finally:
        grammar._FAST_RULE = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), lines=500, runs=1)
    lines, runs = args.lines, args.runs
    files = {f"{lines:,} rule lines": rules_file(lines, random.Random(1)),
             f"{lines // 2:,} lines of unknown names": unknown_file(lines // 2)}
    for name, text in files.items():
        fast, slow = [], []
        for _ in range(runs):  # interleaved: both see the same load
            fast.append(timed(text, True))
            slow.append(timed(text, False))
        f, s = statistics.median(fast), statistics.median(slow)
        print(f"{name:32} {f:7.3f} CPU s   grammar only {s:7.3f} CPU s   ({s / f:4.1f}x faster)")


if __name__ == "__main__":
    main()
