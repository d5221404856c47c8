"""The condition engine: a personality + a climbing view -> a play, with its trace.

Rules are tried top to bottom. A rule's potential cards are first resolved
to concrete cards (or the reason they do not apply: not held, cannot beat the
upcards, wrong count, pass not allowed); then its conditions are read from the
view, left to right, and the first rule whose conditions all hold is played.
If none applies the player passes, or, when it may not pass, plays `L*`
(docs/rul-language.md, reconstructed), or failing that its weakest legal play.

The same walk produces the decision whether or not a trace is asked for:
conditions stop at the first false one, and the trace then shows the values
of the remaining ones too (except `Random`, which is never drawn for show), so
tracing never changes what a bot does.
"""
from __future__ import annotations

import random
from typing import Callable

from .odds import follow_odds
from .syntax import Personality, Potential, PotentialKind, Rule
from .trace import ConditionTrace, DecisionTrace, RuleTrace
from .variables import Variable
from .view import TWO, ClimbingView, Play, cards_text, hand_text

NOT_HELD = "not held"
CANNOT_BEAT = "cannot beat the upcards"
NO_PASS = "pass not allowed: I have the lead"
NOT_LEGAL = "not a legal play now"
_L_STAR = (1, 0, 0)  # L*: lowest, any count (see _code)


_VALUE, _LOWEST, _HIGHEST, _PASS = range(4)
_KIND_CODES = {PotentialKind.VALUE: _VALUE, PotentialKind.LOWEST: _LOWEST,
               PotentialKind.HIGHEST: _HIGHEST, PotentialKind.PASS: _PASS}


def _code(potential: Potential) -> tuple[int, int, int]:
    """A potential as plain ints (kind, value, exact count): cheap to hash and compare."""
    exact = potential.modifier.count if potential.modifier else 0
    return _KIND_CODES[potential.kind], potential.value or 0, exact or 0


def resolve(potential: Potential, view: ClimbingView) -> tuple[Play | None, bool, str]:
    """(play, applies, reason): the concrete play, or why the potential does not apply.

    For `P`, play is None and applies says whether passing is allowed.
    """
    play, applies, reason = _resolve(_code(potential), view)
    return play, applies, _reason_text(reason)


#: Why a potential does not apply: a text, or a format and its arguments. Only traces read it,
#: so the untraced walk never formats one.
Reason = str | tuple


def _reason_text(reason: Reason) -> str:
    return reason if isinstance(reason, str) else reason[0].format(*reason[1:])


def _resolve(code: tuple[int, int, int], view: ClimbingView) -> tuple[Play | None, bool, Reason]:
    kind, v, exact = code
    if kind == _PASS:
        return (None, True, "") if view.can_pass else (None, False, NO_PASS)
    hand, up, legal = view.hand, view.upcards, view.legal
    if kind == _VALUE:
        held = hand[v]
        if not held:
            return None, False, NOT_HELD
        if up is None:
            play = (v, held)
            return (play, True, "") if play in legal else (None, False, NOT_LEGAL)
        if held < up[1]:
            return None, False, ("wrong count: hold {}, the upcards are {}", held, up[1])
        play = (v, up[1])
        return (play, True, "") if play in legal else (None, False, CANNOT_BEAT)
    # L and H: the weakest / strongest value, twos never included
    values = view.order if kind == _LOWEST else reversed(view.order)
    held_any = False
    if up is not None:
        need = up[1]
        if exact and exact != need:
            return None, False, ("wrong count: {} while the upcards are {}", _SET_NAMES[exact], need)
        for w in values:
            held = hand[w]
            if (held == need if exact else held >= need) and w != TWO:
                held_any = True
                if (w, need) in legal:
                    return (w, need), True, ""
        if not held_any:
            return None, False, NOT_HELD if exact else ("wrong count: no value held {} times", need)
        return None, False, CANNOT_BEAT
    for w in values:
        held = hand[w]
        if held and (not exact or held == exact) and w != TWO:
            held_any = True
            if (w, held) in legal:
                return (w, held), True, ""
    return None, False, NOT_LEGAL if held_any else NOT_HELD


_SET_NAMES = {1: "a single", 2: "a pair", 3: "three of a kind", 4: "four of a kind"}


class Situation:
    """Reads the game variables from a view; caches what does not change in a decision."""

    __slots__ = ("view", "rng", "_fixed")

    def __init__(self, view: ClimbingView, rng: random.Random) -> None:
        self.view, self.rng, self._fixed = view, rng, {}

    def value(self, variable: Variable, play: Play | None) -> int:
        return self._read(_READERS[variable], play)

    def _read(self, reader: tuple[int, Callable | None], play: Play | None) -> int:
        how, fn = reader
        if how == _FIXED:
            fixed = self._fixed.get(fn)
            if fixed is None:
                fixed = self._fixed[fn] = fn(self.view)
            return fixed
        if how == _OF_PLAY:
            return 0 if play is None else fn(self.view, play)
        return self.rng.randint(1, 100)


def _non_twos(view: ClimbingView) -> list[int]:
    return [v for v in range(3, TWO) if view.hand[v]]


