"""`president simulate`: bots play matches; a table of how each seat finished."""
from __future__ import annotations

import argparse
import math

from rich.table import Table

from recycle.kernel.arguments import GAMES, ROUNDS, check_stdout_once, is_stdout, output_file
from recycle.kernel.output import progress_bar, write_csv, write_json
from recycle.kernel.specs import split_specs
from recycle.players import PRESIDENT, check_agents_for

from ..bots import make_bots
from ..observation import place_name
from ..simulate import SimulationResult, simulate
from .common import add_seed_option, add_table_options, console, rules_dirs, seed_of, table_settings


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="bots play matches; print finishing positions and points",
                       description="Play matches between bots and print each seat's finishing-position "
                                   "distribution and mean points per round.")
    p.add_argument("--players", default="random", metavar="SPECS",
                   help="bots, one per seat, comma-separated (a comma before key= continues a spec's "
                        "parameters: ismcts:time=1,rollout=Classic,random); fewer are repeated in rotation "
                        "(default random)")
    p.add_argument("--rounds", type=ROUNDS, default=None,
                   help=f"rounds per match ({ROUNDS.text}, default: the preset's)")
    p.add_argument("--matches", type=GAMES, default=10, help=f"how many matches ({GAMES.text}, default 10)")
    add_seed_option(p)
    add_table_options(p)
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    p.add_argument("--deal", metavar="FILE", help="every match's first round starts from this deal file")
    p.add_argument("--json", metavar="FILE", type=output_file,
                   help="also write the results as JSON ('-': standard output, instead of the table)")
    p.add_argument("--csv", metavar="FILE", type=output_file,
                   help="also write the results as CSV ('-': standard output, instead of the table)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = table_settings(args, rounds=args.rounds)
    check_stdout_once(args, "json", "csv")
    specs = split_specs(args.players)
    check_agents_for(specs, PRESIDENT)
    agents, names = make_bots(specs, settings.players, rules_dirs(args))
    seed = seed_of(args)
    deal = None
    if args.deal:
        from ..deals import read_deal_file

        deal = read_deal_file(args.deal, settings)
    with progress_bar(console, args.matches, "simulating", "matches") as advance:
        result = simulate(settings, agents, names, args.matches, seed, advance, deal)
    if not (is_stdout(args.json) or is_stdout(args.csv)):
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
