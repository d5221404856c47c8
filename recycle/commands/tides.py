"""Tides of Time commands: the native round under `recycle run --native` / `recycle trace --native`,
and `recycle crosscheck-tides` (native against the RECYCLE TidesOfTime2 on the same deals).

    recycle run TidesOfTime2 --native --players tides-solver,random --games 100
    recycle trace TidesOfTime2 tides-solver --native --opponents random --seed 3
    recycle crosscheck-tides --deals 1000 --players random,random
"""
from __future__ import annotations

import argparse
import time

from recycle.kernel.arguments import GAMES, SEED, UsageError, output_file
from recycle.kernel.cli_support import EXIT_FAILED, console, fail
from recycle.kernel.output import progress_bar, write_json
from recycle.kernel.protocol import Agent, GameError
from recycle.kernel.specs import AgentSpecError, fill_seats, split_specs

#: The shipped game whose native twin `--native` plays.
NATIVE_GAMES = ("tidesoftime2",)
DEALS = GAMES


def check_native(game: str) -> None:
    """`--native` plays only games with a native implementation."""
    if game.lower().removesuffix(".gdl").rsplit("/", 1)[-1] not in NATIVE_GAMES:
        raise UsageError(f"--native: {game!r} has no native implementation; only TidesOfTime2 has one")


def native_state(seed: int):
    """The native Tides of Time round dealt from `seed`."""
    from recycle.games.tides.state import TidesState

    return TidesState.new(seed)


def native_agents(specs: list[str]) -> tuple[list[Agent], list[str]]:
    """Two fresh agents for the native round; a rule personality gets a clear error."""
    from recycle.players import make_agent

    def no_personality(spec: str):
        raise AgentSpecError(f"{spec!r}: rule personalities play climbing games; Tides of Time has no climbing "
                             "view (no trick, no values to beat). Use random, pimc, ismcts, mcts, vote, osla, rhea, "
                             "rmhc, alphabeta, tides-seed or tides-solver")

    seats = fill_seats(specs or ["random"], 2)
    return [make_agent(s, no_personality) for s in seats], seats


def add_parser(sub: argparse._SubParsersAction) -> None:
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