def _hand_value(view: ClimbingView) -> int:
    count = sum(view.hand[v] for v in range(3, TWO))
    return sum(v * view.hand[v] for v in range(3, TWO)) // count if count else 0


_VIEW_VARIABLES: dict[Variable, Callable[[ClimbingView], int]] = {
    Variable.LEAD: lambda w: int(w.upcards is None),
    Variable.RANK: lambda w: w.rank,
    Variable.NUM_DIFF_VALS: lambda w: len(_non_twos(w)),
    Variable.TWOS_LEFT: lambda w: w.unseen[TWO],
    Variable.PERCENT_PLAYED: lambda w: 100 * w.played // w.deck_size if w.deck_size else 0,
    Variable.HIGHEST_OPP_CARDS: lambda w: max(w.opponent_counts, default=0),
    Variable.HIGHER_PLAYERS: lambda w: w.higher_players,
    Variable.PLAYERS_LEFT: lambda w: w.players_left,
    Variable.TOT_MY_CARDS: lambda w: sum(w.hand),
    Variable.TOT_MY_TWOS: lambda w: w.hand[TWO],
    Variable.HAND_VALUE: _hand_value,
    Variable.MY_LOWEST_CARD: lambda w: min(_non_twos(w), default=0),
    Variable.MY_HIGHEST_CARD: lambda w: max(_non_twos(w), default=0),
}
_PLAY_VARIABLES: dict[Variable, Callable[[ClimbingView, Play], int]] = {
    Variable.CARD_VAL: lambda w, p: p[0],
    Variable.NUM_THIS_VALUE: lambda w, p: w.hand[p[0]],
    Variable.FOLLOW_ODDS: lambda w, p: follow_odds(w, p[0], p[1]),
    Variable.MATCHES_UP_CARD: lambda w, p: int(w.upcards is not None and w.upcards[0] == p[0]),
}
_FIXED, _OF_PLAY, _RANDOM = range(3)
_READERS: dict[Variable, tuple[int, Callable | None]] = {
    **{v: (_FIXED, f) for v, f in _VIEW_VARIABLES.items()},
    **{v: (_OF_PLAY, f) for v, f in _PLAY_VARIABLES.items()},
    Variable.RANDOM: (_RANDOM, None),
}
assert len(_READERS) == len(Variable), "every variable needs a reader"


class _Compiled:
    """A personality turned into ints and functions once, not re-read per decision."""

    __slots__ = ("personality", "rules", "rules_slots", "walks", "potentials", "draws")

    def __init__(self, personality: Personality) -> None:
        self.personality = personality
        self.rules = [(rule, _code(rule.potential),
                       [(c, _READERS[c.variable], c.comparison.compare, c.value) for c in rule.conditions])
                      for rule in personality.rules]
        slots: dict[tuple[int, int, int], int] = {}  # each distinct potential's place in a decision's list
        self.rules_slots = [slots.setdefault(code, len(slots)) for _, code, _ in self.rules]
        self.potentials = len(slots)
        self.walks: dict[int, list] = {}
        self.draws = any(c.variable is Variable.RANDOM for rule in personality.rules for c in rule.conditions)

    def walk(self, upcards: Play | None) -> list:
        """The rules for a decision with these upcards, as the untraced walk tries them (`_specialised`)."""
        need = 0 if upcards is None else upcards[1]
        walk = self.walks.get(need)
        if walk is None:
            walk = self.walks[need] = _specialised(self, need)
        return walk


def _specialised(compiled: _Compiled, need: int) -> list:
    """The rules worth trying when leading (`need` 0) or following `need` cards, ready for `_walk`.

    Whether a rule fires and what is drawn stay those of trying every rule in order, because
    conditions are pure but for `Random`, and a `Random` is drawn exactly when the potential applies
    and every condition before it holds. So, in each rule, up to its first `Random`:
    - a `Lead` condition is known: false, the rule never fires (and draws nothing); true, it is dropped;
    - for L and H (whose resolution searches the hand), the other conditions on the position alone
      (`TotMyTwos > 0`) are read before the potential is resolved.
    L and H of an exact count other than the upcards' are dropped: they never apply.
    """
    lead = int(need == 0)
    walk = []
    for (rule, code, conditions), slot in zip(compiled.rules, compiled.rules_slots):
        kind, _, exact = code
        searched = kind in (_LOWEST, _HIGHEST)
        if searched and exact and need and exact != need:
            continue
        first_random = next((i for i, c in enumerate(conditions) if c[1][0] == _RANDOM), len(conditions))
        known = [i for i, c in enumerate(conditions[:first_random]) if c[0].variable is Variable.LEAD]
        if any(not conditions[i][2](lead, conditions[i][3]) for i in known):
            continue
        early = [i for i, c in enumerate(conditions[:first_random])
                 if searched and c[1][0] == _FIXED and i not in known]
        pre = tuple((fn, test, target) for _, (_, fn), test, target in (conditions[i] for i in early))
        post = tuple((how, fn, test, target) for i, (_, (how, fn), test, target) in enumerate(conditions)
                     if i not in early and i not in known)
        walk.append((rule, code, slot, pre, post))
    return walk


