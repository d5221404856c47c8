"""The condition engine: a personality + a climbing view -> a play, with its trace.

Rules are tried top to bottom. A rule's potential cards are first resolved
to concrete cards (or the reason they do not apply: not held, cannot beat the
upcards, wrong count, pass not allowed); then its conditions are read from the
view, left to right, and the first rule whose conditions all hold is played.
If none applies the player passes, or, when it may not pass, plays `L*`
(RUL.md, reconstructed), or failing that its weakest legal play.

The same walk produces the decision whether or not a trace is asked for:
conditions stop at the first false one, and the trace then shows the values
of the remaining ones too (except `Random`, which is never drawn for show), so
tracing never changes what a bot does.
"""
from __future__ import annotations

import random
from typing import Callable

from .odds import follow_odds
from .syntax import Modifier, Personality, Potential, PotentialKind, Rule
from .trace import ConditionTrace, DecisionTrace, RuleTrace
from .variables import Variable
from .view import JOKER, TWO, ClimbingView, Play, cards_text

NOT_HELD = "not held"
CANNOT_BEAT = "cannot beat the upcards"
NO_PASS = "pass not allowed: I have the lead"
NOT_LEGAL = "not a legal play now"
_L_STAR = Potential(PotentialKind.LOWEST, None, Modifier.NEEDED)


def resolve(potential: Potential, view: ClimbingView) -> tuple[Play | None, bool, str]:
    """(play, applies, reason): the concrete play, or why the potential does not apply.

    For `P`, play is None and applies says whether passing is allowed.
    """
    kind = potential.kind
    if kind is PotentialKind.PASS:
        return (None, True, "") if view.can_pass else (None, False, NO_PASS)
    hand, up = view.hand, view.upcards
    if kind is PotentialKind.VALUE:
        v = potential.value
        held = hand[v]
        if not held:
            return None, False, NOT_HELD
        if up is None:
            play = (v, held)
            return (play, True, "") if play in view.legal else (None, False, NOT_LEGAL)
        if held < up[1]:
            return None, False, f"wrong count: hold {held}, the upcards are {up[1]}"
        play = (v, up[1])
        return (play, True, "") if play in view.legal else (None, False, CANNOT_BEAT)
    # L and H: the weakest / strongest value, twos never included
    values = [v for v in view.order if v != TWO]
    if kind is PotentialKind.HIGHEST:
        values.reverse()
    exact = potential.modifier.count
    if up is not None:
        need = up[1]
        if exact is not None and exact != need:
            return None, False, f"wrong count: {_SET_NAMES[exact]} while the upcards are {need}"
        candidates = [v for v in values if (hand[v] == exact if exact else hand[v] >= need)]
        if not candidates:
            return None, False, NOT_HELD if exact else f"wrong count: no value held {need} times"
        for v in candidates:
            if (v, need) in view.legal:
                return (v, need), True, ""
        return None, False, CANNOT_BEAT
    candidates = [v for v in values if (hand[v] == exact if exact else hand[v])]
    if not candidates:
        return None, False, NOT_HELD
    for v in candidates:
        play = (v, hand[v])
        if play in view.legal:
            return play, True, ""
    return None, False, NOT_LEGAL


_SET_NAMES = {1: "a single", 2: "a pair", 3: "three of a kind", 4: "four of a kind"}


class Situation:
    """Reads the game variables from a view; caches what does not change in a decision."""

    __slots__ = ("view", "rng", "_fixed")

    def __init__(self, view: ClimbingView, rng: random.Random) -> None:
        self.view, self.rng, self._fixed = view, rng, {}

    def value(self, variable: Variable, play: Play | None) -> int:
        if variable is Variable.RANDOM:
            return self.rng.randint(1, 100)
        if variable.depends_on_play:
            return 0 if play is None else _PLAY_VARIABLES[variable](self.view, play)
        fixed = self._fixed.get(variable)
        if fixed is None:
            fixed = self._fixed[variable] = _VIEW_VARIABLES[variable](self.view)
        return fixed


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


def decide(personality: Personality, view: ClimbingView, rng: random.Random,
           trace: bool = False) -> tuple[Play | None, Rule | None, list[RuleTrace] | None, str]:
    """(play or None for pass, the rule that fired or None, rule traces if asked, note)."""
    situation = Situation(view, rng)
    resolved: dict[Potential, tuple[Play | None, bool, str]] = {}
    traces: list[RuleTrace] | None = [] if trace else None
    for rule in personality.rules:
        outcome = resolved.get(rule.potential)
        if outcome is None:
            outcome = resolved[rule.potential] = resolve(rule.potential, view)
        play, applies, reason = outcome
        if not applies:
            if traces is not None:
                traces.append(RuleTrace(rule.line, rule.source or str(rule), None, False, reason))
            continue
        holds = True
        checked: list[ConditionTrace] = []
        for condition in rule.conditions:
            if holds:
                value = situation.value(condition.variable, play)
                verdict = condition.comparison.test(value, condition.value)
                holds = verdict
                if traces is not None:
                    checked.append(ConditionTrace(str(condition), condition.variable.full, value, verdict))
                if not holds and traces is None:
                    break
            elif condition.variable is Variable.RANDOM:
                checked.append(ConditionTrace(str(condition), condition.variable.full, None, None, False))
            else:  # shown for the trace only; the decision was already made
                value = situation.value(condition.variable, play)
                checked.append(ConditionTrace(str(condition), condition.variable.full, value,
                                              condition.comparison.test(value, condition.value), False))
        if traces is not None:
            traces.append(RuleTrace(rule.line, rule.source or str(rule), play, True, "", tuple(checked), holds))
        if holds:
            return play, rule, traces, ""
    if view.can_pass:
        return None, None, traces, "no rule applied: pass"
    play, applies, _ = resolve(_L_STAR, view)
    if applies:
        return play, None, traces, "no rule applied and I must lead: L* (the lowest cards)"
    fallback = min(view.legal, key=lambda p: (view.strength(p[0]), p[1]))
    return fallback, None, traces, "no rule applied and I must lead: my weakest legal play"


def situation_summary(view: ClimbingView) -> dict:
    """The position in words and numbers, for the head of a trace."""
    hand = " ".join(cards_text(v, view.hand[v]) for v in list(view.order) + [JOKER] if view.hand[v])
    return {
        "hand": hand,
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
