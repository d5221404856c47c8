"""Rules induced from recorded decisions: a decision list whose tests are `.rul` conditions.

The learner reads every decision as a `.rul` player would: for each potential
(`7`, `Lp`, `H*`, `P`, ...) the play it resolves to on the recorded view, and
for each game variable its value there (`CardVal` and the other variables of
the considered play, per potential). A rule is a potential and conditions
`Variable comparison value`, exactly what a `.rul` line can say, so every
induced rule is written back as a rule line.

It grows the list from the top, as the rules are tried (sequential covering):
each new rule is the potential and conditions that fire on the most decisions
not yet covered while playing the recorded play on at least a share `purity`
of them; conditions are added one at a time, each the split that most raises
that share (FOIL's information gain, as a decision tree chooses its splits).
The share starts at 1 and is lowered step by step, so precise exceptions
(`Lp CardVal < Q`) come above the broad rules that would take their
decisions (`L*`). Everything is a bitset over decisions; no rule is played.

Besides single rules it learns ladders (`Ladder`): a block of value rules in
ascending order, one a value, all with the same conditions. The first rung
that applies plays the lowest value meeting the rungs' own conditions, which
no single potential names: with `MyLowestCard < v` on rung `v`, the
second-lowest value; with `NumThisValue > 1`, the lowest set of two cards or
more. The conditions learned for a ladder (on the fixed game variables) go on
every rung, and the file says what the block does in a comment above it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from personalities.records import RecordedDecision, Situation
from personalities.resolution import READERS, FIXED, OF_PLAY, VALUE, code_of, resolve_code
from personalities.syntax import COUNT_MODIFIERS, Comparison, Condition, Potential, PotentialKind, Rule
from personalities.variables import Variable
from personalities.view import TWO

#: Every potential a rule can have (the value potentials, L and H with each modifier, and P).
POTENTIALS = tuple([Potential(PotentialKind.VALUE, v) for v in range(3, TWO + 1)]
                   + [Potential(k, modifier=m) for k in (PotentialKind.LOWEST, PotentialKind.HIGHEST)
                      for m in COUNT_MODIFIERS] + [Potential(PotentialKind.PASS)])
#: Variables a condition may read (Random would make the rule a coin).
VARIABLES = tuple(v for v in Variable if v is not Variable.RANDOM)


@dataclass(frozen=True)
class Ladder:
    """Value rules in ascending order, one a value (3 to ace: no twos, as `L`), each with the same conditions:
    the first rung that applies plays the lowest value meeting `each` (conditions on the considered play).
    `above_lowest`: rung `v` also has `MyLowestCard < v`, so my lowest value is skipped (the second-lowest
    value, when `each` asks nothing more). A `.rul` file says it rung by rung, with today's language."""

    above_lowest: bool
    each: tuple[Condition, ...] = ()

    @property
    def values(self) -> range:
        return range(4 if self.above_lowest else 3, TWO)  # `MyLowestCard < 3` never holds: no rung 3

    def rung_conditions(self, value: int) -> tuple[Condition, ...]:
        above = (Condition(Variable.MY_LOWEST_CARD, Comparison.LT, value),) if self.above_lowest else ()
        return above + self.each

    def rungs(self, conditions: Sequence[Condition] = ()) -> tuple[Rule, ...]:
        """The block of rules, `conditions` (the block's own, on fixed variables) first on every rung."""
        return tuple(Rule(Potential(PotentialKind.VALUE, v), (*conditions, *self.rung_conditions(v)))
                     for v in self.values)

    def play(self, view) -> tuple | None:
        """The play the first rung that applies makes on `view`, or None (the block's own conditions aside)."""
        for v in self.values:
            play, ok, _ = resolve_code((VALUE, v, 0), view)
            if ok and all(c.comparison.test(_read(c.variable, view, play), c.value) for c in self.rung_conditions(v)):
                return play
        return None

    def words(self) -> str:
        """What the block plays, in words (the comment above it)."""
        what = "the second-lowest value (the lowest above my lowest)" if self.above_lowest else "the lowest value"
        return what + (" with " + " and ".join(map(str, self.each)) if self.each else "")


def _read(variable: Variable, view, play) -> int:
    kind, read = READERS[variable]
    return read(view) if kind == FIXED else read(view, play)


