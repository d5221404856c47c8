"""Our analysis of the four games CardStock's authors published figures for, beside theirs.

    .venv/bin/python bench/analysis_published.py [--games Agram4=100,NinetyEight=100,...] [-j 2] [--smoke]

Plays each game with the CardStock estimator (10 rollouts per option) and
`--compat cardstock`, then prints a Markdown table: ours with 95% intervals
and theirs (order, fairness, convergence, spread, drama, security). Drama is
given with both thresholds (CardStock's 0.5 and the blog's), computed from
the same games. Hearts gets 30 games per set (each all-AI game of Hearts
costs some 2,000 rollouts of a 52-card game in a Python interpreter), the
others CardStock's 100.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from timing import SHARED, add_smoke_option, smoke

from recycle.analysis import Config, analyze, compute
from recycle.interp.analysis_subject import RecycleSubject
from recycle.analysis.reference import PUBLISHED, PUBLISHED_KEYS

CORPUS = SHARED / "recycle-corpus" / "gdl"
GAMES = {"Agram4": ("Agram", 100), "Hearts4": ("Hearts", 30), "NinetyEight": ("Ninety-Eight", 100),
         "StealingBundles4": ("Stealing Bundles", 100)}


def readings(a) -> dict[str, float]:
    """Other readings of the blog's unstated details, to explain differences (no intervals).

    - convergence in raw units: options against the decision's number in the game (0, 1, 2, ...);
    - security counting a lead that did not rise (equal or lower) as a drop.
    """
    xs, ys = [], []
    for g in a.logs["all_ai"]:
        for play in g.plays():
            for i, d in enumerate(play.decisions):
                xs.append(i)
                ys.append(d.options)
    n, sx, sy = len(xs), sum(xs), sum(ys)
    sxy, sxx = sum(x * y for x, y in zip(xs, ys)), sum(x * x for x in xs)
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx) if n > 1 and n * sxx != sx * sx else 0.0
    flat = pairs = 0
    for g in a.logs["one_ai"]:
        for play in g.plays():
            leads = play.leads(0)
            pairs += len(leads)
            flat += sum(1 for x, y in zip(leads, leads[1:]) if y <= x)
    return {"convergence (raw units)": 1 - (slope / 2 + 0.5),
            "security (no rise = drop)": 1 - flat / pairs if pairs else 0.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="", help="FILE=N,... games per set for some games")
    ap.add_argument("--only", default="", help="comma-separated game files to run (default all four)")
    ap.add_argument("--corpus", default=str(CORPUS))
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=15)
    add_smoke_option(ap)
    args = smoke(ap.parse_args(argv), only="Agram4", games="Agram4=2")
    counts = {k: v[1] for k, v in GAMES.items()}
    for item in filter(None, args.games.split(",")):
        k, _, v = item.partition("=")
        counts[k] = int(v)
    only = [s for s in args.only.split(",") if s] or list(GAMES)
    print("| game | games/set | figure | ours | 95% interval | published | difference |")
    print("|---|---|---|---|---|---|---|")
    for stem in only:
        label, _ = GAMES[stem]
        subject = RecycleSubject(str(Path(args.corpus) / f"{stem}.gdl"), compat="cardstock")
        config = Config(games=counts[stem], seed=args.seed)
        start = time.perf_counter()
        a = analyze(subject, config, args.jobs, speed=False)
        blog = compute(a.name, a.players, a.logs, Config(counts[stem], args.seed, drama="blog"))
        seconds = time.perf_counter() - start
        for key, theirs in zip(PUBLISHED_KEYS, PUBLISHED[label]):
            iv = a.heuristics.interval(key)
            print(f"| {label} ({stem}) | {counts[stem]} | {key} | {iv.value:.2f} | [{iv.low:.2f}, {iv.high:.2f}] | "
                  f"{theirs:.2f} | {iv.value - theirs:+.2f} |")
        iv = blog.heuristics.interval("drama")
        print(f"| {label} ({stem}) | {counts[stem]} | drama (blog threshold) | {iv.value:.2f} | "
              f"[{iv.low:.2f}, {iv.high:.2f}] | {PUBLISHED[label][4]:.2f} | {iv.value - PUBLISHED[label][4]:+.2f} |")
        for key, value in readings(a).items():
            print(f"| {label} ({stem}) | {counts[stem]} | {key} | {value:.2f} | | | |")
        print(f"<!-- {stem}: {seconds:.0f} s with -j{args.jobs} -->", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
