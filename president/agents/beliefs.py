"""A seat's belief about the others' hands from what that seat has seen: the inference chain's worlds.

The helper a person may ask for at the table ("what the unseen cards probably
are") and the calibration benchmark's "inference chain" use this: worlds of
the seat's information set drawn by the Metropolis chain of
`recycle.search.inference` (the opponents' decisions of the round weighed
under Classic, q=0.05, the master level's search), averaged. It reads the
seat's observation only.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Sequence

from recycle.kernel.beliefs import Belief, BeliefTally
from recycle.search.rollouts import AgentModel
from recycle.search.inference import Inference

from president.agents.bots import make_bot
from president.agents.opponents import known_policies
from president.game.state import PresidentState

#: The chain of the master level's search (`president.agents.levels.SEARCH`): q=0.05, 1,500 worlds.
CHAIN = Inference(0.05, pool=1500)
#: The opponents' model the chain weighs their decisions by.
MODEL = "Classic"


def seat_belief(root: PresidentState, seat: int, rng: random.Random, worlds: int = CHAIN.pool,
                inference: Inference = CHAIN, names: Sequence[str] = (),
                rules_dirs: tuple[Path, ...] = ()) -> Belief | None:
    """What `seat` may believe the others hold: the average of `worlds` worlds of its information set
    drawn by the inference chain. `root` is one world of that set (`observation(seat).sample_state`:
    taken while the table stands still, it is the seat's own copy, so this may run in a thread).
    `names`, the seats' bots as the table shows them, lets the chain weigh each rule personality's
    decisions by its own rules (`known_policies`)."""
    known = known_policies(names, seat, rules_dirs)
    draw = chain_sampler(root, seat, inference.knowing(known) if known else inference)
    tally = BeliefTally(seat)
    for _ in range(worlds):
        tally.add(draw(rng))
    how = f"{MODEL} as the model" + (f", {len(known)} opponents' own rules" if known else "")
    return tally.belief(f"{worlds} worlds of the inference chain ({how}, q={inference.q:g})")


def chain_sampler(root: PresidentState, seat: int, inference: Inference = CHAIN):
    """A function of an rng drawing worlds of `seat`'s information set (of which `root` is one) by the
    inference chain, with `MODEL` as the model of the others."""
    return inference.sampler(root, seat, root.determinizer(seat), AgentModel(make_bot(MODEL)))
