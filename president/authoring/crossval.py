"""Cross-validation for `president imitate`: what is learned is kept only when it matches more decisions
it did not learn from (docs/imitate.md, "How `president imitate` searches").

The training rounds are cut into `FOLDS` folds of whole rounds. A plan (how a
file is learned: the induced rules kept, placed above the start's, before its
closing pass, or alone: `Placement`) is
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
from personalities.evaluator import decide
from personalities.induction import Features, Induced, induce
from personalities.matching import MatchRate, Scorer, bits
from personalities.mutation import Candidate
from personalities.records import RecordedDecision, Situation
from personalities.syntax import Comparison, Condition, Personality, PotentialKind, Rule
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


class Placement(enum.Enum):
    """Where a plan's induced rules go among the start's."""

    ABOVE = "above the start's"
    """Above all the start's rules: they decide first."""
    ALONE = "alone"
    """Without the start's rules (where no induced rule fires, the file passes or plays its lowest, as an
    empty rule list does)."""
    BEFORE_PASS = "above the start's last pass"
    """Between the start's rules and its closing `P` (`closing`): they decide only where none of the start's
    plays applied, so a rule can say "when nothing else beats the upcards" (the induction learns them from
    those decisions only)."""


@dataclass(frozen=True)
class LearningPlan:
    """How a file is learned from training decisions: induced rules (for leading and following decisions
    apart, or together) placed among the start's rules."""

    parts: tuple[RulesPart, ...] = ()
    placement: Placement = Placement.ABOVE

    @property
    def alone(self) -> bool:
        return self.placement is Placement.ALONE

    @property
    def kept(self) -> int:
        return sum(p.kept for p in self.parts)

    def words(self) -> str:
        if not self.kept:
            return "the start alone"
        return f"induced rules {self.placement.value} (" + "; ".join(p.words() for p in self.parts if p.kept) + ")"


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


def closing(start: Candidate) -> int:
    """Where `Placement.BEFORE_PASS` puts induced rules: before the start's first `P` without conditions (it
    decides everything below it), or at the end."""
    rules = start.personality.rules
    return next((k for k, r in enumerate(rules) if r.potential.kind is PotentialKind.PASS and not r.conditions),
                len(rules))


def reached(records: Sequence[RecordedDecision], start: Candidate, seed: int) -> int:
    """The decisions (bit i: the i-th leading or following one) where none of the start's rules above
    `closing` decides: where rules placed `BEFORE_PASS` may fire."""
    k = closing(start)
    lines = {r.line for r in start.personality.rules[:k]}
    rng = random.Random(seed)
    mine = [r for r in records if r.situation is not Situation.EXCHANGE]
    fired = [decide(start.personality, r.view, rng)[1] for r in mine]
    return bits([rule is None or rule.line not in lines for rule in fired])


def induce_placed(features: Features, placement: Placement, start: Candidate, seed: int, base: int | None = None,
                  reach: int | None = None, **options) -> list[Induced]:
    """The decision list induced for a placement: alone, above the start's rules (grown for what they add to
    them), or before its closing pass (learned from the decisions that reach it only)."""
    if placement is Placement.ALONE:
        return induce(features, **options)
    base = baseline(features.records, start, seed) if base is None else base
    if placement is Placement.ABOVE:
        return induce(features, baseline=base, **options)
    reach = reached(features.records, start, seed) if reach is None else reach
    return induce(features, baseline=base, remaining=reach, **options)


def placed(start: Candidate, found: Sequence[Induced], placement: Placement,
           origin: Callable[[Induced], str] = lambda i: "") -> Candidate:
    """The start's file with the induced rules placed."""
    rules, origins = rules_of(found), [o for i in found for o in origins_of(i, origin)]
    own, own_origins = list(start.personality.rules), list(start.origins)
    if placement is Placement.ALONE:
        return start.with_rules(rules, origins)
    k = 0 if placement is Placement.ABOVE else closing(start)
    return start.with_rules(own[:k] + rules + own[k:], own_origins[:k] + origins + own_origins[k:])


