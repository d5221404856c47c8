"""`president record BOT --rounds N --seed S --out F.jsonl`: a bot's decisions as records (docs/imitate.md).

The bot plays seat 0 against the opponents; every decision it makes with more
than one legal action is written with the position as its seat saw it.
"""
from __future__ import annotations

import argparse

from recycle.cli.arguments import GAMES, IntRange, output_file
from recycle.cli.output import progress_bar
from recycle.kernel.specs import split_specs
from recycle.players import check_agents_for
from tui.president.options import DEFAULT_OPPONENTS

from president.game.president_game import PresidentGame
from president.match.recording import fixed_iterations, record_matches, write_records
from president.cli.common import add_seed_option, add_table_options, console, rules_dirs, seed_of, table_settings

SEARCHES = IntRange(1, 100)
ITERATIONS = IntRange(1, 1_000_000)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("record", help="record a bot's decisions: the position its seat saw, and its play",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("bot", metavar="BOT", help="the bot whose decisions are recorded (seat 0)")
    p.add_argument("--rounds", type=GAMES, default=100, help=f"rounds to play ({GAMES.text}, default 100)")
    p.add_argument("--opponents", default=",".join(DEFAULT_OPPONENTS), metavar="A,B,C,D",
                   help=f"the other seats' bots, repeated in rotation (default {','.join(DEFAULT_OPPONENTS)})")
    p.add_argument("--out", required=True, metavar="FILE.jsonl", type=output_file, help="the records file")
    p.add_argument("--searches", type=SEARCHES, default=1, metavar="K",
                   help="a search player: search each position K times and record the root visits of all "
                        "K, summed (its preferred play; the first search decides; default 1)")
    p.add_argument("--iterations", type=ITERATIONS, default=None, metavar="N",
                   help="a search player: fix its budget at N iterations a search with no time cap, so the "
                        "records mean the same on any machine (default: the spec's budget)")
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    add_seed_option(p)
    add_table_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    opponents = split_specs(args.opponents)
    if args.iterations is not None:
        args.bot = fixed_iterations(args.bot, args.iterations)
    check_agents_for([args.bot, *opponents], PresidentGame(settings))
    seed = seed_of(args)
    with progress_bar(console, args.rounds, "recording", "rounds") as advance:
        decisions = record_matches(args.bot, opponents, settings, args.rounds, seed, rules_dirs(args), advance,
                                   args.searches)
        count = write_records(args.out, args.bot, decisions, seed=seed, rounds=args.rounds,
                              opponents=list(opponents), searches=args.searches)
    console.print(f"{count} decisions of {args.bot} in {args.rounds} rounds written to {args.out}")
    return 0
