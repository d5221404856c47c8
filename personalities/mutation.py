"""Mutations of a personality that keep it a valid `.rul` file (for `president evolve`).

Each mutation is one small edit a person could have made: a condition's
threshold or comparison, a condition added or removed (at most 10 per rule),
a rule's potential cards, a rule copied in from another personality (anywhere,
or as a new last resort at the end), a rule deleted or moved. Every rule carries an *origin*, a short note of where it
came from, which the evolved file keeps as a comment above it.

A mutated personality is always read back from its own text (`str`) before
it is returned, so what evolution keeps is exactly what `president check`
accepts.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from personalities.reader import parse_personality
from personalities.syntax import COUNT_MODIFIERS, MAX_CONDITIONS, Comparison, Condition, Personality, Potential, PotentialKind, Rule
from personalities.variables import Variable
from personalities.view import TWO

#: Variables a mutation may add a condition on. Random is left out: it makes a rule a coin.
VARIABLES = tuple(v for v in Variable if v is not Variable.RANDOM)
COMPARISONS = tuple(Comparison)
#: How many draws one mutation may take to find an edit that changes the file (bounded).
ATTEMPTS = 50


@dataclass(frozen=True)
class Candidate:
    """A personality and one origin note per rule (same order)."""

    personality: Personality
    origins: tuple[str, ...]

    @classmethod
    def of(cls, personality: Personality, source: str) -> "Candidate":
        return cls(personality, tuple(f"{source} line {r.line}" if r.line else source for r in personality.rules))

    @property
    def text(self) -> str:
        return str(self.personality)

    def with_rules(self, rules: Sequence[Rule], origins: Sequence[str]) -> "Candidate":
        checked = parse_personality(str(replace(self.personality, rules=tuple(rules))),
                                    name=self.personality.name)
        return Candidate(replace(checked, description=self.personality.description), tuple(origins))


def _values(variable: Variable) -> list[int]:
    return sorted(variable.possible_values - ({2} if variable.is_card_value else set()))


def random_condition(rng: random.Random) -> Condition:
    variable = rng.choice(VARIABLES)
    return Condition(variable, rng.choice(COMPARISONS), rng.choice(_values(variable)))


def random_potential(rng: random.Random) -> Potential:
    kind = rng.choice(list(PotentialKind))
    if kind is PotentialKind.VALUE:
        return Potential(kind, rng.randint(3, TWO))
    if kind is PotentialKind.PASS:
        return Potential(kind)
    return Potential(kind, modifier=rng.choice(COUNT_MODIFIERS))


class Mutator:
    """Draws one valid edit of a candidate; `donors` are the rules other personalities offer."""

    def __init__(self, donors: Sequence[tuple[Rule, str]] = ()) -> None:
        self.donors = list(donors)
        self.kinds: list[tuple[str, Callable]] = [
            ("threshold", self._threshold), ("comparison", self._comparison),
            ("add condition", self._add_condition), ("remove condition", self._remove_condition),
            ("potential", self._potential), ("delete rule", self._delete_rule), ("move rule", self._move_rule),
        ] + ([("copy rule", self._copy_rule), ("append rule", self._append_rule)] if self.donors else [])

    def mutate(self, parent: Candidate, rng: random.Random, note: str) -> tuple[Candidate, str]:
        """A child differing from `parent` by one edit, and what the edit was."""
        for _ in range(ATTEMPTS):
            kind, edit = rng.choice(self.kinds)
            rules, origins = list(parent.personality.rules), list(parent.origins)
            what = edit(rules, origins, rng, note)
            if what is None or tuple(rules) == parent.personality.rules:
                continue
            return parent.with_rules(rules, origins), f"{kind}: {what}"
        return parent, "no edit found"

    # Each edit changes `rules` and `origins` in place and says what it did, or returns None.
    def _pick_condition(self, rules, rng):
        places = [(i, j) for i, r in enumerate(rules) for j in range(len(r.conditions))]
        return rng.choice(places) if places else None

    def _set_condition(self, rules, origins, i, j, new: Condition, note: str) -> str:
        old = rules[i].conditions[j]
        conditions = list(rules[i].conditions)
        conditions[j] = new
        rules[i] = Rule(rules[i].potential, tuple(conditions))
        origins[i] = f"{origins[i]}; {note}: {old} -> {new}"
        return f"rule {i + 1}: {old} -> {new}"

    def _edit_condition(self, rules, origins, rng, note, change: Callable[[Condition], Condition]):
        place = self._pick_condition(rules, rng)
        if place is None:
            return None
        i, j = place
        return self._set_condition(rules, origins, i, j, change(rules[i].conditions[j]), note)

    def _threshold(self, rules, origins, rng, note):
        def nearby(old: Condition) -> Condition:
            values = _values(old.variable)
            at = values.index(old.value) if old.value in values else 0
            step = rng.choice((-3, -2, -1, 1, 2, 3))
            return replace(old, value=values[max(0, min(len(values) - 1, at + step))])
        return self._edit_condition(rules, origins, rng, note, nearby)

    def _comparison(self, rules, origins, rng, note):
        def other(old: Condition) -> Condition:
            return replace(old, comparison=rng.choice([c for c in COMPARISONS if c != old.comparison]))
        return self._edit_condition(rules, origins, rng, note, other)

    def _add_condition(self, rules, origins, rng, note):
        open_rules = [i for i, r in enumerate(rules) if len(r.conditions) < MAX_CONDITIONS]
        if not open_rules:
            return None
        i = rng.choice(open_rules)
        condition = random_condition(rng)
        rules[i] = Rule(rules[i].potential, rules[i].conditions + (condition,))
        origins[i] = f"{origins[i]}; {note}: added {condition}"
        return f"rule {i + 1}: added {condition}"

    def _remove_condition(self, rules, origins, rng, note):
        place = self._pick_condition(rules, rng)
        if place is None:
            return None
        i, j = place
        gone = rules[i].conditions[j]
        rules[i] = Rule(rules[i].potential, rules[i].conditions[:j] + rules[i].conditions[j + 1:])
        origins[i] = f"{origins[i]}; {note}: removed {gone}"
        return f"rule {i + 1}: removed {gone}"

    def _potential(self, rules, origins, rng, note):
        if not rules:
            return None
        i = rng.randrange(len(rules))
        new = random_potential(rng)
        old = rules[i].potential
        rules[i] = Rule(new, rules[i].conditions)
        origins[i] = f"{origins[i]}; {note}: {old} -> {new}"
        return f"rule {i + 1}: {old} -> {new}"

    def _delete_rule(self, rules, origins, rng, note):
        if len(rules) < 2:
            return None
        i = rng.randrange(len(rules))
        gone = rules.pop(i)
        origins.pop(i)
        return f"deleted rule {i + 1} ({gone})"

    def _move_rule(self, rules, origins, rng, note):
        if len(rules) < 2:
            return None
        i = rng.randrange(len(rules))
        j = max(0, min(len(rules) - 1, i + rng.choice((-1, 1))))
        rules.insert(j, rules.pop(i))
        origins.insert(j, origins.pop(i))
        return f"moved rule {i + 1} to {j + 1}"

    def _append_rule(self, rules, origins, rng, note):
        # A rule added last changes only the decisions where every other rule passed: rarely harmful,
        # and where a last resort is missing (a two when nothing else beats the upcards) a real gain.
        rule, source = rng.choice(self.donors)
        rules.append(Rule(rule.potential, rule.conditions))
        origins.append(f"copied from {source} ({note})")
        return f"appended {rule} from {source} as rule {len(rules)}"

    def _copy_rule(self, rules, origins, rng, note):
        rule, source = rng.choice(self.donors)
        at = rng.randint(0, len(rules))
        rules.insert(at, Rule(rule.potential, rule.conditions))
        origins.insert(at, f"copied from {source} ({note})")
        return f"copied {rule} from {source} as rule {at + 1}"
