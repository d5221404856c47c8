"""Benchmark of rule players: decisions per second per personality, full rounds
per second with five rule players, the time to load a `.rul` file, and one
personality's decisions per second at RECYCLE President (`recycle.climbing.adapter`:
the view built from the interpreter's options) against native President.

    python bench/bench_personalities.py [--seconds 2] [--runs 3] [--smoke]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from importlib import resources

from personalities.catalog import shipped_names, shipped_text
from personalities.reader import parse_personality
from president.agents.bots import make_bot, make_bots
from president.game.state import PresidentState
from timing import ONE_ROUND as SETTINGS, add_smoke_option, rounds_per_second, smoke

FIVE = ["Classic", "Cautious", "Aggressive", "Counter", "TwoHoarder"]
RECYCLE_PRESIDENT = str(resources.files("recycle.games").joinpath("President5.gdl"))


def five_rule_players(seconds: float, seed: int) -> tuple[float, float]:
    agents, _ = make_bots(FIVE, SETTINGS.players)
    return rounds_per_second(agents, seconds, seed)


def decisions_per_second(name: str, seconds: float, seed: int, game: str | None = None) -> float:
    """One personality deciding every position of random-ish games (all seats it);
    `game`: a RECYCLE climbing game instead of native President."""
    if game is None:
        agent = make_bot(name)
        new_state = lambda g: PresidentState.new_match(SETTINGS, seed + g)  # noqa: E731
    else:
        from recycle.climbing.adapter import climbing_bot, loaded
        from recycle.interp import new_game

        agent = climbing_bot(name, game)
        new_state = lambda g: new_game(loaded(game), seed + g)  # noqa: E731
    positions = []
    for g in range(20):
        state = new_state(g)
        others = random.Random(g)
        while not state.is_terminal():
            p = state.current_player()
            kept = state.clone() if game else state  # a RECYCLE observation reads its live state
            positions.append((kept.observation(p), kept.legal_actions()))
            legal = state.legal_actions()
            state.apply(legal[others.randrange(len(legal))])
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for obs, legal in positions:
            agent.choose(obs, legal, rng)
        done += len(positions)
    return done / elapsed


def load_ms(name: str, repeat: int = 200) -> float:
    text = shipped_text(name)
    start = time.perf_counter()
    for _ in range(repeat):
        parse_personality(text, name=name)
    return 1000 * (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), seconds=0.05, runs=1)
    print(f"{'personality':<12} {'decisions/s':>12} {'load ms':>8}")
    for name in shipped_names():
        dps = statistics.median(decisions_per_second(name, args.seconds / 2, s) for s in range(args.runs))
        print(f"{name:<12} {dps:>12,.0f} {load_ms(name):>8.2f}")
    runs = [five_rule_players(args.seconds, s) for s in range(args.runs)]
    print(f"full rounds per second, five rule players ({', '.join(FIVE)}): "
          f"{statistics.median(r for r, _ in runs):,.0f}")
    print(f"decisions per second in those rounds: {statistics.median(d for _, d in runs):,.0f}")
    # A/B interleaved (the machine is shared): native, then RECYCLE, in every run.
    pairs = [(decisions_per_second("Classic", args.seconds / 2, s),
              decisions_per_second("Classic", args.seconds / 2, s, RECYCLE_PRESIDENT)) for s in range(args.runs)]
    print(f"Classic decisions per second: native President {statistics.median(a for a, _ in pairs):,.0f}, "
          f"RECYCLE President5 {statistics.median(b for _, b in pairs):,.0f}")
    print(f"(median of {args.runs} runs)")


if __name__ == "__main__":
    main()
