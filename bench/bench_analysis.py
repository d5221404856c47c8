"""Analysis speed: analysed games per second for Agram4 and President (classic) at the defaults.

    .venv/bin/python bench/bench_analysis.py [--agram N] [--president N] [-j 1,2] [--smoke]

An *analysed game* is one game of one of the three experiment sets with the
default estimator (CardStock's, 10 rollouts per option); the figure is the
3 x N games of a run over its wall time, bootstrap and forward-model timing
excluded (they are printed separately). The baseline, measured in the same
run, is plain random play of the same games: the ratio says what the
estimating AI costs. The last column projects CardStock's 300-game run
(100 games per set). President games are matches of 3 rounds (`president
analyze`'s default).
"""
from __future__ import annotations

import argparse
import sys
import time

from timing import SHARED, add_smoke_option, smoke

from recycle.analysis import Config, PlayUnit, RecycleSubject, analyze, compute, units
from recycle.analysis.experiment import run_units

CORPUS = SHARED / "recycle-corpus" / "gdl"


def subjects(agram: int, president: int):
    from president.match.analysis import PresidentSubject
    from president.game.settings import preset

    yield "Agram4", RecycleSubject(str(CORPUS / "Agram4.gdl")), agram
    yield "President classic (3 rounds)", PresidentSubject(preset("classic").with_overrides({"rounds": "3"}),
                                                           "classic"), president


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agram", type=int, default=30, help="Agram4 games per set (default 30)")
    ap.add_argument("--president", type=int, default=6, help="President matches per set (default 6)")
    ap.add_argument("-j", "--jobs", default="1,2", help="process counts to measure (default 1,2)")
    add_smoke_option(ap)
    args = smoke(ap.parse_args(argv), agram=2, president=1, jobs="1")
    print(f"{'game':30} {'-j':>3} {'random games/s':>15} {'analysed games/s':>17} {'cost x':>7} "
          f"{'bootstrap s':>12} {'300-game run s':>15}  (wall clock; -j1 also per CPU second)")
    for label, subject, n in subjects(args.agram, args.president):
        randoms = [u for u in units(n, 1) if u.set == "random"]
        run_units(PlayUnit(subject), randoms[:1], 1)  # warm-up: the interpreter compiles the game on first use
        t, c = time.perf_counter(), time.process_time()
        run_units(PlayUnit(subject), randoms, 1)
        random_rate, random_cpu = n / (time.perf_counter() - t), n / (time.process_time() - c)
        for jobs in (int(j) for j in args.jobs.split(",")):
            config = Config(games=n, seed=1)
            t, c = time.perf_counter(), time.process_time()
            a = analyze(subject, config, jobs, speed=False)
            total, cpu = time.perf_counter() - t, time.process_time() - c
            t = time.perf_counter()
            compute(a.name, a.players, a.logs, config)
            boot = time.perf_counter() - t
            rate = 3 * n / (total - boot)
            print(f"{label:30} {jobs:>3} {random_rate:>15.1f} {rate:>17.2f} {random_rate / rate:>7.0f} "
                  f"{boot:>12.2f} {300 / rate + boot:>15.0f}", flush=True)
            if jobs == 1:
                cpu_rate = 3 * n / (cpu - boot)
                print(f"{'  per CPU second':30} {jobs:>3} {random_cpu:>15.1f} {cpu_rate:>17.2f} "
                      f"{random_cpu / cpu_rate:>7.0f} {'':>12} {300 / cpu_rate + boot:>15.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
