"""`recycle run` / `recycle trace` with rule personalities at RECYCLE climbing games.

    recycle run President5 --players Classic,Gambler,random --seed 1
    recycle trace President5 Classic --seed 1 --seat 2 --json trace.json
    recycle run Comet4.rcy --players Classic --climbing "hand=HAND table=SEQUENCE order=PRECEDENCE"

A trace is the one `president trace` prints (`personalities.trace`), for every
decision of one seat in one seeded game: the game `recycle run` plays first
with the same seed and seats.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

from rich.markup import escape

from personalities.trace import DecisionTrace
from recycle.commands.options import add_bot_options, add_limit_options, bot_options, limits_of
from recycle.games import game_path
from recycle.kernel.cli_support import console, seed_of
from recycle.kernel.protocol import play_game, trace_json
from recycle.kernel.output import write_json


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("trace", help="play one seeded game and print every decision of one bot as a trace")
    p.add_argument("game", metavar="GAME", help="a .rcy or .gdl file, or a shipped game's name")
    p.add_argument("bot", metavar="BOT", help="a shipped personality, a .rul file or an agent spec")
    p.add_argument("--seat", type=int, default=0, help="the bot's seat (default 0)")
    p.add_argument("--opponents", default="Classic", help="the other seats' bots, comma-separated (default Classic)")
    p.add_argument("--seed", type=int, default=None, help="random seed (printed when omitted)")
    p.add_argument("--json", metavar="FILE", help="also write the traces as JSON")
    add_bot_options(p)
    add_limit_options(p)
    p.set_defaults(run=run_trace)


def run_trace(args: argparse.Namespace) -> int:
    from recycle.climbing.adapter import make_climbing_bots
    from recycle.interp import new_game
    from recycle.lang import load_game

    game = load_game(game_path(args.game))
    seed = seed_of(args)
    limits = limits_of(args)
    state = new_game(game, seed, **limits)
    n = state.num_players
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be 0 to {n - 1}: {Path(game.filename).name} has {n} players")
    others = [s for s in args.opponents.split(",") if s.strip()] or ["Classic"]
    specs = [others[(i - 1 if i > args.seat else i) % len(others)] for i in range(n)]
    specs[args.seat] = args.bot
    agents, names = make_climbing_bots(specs, game, n, **bot_options(args))
    traces: list[tuple[int, object]] = []

    def record(before, player: int, decision) -> None:
        if player == args.seat:
            traces.append((before.choices + 1, decision))

    # The seeds of `recycle run`'s first game: the same deal and draws.
    play_game(state, agents, random.Random(f"{seed}/0"), on_decision=record, explain=True)
    for choice, decision in traces:
        console.rule(f"choice {choice}")
        if isinstance(decision.trace, DecisionTrace):
            console.print(decision.trace)
        else:
            console.print(f"{escape(str(decision.action))}  [dim](not a play: {escape(_agent(agents, args.seat))})[/]")
    console.print(f"{len(traces)} decision(s) of {names[args.seat]} (seat {args.seat}), seed {seed}")
    if args.json:
        write_json(args.json, [{"choice": c, "action": str(d.action),
                                "trace": trace_json(d.trace)}
                               for c, d in traces])
    return 0


def _agent(agents, seat: int) -> str:
    agent = agents[seat]
    fallback = getattr(agent, "fallback", None)
    return f"{fallback.name} decided" if fallback is not None else f"{agent.name} decided"
