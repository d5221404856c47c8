"""Cross-validation for `president imitate`: what is learned is kept only when it matches more decisions
it did not learn from (docs/imitate.md, "How `president imitate` searches").

The training rounds are cut into `FOLDS` folds of whole rounds. A plan (how a
file is learned: the induced rules kept above the start's, or alone) is
learned on all folds but one and scored on the one left out, in turn; its
cross-validated match is the sum over the folds. The held-out rounds of
`president imitate` are never read here.
"""
from __future__ import annotations

import enum
import itertools
import random
from dataclasses import dataclass
from typing import Callable, Sequence

from personalities.catalog import shipped, shipped_names
from personalities.induction import Features, Induced, induce
from personalities.matching import MatchRate, Scorer
from personalities.mutation import Candidate
from personalities.records import RecordedDecision, Situation
from personalities.syntax import Comparison, Condition, Personality, Rule
from personalities.variables import Variable
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


class RuleGroup(enum.Enum):
    """The decisions a list of rules is induced from and decides."""

    LEADING = "leading"
    """Leading decisions only: each rule begins `Lead = 1`."""
    FOLLOWING = "following"
    """Following decisions only: each rule begins `Lead = 0`."""
    PLAYING = "playing"
    """Leading and following decisions together, as one list."""

    @property
    def situations(self) -> tuple[Situation, ...]:
        return (Situation(self.value),) if self is not RuleGroup.PLAYING else (Situation.LEADING, Situation.FOLLOWING)


@dataclass(frozen=True)
class RulesPart:
    """How a group's rules are learned: the top `kept` induced rules (least support `support`, at most
    `depth` conditions besides the one that confines them to their situation)."""

    group: RuleGroup
    support: int
    depth: int
    kept: int

    def words(self) -> str:
        return (f"{self.group.value}: {self.kept} rules supported by {self.support} decisions or more, at most "
                f"{self.depth} conditions" if self.kept else f"{self.group.value}: no rules")


@dataclass(frozen=True)
class LearningPlan:
    """How a file is learned from training decisions: induced rules (for leading and following decisions
    apart, or together) above the start's rules."""

    parts: tuple[RulesPart, ...] = ()
    alone: bool = False  # without the start's rules below (where no induced rule fires, the file passes or plays
    # its lowest, as an empty rule list does)

    @property
    def kept(self) -> int:
        return sum(p.kept for p in self.parts)

    def words(self) -> str:
        if not self.kept:
            return "the start alone"
        where = "alone" if self.alone else "above the start's"
        return f"induced rules {where} (" + "; ".join(p.words() for p in self.parts if p.kept) + ")"


START_ALONE = LearningPlan()


def fold_rounds(records: Sequence[RecordedDecision], folds: int, seed: int) -> list[tuple[tuple, tuple]]:
    """(learn, aside) per fold: whole rounds, dealt to folds in an order drawn from the seed."""
    rounds = sorted({r.round_key for r in records})
    random.Random(derive_seed(seed, "imitate", "folds")).shuffle(rounds)
    fold_of = {rnd: k % folds for k, rnd in enumerate(rounds)}
    return [(tuple(r for r in records if fold_of[r.round_key] != k),
             tuple(r for r in records if fold_of[r.round_key] == k)) for k in range(min(folds, len(rounds)))]


def _of(records: Sequence[RecordedDecision], group: RuleGroup) -> list[RecordedDecision]:
    return [r for r in records if r.situation in group.situations]


def confined(found: Sequence[Induced], group: RuleGroup) -> list[Induced]:
    """The induced rules of one situation, each with `Lead = 1` (leading) or `Lead = 0` (following) first:
    a rule learned from one situation's decisions never decides the other's."""
    if group is RuleGroup.PLAYING:
        return list(found)
    lead = Condition(Variable.LEAD, Comparison.EQ, int(group is RuleGroup.LEADING))
    return [i.confined(lead) for i in found]


def baseline(records: Sequence[RecordedDecision], start: Candidate, seed: int) -> int:
    """What induced rules above the start's are grown to add to: the decisions the start plays right (scored
    with the seed every judge uses: a start with `Random` conditions plays as it is judged)."""
    return Scorer(records, seed).mask(start.personality)


def induced_for(records: Sequence[RecordedDecision], part: RulesPart, start: Candidate, alone: bool,
                seed: int) -> list[Induced]:
    """The induced rules a part keeps, learned from the records."""
    mine = _of(records, part.group)
    if not part.kept or not mine:
        return []
    return confined(induce(Features(mine), max_rules=part.kept, max_conditions=part.depth, min_support=part.support,
                           baseline=None if alone else baseline(mine, start, seed)), part.group)


def planned(start: Candidate, records: Sequence[RecordedDecision], plan: LearningPlan, seed: int,
            origin: Callable[[Induced], str] = lambda i: "") -> Candidate:
    """The file a plan learns from the records: its induced rules above the start's, or alone."""
    found = [i for part in plan.parts for i in induced_for(records, part, start, plan.alone, seed)]
    below = () if plan.alone else start.personality.rules
    return start.with_rules(rules_of(found) + list(below), [o for i in found for o in origins_of(i, origin)]
                            + ([] if plan.alone else list(start.origins)))


