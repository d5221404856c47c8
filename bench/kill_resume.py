"""Kill long runs at random moments and resume them: the result must be the uninterrupted one.

    python bench/kill_resume.py [--kills 10] [--seed 1] [--only tournament|evolve|analyze] [--smoke]

For each of `president tournament`, `president evolve` and `recycle analyze`:
one uninterrupted run gives the reference; then one run is started, killed
(SIGINT or SIGKILL, drawn from the seed) after a random delay, resumed from its
journal, killed again, ... `--kills` times, and finally resumed to the end. Its
result file must equal the reference (timings left out). Prints one line per
command and the totals; exit status 1 if any differs.

Journals go to a temporary folder (PRESIDENT_STATE_DIR too): nothing is left behind.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import add_smoke_option, smoke

PY = [sys.executable, "-m"]


def tasks(folder: Path) -> list[dict]:
    """(name, the first command, the resume command, the result file, how to read it)."""
    def tournament(result: Path, journal: Path) -> tuple[list[str], list[str]]:
        args = ["Classic", "Gambler", "random", "--matches", "12", "--rounds", "2", "--seed", "7", "-j2"]
        return ([*PY, "president.cli.main", "tournament", *args, "--out", str(journal), "--json", str(result)],
                [*PY, "president.cli.main", "tournament", "--resume", str(journal), "-j2", "--json", str(result)])

    def evolve(result: Path, journal: Path) -> tuple[list[str], list[str]]:
        args = ["Classic", "--generations", "3", "--population", "2", "--deals", "3", "--rounds", "1", "--seed", "7",
                "--against", "Cautious,Gambler"]
        return ([*PY, "president.cli.main", "evolve", *args, "--out", str(result), "--journal", str(journal)],
                [*PY, "president.cli.main", "evolve", "--resume", str(journal)])

    def analyze(result: Path, journal: Path) -> tuple[list[str], list[str]]:
        args = ["President5", "--games", "6", "--rollouts", "1", "--bootstrap", "10", "--seed", "7"]
        return ([*PY, "recycle.cli.main", "analyze", *args, "--journal", str(journal), "--json", str(result)],
                [*PY, "recycle.cli.main", "analyze", "--resume", str(journal), "--json", str(result)])

    return [("tournament", tournament, "json"), ("evolve", evolve, "text"), ("analyze", analyze, "analysis")]


def read(path: Path, kind: str):
    if kind == "text":
        return path.read_text()
    data = json.loads(path.read_text())
    if kind == "analysis":
        for obj in data:
            obj["metrics"].pop("forward_model", None)  # a timing
    return data


def run_to_end(cmd: list[str], env: dict) -> None:
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10, help="kills per command (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("tournament", "evolve", "analyze"), help="one command only")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), kills=2, only="tournament")
    rng = random.Random(args.seed)
    total = same = killed = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "PRESIDENT_STATE_DIR": str(folder / "state"), "COLUMNS": "120"}
        for name, make, kind in tasks(folder):
            if args.only and name != args.only:
                continue
            reference = folder / f"{name}-reference.{'rul' if kind == 'text' else 'json'}"
            first, _ = make(reference, folder / f"{name}-reference.jsonl")
            started = time.monotonic()
            run_to_end(first, env)
            whole = time.monotonic() - started
            kills: list[str] = []
            cycle = 0
            while len(kills) < args.kills:  # cycles of kill, resume, kill, ... until the run ends
                cycle += 1
                result = folder / f"{name}-killed-{cycle}.{'rul' if kind == 'text' else 'json'}"
                journal = folder / f"{name}-killed-{cycle}.jsonl"
                first, resume = make(result, journal)
                while len(kills) < args.kills:
                    if journal.exists() and not journal.stat().st_size:
                        journal.unlink()  # killed before its header was written: start again
                    cmd = resume if journal.exists() else first
                    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                            text=True)
                    time.sleep(rng.uniform(0.3, 0.6 * whole))
                    sig = rng.choice([signal.SIGINT, signal.SIGKILL])
                    if proc.poll() is not None:
                        proc.communicate()
                        break  # finished before the kill: this cycle is done
                    proc.send_signal(sig)
                    kills.append(sig.name)
                    proc.communicate()
                if journal.exists() and not journal.stat().st_size:
                    journal.unlink()
                run_to_end(resume if journal.exists() else first, env)
                equal = read(result, kind) == read(reference, kind)
                total += 1
                same += equal
                print(f"  {name} run {cycle}: resumed result {'equals' if equal else 'DIFFERS FROM'} the "
                      "uninterrupted one", flush=True)
            killed += len(kills)
            print(f"{name}: {len(kills)} kills ({kills.count('SIGINT')} SIGINT, {kills.count('SIGKILL')} SIGKILL) "
                  f"over {cycle} run(s); uninterrupted run {whole:.1f} s", flush=True)
    print(f"total: {killed} kills; {same} of {total} killed runs resumed to the uninterrupted result")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
