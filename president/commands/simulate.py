"""`president simulate`: bots play matches; a table of how each seat finished."""
from __future__ import annotations

import argparse
import math

from rich.table import Table

from recycle.cli.arguments import GAMES, ROUNDS, check_stdout_once, is_stdout, output_file
from recycle.cli.output import progress_bar, write_csv, write_json
from recycle.kernel.specs import split_specs
from recycle.cli.console import add_wide_option, print_table
from recycle.kernel.tables import add_name_column
from recycle.players import PRESIDENT, check_agents_for

from president.agents.bots import make_bots
from president.game.observation import ordinal, place_title
from president.match.simulate import SimulationResult, simulate
from president.cli.common import add_seed_option, add_table_options, console, rules_dirs, seed_of, table_settings


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
    add_wide_option(p)
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
        from president.game.deals import read_deal_file

        deal = read_deal_file(args.deal, settings)
    with progress_bar(console, args.matches, "simulating", "matches") as advance:
        result = simulate(settings, agents, names, args.matches, seed, advance, deal)
    if not (is_stdout(args.json) or is_stdout(args.csv)):
        print_table(result_table(result, args.wide), args.wide)
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


def result_table(result: SimulationResult, wide: bool = False) -> Table:
    """Each seat's share of first and last places (every place with `wide`), mean place, points and wins."""
    n = result.settings.players
    rounds = result.seats[0].rounds
    places = range(1, n + 1) if wide else (1, n)
    legend = ", ".join(f"{ordinal(k)} {place_title(k, n)}" for k in places)
    table = Table(title=f"{result.matches} match(es), {rounds} rounds, seed {result.seed}",
                  caption=f"share of rounds finished in each place ({legend}); points a round ± half its 95% "
                          "interval; wins: matches won (shared on a tie)"
                          + ("" if wide else "; --wide shows every place"))
    table.add_column("seat", justify="right")
    add_name_column(table, "bot", [s.name for s in result.seats])
    for k in places:
        table.add_column(ordinal(k), justify="right")
    table.add_column("mean place", justify="right")
    table.add_column("points a round", justify="right")
    table.add_column("wins", justify="right")
    for i, s in enumerate(result.seats):
        shares = [f"{100 * s.places[k - 1] / s.rounds:.1f}%" if s.rounds else "-" for k in places]
        ci = s.points_ci95()
        points = f"{s.mean_points:.2f}" + ("" if math.isnan(ci) else f" ±{ci:.2f}")
        table.add_row(str(i), s.name, *shares, f"{s.mean_place:.2f}", points, f"{s.match_wins:g}")
    return table
