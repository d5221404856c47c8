"""`president simulate`: bots play matches; a table of how each seat finished."""
from __future__ import annotations

import argparse
import math

from rich.table import Table

from recycle.kernel.output import progress_bar, write_csv, write_json

from ..bots import make_bots
from ..deals import read_deal_file
from ..observation import place_name
from ..simulate import SimulationResult, simulate
from .common import add_seed_option, add_table_options, console, rules_dirs, seed_of, table_settings


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="bots play matches; print finishing positions and points",
                       description="Play matches between bots and print each seat's finishing-position "
                                   "distribution and mean points per round.")
    p.add_argument("--players", default="random",
                   help="comma-separated bots, one per seat; fewer are repeated in rotation (default random)")
    p.add_argument("--rounds", type=int, default=None, help="rounds per match (default: the preset's)")
    p.add_argument("--matches", type=int, default=10, help="how many matches (default 10)")
    add_seed_option(p)
    add_table_options(p)
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    p.add_argument("--deal", metavar="FILE", help="every match's first round starts from this deal file")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = table_settings(args, rounds=args.rounds)
    if args.matches < 1:
        raise ValueError("--matches must be at least 1")
    specs = [s for s in args.players.split(",") if s.strip()]
    agents, names = make_bots(specs, settings.players, rules_dirs(args))
    seed = seed_of(args)
    deal = read_deal_file(args.deal, settings) if args.deal else None
    with progress_bar(console, args.matches, "simulating", "matches") as advance:
        result = simulate(settings, agents, names, args.matches, seed, advance, deal)
    console.print(result_table(result))
    if args.json:
        write_json(args.json, result.to_json())
    if args.csv:
        n = settings.players
        header = ["seat", "bot", "rounds"] + [f"place_{k + 1}" for k in range(n)] + ["mean_place", "mean_points",
                                                                                    "mean_points_ci95"]
        rows = [[i, s.name, s.rounds, *s.places, f"{s.mean_place:.4f}", f"{s.mean_points:.4f}",
                 f"{s.points_ci95():.4f}"] for i, s in enumerate(result.seats)]
        write_csv(args.csv, header, rows)
    return 0


def result_table(result: SimulationResult) -> Table:
    n = result.settings.players
    rounds = result.seats[0].rounds
    table = Table(title=f"{result.matches} match(es), {rounds} rounds, seed {result.seed}",
                  caption="share of rounds finished in each place; points/round with its 95% interval")
    table.add_column("seat", justify="right")
    table.add_column("bot", no_wrap=True)
    for k in range(n):
        table.add_column(place_name(k + 1, n), justify="right")
    table.add_column("place", justify="right")
    table.add_column("points/round", justify="right", no_wrap=True)
    table.add_column("wins", justify="right")
    for i, s in enumerate(result.seats):
        shares = [f"{100 * c / s.rounds:.1f}%" if s.rounds else "-" for c in s.places]
        ci = s.points_ci95()
        points = f"{s.mean_points:.2f}" + ("" if math.isnan(ci) else f" ± {ci:.2f}")
        table.add_row(str(i), s.name, *shares, f"{s.mean_place:.2f}", points, f"{s.match_wins:g}")
    return table
