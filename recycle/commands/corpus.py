"""`recycle corpus DIR`: parse and play every game of a folder; a pass/fail table."""
from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from recycle.cli.options import add_compat_option, add_engine_option, add_limit_options, limits_of
from recycle.cli.arguments import SEED, IntRange, UsageError, is_stdout, output_file
from recycle.cli.console import EXIT_FAILED, console, print_table
from recycle.kernel.diagnostics import DiagnosticError
from recycle.cli.output import mean_or_zero as _mean
from recycle.cli.output import progress_bar, write_json
from recycle.kernel.protocol import GameError, play_game

SUFFIXES = (".rcy", ".gdl")
MAX_ENTRIES = 200_000
PER_FILE = IntRange(1, 10_000)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("corpus", help="parse and play every game of a folder; a pass/fail table")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--games", type=PER_FILE, default=2, help=f"random games per file ({PER_FILE.text}, default 2)")
    p.add_argument("--seed", type=SEED, default=None, help="first seed (default 0)")
    p.add_argument("--failures-only", action="store_true", help="list only the files that fail")
    p.add_argument("--json", metavar="FILE", type=output_file,
                   help="also write the outcomes as JSON ('-': standard output, instead of the table)")
    add_limit_options(p)
    add_engine_option(p)
    add_compat_option(p)
    p.set_defaults(run=run_corpus)


@dataclass
class Outcome:
    file: str
    ok: bool
    games: int = 0
    called: int = 0
    choices: float = 0.0
    seconds: float = 0.0
    reason: str = ""


def play_file(path: Path, games: int, seed: int, limits: dict) -> Outcome:
    """Parse one file and play `games` seeded random games; never raises for a bad game."""
    from recycle.kernel.protocol import RandomAgent
    from recycle.interp import new_game
    from recycle.lang import load_game

    started = time.perf_counter()
    outcome = Outcome(str(path), False)
    try:
        game = load_game(path)
        choices = []
        for g in range(games):
            state = new_game(game, seed + g, **limits)
            play_game(state, [RandomAgent()] * state.num_players, random.Random(seed + g))
            outcome.called += state.called
            outcome.games += 1
            choices.append(state.choices)
        outcome.ok, outcome.choices = True, _mean(choices)
    except DiagnosticError as exc:
        first = exc.errors[0] if exc.errors else exc.diagnostics[0]
        outcome.reason = f"does not read: {first.headline()}"
    except GameError as exc:
        outcome.reason = f"game {outcome.games + 1}: {exc}"
    except Exception as exc:  # an interpreter bug: reported per file, the run goes on
        outcome.reason = f"game {outcome.games + 1}: internal error {type(exc).__name__}: {exc}"
    outcome.seconds = time.perf_counter() - started
    return outcome


def game_files(root: Path) -> list[Path]:
    """The game files under `root`, sorted; a folder holding more than `MAX_FILES` entries is refused
    (the walk is bounded: `recycle corpus /` must not run for hours)."""
    files, seen = [], 0
    for path in root.rglob("*"):
        seen += 1
        if seen > MAX_ENTRIES:
            raise UsageError(f"{root} holds more than {MAX_ENTRIES:,} files and folders: "
                             f"name a folder of game files")
        if path.suffix in SUFFIXES:
            files.append(path)
    return sorted(files)


def run_corpus(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    if not root.is_dir():
        raise UsageError(f"{root} is not a folder")
    files = game_files(root)
    if not files:
        raise UsageError(f"no {'/'.join(SUFFIXES)} files under {root}")
    seed = 0 if args.seed is None else args.seed
    outcomes, limits = [], limits_of(args)
    with progress_bar(console, len(files), "playing", "files") as advance:
        for k, path in enumerate(files):
            outcomes.append(play_file(path, args.games, seed, limits))
            advance(k + 1)
    passed = sum(o.ok for o in outcomes)
    table = Table(title=f"{root}: {len(files)} file(s), {args.games} game(s) each, seeds {seed}..",
                  caption=f"{passed}/{len(files)} pass ({100 * passed / len(files):.1f}%)")
    for name, justify in (("file", "left"), ("result", "left"), ("choices", "right"),
                          ("called", "right"), ("time", "right"), ("reason", "left")):
        table.add_column(name, justify=justify, overflow="fold")
    for o in outcomes:
        if args.failures_only and o.ok:
            continue
        table.add_row(str(Path(o.file).relative_to(root)), "[green]pass[/]" if o.ok else "[red]FAIL[/]",
                      f"{o.choices:.0f}" if o.ok else "", str(o.called) if o.ok else "", f"{o.seconds:.2f}s",
                      escape(o.reason))
    if not is_stdout(args.json):
        print_table(table)
    if args.json:
        write_json(args.json, {"dir": str(root), "games": args.games, "seed": seed, "passed": passed,
                               "files": [o.__dict__ for o in outcomes]})
    return 0 if passed == len(files) else EXIT_FAILED
