"""What the benchmark scripts share (a library, not a benchmark): the timed loop of
random President rounds, where the shared folder is, and the `--smoke` option.

`--smoke` runs a script for a fraction of a second with tiny settings: it proves
the script still runs (the test suite runs every script this way), not how fast.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import time
from pathlib import Path

from president.settings import preset
from president.state import PresidentState
from recycle.kernel.protocol import RandomAgent, play_game

ONE_ROUND = dataclasses.replace(preset("classic"), rounds=1)  # 5 players, classic, one-round matches
SHARED = Path(os.environ.get("PRESIDENT_SHARED_DIR", Path(__file__).resolve().parents[1].parent / "shared"))


def rounds_per_second(agents: list, seconds: float, seed: int) -> tuple[float, float]:
    """Full one-round matches (5 players, classic) for `seconds`: (rounds/s, decisions/s)."""
    rng = random.Random(seed)
    rounds = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = PresidentState.new_match(ONE_ROUND, seed * 1_000_003 + rounds)
        play_game(state, agents, rng)
        rounds += 1
        decisions += len(state.history)
    return rounds / elapsed, decisions / elapsed


def random_rounds(seconds: float, seed: int) -> tuple[float, float]:
    """`rounds_per_second` with five random players: the engine alone."""
    return rounds_per_second([RandomAgent()] * 5, seconds, seed)


def add_smoke_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--smoke", action="store_true",
                        help="run for a fraction of a second with tiny settings (checks the script runs)")


def smoke(args: argparse.Namespace, **tiny) -> argparse.Namespace:
    """With `--smoke`, the given options replaced by their tiny values."""
    if getattr(args, "smoke", False):
        for key, value in tiny.items():
            setattr(args, key, value)
    return args