def _ladders() -> tuple[Ladder, ...]:
    """The ladder templates tried (a few: each is grown for every rule the list adds): the second-lowest value,
    and the lowest (or second-lowest) value whose set, or chance of being beaten, is of a kind. A plain
    lowest-value ladder is `L*`, and the lowest single or pair above nothing is `L` or `Lp`: not repeated."""
    count = [Condition(Variable.NUM_THIS_VALUE, c, n) for c, n in ((Comparison.EQ, 1), (Comparison.EQ, 2))]
    odds = [Condition(Variable.FOLLOW_ODDS, c, 50) for c in (Comparison.LT, Comparison.GT)]
    return (Ladder(True), *(Ladder(True, (c,)) for c in count + odds),
            Ladder(False, (Condition(Variable.NUM_THIS_VALUE, Comparison.GT, 1),)), *(Ladder(False, (c,)) for c in odds))


#: Every ladder a rule can be.
LADDERS = _ladders()
#: What an induced rule plays: a potential, or a ladder.
CHOICES: tuple[Potential | Ladder, ...] = POTENTIALS + LADDERS
#: Purity steps tried, highest first: a rule must play the recorded play on this share of its firings.
PURITIES = (1.0, 0.97, 0.93, 0.88, 0.8, 0.7, 0.6)
#: Variables with more distinct values than this get thresholds at quantiles only (bounded work).
MAX_THRESHOLDS = 24


@dataclass(frozen=True)
class Induced:
    """An induced rule (or a ladder's block of rules, top rung first) and what it did on the training
    decisions it was learned from."""

    rules: tuple[Rule, ...]
    fired: int  # uncovered training decisions it fired on, when it was added
    correct: int  # of which it played the recorded play
    ladder: Ladder | None = None

    def words(self) -> str:
        """What it is, for the file's comment: a ladder says what its block plays."""
        if self.ladder is None:
            return "a rule"
        block = self.rules[0].conditions[:len(self.rules[0].conditions) - len(self.ladder.each) - self.ladder.above_lowest]
        when = f", when {' and '.join(map(str, block))}" if block else ""
        return f"a ladder of {len(self.rules)} rules: play {self.ladder.words()}{when}"

    def confined(self, condition: Condition) -> "Induced":
        """The same, `condition` first on every rule."""
        return replace(self, rules=tuple(Rule(r.potential, (condition, *r.conditions)) for r in self.rules))


def _count(mask: int) -> int:
    return mask.bit_count()


class Features:
    """The bitsets the learner reads: per potential, where it applies and where it plays the recorded
    play; per condition (on a potential), where it holds."""

    def __init__(self, records: Sequence[RecordedDecision]) -> None:
        self.records = [r for r in records if r.situation is not Situation.EXCHANGE]
        self.all = (1 << len(self.records)) - 1
        self.applies: dict[Potential, int] = {}
        self.correct: dict[Potential, int] = {}
        self.plays: dict[Potential, list] = {}
        for potential in CHOICES:
            code = code_of(potential) if isinstance(potential, Potential) else None
            applies = correct = 0
            plays = []
            for i, r in enumerate(self.records):
                if code is None:
                    play = potential.play(r.view)
                    ok = play is not None
                else:
                    play, ok, _ = resolve_code(code, r.view)
                plays.append(play if ok else None)
                if ok:
                    applies |= 1 << i
                    if play == r.play and not r.jokers:
                        correct |= 1 << i
            self.applies[potential], self.correct[potential], self.plays[potential] = applies, correct, plays
        self._conditions: dict[tuple, list[tuple[Condition, int]]] = {}

    def conditions(self, potential: Potential) -> list[tuple[Condition, int]]:
        """Every condition worth testing on this potential, with the bitset where it holds."""
        fixed = [v for v in VARIABLES if READERS[v][0] == FIXED]
        # a ladder's conditions are the whole block's: the fixed variables only (its rungs ask the rest)
        played = [v for v in VARIABLES if READERS[v][0] == OF_PLAY] \
            if isinstance(potential, Potential) and potential.kind is not PotentialKind.PASS else []
        out = []
        for variable in fixed:
            out += self._conditions_of(variable, None)
        for variable in played:
            out += self._conditions_of(variable, potential)
        return out

    def _conditions_of(self, variable: Variable, potential: Potential | None) -> list[tuple[Condition, int]]:
        key = (variable, potential)
        got = self._conditions.get(key)
        if got is not None:
            return got
        read = READERS[variable][1]
        where: dict[int, int] = {}
        if potential is None:
            for i, r in enumerate(self.records):
                x = read(r.view)
                where[x] = where.get(x, 0) | (1 << i)
        else:
            applies, plays = self.applies[potential], self.plays[potential]
            for i, r in enumerate(self.records):
                if applies >> i & 1:
                    x = read(r.view, plays[i])
                    where[x] = where.get(x, 0) | (1 << i)
        got = self._conditions[key] = _splits(variable, where)
        return got


