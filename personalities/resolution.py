"""Resolving a rule's potential cards on a climbing view, and reading the game variables.

Pure functions of a view, shared by the traced walk (`evaluator`) and the compiled one
(`compiled`). A potential is handled as plain ints, its code (kind, value, exact count); a
variable has a reader: (FIXED, f(view)) for what one decision cannot change, (OF_PLAY,
f(view, play)) for what depends on the play considered, or (RANDOM, None).
"""
from __future__ import annotations

from typing import Callable

from personalities.odds import follow_odds
from personalities.syntax import Modifier, Potential, PotentialKind
from personalities.trace import RuleTrace
from personalities.variables import Variable
from personalities.view import RUN, TWO, ClimbingView, Play

NOT_HELD = "not held"
CANNOT_BEAT = "cannot beat the upcards"
NO_PASS = "pass not allowed: I have the lead"
NOT_LEGAL = "not a legal play now"
NOT_A_SEQUENCE = "the upcards are no sequence"
NO_SEQUENCE = "no sequence held (three or more consecutive values of one suit, no joker)"

VALUE, LOWEST, HIGHEST, PASS, RUN_LOWEST, RUN_HIGHEST = range(6)
L_STAR = (LOWEST, 0, 0)  # L*: lowest, any count (see code_of)
_KIND_CODES = {PotentialKind.VALUE: VALUE, PotentialKind.LOWEST: LOWEST,
               PotentialKind.HIGHEST: HIGHEST, PotentialKind.PASS: PASS}


def code_of(potential: Potential) -> tuple[int, int, int]:
    """A potential as plain ints (kind, value, exact count): cheap to hash and compare."""
    if potential.modifier is Modifier.RUN:  # its own kind: no count of one value to compare
        return (RUN_LOWEST if potential.kind is PotentialKind.LOWEST else RUN_HIGHEST), 0, 0
    exact = potential.modifier.count if potential.modifier else 0
    return _KIND_CODES[potential.kind], potential.value or 0, exact or 0


def resolve(potential: Potential, view: ClimbingView) -> tuple[Play | None, bool, str]:
    """(play, applies, reason): the concrete play, or why the potential does not apply.

    For `P`, play is None and applies says whether passing is allowed.
    """
    play, applies, reason = resolve_code(code_of(potential), view)
    return play, applies, reason_text(reason)


#: Why a potential does not apply: a text, or a format and its arguments. Only traces read it,
#: so the untraced walk never formats one.
Reason = str | tuple


def reason_text(reason: Reason) -> str:
    return reason if isinstance(reason, str) else reason[0].format(*reason[1:])


def resolve_code(code: tuple[int, int, int], view: ClimbingView) -> tuple[Play | None, bool, Reason]:
    kind, v, exact = code
    if kind == PASS:
        return (None, True, "") if view.can_pass else (None, False, NO_PASS)
    if kind >= RUN_LOWEST:
        return _resolve_run(kind == RUN_LOWEST, view)
    hand, up, legal = view.hand, view.upcards, view.legal
    if kind == VALUE:
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
    values = view.order if kind == LOWEST else reversed(view.order)
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


def _resolve_run(lowest: bool, view: ClimbingView) -> tuple[Play | None, bool, Reason]:
    """`Lr`/`Hr`: following a sequence, one of its length from the weakest/strongest value that beats
    it; leading, the longest sequence I hold from the weakest/strongest value that starts one."""
    values = view.order if lowest else tuple(reversed(view.order))
    up = view.upcards
    if up is not None:
        if not view.sequence_up:
            return None, False, NOT_A_SEQUENCE
        for w in values:
            if (w, up[1]) in view.legal:
                return (w, up[1]), True, ""
        return None, False, CANNOT_BEAT
    for w in values:
        longest = max((n for v, n in view.runs if v == w), default=0)
        if longest:
            return (w, longest, RUN), True, ""
    return None, False, NO_SEQUENCE


_SET_NAMES = {1: "a single", 2: "a pair", 3: "three of a kind", 4: "four of a kind"}


def _non_twos(view: ClimbingView) -> list[int]:
    return [v for v in range(3, TWO) if view.hand[v]]


def _hand_value(view: ClimbingView) -> int:
    count = sum(view.hand[v] for v in range(3, TWO))
    return sum(v * view.hand[v] for v in range(3, TWO)) // count if count else 0


VIEW_VARIABLES: dict[Variable, Callable[[ClimbingView], int]] = {
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
    Variable.LOCKED: lambda w: int(w.locked),
    Variable.SEQUENCE_UP: lambda w: int(w.sequence_up),
}
PLAY_VARIABLES: dict[Variable, Callable[[ClimbingView, Play], int]] = {
    Variable.CARD_VAL: lambda w, p: p[0],
    Variable.NUM_THIS_VALUE: lambda w, p: w.hand[p[0]],
    Variable.FOLLOW_ODDS: lambda w, p: follow_odds(w, p[0], p[1]),
    Variable.MATCHES_UP_CARD: lambda w, p: int(w.upcards is not None and w.upcards[0] == p[0]),
}
FIXED, OF_PLAY, RANDOM = range(3)
READERS: dict[Variable, tuple[int, Callable | None]] = {
    **{v: (FIXED, f) for v, f in VIEW_VARIABLES.items()},
    **{v: (OF_PLAY, f) for v, f in PLAY_VARIABLES.items()},
    Variable.RANDOM: (RANDOM, None),
}
assert len(READERS) == len(Variable), "every variable needs a reader"


def when_no_rule_applies(view: ClimbingView, traces: list[RuleTrace] | None
                          ) -> tuple[Play | None, None, list[RuleTrace] | None, str]:
    if view.can_pass:
        return None, None, traces, "no rule applied: pass"
    play, applies, _ = resolve_code(L_STAR, view)
    if applies:
        return play, None, traces, "no rule applied and I must lead: L* (the lowest cards)"
    fallback = min(view.legal, key=lambda p: (view.strength(p[0]), p[1]))
    return fallback, None, traces, "no rule applied and I must lead: my weakest legal play"
