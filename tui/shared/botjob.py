"""One bot decision as data, for any game's table (no Textual here).

A `DecisionJob` is taken on the app thread (the observation and legal actions
are copies of that moment) and `run` in a worker thread; a `BotDecision`
is a finished decision as the debug view lists it. Shared by the President
table and the table of any RECYCLE game: keep the API stable.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from recycle.kernel.protocol import Decision, decide


@dataclass(frozen=True)
class DecisionJob:
    """Everything one decision needs, captured on the app thread; `run` is thread-safe."""

    player: int
    agent: Any
    observation: Any
    legal: Sequence[Any]
    rng: random.Random

    def run(self) -> Decision:
        return decide(self.agent, self.observation, self.legal, self.rng, explain=True)


@dataclass(frozen=True)
class BotDecision:
    """A bot decision as the debug view lists it: where it was taken, who took it, and why."""

    round: int  # 1-based (a game without rounds uses 1)
    number: int  # position in the match, 1-based
    player: int
    name: str  # the seat's name on the table ("Ada")
    action: Any  # shown with str()
    trace: Any  # the agent's explanation (see `traceview.render_trace`), or None
    belief: Any = None  # what the bot believed the others held (`recycle.kernel.beliefs.Belief`), or None

    @property
    def label(self) -> str:
        return f"R{self.round} #{self.number:<3} {self.name}: {self.action}"
