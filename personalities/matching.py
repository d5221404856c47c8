"""How often a personality plays what was recorded: its decision replayed on each recorded view.

A personality's decision on a record is the one it makes at the table: the
compiled walk of its rules on the recorded climbing view (`evaluator.decide`),
or for an exchange the documented gift (`player.exchange_choice`). A match is
that decision equal to the recorded play. Results are bitsets (an int, bit i
for record i) so that rule lists can be compared decision by decision cheaply;
a `Scorer` keeps them per personality text, so a file met again is not replayed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from personalities.evaluator import decide
from personalities.player import exchange_choice
from personalities.records import RecordedDecision, Situation
from personalities.syntax import Personality

#: A `Scorer` keeps this many personalities' results (bounded memory in long searches).
CACHE = 20_000


def bits(flags: Sequence[bool]) -> int:
    """Bit i set where flags[i]."""
    return int("".join("1" if f else "0" for f in reversed(flags)) or "0", 2)


def replay(personality: Personality, record: RecordedDecision, rng: random.Random):
    """What the personality plays on the record's view: a play, None (pass), or a gift."""
    if record.situation is Situation.EXCHANGE:
        return exchange_choice(record.view)
    return decide(personality, record.view, rng)[0]


def recorded(record: RecordedDecision):
    """The recorded play in the form `replay` returns (a play with wild jokers matches no rule's play)."""
    if record.situation is Situation.EXCHANGE:
        return record.gift
    return ("jokers", record.play) if record.jokers else record.play


@dataclass(frozen=True)
class Tally:
    """Matched decisions out of decisions, overall and per situation."""

    matched: int
    total: int
    by_situation: tuple[tuple[Situation, int, int], ...]

    @property
    def rate(self) -> float:
        return self.matched / self.total if self.total else 0.0


class Scorer:
    """Replays personalities on a fixed list of records; `mask(p)` is the bitset of matched records."""

    def __init__(self, records: Sequence[RecordedDecision], seed: int = 0) -> None:
        self.records = list(records)
        self.seed = seed
        self.wanted = [recorded(r) for r in self.records]
        self.all = (1 << len(self.records)) - 1
        self.situations = {s: bits([r.situation is s for r in self.records]) for s in Situation}
        self._cache: dict[str, int] = {}

    def mask(self, personality: Personality) -> int:
        key = str(personality)
        got = self._cache.get(key)
        if got is None:
            rng = random.Random(self.seed)  # the same draws for every personality: Random conditions compare fairly
            got = bits([replay(personality, r, rng) == w for r, w in zip(self.records, self.wanted)])
            if len(self._cache) >= CACHE:
                self._cache.clear()
            self._cache[key] = got
        return got

    def matched(self, personality: Personality) -> int:
        return self.mask(personality).bit_count()

    def tally(self, personality: Personality) -> Tally:
        m = self.mask(personality)
        by = tuple((s, (m & b).bit_count(), b.bit_count()) for s, b in self.situations.items() if b)
        return Tally(m.bit_count(), len(self.records), by)
