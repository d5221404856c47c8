"""Benchmark of the RECYCLE interpreter: random games per second, and RECYCLE President
against the native President engine.

    python bench/bench_recycle.py [--seconds 2] [--runs 3] [--smoke] [GAME ...]

Plays seeded random games of Agram4, Hearts4 (corpus), President5, Poker5,
BigTwo4 and Daifugo4 (shipped with `recycle`) — or the games named: a shipped game's name or
a corpus file (`rcy/Comet4.rcy`) — through the same `play_game` loop every
caller uses, and prints, per game, the median of several runs: games, choices
and clones per second. The runs of the native engine (`bench_engine`: one-round
classic matches of 5 players) are interleaved with them, so the ratio of native
rounds to RECYCLE President5 games is measured under the same load; the issue
aims at a ratio of 5 or less.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from importlib import resources
from pathlib import Path

from rich.console import Console
from rich.table import Table

from timing import SHARED, add_smoke_option, random_rounds as native_run, smoke
from recycle.kernel.protocol import RandomAgent, play_game
from recycle.interp import new_game
from recycle.lang import load_game

GAMES = ["gdl/Agram4.gdl", "rcy/Hearts4.rcy", "President5", "Poker5", "BigTwo4", "Daifugo4"]
PRESIDENT = "President5"
AIM = 5.0


def game_file(name: str) -> Path:
    """A shipped game by name (`President5`), else a file of the corpus (`rcy/Hearts4.rcy`)."""
    shipped = resources.files("recycle.games").joinpath(f"{name}.gdl")
    return Path(str(shipped)) if shipped.is_file() else SHARED / "recycle-corpus" / name


def one_run(game, seconds: float, seed: int) -> tuple[float, float, float]:
    """(games, choices, clones) per second: random games for `seconds`, then clones of a
    position after the first choice for a quarter of that."""
    agents = [RandomAgent()] * new_game(game, 0).num_players
    rng = random.Random(seed)
    games = choices = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = new_game(game, seed * 1_000_003 + games)
        play_game(state, agents, rng)
        games += 1
        choices += state.choices
    state = new_game(game, seed)
    state.apply(state.legal_actions()[0])
    clones, start = 0, time.perf_counter()
    while (spent := time.perf_counter() - start) < seconds / 4:
        for _ in range(100):
            state.clone()
        clones += 100
    return games / elapsed, choices / elapsed, clones / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES,
                        help="shipped game names or corpus files (default: Agram4, Hearts4, President5, Poker5, BigTwo4, "
                             "Daifugo4)")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), seconds=0.05, runs=1, games=[PRESIDENT])
    missing = [name for name in args.games if not game_file(name).is_file()]
    if missing:
        sys.exit(f"no game file for {', '.join(missing)} (corpus looked for in {SHARED / 'recycle-corpus'})")
    games = {name: load_game(game_file(name)) for name in args.games}
    native, measured = [], {name: [] for name in games}
    for seed in range(args.runs):  # interleaved: every game sees the same load
        native.append(native_run(args.seconds, seed)[0])
        for name, game in games.items():
            measured[name].append(one_run(game, args.seconds, seed))
    table = Table(title=f"random games (median of {args.runs} runs of {args.seconds:g} s)")
    for column in ("game", "games/s", "choices/s", "clones/s"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name, runs in measured.items():
        table.add_row(name, *(f"{statistics.median(r[k] for r in runs):,.0f}" for k in range(3)))
    rounds = statistics.median(native)
    table.add_row("native President (rounds)", f"{rounds:,.0f}", "", "")
    console = Console()
    console.print(table)
    if PRESIDENT in measured:
        ours = statistics.median(r[0] for r in measured[PRESIDENT])
        console.print(f"native President rounds/s ÷ RECYCLE {PRESIDENT} games/s = {rounds / ours:.1f} "
                      f"(aim: {AIM:g} or less)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    console.print(f"load average {load:.1f} on {os.cpu_count()} cores while measuring")


if __name__ == "__main__":
    main()