def rules_of(found: Sequence[Induced]) -> list[Rule]:
    """The rules of induced rules and ladders, in order."""
    return [r for i in found for r in i.rules]


#: The origin of a ladder's rungs below its first: the block's comment, above the first, says it all.
RUNG = "(the ladder above, continued)"


def origins_of(found: Induced, origin: Callable[[Induced], str]) -> list[str]:
    """One origin per rule: a ladder's first rung carries the block's, the others `RUNG`."""
    return [origin(found)] + [RUNG] * (len(found.rules) - 1)


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
    """Each part's cross-validated matches on the training decisions of its group, and the start's. A leading
    part's rules never fire when following and the other way round, so the two groups' matches add up."""

    folds: list[tuple[tuple, tuple]]
    scores: dict[tuple[bool, RulesPart], int]  # (alone, part): its matches
    start_scores: dict[RuleGroup, int]

    def _best(self, group: RuleGroup, alone: bool) -> tuple[RulesPart, int]:
        """The group's part matching most left-out decisions (ties: fewer rules, the larger support, fewer
        conditions), or no rules when none beats the start alone."""
        mine = {part: n for (solo, part), n in self.scores.items() if part.group is group and solo is alone}
        part, score = max(mine.items(), key=lambda kv: (kv[1], -kv[0].kept, kv[0].support, -kv[0].depth),
                          default=(None, 0))
        start = self.start_scores.get(group, 0)
        return (part, score) if part is not None and (score > start or alone) else (RulesPart(group, 0, 0, 0), start)

    def best(self) -> LearningPlan:
        """Rules for each situation apart, or for both together, above the start's rules or alone: whichever
        matches most left-out decisions (ties: apart, above). Induced rules are kept only where they beat
        the start alone."""
        plans = []
        for alone in (False, True):
            apart = [self._best(RuleGroup.LEADING, alone), self._best(RuleGroup.FOLLOWING, alone)]
            plans.append((sum(n for _, n in apart), LearningPlan(tuple(p for p, _ in apart if p.kept), alone)))
            together = self._best(RuleGroup.PLAYING, alone)
            plans.append((together[1], LearningPlan((together[0],) if together[0].kept else (), alone)))
        # (max keeps the first of equals: apart before together, above the start's before alone)
        score, plan = max(plans, key=lambda sp: sp[0])
        return plan if plan.kept and score > self.start_score else START_ALONE

    def score(self, plan: LearningPlan) -> int:
        """The plan's left-out matches, over the leading and following decisions."""
        if not plan.kept:
            return self.start_score
        covered = {s for p in plan.parts for s in p.group.situations}
        rest = sum(self.start_scores.get(RuleGroup(s.value), 0) for s in (Situation.LEADING, Situation.FOLLOWING)
                   if s not in covered)
        return sum(self.scores[(plan.alone, p)] for p in plan.parts) + rest

    @property
    def start_score(self) -> int:
        return self.start_scores.get(RuleGroup.PLAYING, 0)

    @property
    def decisions(self) -> int:
        return sum(len(_of(aside, RuleGroup.PLAYING)) for _, aside in self.folds)


def cross_validate(records: Sequence[RecordedDecision], start: Candidate, seed: int, folds: int = FOLDS,
                   supports: Sequence[int] = SUPPORTS, depths: Sequence[int] = DEPTHS) -> CrossValidation:
    """Every part's matches on the decisions of its group left out of its learning, summed over the folds."""
    cut = fold_rounds(records, folds, seed)
    scores: dict[RulesPart, int] = {}
    start_scores: dict[RuleGroup, int] = {}
    for learn, aside in cut:
        for group in RuleGroup:
            mine, judge = _of(learn, group), Scorer(_of(aside, group), seed)
            start_scores[group] = start_scores.get(group, 0) + judge.matched(start.personality)
            if not mine or not judge.records:
                continue
            features, base = Features(mine), baseline(mine, start, seed)  # the start's, once per fold and group
            for depth, support, alone in itertools.product(depths, supports, (False, True)):
                found = confined(induce(features, max_rules=MAX_RULES, max_conditions=depth, min_support=support,
                                        baseline=None if alone else base), group)
                matched: dict[int, int] = {}  # rules kept -> matches (keeping more than were found: the same file)
                for kept in KEPT[1:]:
                    used = min(kept, len(found))
                    if used not in matched:
                        rules = rules_of(found[:used]) + ([] if alone else list(start.personality.rules))
                        matched[used] = judge.matched(start.with_rules(rules, [""] * len(rules)).personality)
                    key = (alone, RulesPart(group, support, depth, kept))
                    scores[key] = scores.get(key, 0) + matched[used]
    return CrossValidation(cut, scores, start_scores)


def best_shipped(records: Sequence[RecordedDecision], seed: int) -> tuple[str, Personality, int]:
    """The shipped personality that matches most of the decisions (ties: the first by name), and its matches."""
    judge = Scorer(records, seed)
    names = sorted(shipped_names())
    scores = [judge.matched(shipped(name)) for name in names]
    best = max(range(len(names)), key=lambda i: (scores[i], -i))
    return names[best], shipped(names[best]), scores[best]
