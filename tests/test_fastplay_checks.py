"""The compiled engine's boundary: the ints of a program, a table or a round handed to C are checked
where they enter it (`_fastplay_bots.c`, `_fastplay_rules.c`), so a bad one raises ValueError instead of
being read out of bounds."""
from __future__ import annotations

import dataclasses
import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from personalities.catalog import shipped
from personalities.odds import odds_of
from personalities.player import RulePlayer
from president.game import fastplay, rulebots
from president.game.settings import preset
from president.game.state import PresidentState
from president.game.view import president_view

from test_fastplay import compiled_only

pytestmark = compiled_only

TABLE = dataclasses.replace(preset("classic"), rounds=1)
AGENTS = [RulePlayer(shipped("Classic"), president_view)] * 5
PROGRAMS = rulebots.compiled_seats(TABLE, AGENTS).programs


def ints(program: bytes) -> list[int]:
    return list(struct.unpack(f"{len(program) // 4}i", program))


def packed(values: list[int]) -> bytes:
    return struct.pack(f"{len(values)}i", *values)


def play_round(state: PresidentState | None = None, seed: int = 0, **changes):
    """`play_rules_round` as `rulebots.playout` calls it for five Classic players, with `changes` made to its
    arguments; returns the state too."""
    state = state or PresidentState.new_match(TABLE, seed)
    seats = rulebots.compiled_seats(TABLE, AGENTS)
    args = dict(state=state, rules=seats.rules, programs=seats.programs, forced=seats.forced_bits,
                prev=state.prev_places, pack=seats.pack, deck_size=seats.deck_size, odds=odds_of,
                bits=random.Random(seed).getrandbits, orders=rulebots._ORDERS)
    args.update(changes)
    return fastplay.compiled_module().play_rules_round(*args.values()), state


def with_program(seat: int, need: int, program: bytes) -> tuple:
    """The five seats' programs, seat's one for `need` cards replaced by `program`."""
    mine = PROGRAMS[seat][:need] + (program,) + PROGRAMS[seat][need + 1:]
    return PROGRAMS[:seat] + (mine,) + PROGRAMS[seat + 1:]


LEAD = ints(PROGRAMS[0][0])  # Classic's walk when leading: [rules, kind, value, exact, early..., late...]


@pytest.mark.parametrize("program, error", [
    (b"", "not whole int32s"),
    (b"\x00\x00\x00", "not whole int32s"),
    (packed([-1]), "negative number of rules"),
    (packed([LEAD[0] + 1] + LEAD[1:]), "past its end"),  # one rule more than written
    (packed([1, 0, 5]), "past its end"),  # a rule cut short
    (packed([1, 0, 5, 0, 9, 0, 1, 2]), "conditions past its end"),  # 9 early conditions, one written
    (packed([1, 0, 5, 0, 0]), "past its end"),  # no count of late conditions
    (packed([1, 9, 5, 0, 0, 0]), "no known kind"),
    (packed([1, 0, 17, 0, 0, 0]), "value out of 0..16"),
    (packed([1, 1, 0, 9, 0, 0]), "exact count out of 0..8"),
    (packed([1, 1, 0, -1, 0, 0]), "exact count out of 0..8"),
    (packed([1, 0, 5, 0, 1, -1, 0, 50, 0]), "no known variable"),
    (packed([1, 0, 5, 0, 1, 20, 0, 50, 0]), "no known variable"),
    (packed([1, 0, 5, 0, 0, 1, 0, 6, 50]), "no known comparison"),
    (packed(LEAD + [0]), "past its last rule"),
])
def test_a_bad_program_is_refused_before_any_walk_reads_it(program, error):
    state = PresidentState.new_match(TABLE, 0)
    with pytest.raises(ValueError, match=error):
        play_round(state, programs=with_program(2, 0, program))
    assert not state.history  # nothing played
    with pytest.raises(ValueError, match=error):  # refused again: only sound programs are remembered
        play_round(state, programs=with_program(2, 0, program))


