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
tracing never changes what a bot does. The untraced walk is the same walk compiled
(`compiled`); resolution and the variables' readers are in `resolution`.
"""
from __future__ import annotations

import random
from typing import Callable

from personalities.compiled import compiled, draws_random
from personalities.resolution import (CANNOT_BEAT, FIXED, NO_PASS, NOT_HELD, NOT_LEGAL, OF_PLAY, RANDOM, READERS, Reason,
                         reason_text, resolve, resolve_code, when_no_rule_applies)
from personalities.syntax import Personality, Rule
from personalities.trace import ConditionTrace, DecisionTrace, RuleTrace
from personalities.variables import Variable
from personalities.view import ClimbingView, Play, cards_text, hand_text


class Situation:
    """Reads the game variables from a view; caches what does not change in a decision."""

    __slots__ = ("view", "rng", "_fixed")

    def __init__(self, view: ClimbingView, rng: random.Random) -> None:
        self.view, self.rng, self._fixed = view, rng, {}

    def value(self, variable: Variable, play: Play | None) -> int:
        return self._read(READERS[variable], play)

    def _read(self, reader: tuple[int, Callable | None], play: Play | None) -> int:
        how, fn = reader
        if how == FIXED:
            fixed = self._fixed.get(fn)
            if fixed is None:
                fixed = self._fixed[fn] = fn(self.view)
            return fixed
        if how == OF_PLAY:
            return 0 if play is None else fn(self.view, play)
        return self.rng.randint(1, 100)


def decide(personality: Personality, view: ClimbingView, rng: random.Random,
           trace: bool = False) -> tuple[Play | None, Rule | None, list[RuleTrace] | None, str]:
    """(play or None for pass, the rule that fired or None, rule traces if asked, note)."""
    program = compiled(personality)
    if not trace:
        return program.walk(view)(view, rng)
    situation = Situation(view, rng)
    resolved: dict[tuple[int, int, int], tuple[Play | None, bool, Reason]] = {}
    traces: list[RuleTrace] = []
    for rule, code, conditions in program.rules:
        outcome = resolved.get(code)
        if outcome is None:
            outcome = resolved[code] = resolve_code(code, view)
        play, applies, reason = outcome
        if not applies:
            traces.append(RuleTrace(rule.line, rule.source or str(rule), None, False, reason_text(reason)))
            continue
        holds = _trace_conditions(situation, play, conditions, checked := [])
        traces.append(RuleTrace(rule.line, rule.source or str(rule), play, True, "", tuple(checked), holds))
        if holds:
            return play, rule, traces, ""
    return when_no_rule_applies(view, traces)


def _trace_conditions(situation: Situation, play: Play | None, conditions, checked: list) -> bool:
    """Evaluate like the hot path (stop deciding at the first false), recording each one.

    After a false condition the rest are shown for the trace only; `Random`
    is then not drawn, so a traced game draws exactly what an untraced one does.
    """
    holds = True
    for condition, reader, test, target in conditions:
        name = condition.variable.full
        if not holds and reader[0] == RANDOM:
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


__all__ = ["CANNOT_BEAT", "NO_PASS", "NOT_HELD", "NOT_LEGAL", "Situation", "decide", "draws_random", "explain",
           "resolve", "situation_summary"]
