"""A personality compiled for the untraced walk: one Python function per situation.

Every decision of every rule player without a trace (simulations, tournaments, search
rollouts) walks the rules; the traced walk of `evaluator` is the definition, and this is the
same walk, specialised for leading or following n cards (`_plan`) and written out as one
function (`_source`): no loop over rules, no tuples unpacked per condition, a value potential
resolved inline. `tests/test_rul_engine.py` checks decisions and draws against the traced walk.

Nothing from a `.rul` file becomes code: the generated source holds only this module's own
names and integer literals (card values, counts, the conditions' targets, which the rule model
bounds to 0..999,999,999); the file's rules, potentials and variable readers reach it as
constants passed in (`_k3`). `tests/test_rul_compiled.py` reads every generated source and
checks exactly that.
"""
from __future__ import annotations

import operator
from typing import Callable

from personalities.resolution import (FIXED, HIGHEST, LOWEST, PASS, RANDOM, READERS, VALUE, code_of, resolve_code,
                         when_no_rule_applies)
from personalities.syntax import Personality
from personalities.variables import Variable
from personalities.view import ClimbingView

#: view, rng -> (play or None, the rule that fired or None, None, note): `decide` untraced.
Walk = Callable

_OPERATORS = {operator.gt: ">", operator.lt: "<", operator.eq: "==", operator.ne: "!=", operator.ge: ">=",
              operator.le: "<="}
#: Play variables written inline (the others are called).
_INLINE = {Variable.CARD_VAL: "play[0]", Variable.NUM_THIS_VALUE: "hand[play[0]]"}


class Compiled:
    """A personality turned into ints and functions once, not re-read per decision."""

    __slots__ = ("personality", "rules", "slots", "walks", "draws")

    def __init__(self, personality: Personality) -> None:
        self.personality = personality
        #: (rule, potential code, [(condition, reader, comparison, target)]): what the traced walk reads
        self.rules = [(rule, code_of(rule.potential),
                       [(c, READERS[c.variable], c.comparison.compare, c.value) for c in rule.conditions])
                      for rule in personality.rules]
        places: dict[tuple[int, int, int], int] = {}  # each distinct potential: resolved once per decision
        self.slots = [places.setdefault(code, len(places)) for _, code, _ in self.rules]
        self.walks: dict[int, Walk] = {}
        self.draws = any(c.variable is Variable.RANDOM for rule in personality.rules for c in rule.conditions)

    def walk(self, view: ClimbingView) -> Walk:
        """The walk for this view's situation: leading (0) or following n cards."""
        up = view.upcards
        need = 0 if up is None else up[1]
        walk = self.walks.get(need)
        if walk is None:
            walk = self.walks[need] = _function(self, need)
        return walk


_COMPILED: dict[int, Compiled] = {}


def compiled(personality: Personality) -> Compiled:
    entry = _COMPILED.get(id(personality))
    if entry is None or entry.personality is not personality:
        if len(_COMPILED) > 1024:  # bounded: editors and evolution create many versions
            _COMPILED.clear()
        entry = _COMPILED[id(personality)] = Compiled(personality)
    return entry


def draws_random(personality: Personality) -> bool:
    """May a decision of this personality draw from the generator (a `Random` condition)?"""
    return compiled(personality).draws


def plan(personality: Personality, need: int) -> list:
    """The rules `personality` tries leading (`need` 0) or following `need` cards, as the walk tries
    them (`_plan`): what a compiled engine of a game (President's C rule players) turns into tables."""
    return _plan(compiled(personality), need)


