"""`recycle run` / `recycle trace` with rule personalities at RECYCLE climbing games.

    recycle run President5 --players Classic,Gambler,random --seed 1
    recycle trace President5 Classic --seed 1 --seat 2 --json trace.json
    recycle run Comet4.rcy --players Classic --climbing "hand=HAND table=SEQUENCE order=PRECEDENCE"

A trace is the one `president trace` prints (`personalities.trace`), for every
decision of one seat in one seeded game: the game `recycle run` plays first
with the same seed and seats. Any other agent that explains its decisions
(search players, `tides-solver`) prints its own explanation instead:

    recycle trace TidesOfTime2 tides-solver --opponents random --seed 3 [--native]
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

from rich.markup import escape

from personalities.trace import DecisionTrace
from recycle.cli.options import add_bot_options, add_engine_option, add_limit_options, bot_options, limits_of
from recycle.games import game_path
from recycle.cli.arguments import IntRange, UsageError, is_stdout, output_file
from recycle.cli.console import add_seed_option, console, seed_of
from recycle.kernel.protocol import play_game, trace_json
from recycle.cli.output import write_json
from recycle.kernel.specs import fill_seats, split_specs

SEAT = IntRange(0, 63)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("trace", help="play one seeded game and print every decision of one bot as a trace")
    p.add_argument("game", metavar="GAME", help="a .rcy or .gdl file, or a shipped game's name")
    p.add_argument("bot", metavar="BOT", help="a shipped personality, a .rul file or an agent spec")
    p.add_argument("--seat", type=SEAT, default=0, help="the bot's seat (default 0)")
    p.add_argument("--opponents", default="Classic", metavar="SPECS",
                   help="the other seats' bots, comma-separated as for recycle run --players; fewer are "
                        "repeated in rotation (default Classic)")
    add_seed_option(p)
    p.add_argument("--json", metavar="FILE", type=output_file,
                   help="also write the traces as JSON ('-': standard output, instead of the trees)")
    add_bot_options(p)
    add_limit_options(p)
    add_engine_option(p)
    p.add_argument("--native", action="store_true",
                   help="trace the game's native implementation (TidesOfTime2 only) instead of its RECYCLE file")
    p.set_defaults(run=run_trace)


def run_trace(args: argparse.Namespace) -> int:
    from recycle.climbing.adapter import make_climbing_bots
    from recycle.interp import new_game
    from recycle.lang import load_game

    seed = seed_of(args)
    if args.native:  # the native twin (recycle.cli.commands.tides): same seeds as `recycle run --native`
        from recycle.cli.commands.tides import check_native, native_agents, native_state

        check_native(args.game)
        state, title, n = native_state(seed), f"{args.game} (native)", 2
    else:
        game = load_game(game_path(args.game))
        state = new_game(game, seed, **limits_of(args))
        title, n = Path(game.filename).name, state.num_players
    if not 0 <= args.seat < n:
        raise UsageError(f"--seat must be 0 to {n - 1}: {title} has {n} players")
    specs = fill_seats(split_specs(args.opponents) or ["Classic"], n - 1, "opponents")
    specs.insert(args.seat, args.bot)
    agents, names = native_agents(specs) if args.native else make_climbing_bots(specs, game, n, **bot_options(args))
    traces: list[tuple[int, object]] = []
    made = [0]  # decisions so far, every seat's (a RECYCLE game's choice count)

    def record(before, player: int, decision) -> None:
        made[0] += 1
        if player == args.seat:
            traces.append((made[0], decision))

    # The seeds of `recycle run`'s first game: the same deal and draws.
    play_game(state, agents, random.Random(f"{seed}/0"), on_decision=record, explain=True)
    data = [{"choice": c, "action": str(d.action), "trace": trace_json(d.trace)} for c, d in traces]
    if is_stdout(args.json):  # JSON instead of the trees
        write_json(args.json, data)
        return 0
    for choice, decision in traces:
        console.rule(f"choice {choice}")
        if isinstance(decision.trace, DecisionTrace) or hasattr(decision.trace, "__rich__"):
            console.print(decision.trace)  # a rule trace, or a search or solver player's explanation
        elif decision.trace is not None:
            console.print(f"{escape(str(decision.action))}  [dim]{escape(_agent(agents, args.seat))}: "
                          f"{escape(str(trace_json(decision.trace)))}[/]")
        else:
            console.print(f"{escape(str(decision.action))}  [dim](not a play: {escape(_agent(agents, args.seat))})[/]")
    console.print(f"{len(traces)} decision(s) of {names[args.seat]} (seat {args.seat}), seed {seed}")
    if args.json:
        write_json(args.json, data)
    return 0


def _agent(agents, seat: int) -> str:
    agent = agents[seat]
    fallback = getattr(agent, "fallback", None)
    return f"{fallback.name} decided" if fallback is not None else f"{agent.name} decided"
