"""`recycle run GAME`: agents play seeded games; a table of each seat's scores and ranks."""
from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.table import Table

from recycle.cli.options import (add_bot_options, add_compat_option, add_engine_option, add_limit_options,
                                      bot_options, limits_of)
from recycle.games import game_path, shipped_name
from recycle.cli.arguments import GAMES, check_stdout_once, is_stdout, output_file, output_folder
from recycle.kernel.errors import UsageError
from recycle.cli.console import add_seed_option, console, print_table, seed_of
from recycle.kernel.deal_file import read_deal
from recycle.cli.output import mean_or_zero as _mean
from recycle.cli.output import progress_bar, write_csv, write_json
from recycle.kernel.protocol import play_game
from recycle.kernel.specs import describe, split_specs


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="agents play a game; a table of each seat's scores and ranks")
    p.add_argument("game", metavar="GAME", help="a .rcy or .gdl file")
    p.add_argument("--players", default="random", metavar="SPECS",
                   help="agent specs, shipped personalities or .rul files (climbing games), one per seat, "
                        "comma-separated (a comma before key= continues a spec's parameters: "
                        "ismcts:time=1,rollout=Classic,random); fewer are repeated (default random)")
    p.add_argument("--games", type=GAMES, default=10, help=f"how many games ({GAMES.text}, default 10)")
    add_seed_option(p)
    p.add_argument("--transcript", metavar="DIR", type=output_folder,
                   help="write one JSON Lines transcript per game here")
    p.add_argument("--json", metavar="FILE", type=output_file, help="also write the results as JSON ('-': "
                                                                     "standard output, instead of the table)")
    p.add_argument("--csv", metavar="FILE", type=output_file, help="also write the results as CSV ('-': "
                                                                   "standard output, instead of the table)")
    p.add_argument("--deal", metavar="FILE", help="deal every game from this deal file (lines 'p0: 3c 4d ...')")
    add_bot_options(p)
    add_limit_options(p)
    add_engine_option(p)
    add_compat_option(p)
    p.add_argument("--native", action="store_true",
                   help="play the game's native implementation instead of its RECYCLE file "
                        "(TidesOfTime2 only; no --deal, --transcript or choice limit there)")
    p.set_defaults(run=run_run)


@dataclass
class SeatResults:
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


def run_run(args: argparse.Namespace) -> int:
    from recycle.climbing.adapter import make_climbing_bots
    from recycle.interp import new_game
    from recycle.lang import load_game

    check_stdout_once(args, "json", "csv")
    if args.native:
        return _run_native(args)
    path = game_path(args.game)
    game = load_game(path)
    # Read once; every game is dealt from it (see recycle.interp.arrange).
    limits = limits_of(args, read_deal(args.deal) if args.deal else None)
    n = new_game(game, 0, **limits).num_players
    specs = split_specs(args.players) or ["random"]
    # Personalities and .rul files play climbing games (recycle.climbing.adapter); agent specs play any game.
    options = bot_options(args)
    agents, names = make_climbing_bots(specs, game, n, **options)
    seats = [SeatResults(_seat_name(name, a, options["rules_dirs"])) for name, a in zip(names, agents)]
    seed = seed_of(args)
    folder = Path(args.transcript) if args.transcript else None
    if folder:
        # (imported only here: a run without transcripts needs neither them nor their schema)
        from recycle.interp.transcript import play_and_record, relative_to, write

        folder.mkdir(parents=True, exist_ok=True)
        # Not the absolute path, which changes when a checkout or a virtual environment moves.
        stored_name = shipped_name(path) or relative_to(path, folder)
    called, choices, started = 0, [], time.perf_counter()
    with progress_bar(console, args.games, "playing") as advance:
        for g in range(args.games):
            game_seed, rng = seed + g, random.Random(f"{seed}/{g}")
            if folder:
                state, recs = play_and_record(game, game_seed, agents, rng, **limits)
                write(folder / f"{Path(path).stem}-{game_seed}.jsonl", recs, stored_name)
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
    _report(args, seats, f"{Path(path).name}: {args.games} game(s), seed {seed}",
            f"{_mean(choices):.1f} choices/game, {called} called at the choice limit, "
            f"{args.games / elapsed:,.1f} games/s",
            {"game": str(path), "games": args.games, "seed": seed, "called": called,
             "mean_choices": _mean(choices)})
    return 0


def _seat_name(spec: str, agent, folders: tuple[Path, ...]) -> str:
    """The agent's name; `Classic (your copy)` for the user's edited copy of a shipped personality."""
    from personalities.catalog import shown_name

    shown = shown_name(spec, folders)
    return shown if shown != spec else describe(agent)


def _run_native(args: argparse.Namespace) -> int:
    """`--native`: the game's native implementation (recycle.cli.commands.tides), same seeds and table."""
    from recycle.cli.native import check_native, native_agents, native_state

    check_native(args.game)
    if args.deal or args.transcript:
        raise UsageError("--native plays seeded deals without transcripts: drop --deal and --transcript")
    agents, _ = native_agents(split_specs(args.players))
    seats = [SeatResults(describe(a)) for a in agents]
    seed, started = seed_of(args), time.perf_counter()
    with progress_bar(console, args.games, "playing") as advance:
        for g in range(args.games):
            result = play_game(native_state(seed + g), agents, random.Random(f"{seed}/{g}"))
            for seat, score, rank in zip(seats, result.scores, result.ranks):
                seat.scores.append(score)
                seat.ranks.append(rank)
            advance(g + 1)
    elapsed = time.perf_counter() - started
    _report(args, seats, f"{args.game} (native): {args.games} game(s), seed {seed}",
            f"{args.games / elapsed:,.1f} games/s", {"game": args.game, "native": True, "games": args.games,
                                                       "seed": seed})
    return 0


def _report(args: argparse.Namespace, seats: list[SeatResults], title: str, caption: str, header: dict) -> None:
    """The seats' table (unless JSON or CSV go to standard output), and the JSON and CSV files."""
    table = Table(title=title, caption=caption)
    for name, justify in (("seat", "right"), ("agent", "left"), ("mean score", "right"),
                          ("mean rank", "right"), ("wins", "right")):
        table.add_column(name, justify=justify)
    for i, s in enumerate(seats):
        table.add_row(str(i), s.agent, f"{_mean(s.scores):.2f}", f"{_mean(s.ranks):.2f}", str(s.wins))
    if not (is_stdout(args.json) or is_stdout(args.csv)):
        print_table(table)
    if args.json:
        write_json(args.json, {**header, "seats": [s.to_json() for s in seats]})
    if args.csv:
        write_csv(args.csv, ["seat", "agent", "games", "mean_score", "mean_rank", "wins"],
                  [[i, s.agent, len(s.ranks), f"{_mean(s.scores):.4f}", f"{_mean(s.ranks):.4f}",
                    s.wins] for i, s in enumerate(seats)])
