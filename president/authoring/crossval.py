"""Cross-validation for `president imitate`: what is learned is kept only when it matches more decisions
it did not learn from (docs/imitate.md, "How `president imitate` searches").

The training rounds are cut into `FOLDS` folds of whole rounds. A plan (how a
file is learned: the induced rules kept above the start's, or alone) is
learned on all folds but one and scored on the one left out, in turn; its
cross-validated match is the sum over the folds. The held-out rounds of
`president imitate` are never read here.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from personalities.catalog import shipped, shipped_names
from personalities.induction import Features, Induced, induce
from personalities.matching import MatchRate, Scorer
from personalities.mutation import Candidate
from personalities.records import RecordedDecision
from personalities.syntax import Personality
from recycle.tournament.schedule import derive_seed

#: Folds of the training rounds.
FOLDS = 5
#: Least supports of an induced rule tried (decisions it must play right).
SUPPORTS = (3, 6, 12, 24, 48)
#: Most conditions an induced rule may have, tried alike. Deeper rules fit more of the records and of
#: chance (docs/imitate.md, "Richer induced rules"), so one depth is tried.
DEPTHS = (3,)
#: How many induced rules, from the top of the list, a plan keeps (at most; 0 = none, the start alone).
KEPT = (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 80)
#: Most rules induced.
MAX_RULES = max(KEPT)


@dataclass(frozen=True)
class Plan:
    """How a file is learned from training decisions: the top `kept` induced rules (least support `support`,
    at most `depth` conditions), above the start's rules or `alone`."""

    support: int
    depth: int
    kept: int
    alone: bool = False

    def words(self) -> str:
        if not self.kept:
            return "the start alone"
        where = "alone" if self.alone else "above the start's rules"
        return (f"at most {self.kept} induced rules {where} (rules supported by {self.support} decisions or more, "
                f"at most {self.depth} conditions)")


START_ALONE = Plan(SUPPORTS[-1], DEPTHS[0], 0)


def fold_rounds(records: Sequence[RecordedDecision], folds: int, seed: int) -> list[tuple[tuple, tuple]]:
    """(learn, aside) per fold: whole rounds, dealt to folds in an order drawn from the seed."""
    key = lambda r: (r.where.rsplit(":", 1)[0], r.round)  # noqa: E731 - one key, named once
    rounds = sorted({key(r) for r in records})
    random.Random(derive_seed(seed, "imitate", "folds")).shuffle(rounds)
    fold_of = {rnd: k % folds for k, rnd in enumerate(rounds)}
    out = []
    for k in range(min(folds, len(rounds))):
        out.append((tuple(r for r in records if fold_of[key(r)] != k), tuple(r for r in records if fold_of[key(r)] == k)))
    return out


def planned(start: Candidate, found: Sequence[Induced], plan: Plan, origin: Callable[[Induced], str]) -> Candidate:
    """The file a plan learns: the top induced rules, above the start's rules unless alone."""
    top = list(found[:plan.kept])
    rules, origins = [i.rule for i in top], [origin(i) for i in top]
    if not plan.alone:
        rules, origins = rules + list(start.personality.rules), origins + list(start.origins)
    return start.with_rules(rules, origins)


def _no_origin(_: Induced) -> str:
    return ""


def add(a: MatchRate | None, b: MatchRate) -> MatchRate:
    """Two tallies on different decisions, as one."""
    if a is None:
        return b
    by = {s: (m, n) for s, m, n in a.by_situation}
    for s, m, n in b.by_situation:
        m0, n0 = by.get(s, (0, 0))
        by[s] = (m0 + m, n0 + n)
    return MatchRate(a.matched + b.matched, a.total + b.total, tuple((s, m, n) for s, (m, n) in by.items()))


@dataclass
class CrossValidation:
    """The plans' cross-validated matches on the training decisions, and each fold's learned files."""

    folds: list[tuple[tuple, tuple]]
    scores: dict[Plan, int]
    start_score: int

    def best(self) -> Plan:
        """The plan matching most left-out decisions; ties: fewer rules, then the larger support. Induced rules
        are kept only when they match more than the start alone does."""
        plan, score = max(self.scores.items(), key=lambda kv: (kv[1], -kv[0].kept, kv[0].support, -kv[0].depth))
        return plan if score > self.start_score else START_ALONE

    @property
    def decisions(self) -> int:
        return sum(len(aside) for _, aside in self.folds)


def cross_validate(records: Sequence[RecordedDecision], start: Candidate, seed: int, folds: int = FOLDS,
                   supports: Sequence[int] = SUPPORTS, depths: Sequence[int] = DEPTHS) -> CrossValidation:
    """Every plan's matches on the decisions left out of its learning, summed over the folds."""
    cut = fold_rounds(records, folds, seed)
    scores: dict[Plan, int] = {}
    start_score = 0
    for learn, aside in cut:
        features, judge = Features(learn), Scorer(aside, seed)
        start_score += judge.matched(start.personality)
        for depth in depths:
            for support in supports:
                found = induce(features, max_rules=MAX_RULES, max_conditions=depth, min_support=support)
                for alone in (False, True):
                    for kept in KEPT[1:]:
                        plan = Plan(support, depth, kept, alone)
                        got = judge.matched(planned(start, found, replace_kept(plan, len(found)),
                                                    _no_origin).personality)
                        scores[plan] = scores.get(plan, 0) + got
    return CrossValidation(cut, scores, start_score)


def replace_kept(plan: Plan, available: int) -> Plan:
    """The plan with no more rules than were induced."""
    return plan if plan.kept <= available else Plan(plan.support, plan.depth, available, plan.alone)


def best_shipped(records: Sequence[RecordedDecision], seed: int) -> tuple[str, Personality, int]:
    """The shipped personality that matches most of the decisions (ties: the first by name), and its matches."""
    judge = Scorer(records, seed)
    names = sorted(shipped_names())
    scores = [judge.matched(shipped(name)) for name in names]
    best = max(range(len(names)), key=lambda i: (scores[i], -i))
    return names[best], shipped(names[best]), scores[best]
