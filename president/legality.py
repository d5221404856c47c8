"""Which plays are legal now, and if one is not, which rule it breaks.

`legal_plays` generates them (`PresidentState.legal_actions` in the play
phase; it runs on every move of every search rollout, hence the prebuilt
tables). For one play someone proposes, `is_legal` gives the same answer as
membership in that list, and `check_play` raises `IllegalAction` naming the
rule. The public `apply` runs `check_play` first, so an untrusted action
never changes the state; search applies its own legal actions unchecked.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from recycle.kernel.protocol import IllegalAction

from president.game.cards import JOKER, PASS, TWO, Play, play_of
from president.game.settings import EqualValue, JokerMode
from president.game.suited import check_suited, suited_plays

if TYPE_CHECKING:
    from president.game.state import PresidentState

_MOST = 8  # the most cards of one value: two decks
_PLAYS = [[play_of(v, k) for k in range(_MOST + 1)] for v in range(17)]  # [value][count], no wild jokers
_LEADS = [[tuple(_PLAYS[v][1:n + 1]) for n in range(_MOST + 1)] for v in range(17)]  # [value][held]: 1..held
_FOLLOWS = [[_PLAYS[v][k] for v in range(17)] for k in range(_MOST + 1)]  # [count][value]
_JOKER_SINGLE = play_of(JOKER, 1)


def legal_plays(state: "PresidentState") -> list:
    """Every legal play of the current player, in the play phase: leads, or answers and a pass.

    The order is part of the engine's behaviour (random players pick by
    index): lower values first, for each value fewer cards first.
    """
    s = state.settings
    if s.suited:
        return suited_plays(state)
    counts = state.counts[state.current]
    wild = counts[JOKER] if s.joker_mode is JokerMode.WILD else 0
    up = state.upcards
    out = []
    if up is None:
        if wild:
            for v in range(3, 16):
                n = counts[v]
                if n:
                    out.extend(_LEADS[v][n])
                    for k in range(n + 1, n + wild + 1):
                        out.append(play_of(v, k, k - n))
        else:  # the common table: no wild jokers, one prebuilt run of plays per value
            extend = out.extend
            for v in range(3, 16):
                n = counts[v]
                if n:
                    extend(_LEADS[v][n])
        if counts[JOKER]:
            out.append(_JOKER_SINGLE)
        if s.no_going_out_on_two:
            allowed = [p for p in out if not forbidden_finish(state, p)]
            return allowed or out  # forced: see PresidentState._finish_player
        return out
    need, top = up.count, up.value
    if top != JOKER:
        equal = s.equal_value is not EqualValue.NO  # may a set of the same value follow?
        if state.reversed:
            low, high = 3, (top if equal else top - 1)
        else:
            low, high = (top if equal else top + 1), 15
        if wild:
            for v in range(low, high + 1):
                n = counts[v]
                if n >= need:
                    out.append(_PLAYS[v][need])
                elif n and n + wild >= need:
                    out.append(play_of(v, need, need - n))
        elif need <= _MOST:
            column = _FOLLOWS[need]
            for v in range(low, high + 1):
                if counts[v] >= need:
                    out.append(column[v])
        if need == 1 and counts[JOKER]:
            out.append(_JOKER_SINGLE)
        if s.no_going_out_on_two:
            out = [p for p in out if not forbidden_finish(state, p)]
    out.append(PASS)
    return out


def forbidden_finish(state: "PresidentState", play: Play) -> bool:
    """Would this play empty the hand with a two or a joker in it?"""
    return play.count == state.sizes[state.current] and (play.value in (TWO, JOKER) or play.jokers > 0)


def is_legal(state: "PresidentState", play: Play) -> bool:
    """Is `play` legal now, in the play phase? (The same answer as membership in `legal_actions`.)"""
    up, s = state.upcards, state.settings
    if s.suited or play.suits:
        return s.suited and play in suited_plays(state)
    v, k, j = play.value, play.count, play.jokers
    if k == 0:
        return up is not None and v == 0 and j == 0
    if not 3 <= v <= JOKER or k < 0 or not 0 <= j <= k:
        return False
    counts = state.counts[state.current]
    if v == JOKER:
        if k != 1 or j or not counts[JOKER] or (up is not None and (up.count != 1 or up.value == JOKER)):
            return False
    else:
        if j and s.joker_mode is not JokerMode.WILD:
            return False
        if k - j < 1 or counts[v] < k - j or counts[JOKER] < j or j != max(0, k - counts[v]):
            return False
        if up is not None and (k != up.count or not (
                state.beats(v, up.value) or (v == up.value and s.equal_value is not EqualValue.NO))):
            return False
    if s.no_going_out_on_two and forbidden_finish(state, play):
        return up is None and all(forbidden_finish(state, p) for p in state.legal_actions())
    return True


def check_play(state: "PresidentState", play: Play) -> None:
    """Raise `IllegalAction` naming the rule if `play` is not legal now, in the play phase."""
    if state.settings.suited:
        check_suited(state, play)
        return
    if is_legal(state, play):
        return
    if play.suits:
        raise IllegalAction(f"{play} names suits: suits do not matter at this table (e.g. 7 7)", "suits")
    p, up, counts = state.current, state.upcards, state.counts[state.current]
    if play.count == 0 and (play.value or play.jokers):
        raise IllegalAction(f"{play!r} is not a play: a pass is Play.PASS", "play")
    if play.is_pass:
        raise IllegalAction("the leader cannot pass: lead a single, pair, three or four of a kind", "lead")
    if not 3 <= play.value <= JOKER or play.count < 0 or not 0 <= play.jokers <= play.count:
        raise IllegalAction(f"{play!r} is not a play of this pack", "play")
    wild = counts[JOKER] if state.settings.joker_mode is JokerMode.WILD else 0
    if play.jokers and not wild:
        raise IllegalAction("jokers are not wild at this table", "jokers")
    if counts[play.value] < play.naturals or counts[JOKER] < play.jokers:
        raise IllegalAction(f"player {p} does not hold {play}", "hold")
    if up is not None and play.count != up.count:
        raise IllegalAction(f"must follow with {up.count} card(s), not {play.count}", "same-count")
    if up is not None and up.value == JOKER:
        raise IllegalAction("nothing beats a lone joker", "beat")
    if up is not None and play.value == up.value:
        raise IllegalAction(f"{play} only equals the upcards {up}: equal value is not allowed here", "equal-value")
    if up is not None and not state.beats(play.value, up.value):
        raise IllegalAction(f"{play} does not beat the upcards {up}", "beat")
    if state.settings.no_going_out_on_two and forbidden_finish(state, play):
        raise IllegalAction("no going out on a two (or a joker)", "no-going-out-on-two")
    if play.value == JOKER and play.count != 1:
        raise IllegalAction("a joker alone is played as a single", "jokers")
    raise IllegalAction(f"{play} is not a legal play now", "play")
