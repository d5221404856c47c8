"""Do the analysis's 95% intervals cover what they claim? Coverage of the pooled value over seeds.

    .venv/bin/python bench/analysis_coverage.py [GAME] [--seeds 20] [--games 20] [--rollouts 10] [--compat cardstock]

Analyses GAME (default: the shipped Poker5, or Agram4 of the CardStock corpus
with `--corpus`) with `--seeds` different seeds, each `--games` games per set,
then pools every game of every seed into one analysis: its values are the best
estimate of the truth these runs have. For every figure it prints how many of
the seeds' 95% intervals contain the pooled value (about 95% of them should)
and the mean interval width. Figures reported without an interval (variance,
a maximum) are listed as such. Branching-curve bins are summarised in one row.
`--logs FILE` keeps the games played (JSON lines; read back when FILE exists), so
that intervals can be recomputed on the same games without playing them again.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from timing import SHARED, add_smoke_option, smoke

from recycle.analysis import Config, analyze, compute
from recycle.interp.analysis_subject import RecycleSubject
from recycle.analysis.records import SETS, GameLog

SHIPPED = Path(__file__).resolve().parents[1] / "recycle" / "games"
CURVE = "branching_curve_"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default=str(SHIPPED / "Poker5.gdl"))
    ap.add_argument("--corpus", action="store_true", help="GAME names a file of the CardStock corpus (../shared)")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--games", type=int, default=20, help="games per set per seed")
    ap.add_argument("--rollouts", type=int, default=10)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--compat", default=None)
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--logs", default=None, help="a file keeping the games played (read back if it exists)")
    add_smoke_option(ap)
    args = smoke(ap.parse_args(argv), seeds=2, games=2, rollouts=2, bootstrap=50)
    path = str(SHARED / "recycle-corpus" / "gdl" / f"{args.game}.gdl") if args.corpus else args.game
    subject = RecycleSubject(path, compat=args.compat)
    start = time.perf_counter()
    configs = [Config(args.games, seed, rollouts=args.rollouts, replicates=args.bootstrap) for seed in range(args.seeds)]
    kept = Path(args.logs) if args.logs else None
    if kept and kept.exists():
        by_seed: dict[int, list[GameLog]] = {}
        for line in kept.read_text(encoding="utf-8").splitlines():
            data = json.loads(line)
            by_seed.setdefault(data.pop("run"), []).append(GameLog.from_json(data))
        players = by_seed[0][0].players
        runs = [compute(subject.name, players, {s: [g for g in by_seed[c.seed] if g.set == s] for s in SETS}, c)
                for c in configs]
    else:
        runs = [analyze(subject, c, args.jobs, speed=False) for c in configs]
        if kept:
            kept.write_text("".join(json.dumps({"run": a.config.seed, **json.loads(g.to_line())}) + "\n"
                                    for a in runs for s in SETS for g in a.logs.get(s, [])), encoding="utf-8")
    pooled_logs = {s: [g for a in runs for g in a.logs.get(s, [])] for s in SETS}
    pooled = compute(subject.name, runs[0].players, pooled_logs,
                     Config(args.games * args.seeds, 0, rollouts=args.rollouts, replicates=args.bootstrap))
    seconds = time.perf_counter() - start
    print(f"{subject.name}: {args.seeds} seeds x {args.games} games per set, {args.rollouts} rollouts, "
          f"{args.bootstrap} resamples ({seconds:.0f} s)")
    print("| figure | pooled value | intervals covering it | mean width |")
    print("|---|---|---|---|")
    curve_hits = curve_n = 0
    all_hits = all_n = 0
    for name, (_, b) in pooled.figures().items():
        value = b.point[name]
        ivs = [a.interval(name) for a in runs if name in a.figures()]
        if not ivs:
            continue
        if not ivs[0].known:
            print(f"| {name} | {value:.3f} | no interval (a maximum) | |")
            continue
        hits = sum(iv.low - 1e-12 <= value <= iv.high + 1e-12 for iv in ivs)
        all_hits, all_n = all_hits + hits, all_n + len(ivs)
        if name.startswith(CURVE):
            curve_hits, curve_n = curve_hits + hits, curve_n + len(ivs)
            continue
        width = sum(iv.width for iv in ivs) / len(ivs)
        print(f"| {name} | {value:.3f} | {hits}/{len(ivs)} ({hits / len(ivs):.0%}) | {width:.3f} |")
    if curve_n:
        print(f"| branching curve (10 bins) | | {curve_hits}/{curve_n} ({curve_hits / curve_n:.0%}) | |")
    print(f"all intervals: {all_hits}/{all_n} cover the pooled value ({all_hits / max(1, all_n):.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