_COMPILED: dict[int, _Compiled] = {}


def _compiled(personality: Personality) -> _Compiled:
    entry = _COMPILED.get(id(personality))
    if entry is None or entry.personality is not personality:
        if len(_COMPILED) > 1024:  # bounded: editors create many versions
            _COMPILED.clear()
        entry = _COMPILED[id(personality)] = _Compiled(personality)
    return entry


def draws_random(personality: Personality) -> bool:
    """May a decision of this personality draw from the generator (a `Random` condition)?"""
    return _compiled(personality).draws


def decide(personality: Personality, view: ClimbingView, rng: random.Random,
           trace: bool = False) -> tuple[Play | None, Rule | None, list[RuleTrace] | None, str]:
    """(play or None for pass, the rule that fired or None, rule traces if asked, note)."""
    compiled = _compiled(personality)
    if not trace:
        return _walk(compiled, view, rng)
    situation = Situation(view, rng)
    resolved: dict[tuple[int, int, int], tuple[Play | None, bool, Reason]] = {}
    traces: list[RuleTrace] = []
    for rule, code, conditions in compiled.rules:
        outcome = resolved.get(code)
        if outcome is None:
            outcome = resolved[code] = _resolve(code, view)
        play, applies, reason = outcome
        if not applies:
            traces.append(RuleTrace(rule.line, rule.source or str(rule), None, False, _reason_text(reason)))
            continue
        holds = _trace_conditions(situation, play, conditions, checked := [])
        traces.append(RuleTrace(rule.line, rule.source or str(rule), play, True, "", tuple(checked), holds))
        if holds:
            return play, rule, traces, ""
    return _when_no_rule_applies(view, traces)


def _walk(compiled: _Compiled, view: ClimbingView, rng: random.Random
          ) -> tuple[Play | None, Rule | None, None, str]:
    """`decide` without a trace, the hot path of every game: the first false condition ends a rule,
    and `Situation._read` is written out (a call less per condition)."""
    resolved: list[tuple[Play | None, bool, Reason] | None] = [None] * compiled.potentials
    fixed: dict[Callable, int] = {}
    for rule, code, slot, pre, post in compiled.walk(view.upcards):
        if pre:
            dismissed = False
            for fn, test, target in pre:
                value = fixed.get(fn)
                if value is None:
                    value = fixed[fn] = fn(view)
                if not test(value, target):
                    dismissed = True
                    break
            if dismissed:
                continue
        outcome = resolved[slot]
        if outcome is None:
            outcome = resolved[slot] = _resolve(code, view)
        if not outcome[1]:
            continue
        play = outcome[0]
        for how, fn, test, target in post:
            if how == _OF_PLAY:
                value = 0 if play is None else fn(view, play)
            elif how == _FIXED:
                value = fixed.get(fn)
                if value is None:
                    value = fixed[fn] = fn(view)
            else:
                value = rng.randint(1, 100)
            if not test(value, target):
                break
        else:
            return play, rule, None, ""
    return _when_no_rule_applies(view, None)


def _when_no_rule_applies(view: ClimbingView, traces: list[RuleTrace] | None
                          ) -> tuple[Play | None, None, list[RuleTrace] | None, str]:
    if view.can_pass:
        return None, None, traces, "no rule applied: pass"
    play, applies, _ = _resolve(_L_STAR, view)
    if applies:
        return play, None, traces, "no rule applied and I must lead: L* (the lowest cards)"
    fallback = min(view.legal, key=lambda p: (view.strength(p[0]), p[1]))
    return fallback, None, traces, "no rule applied and I must lead: my weakest legal play"


def _trace_conditions(situation: Situation, play: Play | None, conditions, checked: list) -> bool:
    """Evaluate like the hot path (stop deciding at the first false), recording each one.

    After a false condition the rest are shown for the trace only; `Random`
    is then not drawn, so a traced game draws exactly what an untraced one does.
    """
    holds = True
    for condition, reader, test, target in conditions:
        name = condition.variable.full
        if not holds and reader[0] == _RANDOM:
            checked.append(ConditionTrace(str(condition), name, None, None, False))
            continue
        value = situation._read(reader, play)
        verdict = test(value, target)
        checked.append(ConditionTrace(str(condition), name, value, verdict, holds))
        holds = holds and verdict
    return holds


def situation_summary(view: ClimbingView) -> dict:
    """The position in words and numbers, for the head of a trace."""
    return {
        "hand": hand_text(view.hand, view.order),
        "upcards": cards_text(*view.upcards) if view.upcards else None,
        "lead": view.upcards is None,
        "can_pass": view.can_pass,
        "opponent_counts": list(view.opponent_counts),
        "rank": view.rank,
    }


def explain(personality: Personality, view: ClimbingView, rng: random.Random, player: int = 0
            ) -> tuple[Play | None, DecisionTrace]:
    play, rule, traces, note = decide(personality, view, rng, trace=True)
    action = "pass" if play is None else cards_text(*play)
    return play, DecisionTrace(personality.name, player, situation_summary(view), tuple(traces or ()),
                               action, rule.line if rule else None, note)
