"""How close inferred worlds come to the real hands, and what each method costs.

    python bench/bench_inference.py [--positions 30] [--worlds 300] [--smoke]

Positions are decisions of a five-seat table of Classic copies (seat 0, in
the play, some way into the round). For each method, `--worlds`
determinizations are drawn for each position, as the first iterations of an
ISMCTS search would draw them, and each is scored by the share of the
opponents' cards it puts in the hand that really holds them (per value:
suits do not matter in President). Uniform deals score what chance gives;
a perfect inference would score 100%. Cost is CPU milliseconds per position.
The opponent model is Classic, the model the opponents really follow.
"""
from __future__ import annotations

import argparse
import random
import time

from president.agents.bots import make_bot
from president.game.state import PresidentState
from recycle.search.rollouts import AgentModel
from recycle.search.inference import Inference
from beliefs import positions  # seat 0's decisions at tables of five Classic
from timing import add_smoke_option, smoke

METHODS = {
    "uniform deals": None,
    "rejection, q=0.2, tries=4 (`infer=0.2,tries=4`)": Inference(0.2, tries=4),
    "chain of 300 worlds, q=0.05 (`infer=0.05,pool=300`)": Inference(0.05, pool=300),
    "chain of 300 worlds, q=0.2 (`infer=0.2,pool=300`)": Inference(0.2, pool=300),
}


def placed(world: PresidentState, truth: PresidentState) -> tuple[int, int]:
    """(opponents' cards the world puts where they are, opponents' cards): by value, seat 0 observing."""
    right = sum(min(a, b) for p in range(1, truth.num_players) for a, b in zip(world.counts[p], truth.counts[p]))
    return right, sum(truth.sizes[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=300, help="determinizations per position")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), positions=2, worlds=5)
    found = positions(args.positions)
    model = AgentModel(make_bot("Classic"))
    print(f"{len(found)} positions, {args.worlds} worlds each")
    for name, inference in METHODS.items():
        right = total = 0
        start = time.process_time()
        for i, state in enumerate(found):
            rng, draw = random.Random(i), state.determinizer(0)
            if inference is not None:
                draw = inference.sampler(state, 0, draw, model)
            for _ in range(args.worlds):
                r, t = placed(draw(rng), state)
                right, total = right + r, total + t
        cpu = (time.process_time() - start) / len(found) * 1000
        print(f"{name:<55} {right / total:6.1%} of the cards where they are, {cpu:6.0f} CPU ms per position")


if __name__ == "__main__":
    main()
