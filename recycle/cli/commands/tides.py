"""Tides of Time commands: the native round under `recycle run --native` / `recycle trace --native`,
and `recycle crosscheck-tides` (native against the RECYCLE TidesOfTime2 on the same deals).

    recycle run TidesOfTime2 --native --players tides-solver,random --games 100
    recycle trace TidesOfTime2 tides-solver --native --opponents random --seed 3
    recycle crosscheck-tides --deals 1000 --players random,random
    recycle tides-solve --exploitability --deals 20 --seed 0 [--json F]
"""
from __future__ import annotations

import argparse
import time

from recycle.cli.arguments import GAMES, SEED, FloatRange, output_file

from recycle.cli.console import EXIT_FAILED, console, fail, print_table
from recycle.cli.output import progress_bar, write_json
from recycle.kernel.protocol import GameError
from recycle.kernel.specs import fill_seats, split_specs
from recycle.cli.native import native_agents

DEALS = GAMES


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("crosscheck-tides", help="native Tides of Time and RECYCLE TidesOfTime2 on the same "
                                                "deals with the same agents: the same picks and scores?",
                       description="Play N deals on the native round and on recycle/games/TidesOfTime2.gdl "
                                   "with fresh agents of the same specs; compare every pick and both scores. "
                                   "Exit 1 on a divergence.")
    p.add_argument("--deals", type=DEALS, default=1000, help=f"how many deals ({DEALS.text}, default 1000)")
    p.add_argument("--seed", type=SEED, default=0, help="the deals and the agents' generators derive from it")
    p.add_argument("--players", default="random,random", metavar="A,B",
                   help="the two seats' agent specs (default random,random; tides-solver and tides-seed "
                        "play both versions too)")
    p.add_argument("--game", default=None, metavar="FILE", help="another RECYCLE file than the shipped one")
    p.add_argument("--json", metavar="FILE", type=output_file, help="also write the outcome as JSON")
    p.set_defaults(run=run_crosscheck)
    add_solve_parser(sub)


def run_crosscheck(args: argparse.Namespace) -> int:
    from recycle.games.tides.crosscheck import TidesCrosscheck, crosscheck

    specs = split_specs(args.players)
    native_agents(specs)  # an unknown spec or a personality fails here, before any deal
    check = TidesCrosscheck(lambda: native_agents(specs)[0], args.seed, args.game)
    started = time.perf_counter()
    try:
        with progress_bar(console, args.deals, "crosschecking", "deals") as advance:
            found = crosscheck(check, args.deals, advance)
    except GameError as exc:
        return fail(str(exc), EXIT_FAILED)
    seconds = time.perf_counter() - started
    if found:
        console.print(f"[bold red]first divergence[/] {found[0].describe()}", highlight=False)
    colour = "red" if found else "green"
    console.print(f"[bold {colour}]{args.deals} deal(s), seed {args.seed}: {len(found)} divergence(s)[/] · "
                  f"{args.deals * 10:,} picks compared · players {', '.join(fill_seats(specs, 2))} · "
                  f"{seconds:.1f} s")
    if args.json:
        write_json(args.json, {"game": "TidesOfTime2", "deals": args.deals, "seed": args.seed,
                               "players": fill_seats(specs, 2), "divergences": len(found),
                               "diverging_deals": [d.index for d in found], "seconds": round(seconds, 3),
                               "first": found[0].to_json() if found else None})
    return EXIT_FAILED if found else 0


def add_solve_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tides-solve", help="Tides of Time's first pick, the round's equilibrium, on sampled "
                                           "deals: each hand's mix, value and exact best-response gain",
                       description="Draw N deals. For each seat, look its hand's mix up in the round's "
                                   "equilibrium (both hands private) and value it exactly against the mixes of "
                                   "the 1,287 hands the opponent may hold: each card's value, the hand's value, "
                                   "and what a best response gains there over the mix. The exploitability (the "
                                   "most a best-responding opponent gains over the game value, 0) is the mean "
                                   "of those gains; exit 1 when a hand's gain exceeds --bound.")
    p.add_argument("--exploitability", action="store_true", required=True,
                   help="report the exploitability (the only report so far; required)")
    p.add_argument("--deals", type=DEALS, default=20, help=f"how many deals ({DEALS.text}, default 20)")
    p.add_argument("--seed", type=SEED, default=0, help="the deals derive from it")
    p.add_argument("--bound", type=FloatRange(0.0, 1000.0), default=0.01,
                   help="largest acceptable best-response gain at a hand, points a game (default 0.01)")
    p.add_argument("--json", metavar="FILE", type=output_file, help="also write every deal's figures as JSON")
    p.set_defaults(run=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    from rich.table import Table

    from recycle.games.tides.cards import cards_of
    from recycle.games.tides.round_equilibrium import TableError, deal_reports, table_figures

    started = time.perf_counter()
    try:
        whole = table_figures()
        with progress_bar(console, args.deals, "valuing first picks", "deals") as advance:
            deals = deal_reports(args.deals, args.seed, advance)
    except TableError as exc:
        return fail(str(exc), EXIT_FAILED)
    seconds = time.perf_counter() - started
    table = Table(title=f"Tides of Time first picks (the round's equilibrium), {args.deals} deal(s), seed {args.seed}")
    for name, justify in (("deal", "right"), ("seat", "right"), ("hand: equilibrium mix", "left"),
                          ("value", "right"), ("best-response gain", "right"), ("one-sided pick's gain", "right")):
        table.add_column(name, justify=justify)
    for d in deals:
        for seat, r in enumerate(d.seats):
            mix = " ".join(f"{c}:{p:.3f}" if p > 0 else str(c) for c, p in zip(cards_of(r.hand), r.mix))
            table.add_row(str(d.index), f"p{seat}", mix, f"{r.value:+.4f}", f"{r.gain:.1e}", f"{r.one_sided_gain:.4f}")
    print_table(table)
    seats = [r for d in deals for r in d.seats]
    worst, mean = max(r.gain for r in seats), sum(r.gain for r in seats) / len(seats)
    one_sided = [r.one_sided_gain for r in seats]
    ok = worst <= args.bound
    colour = "green" if ok else "red"
    console.print(f"[bold {colour}]exploitability on the {len(seats)} sampled hands: mean {mean:.2e} points a game, "
                  f"largest at a hand {worst:.2e} (bound {args.bound:g})[/] · whole game (all 8,568 hands, measured "
                  f"at the build): {whole['exploitability']:.2e} · the one-sided first pick's gain: mean "
                  f"{sum(one_sided) / len(one_sided):.4f}, largest {max(one_sided):.4f} · {seconds:.1f} s",
                  highlight=False)
    if args.json:
        write_json(args.json, {"game": "Tides of Time", "deals": args.deals, "seed": args.seed,
                               "bound": args.bound, "within_bound": ok, "exploitability": mean,
                               "largest_gain": worst, "whole_game_exploitability": whole["exploitability"],
                               "whole_game_largest_gain": whole["largest_gain"],
                               "one_sided_mean_gain": sum(one_sided) / len(one_sided),
                               "one_sided_largest_gain": max(one_sided),
                               "seconds": round(seconds, 3), "per_deal": [d.to_json() for d in deals]})
    return 0 if ok else EXIT_FAILED
