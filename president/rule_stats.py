"""How often each rule of a rule player fires in whole matches (`president stats`, evolved files)."""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Callable, Sequence

from recycle.kernel.protocol import Agent, play_game

from president.game.settings import Settings
from president.match.simulate import match_seed
from president.game.state import PresidentState


def count_firings(agents: Sequence[Agent], settings: Settings, rounds: int, seed: int, seat: int = 0,
                  advance: Callable[[int], None] | None = None) -> Counter:
    """Play `rounds` rounds (whole matches, so ranks and the exchange happen as in play) and count,
    for the rule player at `seat`, each play decision by the line of the rule that fired (or, when no
    rule fired, by the note saying how it chose)."""
    fired: Counter = Counter()

    def record(before, player: int, decision) -> None:
        if player == seat and decision.trace is not None and decision.trace.kind == "play":
            fired[decision.trace.fired_line or decision.trace.note] += 1

    played = match = 0
    while played < rounds:
        length = min(settings.rounds or 10, rounds - played)
        table = dataclasses.replace(settings, rounds=length, target_score=0)
        state = PresidentState.new_match(table, match_seed(seed, match))
        play_game(state, agents, random.Random(match_seed(seed, match) ^ 0x5EED), on_decision=record,
                  explain=True)
        played, match = played + length, match + 1
        if advance:
            advance(played)
    return fired
