"""Benchmark of the RECYCLE interpreter: random games per second on corpus games.

    python bench/bench_recycle.py [--seconds 2] [--runs 3] [GAME ...]

Plays seeded random games of Agram, Hearts and Comet (or the corpus files
named) through the same `play_game` loop every caller uses, and prints, per
game, the median of several runs: games, choices and clones per second.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from recycle.engine import RandomAgent, play_game
from recycle.interp import new_game
from recycle.lang import load_game

SHARED = Path(os.environ.get("PRESIDENT_SHARED_DIR", Path(__file__).resolve().parents[1].parent / "shared"))
GAMES = ["gdl/Agram4.gdl", "rcy/Hearts4.rcy", "rcy/Comet4.rcy"]


def one_run(game, seconds: float, seed: int) -> tuple[float, float, float]:
    agents = [RandomAgent()] * new_game(game, 0).num_players
    rng = random.Random(seed)
    games = choices = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = new_game(game, seed * 1_000_003 + games)
        play_game(state, agents, rng)
        games += 1
        choices += state.choices
    state = new_game(game, seed)  # clones of a position after the first choice
    state.apply(state.legal_actions()[0])
    clones, start = 0, time.perf_counter()
    while (spent := time.perf_counter() - start) < seconds / 4:
        for _ in range(100):
            state.clone()
        clones += 100
    return games / elapsed, choices / elapsed, clones / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES, help="corpus files (default: Agram4, Hearts4, Comet4)")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    corpus = SHARED / "recycle-corpus"
    if not corpus.is_dir():
        sys.exit(f"no corpus at {corpus}")
    table = Table(title=f"random games (median of {args.runs} runs of {args.seconds:g} s)")
    for name in ("game", "games/s", "choices/s", "clones/s"):
        table.add_column(name, justify="left" if name == "game" else "right")
    for name in args.games:
        game = load_game(corpus / name)
        runs = [one_run(game, args.seconds, seed) for seed in range(args.runs)]
        table.add_row(name, *(f"{statistics.median(r[k] for r in runs):,.0f}" for k in range(3)))
    Console().print(table)


if __name__ == "__main__":
    main()
