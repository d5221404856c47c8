"""The `.rul` language at a table where suits matter: `Locked` and `SequenceUp`, and old files unchanged."""
from __future__ import annotations

import random

from personalities.player import RulePlayer
from personalities.reader import parse_personality
from personalities.variables import Variable, resolve_variable
from president.agents.bots import make_bot
from president.game.view import president_view
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
    from president.game.settings import preset
    from president.game.state import PresidentState

    state = PresidentState.new_match(preset("classic"), 3)
    view = president_view(state.observation(state.current), state.legal_actions())
    assert (view.locked, view.sequence_up) == (False, False)


RUNNER = parse_personality("""
; lead my lowest sequence, answer a sequence with the strongest one that beats it, else the lowest
Lr
Hr
L*
""")


def test_lr_leads_the_longest_sequence_from_the_lowest_value_that_starts_one():
    assert str(decide(RUNNER, position("4c 5h 6h 7h 8h Ts Js Qs"))) == "5h 6h 7h 8h"
    assert str(decide(RUNNER, position("4c 4d 9s Ts Js 5h 6h 7h"))) == "5h 6h 7h"


def test_hr_leads_from_the_highest_value_that_starts_a_sequence():
    high = parse_personality("Hr\nL*")
    assert str(decide(high, position("4c 5h 6h 7h Ts Js Qs Ks"))) == "Js Qs Ks"  # J starts one, T a longer one


def test_a_sequence_potential_follows_only_a_sequence():
    assert str(decide(parse_personality("Hr\nP"), position("8s 9s Ts Js 4c", up="5h 6h 7h"))) == "9s Ts Js"
    assert str(decide(parse_personality("Lr\nP"), position("8s 9s Ts Js 4c", up="5h 6h 7h"))) == "8s 9s Ts"
    assert str(decide(parse_personality("Lr\nP"), position("8s 9s Ts Js 4c", up="5h"))) == "pass"


def test_without_a_sequence_in_hand_lr_does_not_apply_and_says_why():
    from personalities.player import RulePlayer

    state = position("4c 4d 9s Ts 5h 7h")
    player = RulePlayer(RUNNER, president_view)
    decision = player.explain(state.observation(0), state.legal_actions(), random.Random(0))
    assert str(decision.action) == "4c 4d"  # Lr and Hr do not apply; L* leads every four
    assert decision.trace.rules[0].reason.startswith("no sequence held")
    led = player.explain(position("4c 5h 6h 7h").observation(0), position("4c 5h 6h 7h").legal_actions(),
                         random.Random(0))
    assert led.trace.action == "5 6 7"  # a trace names a sequence's values


def test_old_modifiers_and_a_misplaced_r_read_as_before():
    from personalities.reader import check_text

    assert [d.message for d in check_text("Lr\nHr\n")] == []
    assert any("modifiers go only on L and H" in d.message for d in check_text("7r\n"))