def _splits(variable: Variable, where: dict[int, int]) -> list[tuple[Condition, int]]:
    """`=`, `!`, `<`, `>` conditions on the values seen, with where each holds."""
    values = sorted(v for v in where if not (variable.is_card_value and v == 2))
    if len(values) < 2:
        return []
    out = []
    if len(values) <= MAX_THRESHOLDS:
        for v in values:
            out.append((Condition(variable, Comparison.EQ, v), where[v]))
            out.append((Condition(variable, Comparison.NE, v), _union(where, values, lambda w: w != v)))
        cuts = values
    else:
        step = len(values) / MAX_THRESHOLDS
        cuts = sorted({values[int(k * step)] for k in range(MAX_THRESHOLDS)})
    for cut in cuts[1:]:
        out.append((Condition(variable, Comparison.LT, cut), _union(where, values, lambda w: w < cut)))
    for cut in cuts[:-1]:
        out.append((Condition(variable, Comparison.GT, cut), _union(where, values, lambda w: w > cut)))
    return out


def _union(where: dict[int, int], values: list[int], keep) -> int:
    mask = 0
    for v in values:
        if keep(v):
            mask |= where[v]
    return mask


def _foil(p0: int, n0: int, p1: int, n1: int) -> float:
    """FOIL's gain of narrowing (p0 right, n0 wrong) to (p1, n1)."""
    if p1 == 0:
        return -math.inf
    return p1 * (math.log2(p1 / (p1 + n1)) - math.log2(p0 / (p0 + n0)))


def grow(features: Features, potential: Potential, remaining: int, purity: float, max_conditions: int,
         min_support: int, baseline: int | None = None) -> tuple[tuple[Condition, ...], int] | None:
    """Conditions on `potential` reaching `purity` on `remaining`, and where the rule fires; None if none do.
    With a `baseline` (the decisions the rules below already play right), a rule is right where it plays
    the recorded play and the baseline did not, wrong where the baseline did and it does not."""
    right_of = features.correct[potential]
    wrong_of = ~right_of
    if baseline is not None:
        right_of, wrong_of = right_of & ~baseline, baseline & ~right_of
    mask = features.applies[potential] & remaining
    conditions: list[Condition] = []
    p, n = _count(mask & right_of), _count(mask & wrong_of)
    while p >= min_support and p < purity * (p + n) and len(conditions) < max_conditions:
        best = None
        for condition, holds in features.conditions(potential):
            m = mask & holds
            p1 = _count(m & right_of)
            if p1 < min_support:
                continue
            n1 = _count(m & wrong_of)
            gain = _foil(p, n, p1, n1)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, condition, m, p1, n1)
        if best is None:
            return None
        _, condition, mask, p, n = best
        conditions.append(condition)
    if p < min_support or p < purity * (p + n):
        return None
    return tuple(conditions), mask


def induce(records: Sequence[RecordedDecision] | Features, max_rules: int = 40, max_conditions: int = 3,
           min_support: int = 3, baseline: int | None = None, remaining: int | None = None) -> list[Induced]:
    """A decision list for the recorded plays (leading and following decisions), top rule first.

    `min_support`: a rule must play the recorded play on at least this many decisions (higher for
    noisy records, such as a search player's: fewer rules that fit chance). `baseline`: the list goes
    above rules that already play these decisions right (bit i: `Features.records[i]`); each rule is
    then grown for what it adds to them (`grow`), not for its own share. `remaining`: the decisions the list
    may decide (bit i as for `baseline`; default all): rules placed below others are learned where those
    others do not decide."""
    features = records if isinstance(records, Features) else Features(records)
    remaining = features.all if remaining is None else remaining & features.all
    rules: list[Induced] = []
    for purity in PURITIES:
        while len(rules) < max_rules and remaining:
            best = None
            for potential in CHOICES:
                grown = grow(features, potential, remaining, purity, max_conditions, min_support, baseline)
                if grown is None:
                    continue
                conditions, mask = grown
                right = _count(mask & features.correct[potential])
                # with a baseline, what it adds: right where the baseline was wrong, less the reverse
                worth = right if baseline is None else right - _count(mask & baseline)
                if best is None or worth > best[0]:
                    best = (worth, potential, conditions, mask, right)
            if best is None:
                break
            _, potential, conditions, mask, right = best
            if isinstance(potential, Ladder):
                rules.append(Induced(potential.rungs(conditions), _count(mask), right, potential))
            else:
                rules.append(Induced((Rule(potential, conditions),), _count(mask), right))
            remaining &= ~mask
    return rules
