"""What the table asks of the person, worded from the rules in force (no Textual here).

The wording follows the settings, so it never says less than the engine
accepts: "higher or equal" where an equal value may follow (and whether it
skips the next player), "lower" during a revolution, jokers only at a table
that has them, sequences, locks and the spade 3 only where they are played, and
no "pass" to the leader, who cannot pass.
"""
from __future__ import annotations

from president.game.cards import JOKER, SUITS
from president.game.settings import EqualValue, JokerMode, Settings
from president.game.state import PresidentState

from tui.president.wording import SUIT_SYMBOLS, plural

VALUE_KEYS_TEXT = "3-9 T J Q K A 2"


def lead_prompt(settings: Settings) -> str:
    """The leader's prompt: any number of cards of one value, or a sequence where they are played (the
    leader cannot pass)."""
    keys = VALUE_KEYS_TEXT + (", X a joker" if settings.jokers else "")
    run = ", or a sequence of 3 or more of one suit" if settings.sequences else ""
    return f"Your lead: any number of cards of one value{run} (its key: {keys}; or space on a card), then enter."


def follow_prompt(settings: Settings, state: PresidentState) -> str:
    """The prompt when there are upcards to answer, from the settings and the state of the trick."""
    up = state.upcards
    assert up is not None
    if state.last_player == state.current:  # asked again (`last_player_answers`): its own play stands
        return f"Everyone else passed your {up}: p to pass and lead next, or beat it yourself."
    if up.value == JOKER and up.count == 1:
        if settings.spade_three:
            return f"Your turn: only the 3{SUIT_SYMBOLS['s']} beats a lone joker ({up}): play it, or p to pass."
        return f"Your turn: nothing beats a lone joker ({up}): p to pass."
    direction = "lower" if state.reversed else "higher"
    cards = plural(up.count, "card")
    if up.run:
        text = f"Your turn: beat {up} with a sequence of {cards} of one suit, from a {direction} value"
    elif settings.equal_value is EqualValue.NO:
        text = f"Your turn: beat {up} with {cards} of a {direction} value"
    else:
        skip = " (an equal value skips the next player)" if settings.equal_value is EqualValue.SKIP else ""
        text = f"Your turn: answer {up} with {cards} of a {direction} or equal value{skip}"
    text += ", or p to pass" + (" (until the trick ends)." if settings.pass_locks else ".")
    if state.lock:
        text += " Locked to " + " ".join(SUIT_SYMBOLS[c] for i, c in enumerate(SUITS) if state.lock >> i & 1) + "."
    if settings.jokers:
        if settings.joker_mode is JokerMode.WILD:
            text += " Jokers are wild."
        if up.count == 1:
            text += " A joker beats any single."
    return text
