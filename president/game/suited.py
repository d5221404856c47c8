"""Plays that name their suits: sequences (kaidan), locks (shibari) and the spade 3 (UECda's rules).

At a table where `Settings.suited` is true, every play names its cards
(`Play.suits`, `Play.wild`, `Play.run`; see `president.game.cards.Play`) and this
module lists the legal ones. The rules, as docs/president-rules.md states them:

- a *group* is cards of one value (a single, a pair, ...); a joker may stand
  for a suit the player does not hold (wild jokers);
- a *sequence* is three or more consecutive values of one suit, a joker
  standing for a missing card; it beats a sequence of as many cards whose
  values are all lower (all higher after a revolution);
- a *lock*: when a play follows one of exactly the same suits, the rest of the
  trick must be played in those suits;
- a lone joker beats any single, and only the 3 of spades beats a lone joker.

The order of the list is part of the engine's behaviour (random players pick
by index): groups by value, fewer cards and lower suits first, then sequences.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from recycle.kernel.protocol import IllegalAction

from president.game.cards import JOKER, LONE_JOKER, PASS, SUITS, Card, Play, suited_play
from president.game.settings import EqualValue, JokerMode

if TYPE_CHECKING:
    from president.game.layout import Layout
    from president.game.state import PresidentState

SPADES = 1 << SUITS.index("s")
#: Every non-empty set of suits, fewer suits first, then lower suits (the order plays are listed in).
_SUIT_SETS = sorted(range(1, 16), key=lambda m: (m.bit_count(), m))


def suited_cards(lay: "Layout", play: Play, hand: int | None = None) -> int:
    """The mask of the cards a suited play takes: its natural cards, and jokers from `hand`
    (any joker when `hand` is None)."""
    taken = 0
    for v, suit, wild in play.cells():
        if not wild:
            taken |= lay.bit(Card(v, suit))
    if play.jokers:
        taken |= lay.take(lay.full if hand is None else hand, JOKER, play.jokers)
    return taken


def next_lock(lock: int, up: Play | None, play: Play) -> int:
    """The suits the trick is locked to after `play` answers `up` (0: none)."""
    if play.value == JOKER:  # a lone joker binds no suit, and frees a locked trick (UECda's server)
        return 0
    if lock or up is None or up.value == JOKER:
        return lock
    return play.suits if play.suits == up.suits else 0


def _held(state: "PresidentState") -> list[int]:
    """The current player's suits of each value (one deck: a value's slot is its suit mask)."""
    lay, mask = state.lay, state.masks[state.current]
    return [0, 0, 0] + [(mask >> lay.shift[v]) & 15 for v in range(3, 16)]


def _groups(value: int, held: int, wild: int, need: int | None, lock: int) -> list[Play]:
    out = []
    for suits in _SUIT_SETS:
        count = suits.bit_count()
        if need is not None and count != need:
            continue
        if lock and suits != lock:
            continue
        jokers = suits & ~held
        if suits & held and jokers.bit_count() <= wild:
            out.append(suited_play(value, count, jokers.bit_count(), suits, False, jokers))
    return out


def _runs(held: list[int], wild: int, need: int | None, lock: int, beats) -> list[Play]:
    out = []
    for i in range(4):
        bit = 1 << i
        if lock and bit != lock:
            continue
        for low in range(3, 14):
            missing = 0
            for length in range(1, 17 - low):  # up to the 2 (value 15)
                if not held[low + length - 1] & bit:
                    missing |= 1 << (length - 1)
                if missing.bit_count() > wild:
                    break
                if length < 3 or (need is not None and length != need) or missing.bit_count() == length:
                    continue
                if beats is None or beats(low, length):
                    out.append(suited_play(low, length, missing.bit_count(), bit, True, missing))
    return out


def suited_plays(state: "PresidentState") -> list[Play]:
    """Every legal play of the current player at a table where suits matter."""
    s = state.settings
    jokers = state.counts[state.current][JOKER]
    wild = jokers if s.joker_mode is JokerMode.WILD else 0
    held = _held(state)
    up = state.upcards
    out: list[Play] = []
    if up is None:
        for v in range(3, 16):
            if held[v] or wild:
                out.extend(_groups(v, held[v], wild, None, 0))
        if s.sequences:
            out.extend(_runs(held, wild, None, 0, None))
        if jokers:
            out.append(LONE_JOKER)
        return out
    if up.value == JOKER:
        if s.spade_three and held[3] & SPADES:
            out.append(suited_play(3, 1, 0, SPADES))
        out.append(PASS)
        return out
    lock = state.lock
    if up.run:
        top = up.value + up.count - 1
        if state.reversed:
            out.extend(_runs(held, wild, up.count, lock, lambda low, n: low + n - 1 < up.value))
        else:
            out.extend(_runs(held, wild, up.count, lock, lambda low, n: low > top))
    else:
        equal = s.equal_value is not EqualValue.NO
        for v in range(3, 16):
            if state.beats(v, up.value) or (equal and v == up.value):
                out.extend(_groups(v, held[v], wild, up.count, lock))
        if up.count == 1 and jokers:
            out.append(LONE_JOKER)
    out.append(PASS)
    return out


def check_suited(state: "PresidentState", play: Play) -> None:
    """Raise `IllegalAction` naming the rule if `play` is not legal now at a suited table."""
    if play in suited_plays(state):
        return
    up = state.upcards
    if play.is_pass:
        raise IllegalAction("the leader cannot pass: lead a single, a group or a sequence", "lead")
    if play.value != JOKER and not play.suits:
        raise IllegalAction(f"{play} does not name its suits: suits matter at this table (e.g. 7h 7s)", "suits")
    mask = state.masks[state.current]
    cards = suited_cards(state.lay, play, mask) if play.value != JOKER else state.lay.take(mask, JOKER, 1)
    if cards & ~mask or cards.bit_count() != play.count:
        raise IllegalAction(f"player {state.current} does not hold {play}", "hold")
    if play.run and not state.settings.sequences:
        raise IllegalAction("sequences are not played at this table", "sequence")
    if up is not None and up.value == JOKER:
        raise IllegalAction("only the 3 of spades beats a lone joker", "beat")
    if up is not None and (play.count != up.count or play.run != up.run) and play.value != JOKER:
        kind = "sequence" if up.run else "group"
        raise IllegalAction(f"must follow a {kind} of {up.count} card(s) with the same", "same-count")
    if up is not None and state.lock and play.suits != state.lock:
        raise IllegalAction(f"the trick is locked to {_suit_names(state.lock)}", "lock")
    if up is not None:
        raise IllegalAction(f"{play} does not beat the upcards {up}", "beat")
    raise IllegalAction(f"{play} is not a legal play now", "play")


def _suit_names(mask: int) -> str:
    return "".join(s for i, s in enumerate(SUITS) if mask >> i & 1)


def play_of_cards(state: "PresidentState", cards: list[Card]) -> Play | None:
    """The legal play made of exactly these cards (a joker standing wherever the first such play
    puts it), or None: what a person means by selecting cards at a table where suits matter."""
    lay = state.lay
    naturals = sum(lay.bit(c) for c in cards if c.value != JOKER)
    jokers = sum(1 for c in cards if c.value == JOKER)
    hand = state.masks[state.current]
    legal = suited_plays(state)
    if jokers == len(cards) == 1:
        return LONE_JOKER if LONE_JOKER in legal else None
    for play in legal:
        if not play.is_pass and play.value != JOKER and play.jokers == jokers and \
                suited_cards(lay, play, hand) & ~lay.take(hand, JOKER, jokers) == naturals:
            return play
    return None
