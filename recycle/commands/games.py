"""`recycle games`: the shipped games, each with its one-line description."""
from __future__ import annotations

import argparse

from rich.markup import escape
from rich.table import Table

from recycle.games import shipped_games
from recycle.cli.console import print_table


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list the shipped games (play one with recycle play NAME)")
    p.set_defaults(run=run_games)


def run_games(args: argparse.Namespace) -> int:
    games = shipped_games()
    table = Table(title="shipped RECYCLE games",
                  caption="play one yourself: recycle play NAME (recycle play Poker5); bots play one: "
                          "recycle run NAME (climbing games take rule personalities too: --players Classic)")
    for name, justify in (("name", "left"), ("players", "right"), ("climbing", "left"), ("description", "left")):
        table.add_column(name, justify=justify, overflow="fold")
    for g in games:
        table.add_row(g.name, g.players, "yes" if g.climbing else "", escape(g.title))
    print_table(table)
    return 0
