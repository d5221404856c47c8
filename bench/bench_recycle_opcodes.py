"""Bytecode instructions per random RECYCLE game, by function: a figure no load disturbs.

    python bench/bench_recycle_opcodes.py [--games 20] [--top 25] [--smoke] [GAME ...]

Plays seeded random games (`play_game`, random agents, after 30 games of warm-up so that the
fast engine has compiled what it compiles) with `sys.settrace` counting every bytecode
instruction (`f_trace_opcodes`), and prints the instructions per game and the functions that
run most of them; generated functions show as `<recycle FORM LINE:COLUMN>`. Counts say where
the interpreter spends its work, not what each instruction costs: calls into C (`sorted`,
`itertools`) count as one. Default games: President5 and BigTwo4 (shipped with `recycle`).
"""
from __future__ import annotations

import argparse
import collections
import random
import sys

from timing import add_smoke_option, smoke
from recycle.games import game_path
from recycle.interp import new_game
from recycle.kernel.protocol import RandomAgent, play_game
from recycle.lang import load_game

WARM_UP = 30


def opcodes(name: str, games: int) -> collections.Counter:
    """Instructions run per (file, function) over `games` seeded random games of `name`."""
    game = load_game(game_path(name))
    agents = [RandomAgent()] * new_game(game, 0).num_players
    for seed in range(WARM_UP):
        play_game(new_game(game, seed), agents, random.Random(seed))
    counts: collections.Counter = collections.Counter()

    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        key = (frame.f_code.co_filename.rsplit("/", 1)[-1], frame.f_code.co_name)

        def count(frame, event, arg):
            if event == "opcode":
                counts[key] += 1
            return count
        return count

    sys.settrace(trace)
    try:
        for seed in range(games):
            play_game(new_game(game, seed), agents, random.Random(f"1/{seed}"))
    finally:
        sys.settrace(None)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["President5", "BigTwo4"], help="shipped game names")
    parser.add_argument("--games", dest="count", type=int, default=20, help="games counted per game name")
    parser.add_argument("--top", type=int, default=25, help="functions listed per game")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), count=1, top=5, games=["President5"])
    for name in args.games:
        counts = opcodes(name, args.count)
        total = sum(counts.values())
        print(f"{name}: {total / args.count:,.0f} instructions a game ({args.count} games)")
        for (where, function), n in counts.most_common(args.top):
            print(f"  {100 * n / total:5.1f}% {n / args.count:10,.0f}  {where} {function}")


if __name__ == "__main__":
    main()