@pytest.mark.parametrize("changes, error", [
    (dict(programs=PROGRAMS[:4]), "a tuple of programs per seat"),
    (dict(programs=PROGRAMS[:4] + (PROGRAMS[4][:8],)), "seat 4 has not a tuple of 9 programs"),
    (dict(pack=(0, 0, 0) + (5,) * 13 + (0,)), "0 to 4 of a value"),
    (dict(pack=(0, 0, 0) + (4,) * 13 + (3,)), "0 to 2 jokers"),
    (dict(pack=(0, 0, 0) + (4,) * 12 + (-1, 0)), "0 to 4 of a value"),
    (dict(deck_size=53), "deck size"),
    (dict(prev=(1, 2, 3, 4, 6)), "previous place"),
    (dict(prev=(0, 2, 3, 4, 5)), "previous place"),
    (dict(prev=(1, 2, 3, 4)), "a place per seat"),
    (dict(rules=(False, False, 3, True, False, False, False)), "equal-value"),
])
def test_a_bad_table_is_refused(changes, error):
    with pytest.raises(ValueError, match=error):
        play_round(**changes)


def bad_state(change) -> PresidentState:
    state = PresidentState.new_match(TABLE, 0)
    change(state)
    return state


@pytest.mark.parametrize("change, error, read_by_legal", [
    (lambda s: s.counts[s.current].__setitem__(5, 7), "0 to 4 of a value", True),
    (lambda s: s.counts[s.current].__setitem__(16, 3), "0 to 2 jokers", True),
    (lambda s: s.counts[s.current].__setitem__(9, -1), "0 to 4 of a value", True),
    (lambda s: s.counts[(s.current + 1) % 5].__setitem__(5, 7), "0 to 4 of a value", False),
    (lambda s: s.sizes.__setitem__(0, 40), "size", False),
    (lambda s: setattr(s, "current", 5), "player to move", False),
    (lambda s: setattr(s, "current", -1), "player to move", False),
    (lambda s: setattr(s, "last_player", 9), "last player", False),
    (lambda s: setattr(s, "worst_free", 6), "free places", False),
    (lambda s: s.places.__setitem__(2, 7), "a place", False),
    (lambda s: s.played_counts.__setitem__(4, 5), "0 to 4 of a value", False),
    (lambda s: setattr(s, "upcards", dataclasses.replace(s.legal_actions()[0], count=9)), "upcards of 0 to 8", True),
    (lambda s: setattr(s, "upcards", dataclasses.replace(s.legal_actions()[0], value=17)), "value 3 to 16", True),
])
def test_a_bad_round_is_refused_by_every_compiled_loop(change, error, read_by_legal):
    """The rule players' loop, the random one, and (for what they read) the legal plays."""
    rules = fastplay.rules_of(TABLE)
    c_module = fastplay.compiled_module()
    with pytest.raises(ValueError, match=error):
        play_round(bad_state(change))
    with pytest.raises(ValueError, match=error):
        c_module.play_round(bad_state(change), random.Random(0).random, False, rules)
    if read_by_legal:
        with pytest.raises(ValueError, match=error):
            c_module.legal(bad_state(change), rules)


@settings(max_examples=60, deadline=None)
@given(seat=st.integers(0, 4), need=st.integers(0, 8), at=st.integers(0, 400), value=st.integers(-2**31, 2**31 - 1),
       seed=st.integers(0, 50))
def test_a_program_with_any_int_changed_is_played_or_refused(seat, need, at, value, seed):
    """Whatever one int of a program becomes, C either plays the round (a program that is still sound) or
    raises ValueError; it never reads past the program."""
    program = ints(PROGRAMS[seat][need])
    program[at % len(program)] = value
    state = PresidentState.new_match(TABLE, seed)
    try:
        (moves, _), _ = play_round(state, seed, programs=with_program(seat, need, packed(program)))
    except ValueError:
        assert not state.history
    else:
        assert moves == len(state.history) - sum(1 for _, play in state.history if play is None)


def test_sound_programs_play_as_before():
    (moves, ended), state = play_round(seed=3)
    reference = PresidentState.new_match(TABLE, 3)
    assert rulebots.playout(reference, AGENTS, random.Random(3)) is not None
    assert moves > 0 and state.history == reference.history[:len(state.history)]
