"""The leak audit's counts and cost: every shipped game (and the corpus when present), every agent.

    .venv/bin/python bench/bench_leak_audit.py [--pairs 2] [--corpus-pairs 1] [--no-corpus] [--smoke]

Prints one line per game (pairs, agents, decisions compared, differences, whether the cheating
control differed, CPU seconds) and the totals: the figures docs/leak-audit.md quotes.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from timing import SHARED, add_smoke_option, smoke

from recycle.audit import audit
from recycle.cli.commands.audit import CHEAP_SPECS, default_specs, subject_of
from recycle.games import shipped_games

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_recycle_interp_corpus import KNOWN_DEFECTS  # noqa: E402

CORPUS = SHARED / "recycle-corpus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--corpus-pairs", type=int, default=1)
    parser.add_argument("--no-corpus", action="store_true")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), pairs=1, corpus_pairs=1)
    games = [(g.name, False) for g in shipped_games()] + [("President5", True), ("TidesOfTime2", True)]
    jobs = [(name, native, default_specs(name, subject_of(name, native)[1], native), args.pairs) for name, native in games]
    if not args.no_corpus and CORPUS.is_dir():
        plain = [s for k, s in CHEAP_SPECS.items() if not k.startswith("tides")]
        jobs += [(str(p), False, plain, args.corpus_pairs) for p in sorted(CORPUS.glob("*/*"))
                 if p.suffix in (".gdl", ".rcy") and p.relative_to(CORPUS).as_posix() not in KNOWN_DEFECTS]
    if args.smoke:
        jobs = jobs[:2]
    totals = [0, 0, 0, 0, 0.0]
    agents: set[str] = set()
    for name, native, specs, pairs in jobs:
        start = time.process_time()
        report = audit(subject_of(name, native)[0], specs, pairs, 0)
        cpu = time.process_time() - start
        control = all(report.control_differed(c) for c in report.controls)
        print(f"{report.game:32s} pairs {report.pairs:3d}  agents {len(specs):2d}  decisions {report.decisions:5d}  "
              f"differences {len(report.leaks):2d}  control differed {'yes' if control else 'NO'}  {cpu:6.2f} s CPU")
        for i, value in enumerate((1, report.pairs, report.decisions, len(report.leaks), cpu)):
            totals[i] += value
        agents.update(specs)
    print(f"total: {totals[0]} games, {len(agents)} distinct agents, {totals[1]} pairs, {totals[2]} decisions "
          f"compared, {totals[3]} differences, {totals[4]:.1f} s CPU")


if __name__ == "__main__":
    main()
