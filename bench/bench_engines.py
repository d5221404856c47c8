"""The RECYCLE engines side by side: a single traced game, random playouts, and RECYCLE
President5 against native President through the commands.

    python bench/bench_engines.py [--runs 5] [--against DIR] [--smoke]

Variants: this checkout's `fast` engine (the default) and its `reference` engine, and, with
`--against DIR`, the `fast` engine of another copy of the packages (DIR holds `recycle/`,
`president/`...: e.g. `git archive 969d98b | tar -x -C DIR`). Every figure is measured in a
fresh process (PYTHONPATH set to the copy measured), the variants alternating run by run so
that they share the machine's load; the median of the runs is printed (CPU seconds, the
steady figure on a shared machine).

- traced: one seeded game with a transcript, random moves, in a fresh process (the game's
  rules made, played to its end; imports not counted): what `recycle trace`, `replay` and
  a first game pay.
- playouts: random playouts (`random_playout`) per CPU second over a few seconds, the rules
  kept between games (as search and `recycle run` keep them).
- commands: CPU seconds of `recycle run President5 --games 600` and of
  `president simulate --players random --rounds 1 --matches 4000` (start-up included), and
  the ratio of a RECYCLE game to a native round (the aim: 5 or less).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TRACED = ["President5", "Hearts4", "Poker5", "BigTwo4", "Daifugo4", "TidesOfTime2"]
PLAYOUTS = ["President5", "Hearts4", "Poker5", "BigTwo4"]

_TRACED = """
import random, sys, time
from recycle.games import game_path
from recycle.interp import new_game
from recycle.lang import load_game
game = load_game(game_path(sys.argv[1]))
kw = {} if sys.argv[2] == "-" else {"engine": sys.argv[2]}
t = time.process_time()
s = new_game(game, 1, transcript=True, **kw)
r = random.Random(1)
while not s.is_terminal():
    a = s.legal_actions()
    s.apply(a[r.randrange(len(a))])
print(time.process_time() - t)
"""

_PLAYOUTS = """
import random, sys, time
from recycle.games import game_path
from recycle.interp import new_game
from recycle.lang import load_game
game, seconds = load_game(game_path(sys.argv[1])), float(sys.argv[3])
kw = {} if sys.argv[2] == "-" else {"engine": sys.argv[2]}
rng, games = random.Random(1), 0
t = time.process_time()
while time.process_time() - t < seconds:
    new_game(game, games, **kw).random_playout(rng)
    games += 1
print(games / (time.process_time() - t))
"""


def _env(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(root)}


def _python(root: Path, code: str, *args: str) -> float:
    out = subprocess.run([sys.executable, "-c", code, *args], env=_env(root), check=True,
                         capture_output=True, text=True, cwd="/tmp").stdout
    return float(out.split()[-1])


def _command_cpu(root: Path, module: str, argv: list[str]) -> float:
    """CPU seconds (user + system) of a whole command run in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = f"import sys; from {module} import main; sys.exit(main({argv!r}))"
    subprocess.run([sys.executable, "-c", code], env=_env(root), check=True, capture_output=True, cwd="/tmp")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--against", type=Path, default=None, help="another copy of the packages (its fast engine)")
    p.add_argument("--seconds", type=float, default=2.0, help="per playout measurement")
    p.add_argument("--smoke", action="store_true", help="one short run of each (checks the script)")
    p.add_argument("--only", choices=("traced", "playouts", "commands"), default=None, help="measure only this")
    args = p.parse_args()
    runs, seconds, games, matches = (1, 0.3, 30, 200) if args.smoke else (args.runs, args.seconds, 600, 4000)
    variants = [("fast", HERE, "fast"), ("reference", HERE, "reference")]
    traced_games, playout_games = (TRACED[:1], PLAYOUTS[:1]) if args.smoke else (TRACED, PLAYOUTS)
    if args.against:
        variants.append(("against", args.against.resolve(), "-"))
    traced: dict = {}
    playouts: dict = {}
    commands: dict = {}
    for run in range(runs):
        for label, root, engine in variants:
            for name in traced_games if args.only in (None, "traced") else ():
                traced.setdefault((name, label), []).append(_python(root, _TRACED, name, engine))
            for name in playout_games if args.only in (None, "playouts") else ():
                playouts.setdefault((name, label), []).append(_python(root, _PLAYOUTS, name, engine, str(seconds)))
            if label != "reference" and args.only in (None, "commands"):
                commands.setdefault(("recycle", label), []).append(_command_cpu(
                    root, "recycle.cli.main", ["run", "President5", "--games", str(games), "--seed", "1"]))
                commands.setdefault(("president", label), []).append(_command_cpu(
                    root, "president.cli.main", ["simulate", "--players", "random", "--rounds", "1",
                                            "--matches", str(matches), "--seed", "1"]))
        print(f"run {run + 1}/{runs} done", file=sys.stderr)
    labels = [label for label, _, _ in variants]
    med = statistics.median
    print(f"single traced game, CPU ms (median of {runs} fresh processes): " + " / ".join(labels))
    for name in traced_games if traced else ():
        print(f"  {name:14s} " + " / ".join(f"{1000 * med(traced[name, label]):7.1f}" for label in labels)
              + f"   fast/reference {med(traced[name, 'fast']) / med(traced[name, 'reference']):.2f}")
    print(f"random playouts per CPU second (median of {runs}): " + " / ".join(labels))
    for name in playout_games if playouts else ():
        print(f"  {name:14s} " + " / ".join(f"{med(playouts[name, label]):8.1f}" for label in labels)
              + (f"   fast/against {med(playouts[name, 'fast']) / med(playouts[name, 'against']):.2f}"
                 if args.against else ""))
    print(f"commands, CPU s (median of {runs}): recycle run President5 --games {games} / "
          f"president simulate --rounds 1 --matches {matches}; a RECYCLE game / a native round")
    for label in labels if commands else ():
        if label == "reference":
            continue
        r, n = med(commands["recycle", label]), med(commands["president", label])
        print(f"  {label:10s} {r:6.2f} / {n:6.2f}   ratio {(r / games) / (n / matches):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
