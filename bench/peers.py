"""Our speed against peers, measured side by side: OpenSpiel and RLCard in a virtual environment
of their own, and our commands, alternating in one process tree.

    python bench/peers.py [--runs 5] [--seconds 3] [--venv .peers-venv] [--only rule] [--smoke]

Creates (once) a virtual environment with `open-spiel` and `rlcard` — never
dependencies of this project — and measures, run by run, alternating peer and
ours so a drifting load hits both alike:

| workload | ours | peer |
| random President rounds/s | `president simulate`, 5 random players | OpenSpiel's C++ `dou_dizhu`, random games/s from Python |
| five rule bots, rounds/s | `president simulate --players Classic,Cautious,Aggressive,Counter,TwoHoarder` | RLCard `doudizhu-rule-v1`, games/s |
| ISMCTS iterations per CPU second | our ISMCTS on President | OpenSpiel's Python ISMCTS on `hearts` |

and, with no peer, RECYCLE President5 random games/s against native
President rounds/s. Our figures come from the commands users run (whole
processes, start-up included, over runs long enough that it is small: `--rounds`
rounds, some 2 to 5 seconds, as long as a peer's timed loop, which leaves its own
start-up out), with our packages compiled to bytecode as an installed package has them.
Prints min / median / max of every figure and of every ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

from timing import add_smoke_option, smoke, with_bytecode

HERE = Path(__file__).resolve().parent
PRESIDENT = [sys.executable, "-m", "president.cli.main"]
FIVE_RULE_BOTS = "Classic,Cautious,Aggressive,Counter,TwoHoarder"

#: Peer workloads: each prints one JSON number (a rate) after running for `seconds`.
OPENSPIEL_DOU_DIZHU = """
import json, random, sys, time
import pyspiel
seconds = float(sys.argv[1]); rng = random.Random(0)
game = pyspiel.load_game("dou_dizhu")
games, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    games += 1
print(json.dumps(games / (time.perf_counter() - start)))
"""
RLCARD_RULE_BOTS = """
import json, sys, time
import rlcard
from rlcard import models
seconds = float(sys.argv[1])
env = rlcard.make("doudizhu", config={"seed": 0})
env.set_agents(models.load("doudizhu-rule-v1").agents)
games, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    env.run(is_training=False)
    games += 1
print(json.dumps(games / (time.perf_counter() - start)))
"""
OPENSPIEL_ISMCTS = """
import json, sys, time
import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
seconds = float(sys.argv[1])
game = pyspiel.load_game("hearts")
rng = np.random.RandomState(0)
bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=200,
                       random_state=rng)
state = game.new_initial_state()
while state.is_chance_node() or state.current_player() < 0:
    outcomes, probs = zip(*state.chance_outcomes())
    state.apply_action(int(rng.choice(outcomes, p=probs)))
    if not state.is_chance_node() and state.current_player() >= 0 and len(state.legal_actions()) == 1:
        state.apply_action(state.legal_actions()[0])
iterations, start = 0, time.process_time()
while time.process_time() - start < seconds:
    bot.step(state)
    iterations += 200
print(json.dumps(iterations / (time.process_time() - start)))
"""
OUR_ISMCTS = """
import json, random, sys, time
from president.agents.bots import make_bot
from president.game.settings import preset
from president.game.state import PresidentState
seconds = float(sys.argv[1])
agent = make_bot("ismcts:iterations=200")
state = PresidentState.new_match(preset("classic"), 1)
rng = random.Random(0)
iterations, start = 0, time.process_time()
while time.process_time() - start < seconds:
    player = state.current_player()
    agent.choose(state.observation(player), state.legal_actions(), rng)
    iterations += 200
print(json.dumps(iterations / (time.process_time() - start)))
"""


def peer_python(folder: Path) -> str:
    """The peers' interpreter, in a virtual environment of their own (made on first use)."""
    python = folder / "bin" / "python"
    if not python.exists():
        print(f"creating {folder} with open-spiel and rlcard (once)...", flush=True)
        venv.create(folder, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "open-spiel", "rlcard"], check=True)
    return str(python)


def rate(python: str, script: str, seconds: float) -> float:
    out = subprocess.run([python, "-c", script, str(seconds)], check=True, capture_output=True, text=True,
                         cwd=HERE).stdout
    return float(out.strip().splitlines()[-1])


def simulate_rate(players: str, rounds: int) -> float:
    """Rounds per second of `president simulate` as a user runs it: the whole command, wall clock."""
    argv = PRESIDENT + ["simulate", "--players", players, "--matches", str(max(1, rounds // 10)), "--rounds", "10",
                        "--seed", "1", "--json", os.devnull]
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=HERE.parent)
    return max(1, rounds // 10) * 10 / (time.perf_counter() - start)


def recycle_ratio(seconds: float) -> float:
    out = subprocess.run([sys.executable, str(HERE / "bench_recycle.py"), "President5", "--runs", "1",
                          "--seconds", str(seconds)], check=True, capture_output=True, text=True).stdout
    line = next(line for line in out.splitlines() if "÷" in line)
    return float(line.split("=")[1].split()[0])


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):>10,.2f}  ({min(values):,.2f} .. {max(values):,.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per peer measurement")
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per `president simulate` run")
    parser.add_argument("--venv", type=Path, default=HERE.parent / ".peers-venv")
    parser.add_argument("--only", metavar="WORD", help="only the workloads whose name holds WORD (e.g. `rul`)")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), runs=1, seconds=0.2, rounds=20)
    peers = None if args.smoke else peer_python(args.venv)
    with_bytecode(HERE.parent)
    rows: dict[str, dict[str, list[float]]] = {}
    workloads = [
        ("random President rounds/s vs OpenSpiel C++ dou_dizhu games/s",
         lambda: simulate_rate("random", args.rounds), OPENSPIEL_DOU_DIZHU),
        ("five .rul bots rounds/s vs RLCard doudizhu-rule-v1 games/s",
         lambda: simulate_rate(FIVE_RULE_BOTS, args.rounds), RLCARD_RULE_BOTS),
        ("ISMCTS iterations per CPU second vs OpenSpiel Python ISMCTS (hearts)",
         lambda: rate(sys.executable, OUR_ISMCTS, args.seconds), OPENSPIEL_ISMCTS),
    ]
    if args.only:
        workloads = [w for w in workloads if args.only in w[0]]
    load = os.getloadavg()[0]
    for _ in range(args.runs):
        for name, ours, peer in workloads:
            row = rows.setdefault(name, {"ours": [], "peer": []})
            row["ours"].append(ours())
            if peers:
                row["peer"].append(rate(peers, peer, args.seconds))
        if not args.only or args.only in "RECYCLE President5":
            rows.setdefault("RECYCLE President5 slower than native (x)", {"ours": [], "peer": []})["ours"].append(
                recycle_ratio(args.seconds / 3))
    print(f"median (min .. max) of {args.runs} run(s); load average {load:.1f} -> {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    for name, row in rows.items():
        print(name)
        print(f"  ours   {spread(row['ours'])}")
        if row["peer"]:
            ratios = [a / b for a, b in zip(row["ours"], row["peer"])]
            print(f"  peer   {spread(row['peer'])}")
            print(f"  ratio  {spread(ratios)}")
    if args.smoke:
        print(json.dumps({name: row["ours"] for name, row in rows.items()}))


if __name__ == "__main__":
    main()
