"""`recycle play GAME`: a person plays any RECYCLE game against bots, in the terminal.

    recycle play Poker5
    recycle play Hearts4 --players you,ismcts:time=0.5,random,random --transcript game.jsonl
    recycle play TidesOfTime2 --open-hands      # every card and every bot's reasoning shown

The game is read, and the seats and bots are checked, before the screen
starts: a file that does not load prints its located error and exits (3);
a game that fails while playing shows its located error on the screen.
Textual is imported only here, inside `run_play`, so `recycle` starts fast.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from recycle.cli.options import (
    add_bot_options,
    add_limit_options,
    bot_options,
    limits_of,
)
from recycle.games import game_path
from recycle.cli.arguments import FloatRange, IntRange, output_file
from recycle.cli.console import add_seed_option, fail, seed_of
from recycle.kernel.deal_file import read_deal

SEAT = IntRange(0, 63)
DELAY = FloatRange(0.0, 10.0)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play a game yourself against bots, in the terminal")
    p.add_argument("game", metavar="GAME", help="a .rcy or .gdl file, or a shipped game's name (Poker5)")
    p.add_argument("--players", default=None, metavar="SPECS",
                   help="one spec per seat, comma-separated: 'you' is your seat, the others are agent specs, "
                        "shipped personalities or .rul files (climbing games), repeated when fewer are named "
                        "(default: you, then random)")
    p.add_argument("--seat", type=SEAT, default=None, help="your seat (default: where --players says 'you', else 0)")
    add_seed_option(p)
    p.add_argument("--deal", metavar="FILE", help="deal every game from this deal file (lines 'p0: 3c 4d ...')")
    p.add_argument("--transcript", metavar="FILE", type=output_file,
                   help="save each game's transcript here (game 2 as FILE-2...); check it with recycle replay")
    p.add_argument("--delay", type=DELAY, default=0.4,
                   help=f"seconds a bot waits before it moves, so you can follow ({DELAY.text}, default 0.4)")
    p.add_argument("--open-hands", action="store_true",
                   help="show every card and every bot's reasoning while playing (marked on the table); "
                        "otherwise you see what your seat sees, and everything once the game is over")
    add_bot_options(p)
    add_limit_options(p)
    p.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    from recycle.lang import load_game

    game = load_game(game_path(args.game))  # a DiagnosticError: printed located, exit 3
    limits = limits_of(args)
    limits.pop("deal")
    limits = {k: v for k, v in limits.items() if v is not None}

    from tui.anygame.session import play_options

    options = play_options(game, args.players, args.seat, seed_of(args),
                           deal=read_deal(args.deal) if args.deal else None, limits=limits,
                           transcript=Path(args.transcript) if args.transcript else None, delay=args.delay,
                           bots=bot_options(args), open_hands=args.open_hands)

    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # checked last: file and bot errors come first
        return fail("recycle play needs a terminal (standard input and output are not one)")

    from tui.anygame.app import PlayApp  # Textual: only when a game is really played

    app = PlayApp(options, about_first=True)
    app.run()
    for path in app.saved:
        print(f"transcript: {path}")
    return 0
