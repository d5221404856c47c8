"""Write the reference set of the analysis report: every shipped game's heuristics and findings.

    python bench/analysis_reference.py --games 20 --seed 0 --work /tmp/reference [-j 2]

Each shipped game is analysed with `recycle analyze GAME --games G --seed S`
(CardStock's estimator, 10 rollouts), journaled in WORK (a run that stops
resumes where it was), and its compared figures (`recycle.analysis.reference.
COMPARED`: the heuristics and the findings' headline values) are written to
`recycle/analysis/reference.json` with how they were made. Prints one line
per game with its figures and CPU time.
"""
from __future__ import annotations

import argparse
import datetime
import json
import shutil
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from recycle.analysis.reference import COMPARED  # noqa: E402
from recycle.cli.main import main as recycle_main  # noqa: E402
from recycle.games import shipped_games  # noqa: E402
from timing import add_smoke_option, smoke  # noqa: E402


def figures(obj: dict) -> dict[str, float]:
    """The compared figures of one game's `--json` output."""
    out = {k: v["value"] for k, v in obj["heuristics"].items() if k in COMPARED}
    out.update({f["finding"]: f["value"]["value"] for f in obj["findings"]
                if f["value"] is not None and f["finding"] in COMPARED})
    return {k: round(v, 4) for k, v in out.items()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--work", type=Path, help="folder of the journals and JSON outputs (required but with --smoke)")
    p.add_argument("--out", type=Path, default=ROOT / "recycle" / "analysis" / "reference.json")
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--only", nargs="*", help="these shipped games only (default: all)")
    add_smoke_option(p)
    args = p.parse_args()
    if args.smoke:  # one game of the quickest shipped game, written beside its journal (never the package data)
        work = Path(tempfile.mkdtemp(prefix="reference-smoke-"))
        smoke(args, games=1, only=["TidesOfTime2"], work=work, out=work / "reference.json")
    if args.work is None:
        p.error("--work FOLDER is required")
    args.work.mkdir(parents=True, exist_ok=True)
    games = {}
    for game in shipped_games():
        if args.only and game.name not in args.only:
            continue
        out = args.work / f"{game.name}.json"
        started = time.process_time()
        code = recycle_main(["analyze", game.name, "--games", str(args.games), "--seed", str(args.seed),
                             "-j", str(args.jobs), "--journal", str(args.work / f"{game.name}.jsonl"),
                             "--json", str(out)])
        if code:
            print(f"{game.name}: failed ({code})")
            continue
        [obj] = json.loads(out.read_text())
        games[game.name] = figures(obj)
        print(f"{game.name}: {games[game.name]} ({time.process_time() - started:.0f} CPU s in this process)")
    source = {"command": f"bench/analysis_reference.py --games {args.games} --seed {args.seed}",
              "games": args.games, "seed": args.seed, "estimator": "cardstock", "rollouts": 10,
              "date": datetime.date.today().isoformat(), "version": version("president-rul")}
    args.out.write_text(json.dumps({"source": source, "games": games}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out}")
    if args.smoke:
        shutil.rmtree(args.work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
