"""TAG's heuristic players on games without a climbing view: Poker5 (RECYCLE) and Tides of Time (native).

    python bench/tag_agents.py [--games 100] [--smoke]

Each bot plays `--games` games against random players, its seat rotating
(Poker5: one bot and four random; Tides: one against one, seats alternating),
then RHEA against OSLA on Tides. Printed: its win rate (first place, ties
shared) and mean rank with 95% intervals (Student t over games), and CPU
seconds per game. President's figures are the strength ladder's
(`bench/strength.py`, rungs `t_*` and `r_*`).
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from recycle.games import game_path
from recycle.games.tides.state import TidesState
from recycle.interp.setup import new_game
from recycle.kernel.protocol import play_game
from recycle.players import make_agent
from timing import add_smoke_option, smoke

BOTS = ["osla", "rhea", "rmhc"]


def interval(values: list[float]) -> str:
    m = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return f"{m:.3f} ± {half:.3f}"


def match(new_state, spec: str, opponent: str, games: int) -> str:
    wins, ranks = [], []
    start = time.process_time()
    for g in range(games):
        state = new_state(g)
        n = state.num_players
        seat = g % n
        agents = [make_agent(spec if s == seat else opponent) for s in range(n)]
        results = play_game(state, agents, random.Random(g))
        first = [s for s in range(n) if results.ranks[s] == 1]
        wins.append(1 / len(first) if seat in first else 0.0)
        ranks.append(results.ranks[seat])
    cpu = (time.process_time() - start) / games
    return f"| {spec} | {opponent} | {games} | {interval(wins)} | {interval(ranks)} | {cpu:.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per match-up")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), games=2)
    header = ["| bot | opponents | games | win rate | mean rank | CPU s/game |",
              "| --- | --- | ---: | --- | --- | ---: |"]
    poker = game_path("Poker5")
    print("Poker5 (RECYCLE), one bot and four random players")
    print("\n".join(header))
    for spec in (["random"] + BOTS)[: 2 if args.smoke else None]:
        print(match(lambda g: new_game(poker, seed=1000 + g), spec, "random", args.games))
    print("\nTides of Time (native), one against one")
    print("\n".join(header))
    for spec, opponent in [(b, "random") for b in BOTS] + [("rhea", "osla")]:
        print(match(lambda g: TidesState.new(2000 + g), spec, opponent, args.games))


if __name__ == "__main__":
    main()
