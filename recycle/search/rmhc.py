"""RMHC: random mutation hill climbing over the decider's next actions.

RHEA (`rhea.py`) with a gentler mutation: each generation redraws one
random gene of the best sequence and keeps the others (repaired where a
world makes them illegal). Same parameters, budget and fitness as `rhea`.
"""
from __future__ import annotations

from recycle.search.rhea import ONE, RHEAAgent, read_spec


def from_spec(params: dict[str, str], resolve) -> RHEAAgent:
    return read_spec("rmhc", params, resolve, ONE)
