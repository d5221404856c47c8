"""CardStock's standard run, timed: 300 games (100 per set, the estimator's 10 rollouts per option).

    .venv/bin/python bench/analysis_speed.py [GAME ...] [--games N] [-j 2] [--sample K] [--top T] [--smoke]
    .venv/bin/python bench/analysis_speed.py BigTwo4 --against /tmp/base --rounds 2   # before/after, one sitting

For each game (a shipped game's name, or a corpus file such as Agram4), three
figures:

- the run: `analyze` of N games per set on `-j` processes, its wall time and
  the CPU seconds of this process and its workers (so a loaded machine shows
  how far wall time is from CPU time / jobs);
- games/s by phase: K games of each set played here, one after the other, in
  CPU seconds (the all-AI set is the slow one: every seat's decisions are
  estimated, each option by 10 random rollouts);
- where the time goes: the profile's top entries over one all-AI game.

Only the public analysis API is used, so the same script times an older
checkout: `--against DIR` (an export of it, e.g. `git archive REV | tar -x -C DIR`)
times the phases there and here in turns, each in a fresh process (`--rounds`
times each, alternating, so a changing load falls on both), and prints the
projected CPU seconds of the 300 games of each and their ratio.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import resource
import subprocess
import sys
import time
from pathlib import Path

from timing import SHARED, add_smoke_option, smoke

from recycle.analysis import Config, PlayUnit, SETS, analyze, units
from recycle.interp.analysis_subject import RecycleSubject
from recycle.games import game_path

CORPUS = SHARED / "recycle-corpus" / "gdl"


def subject_of(name: str, compat: str | None) -> RecycleSubject:
    """A shipped game by name, else a corpus file by its stem (Agram4)."""
    corpus = CORPUS / f"{name}.gdl"
    return RecycleSubject(str(corpus) if corpus.is_file() else game_path(name), compat=compat)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (the -j workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def by_phase(subject, sample: int) -> dict[str, float]:
    """CPU seconds per game of each set, over the first `sample` games of each."""
    play, out = PlayUnit(subject), {}
    for s in SETS:
        todo = [u for u in units(sample, 1) if u.set == s]
        t = time.process_time()
        for u in todo:
            play(u)
        out[s] = (time.process_time() - t) / len(todo)
    return out


def profile(subject, top: int) -> str:
    """The `top` entries by own time over one all-AI game."""
    unit = next(u for u in units(1, 1) if u.set == "all_ai")
    prof = cProfile.Profile()
    prof.runcall(PlayUnit(subject), unit)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    return "\n".join(line for line in lines[start:] if line.strip())


def phases_in(checkout: Path | None, name: str, sample: int, compat: str | None) -> tuple[str, dict[str, float]]:
    """`by_phase` in a fresh process, on `checkout`'s code (None: this one's), and where that code is."""
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(checkout), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, __file__, name, "--phases-json", "--sample", str(sample),
           *(["--compat", compat] if compat else [])]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    return got["code"], got["phases"]


def against(args) -> None:
    """Before (`args.against`) and after (here), in turns: per set CPU s per game, the 300 games, the ratio."""
    for name in args.games:
        totals: dict[str, list[float]] = {"before": [], "now": []}
        for r in range(args.rounds):
            for label, checkout in (("before", args.against), ("now", None)):
                code, phases = phases_in(checkout, name, args.sample, args.compat)
                total = args.n * sum(phases.values())
                totals[label].append(total)
                shown = ", ".join(f"{s} {sec:.3f}" for s, sec in phases.items())
                print(f"{name} {label} ({code}, round {r + 1}): CPU s per game: {shown}; {3 * args.n} games = "
                      f"{total:.0f} CPU s", flush=True)
        before, now = (sum(v) / len(v) for v in totals.values())
        print(f"{name}: {3 * args.n} games, mean of {args.rounds}: before {before:.0f} CPU s, now {now:.0f} CPU s, "
              f"{before / now:.2f}x less CPU; {now / 2:.0f} s on 2 free cores (before {before / 2:.0f} s)",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=["Agram4", "BigTwo4"], help="games (default Agram4 BigTwo4)")
    ap.add_argument("--games", dest="n", type=int, default=100, help="games per set (default 100: CardStock's)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="processes for the run (default 2)")
    ap.add_argument("--compat", default=None, help="e.g. cardstock")
    ap.add_argument("--sample", type=int, default=3, help="games per set timed by phase (default 3)")
    ap.add_argument("--top", type=int, default=12, help="profile entries (default 12; 0: no profile)")
    ap.add_argument("--no-run", action="store_true", help="phases and profile only")
    ap.add_argument("--against", type=Path, metavar="DIR",
                    help="an older checkout's export: time the phases there and here in turns (no run, no profile)")
    ap.add_argument("--rounds", type=int, default=2, help="with --against: turns of each (default 2)")
    ap.add_argument("--phases-json", action="store_true", help=argparse.SUPPRESS)  # one line for --against
    add_smoke_option(ap)
    args = smoke(ap.parse_args(argv), n=2, sample=1, top=3, jobs=1, games=["Agram4"])
    if args.phases_json:
        subject = subject_of(args.games[0], args.compat)
        PlayUnit(subject)(units(1, 1)[0])  # read and compiled outside the timing
        import recycle

        print(json.dumps({"code": str(Path(recycle.__file__).parents[1]), "phases": by_phase(subject, args.sample)}))
        return 0
    if args.against:
        against(args)
        return 0
    for name in args.games:
        subject = subject_of(name, args.compat)
        PlayUnit(subject)(units(1, 1)[0])  # the game read and compiled once, outside every timing
        if not args.no_run:
            config = Config(games=args.n, seed=1)
            t, c = time.perf_counter(), cpu_seconds()
            analyze(subject, config, args.jobs, speed=False)
            wall, cpu = time.perf_counter() - t, cpu_seconds() - c
            print(f"{name}: {3 * args.n} games (-j {args.jobs}): {wall:.1f} s wall, {cpu:.1f} CPU s "
                  f"({3 * args.n / wall:.2f} games/s)", flush=True)
        phases = by_phase(subject, args.sample)
        line = ", ".join(f"{s} {1 / sec:.2f} games/s" for s, sec in phases.items())
        projected = args.n * sum(phases.values())
        print(f"{name}: by phase (CPU, {args.sample} games each): {line}; {3 * args.n} games = "
              f"{projected:.0f} CPU s, {projected / 2:.0f} s on 2 free cores", flush=True)
        if args.top:
            print(f"{name}: profile of one all-AI game (own time)\n{profile(subject, args.top)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
