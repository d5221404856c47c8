"""The `.rul` language at a table where suits matter: `Locked` and `SequenceUp`, and old files unchanged."""
from __future__ import annotations

import random

from personalities.player import RulePlayer
from personalities.reader import parse_personality
from personalities.variables import Variable, resolve_variable
from president.bots import make_bot
from president.view import president_view
from test_uecda_rules import position

WARY = parse_personality("""
; pass on a locked trick or a sequence, else play the lowest
P   Locked = 1
P   SequenceUp = 1
L*
""")


def decide(personality, state):
    player = RulePlayer(personality, president_view)
    return player.choose(state.observation(0), state.legal_actions(), random.Random(0))


def test_the_new_variables_by_name_short_name_and_prefix():
    assert resolve_variable("Locked") is resolve_variable("B") is resolve_variable("lo") is Variable.LOCKED
    assert resolve_variable("SequenceUp") is resolve_variable("x") is resolve_variable("Se") is Variable.SEQUENCE_UP
    assert resolve_variable("Le") is Variable.LEAD and resolve_variable("L") is Variable.LEAD


def test_a_personality_reads_the_lock():
    assert str(decide(WARY, position("9h 9s Ts", up="7h", lock="h"))) == "pass"
    assert str(decide(WARY, position("9h 9s Ts", up="7h"))) == "9h"


def test_a_personality_reads_a_sequence_on_the_table_and_answers_one_otherwise():
    assert str(decide(WARY, position("8s 9s Ts 4c", up="5h 6h 7h"))) == "pass"
    classic = make_bot("Classic")
    state = position("8s 9s Ts 4c", up="5h 6h 7h")
    assert str(classic.choose(state.observation(0), state.legal_actions(), random.Random(0))) in {"8s 9s Ts", "pass"}


def test_both_are_zero_where_suits_do_not_matter():
    from president.settings import preset
    from president.state import PresidentState

    state = PresidentState.new_match(preset("classic"), 3)
    view = president_view(state.observation(state.current), state.legal_actions())
    assert (view.locked, view.sequence_up) == (False, False)
