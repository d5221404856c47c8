"""How human is each bot: every shipped personality's match rate against recorded decisions, and the
files `president imitate` learns from them (docs/imitate.md).

    python bench/imitate.py RECORDS.jsonl [RECORDS.jsonl ...] [--holdout 0.2] [--seed 1] [--learned A.rul ...]

For each records file: every shipped personality's rate of playing the recorded
play, on all its decisions and on the held-out rounds `president imitate
--holdout H --seed S` keeps aside, with 95% Wilson intervals; then each
`--learned` file on the same decisions. The personality best on the held-out
decisions is marked. Record files with `president record BOT --rounds N --seed S`.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from personalities.catalog import shipped, shipped_names
from personalities.matching import Scorer
from personalities.reader import load_personality
from personalities.records import load_records
from president.imitation import rate_text, split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--holdout", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learned", nargs="*", default=[], help=".rul files written by president imitate")
    args = parser.parse_args()
    players = [(name, shipped(name)) for name in shipped_names()]
    players += [(Path(f).name, load_personality(f)) for f in args.learned]
    for path in args.records:
        head, decisions = load_records(path)
        held = split(decisions, args.holdout, args.seed).held_out
        everything, kept = Scorer(decisions), Scorer(held)
        rows = [(name, everything.tally(p), kept.tally(p)) for name, p in players]
        best = max((r for r in rows if r[0] in shipped_names()), key=lambda r: r[2].matched)
        print(f"\n{Path(path).name}: {len(decisions)} decisions of {head['player']}, {len(held)} held out "
              f"(--holdout {args.holdout} --seed {args.seed})")
        print(f"| personality | all decisions | held out |\n| --- | --- | --- |")
        for name, all_, out in rows:
            mark = " (best shipped)" if name == best[0] else ""
            print(f"| {name}{mark} | {rate_text(all_.matched, all_.total)} | {rate_text(out.matched, out.total)} |")


if __name__ == "__main__":
    main()