def _plan(compiled: Compiled, need: int) -> list:
    """The rules worth trying when leading (`need` 0) or following `need` cards:
    (rule, code, slot, conditions read before the potential is resolved, the rest in order).

    Whether a rule fires and what is drawn stay those of trying every rule in order, because
    conditions are pure but for `Random`, and a `Random` is drawn exactly when the potential applies
    and every condition before it holds. So, in each rule, up to its first `Random`:
    - a `Lead` condition is known: false, the rule never fires (and draws nothing); true, it is dropped;
    - for L and H (whose resolution searches the hand), the other conditions on the position alone
      (`TotMyTwos > 0`) are read before the potential is resolved.
    L and H of an exact count other than the upcards' are dropped: they never apply.
    """
    lead = int(need == 0)
    plan = []
    for (rule, code, conditions), slot in zip(compiled.rules, compiled.slots):
        kind, _, exact = code
        searched = kind in (LOWEST, HIGHEST)
        if searched and exact and need and exact != need:
            continue
        first_random = next((i for i, c in enumerate(conditions) if c[1][0] == RANDOM), len(conditions))
        known = [i for i, c in enumerate(conditions[:first_random]) if c[0].variable is Variable.LEAD]
        if any(not conditions[i][2](lead, conditions[i][3]) for i in known):
            continue
        early = [i for i, c in enumerate(conditions[:first_random])
                 if searched and c[1][0] == FIXED and i not in known]
        late = [i for i in range(len(conditions)) if i not in early and i not in known]
        plan.append((rule, code, slot, [conditions[i] for i in early], [conditions[i] for i in late]))
    return plan


def _function(compiled: Compiled, need: int) -> Walk:
    source, constants = _source(compiled, need)
    namespace = dict(constants)
    exec(compile(source, f"<walk of {len(compiled.rules)} rules>", "exec"), namespace)  # noqa: S102 (see above)
    return namespace["walk"]


def _source(compiled: Compiled, need: int) -> tuple[str, dict[str, object]]:
    """The walk for `need` as Python source, and the constants it names."""
    constants: dict[str, object] = {"_resolve": resolve_code, "_no_rule": when_no_rule_applies, "_none": None,
                                    "_no_note": ""}
    names: dict[int, str] = {}

    def constant(value: object) -> str:
        name = names.get(id(value))
        if name is None:
            name = names[id(value)] = f"_k{len(names)}"
            constants[name] = value
        return name

    fixed: dict[int, int] = {}  # id(reader) -> local f<n>, read at most once per decision

    def fixed_value(fn: Callable) -> str:
        n = fixed.setdefault(id(fn), len(fixed))
        return f"(f{n} if f{n} is not None else (f{n} := {constant(fn)}(view)))"

    def test(condition, kind: int) -> str:
        written, (how, fn), compare, target = condition
        if how == FIXED:
            left = fixed_value(fn)
        elif how == RANDOM:
            left = "rng.randint(1, 100)"
        elif kind == PASS:
            left = "0"  # a play variable of a pass
        else:
            left = _INLINE.get(written.variable) or f"{constant(fn)}(view, play)"
        return f"{left} {_OPERATORS[compare]} {int(target)}"

    body: list[str] = []
    slots: set[int] = set()
    for rule, code, slot, early, late in _plan(compiled, need):
        kind, value, _ = code
        indent = "    "
        if early:
            body.append(f"{indent}if {' and '.join(test(c, kind) for c in early)}:")
            indent += "    "
        if kind == PASS:
            body.append(f"{indent}if view.can_pass:")
            body.append(f"{indent}    play = None")
        elif kind == VALUE and need:  # as `resolve_code`: the upcards' count of this value, if legal
            body.append(f"{indent}if hand[{int(value)}] >= {int(need)} and ({int(value)}, {int(need)}) in legal:")
            body.append(f"{indent}    play = ({int(value)}, {int(need)})")
        elif kind == VALUE:  # leading: every card of the value
            body.append(f"{indent}if hand[{int(value)}] and ({int(value)}, hand[{int(value)}]) in legal:")
            body.append(f"{indent}    play = ({int(value)}, hand[{int(value)}])")
        else:
            slots.add(slot)
            body.append(f"{indent}if r{slot} is None:")
            body.append(f"{indent}    r{slot} = _resolve({constant(code)}, view)")
            body.append(f"{indent}if r{slot}[1]:")
            body.append(f"{indent}    play = r{slot}[0]")
        fired = f"return play, {constant(rule)}, _none, _no_note"
        if late:
            body.append(f"{indent}    if {' and '.join(test(c, kind) for c in late)}:")
            body.append(f"{indent}        {fired}")
        else:
            body.append(f"{indent}    {fired}")
    head = ["def walk(view, rng):", "    hand = view.hand", "    legal = view.legal"]
    head += [f"    r{slot} = None" for slot in sorted(slots)] + [f"    f{n} = None" for n in range(len(fixed))]
    return "\n".join(head + body + ["    return _no_rule(view, _none)"]) + "\n", constants
