"""What the benchmark scripts share (a library, not a benchmark): the timed loop of
random President rounds, where the shared folder is, and the `--smoke` option.

`--smoke` runs a script for a fraction of a second with tiny settings: it proves
the script still runs (the test suite runs every script this way), not how fast.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from president.game.settings import preset
from president.game.state import PresidentState
from president.match.tournament import PresidentMatch
from recycle.kernel.protocol import RandomAgent, play_game
from recycle.tournament import Journal, Schedule, Tally, run_tournament
from recycle.tournament.cluster import ClusterSpec

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


#: The tournament benchmarks' field and match length.
BOTS = ["Classic", "Cautious", "Aggressive", "Gambler", "Counter"]
ROUNDS_PER_MATCH = 10


def tournament_speed(rounds: int, jobs: int, seed: int, cluster: str | None = None) -> tuple[float, float, float]:
    """(rounds/s over the whole run, rounds/s after the first 20% of games, seconds to the first game).

    The whole-run figure pays, once per process, for start-up and for warming
    the rule engine's memo caches (the first ~100 matches of a process run
    ~30% slower); the steady figure is what a long tournament sees.
    """
    settings = preset("classic").with_overrides({"rounds": str(ROUNDS_PER_MATCH)})
    deals = max(1, rounds // (settings.players * ROUNDS_PER_MATCH))
    schedule = Schedule(len(BOTS), settings.players, deals, seed)
    tally = Tally(BOTS, settings.players)
    marks: dict[str, tuple[float, int]] = {}

    def progress(done: int) -> None:
        now = time.perf_counter() - start
        marks.setdefault("first", (now, done))
        if done >= schedule.total_games // 5:
            marks.setdefault("warm", (now, done))

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.create(Path(tmp) / "bench.jsonl", {"bench": True})
        start = time.perf_counter()
        with journal:
            run_tournament(schedule, BOTS, PresidentMatch(settings), tally, journal, jobs, progress=progress,
                           cluster=ClusterSpec.parse(cluster) if cluster else None)
        elapsed = time.perf_counter() - start
    warm_at, warm_games = marks["warm"]
    steady = (schedule.total_games - warm_games) * ROUNDS_PER_MATCH / (elapsed - warm_at)
    return tally.rounds / elapsed, steady, marks["first"][0]


def fresh_tournament_speed(rounds: int, jobs: int, seed: int, cluster: str | None = None) -> tuple[float, float, float]:
    """`tournament_speed` in a new process, as a user's `president tournament` starts: cold imports and
    cold memo caches for every configuration alike (in this process, later -j1 runs would reuse the
    rule engine's caches warmed by earlier runs, while workers always start cold)."""
    code = ("import json, sys; from timing import tournament_speed; "
            "print(json.dumps(tournament_speed(*map(json.loads, sys.argv[1:]))))")
    out = subprocess.run([sys.executable, "-c", code, str(rounds), str(jobs), str(seed), json.dumps(cluster)],
                         check=True, capture_output=True, text=True, cwd=Path(__file__).parent).stdout
    return tuple(json.loads(out.splitlines()[-1]))


def with_bytecode(*trees: str | Path) -> None:
    """Compile the packages of each source tree to bytecode, as an installed package has it (pip
    writes it at install): a command timed as a whole process then starts as a user's does, even
    where PYTHONDONTWRITEBYTECODE would otherwise have every start compile every module (~60 ms)."""
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", "president", "personalities", "recycle", "tui"],
                       cwd=tree, check=False, capture_output=True)  # a missing package is no error here


def add_smoke_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--smoke", action="store_true",
                        help="run for a fraction of a second with tiny settings (checks the script runs)")


def smoke(args: argparse.Namespace, **tiny) -> argparse.Namespace:
    """With `--smoke`, the given options replaced by their tiny values."""
    if getattr(args, "smoke", False):
        for key, value in tiny.items():
            setattr(args, key, value)
    return args