def induced_for(records: Sequence[RecordedDecision], part: RulesPart, start: Candidate, placement: Placement,
                seed: int) -> list[Induced]:
    """The induced rules a part keeps, learned from the records."""
    mine = _of(records, part.group)
    if not part.kept or not mine:
        return []
    return confined(induce_placed(Features(mine), placement, start, seed, max_rules=part.kept,
                                  max_conditions=part.depth, min_support=part.support), part.group)


def planned(start: Candidate, records: Sequence[RecordedDecision], plan: LearningPlan, seed: int,
            origin: Callable[[Induced], str] = lambda i: "") -> Candidate:
    """The file a plan learns from the records: its induced rules placed among the start's."""
    found = [i for part in plan.parts for i in induced_for(records, part, start, plan.placement, seed)]
    return placed(start, found, plan.placement, origin)


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
    scores: dict[tuple[Placement, RulesPart], int]  # (placement, part): its matches
    start_scores: dict[RuleGroup, int]

    def _best(self, group: RuleGroup, placement: Placement) -> tuple[RulesPart, int]:
        """The group's part matching most left-out decisions (ties: fewer rules, the larger support, fewer
        conditions), or no rules when none beats the start alone."""
        mine = {part: n for (where, part), n in self.scores.items() if part.group is group and where is placement}
        alone = placement is Placement.ALONE
        part, score = max(mine.items(), key=lambda kv: (kv[1], -kv[0].kept, kv[0].support, -kv[0].depth),
                          default=(None, 0))
        start = self.start_scores.get(group, 0)
        return (part, score) if part is not None and (score > start or alone) else (RulesPart(group, 0, 0, 0), start)

    def best(self) -> LearningPlan:
        """Rules for each situation apart, or for both together, above the start's rules or alone: whichever
        matches most left-out decisions (ties: apart, above). Induced rules are kept only where they beat
        the start alone."""
        plans = []
        for placement in Placement:
            apart = [self._best(RuleGroup.LEADING, placement), self._best(RuleGroup.FOLLOWING, placement)]
            plans.append((sum(n for _, n in apart), LearningPlan(tuple(p for p, _ in apart if p.kept), placement)))
            together = self._best(RuleGroup.PLAYING, placement)
            plans.append((together[1], LearningPlan((together[0],) if together[0].kept else (), placement)))
        # (max keeps the first of equals: apart before together, in `Placement`'s order)
        score, plan = max(plans, key=lambda sp: sp[0])
        return plan if plan.kept and score > self.start_score else START_ALONE

    def score(self, plan: LearningPlan) -> int:
        """The plan's left-out matches, over the leading and following decisions."""
        if not plan.kept:
            return self.start_score
        covered = {s for p in plan.parts for s in p.group.situations}
        rest = sum(self.start_scores.get(RuleGroup(s.value), 0) for s in (Situation.LEADING, Situation.FOLLOWING)
                   if s not in covered)
        return sum(self.scores[(plan.placement, p)] for p in plan.parts) + rest

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
            features = Features(mine)  # the start's right decisions and reach, once per fold and group:
            base, reach = baseline(mine, start, seed), reached(mine, start, seed)
            for depth, support, placement in itertools.product(depths, supports, Placement):
                found = confined(induce_placed(features, placement, start, seed, base, reach, max_rules=MAX_RULES,
                                               max_conditions=depth, min_support=support), group)
                matched: dict[int, int] = {}  # rules kept -> matches (keeping more than were found: the same file)
                for kept in KEPT[1:]:
                    used = min(kept, len(found))
                    if used not in matched:
                        matched[used] = judge.matched(placed(start, found[:used], placement).personality)
                    key = (placement, RulesPart(group, support, depth, kept))
                    scores[key] = scores.get(key, 0) + matched[used]
    return CrossValidation(cut, scores, start_scores)


def best_shipped(records: Sequence[RecordedDecision], seed: int) -> tuple[str, Personality, int]:
    """The shipped personality that matches most of the decisions (ties: the first by name), and its matches."""
    judge = Scorer(records, seed)
    names = sorted(shipped_names())
    scores = [judge.matched(shipped(name)) for name in names]
    best = max(range(len(names)), key=lambda i: (scores[i], -i))
    return names[best], shipped(names[best]), scores[best]
