"""Benchmark of a search's rollouts by a rule personality (the master level's `rollout=Classic`).

    python bench/bench_rule_rollouts.py [--runs 3] [--rollouts 20000] [--positions 24]
    python bench/bench_rule_rollouts.py --against ../old-checkout

Each rollout plays a copy of a position (`bench_search.decision_points`, truncated to its round as a
search's root is) to the end of the round with five Classic players, as `Rollout.run` does in a
search: short rollouts late in a round, where the work done once per rollout weighs most, are among
them. The figure is CPU microseconds per rollout (the machine is shared: CPU time, not wall time),
the median of the runs. `--against TREE` runs each run in a fresh process, alternating between this
tree and TREE (A B, B A, ...), and prints the ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_search import decision_points
from timing import add_smoke_option, smoke
from president.agents.bots import make_bot
from recycle.kernel.protocol import RandomAgent, play_out, unasked_when_forced

HERE = Path(__file__).resolve().parents[1]


def rollout_cost(rollouts: int, positions: int, seed: int) -> float:
    """CPU microseconds per rollout by Classic from `positions` roots, `rollouts` in all."""
    roots = [state.truncated() for state in decision_points(positions, seed=2024)]
    agent = make_bot("Classic")
    assert not isinstance(agent, RandomAgent)
    agents = [agent] * roots[0].num_players
    rng = random.Random(seed)
    copies = [roots[i % len(roots)].clone() for i in range(rollouts)]
    start = time.process_time()
    forced = unasked_when_forced(agents)
    for state in copies:  # `Rollout.run`: the compiled loop, or where it does not apply the protocol's
        if state.agents_playout(agents, rng) is None:
            play_out(state, [agent.choose] * len(agents), rng, forced)
    return (time.process_time() - start) / rollouts * 1e6


def compare(args: argparse.Namespace) -> None:
    trees = {"this tree": HERE, "against": Path(args.against).resolve()}
    costs: dict[str, list[float]] = {name: [] for name in trees}
    for run in range(args.runs):
        for name in (list(trees) if run % 2 == 0 else list(trees)[::-1]):
            env = dict(os.environ, PYTHONPATH=str(trees[name]))
            command = [sys.executable, __file__, "--emit-json", "--seed", str(run), "--rollouts", str(args.rollouts),
                       "--positions", str(args.positions)]
            out = subprocess.run(command, env=env, cwd=trees[name], capture_output=True, text=True, check=True)
            costs[name].append(json.loads(out.stdout))
    mine, theirs = statistics.median(costs["this tree"]), statistics.median(costs["against"])
    print(f"rollout by Classic, CPU us: this tree {mine:.1f}, against {theirs:.1f}: "
          f"{theirs / mine:.2f}x as fast (median of {args.runs} interleaved runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rollouts", type=int, default=20000)
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--against", metavar="TREE", help="another checkout to compare with, run by run")
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)  # one run, for --against
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), runs=1, rollouts=20, positions=2)
    if args.against:
        compare(args)
    elif args.emit_json:
        print(json.dumps(rollout_cost(args.rollouts, args.positions, args.seed)))
    else:
        cost = statistics.median(rollout_cost(args.rollouts, args.positions, seed) for seed in range(args.runs))
        print(f"rollout by Classic: {cost:.1f} CPU us (median of {args.runs} runs)")


if __name__ == "__main__":
    main()
