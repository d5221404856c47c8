"""The `recycle` command: check, run, test against a corpus and replay RECYCLE games.

    recycle check FILE...                     located errors and warnings (exit 3 on errors)
    recycle run GAME --games N --seed S       agents play; a table per seat (JSON/CSV too)
    recycle trace GAME BOT --seed S           a personality's decisions in one game, as traces
    recycle corpus DIR --games N              every file parsed and played; pass/fail table
    recycle replay TRANSCRIPT...              re-play transcripts, check they reproduce
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from recycle.kernel.specs import AgentSpecError, describe
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.protocol import GameError, play_game
from recycle.kernel.cli_support import EXIT_FAILED, EXIT_USAGE, check_files, console, err_console, run_main, seed_of
from recycle.kernel.output import progress_bar, write_csv, write_json
from recycle.commands.trace import add_bot_options, add_trace_parser, bot_options

#: Errors a user can cause; printed as a message, never as a traceback.
USER_ERRORS = (AgentSpecError, DiagnosticError, GameError, OSError, ValueError)
SUFFIXES = (".rcy", ".gdl")


def _limits(args: argparse.Namespace) -> dict:
    return {"max_choices": args.max_choices, "strict": args.strict, "deal": getattr(args, "deal_spec", None)}


def _add_limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-choices", type=int, default=500,
                   help="choices after which a game is called and scored as it stands (default 500)")
    p.add_argument("--strict", action="store_true", help="a game reaching --max-choices is an error instead")


# ---- check ----------------------------------------------------------------
def run_check(args: argparse.Namespace) -> int:
    from recycle.lang import check_file

    return check_files(args.files, check_file, args.json)


# ---- run ------------------------------------------------------------------
@dataclass
class Seat:
    agent: str
    scores: list[float] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(r == 1 for r in self.ranks)

    def to_json(self) -> dict:
        return {"agent": self.agent, "games": len(self.ranks), "mean_score": _mean(self.scores),
                "mean_rank": _mean(self.ranks), "wins": self.wins,
                "scores": self.scores, "ranks": self.ranks}


def _mean(xs) -> float:
    return statistics.fmean(xs) if xs else 0.0


def run_run(args: argparse.Namespace) -> int:
    from recycle.climbing.adapter import make_climbing_bots
    from recycle.interp import new_game
    from recycle.interp.transcript import play_and_record, write
    from recycle.lang import load_game

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    args.game = game_path(args.game)
    game = load_game(args.game)
    if args.deal:  # read once; every game is dealt from it (see recycle.interp.deal)
        from recycle.kernel.deal_file import read_deal

        args.deal_spec = read_deal(args.deal)
    limits = _limits(args)
    n = new_game(game, 0, **limits).num_players
    specs = [s for s in args.players.split(",") if s.strip()] or ["random"]
    # Personalities and .rul files play climbing games (recycle.climbing.adapter); agent specs play any game.
    agents, _ = make_climbing_bots(specs, game, n, **bot_options(args))
    seats = [Seat(describe(a)) for a in agents]
    seed = seed_of(args)
    folder = Path(args.transcript) if args.transcript else None
    if folder:
        folder.mkdir(parents=True, exist_ok=True)
    called, choices, started = 0, [], time.perf_counter()
    with progress_bar(console, args.games, "playing") as advance:
        for g in range(args.games):
            game_seed, rng = seed + g, random.Random(f"{seed}/{g}")
            if folder:
                state, recs = play_and_record(game, game_seed, agents, rng, **limits)
                write(folder / f"{Path(args.game).stem}-{game_seed}.jsonl", recs)
                result = state.results()
            else:
                state = new_game(game, game_seed, **limits)
                result = play_game(state, agents, rng)
            for seat, score, rank in zip(seats, result.scores, result.ranks):
                seat.scores.append(score)
                seat.ranks.append(rank)
            called += state.called
            choices.append(state.choices)
            advance(g + 1)
    elapsed = time.perf_counter() - started
    table = Table(title=f"{Path(args.game).name}: {args.games} game(s), seed {seed}",
                  caption=f"{_mean(choices):.1f} choices/game, {called} called at the choice limit, "
                          f"{args.games / elapsed:,.1f} games/s")
    for name, justify in (("seat", "right"), ("agent", "left"), ("mean score", "right"),
                          ("mean rank", "right"), ("wins", "right")):
        table.add_column(name, justify=justify)
    for i, s in enumerate(seats):
        table.add_row(str(i), s.agent, f"{_mean(s.scores):.2f}", f"{_mean(s.ranks):.2f}", str(s.wins))
    console.print(table)
    if args.json:
        write_json(args.json, {"game": str(args.game), "games": args.games, "seed": seed, "called": called,
                               "mean_choices": _mean(choices), "seats": [s.to_json() for s in seats]})
    if args.csv:
        write_csv(args.csv, ["seat", "agent", "games", "mean_score", "mean_rank", "wins"],
                  [[i, s.agent, len(s.ranks), f"{_mean(s.scores):.4f}", f"{_mean(s.ranks):.4f}",
                    s.wins] for i, s in enumerate(seats)])
    return 0


# ---- corpus ---------------------------------------------------------------
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


def run_corpus(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    if not root.is_dir():
        raise ValueError(f"{root} is not a folder")
    files = sorted(p for p in root.rglob("*") if p.suffix in SUFFIXES)
    if not files:
        raise ValueError(f"no {'/'.join(SUFFIXES)} files under {root}")
    seed = 0 if args.seed is None else args.seed
    outcomes, limits = [], _limits(args)
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
    console.print(table)
    if args.json:
        write_json(args.json, {"dir": str(root), "games": args.games, "seed": seed, "passed": passed,
                               "files": [o.__dict__ for o in outcomes]})
    return 0 if passed == len(files) else EXIT_FAILED


# ---- replay ---------------------------------------------------------------
def run_replay(args: argparse.Namespace) -> int:
    from recycle.interp.transcript import replay

    bad = 0
    for path in args.files:
        report = replay(path)
        if report.warning:
            err_console.print(f"[yellow]warning:[/] {escape(report.warning)}")
        if report.ok:
            console.print(f"{escape(str(path))}: [green]reproduced[/] "
                          f"({report.choices} choices, {report.records} records)")
        else:
            bad += 1
            console.print(f"{escape(str(path))}: [red]differs[/] {escape(report.difference)}")
    return EXIT_FAILED if bad else 0


# ---- the command ----------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="recycle", description="Read, play and test RECYCLE card games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("check", help="report every error and warning in RECYCLE files (exit 3 on errors)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    p.set_defaults(run=run_check)

    p = sub.add_parser("run", help="agents play a game; a table of each seat's scores and ranks")
    p.add_argument("game", metavar="GAME", help="a .rcy or .gdl file")
    p.add_argument("--players", default="random",
                   help="comma-separated agent specs, shipped personalities or .rul files (climbing games), "
                        "one per seat; fewer are repeated (default random)")
    p.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    p.add_argument("--seed", type=int, default=None, help="random seed (printed when omitted)")
    p.add_argument("--transcript", metavar="DIR", help="write one JSON Lines transcript per game here")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    p.add_argument("--deal", metavar="FILE", help="deal every game from this deal file (lines 'p0: 3c 4d ...')")
    add_bot_options(p)
    _add_limits(p)
    p.set_defaults(run=run_run)
    add_trace_parser(sub, _add_limits)

    p = sub.add_parser("corpus", help="parse and play every game of a folder; a pass/fail table")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--games", type=int, default=2, help="random games per file (default 2)")
    p.add_argument("--seed", type=int, default=None, help="first seed (default 0)")
    p.add_argument("--failures-only", action="store_true", help="list only the files that fail")
    p.add_argument("--json", metavar="FILE", help="also write the outcomes as JSON")
    _add_limits(p)
    p.set_defaults(run=run_corpus)

    p = sub.add_parser("replay", help="re-play transcripts and check every record reproduces")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(run=run_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_main(build_parser(), argv, USER_ERRORS,
                    lambda exc: EXIT_FAILED if isinstance(exc, GameError) else EXIT_USAGE)


def game_path(name: str) -> str:
    """A game file path, or the path of a shipped game named without folder or `.gdl`."""
    if Path(name).exists() or "/" in name or name.endswith((".gdl", ".rcy")):
        return name
    from importlib import resources

    for entry in resources.files("recycle.games").iterdir():
        if entry.name.lower() in (name.lower() + ".gdl", name.lower()):
            return str(entry)
    return name


if __name__ == "__main__":
    sys.exit(main())
