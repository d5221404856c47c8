"""The `.rul` condition engine: potentials, the 18 variables, FollowOdds, fallbacks, traces.

Every expected value here is computed by hand (or, for FollowOdds, by an
independent brute-force enumeration), from docs/rul-language.md and the 1997 manual, never
copied from the engine's output. Positions are built with `hypothetical_view`
(President, classic table unless said otherwise).
"""
from __future__ import annotations

from pathlib import Path

import itertools
import json
import random
from fractions import Fraction
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from personalities.evaluator import Situation, decide, explain, resolve
from personalities.odds import follow_odds
from personalities.reader import parse_personality
from personalities.syntax import Potential, card_text
from personalities.trace import DecisionTrace
from personalities.variables import Variable
from personalities.view import JOKER, TWO, ClimbingView
from president.game.cards import parse_value
from president.game.settings import Settings, preset
from president.game.view import hypothetical_view

CLASSIC = Settings()
PAGAT = preset("pagat")  # equal value not allowed: plays must be strictly higher
FAST = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])

NOT_HELD = "not held"
CANNOT_BEAT = "cannot beat the upcards"
NO_PASS = "pass not allowed: I have the lead"
WRONG_COUNT = "wrong count"  # the reason starts with this, then says which counts

MANUAL_EXAMPLE = (Path(__file__).parent / "data" / "ManualExample.rul").read_text(encoding="utf-8")


# --- helpers ----------------------------------------------------------------------

def values(text: str | None) -> list[int]:
    return [parse_value(t) for t in (text or "").split()]


def position(hand: str, upcards: str | None = None, played: str = "", opponents: list[int] | None = None,
             rank: int = 6, higher: int = 0, table: Settings = CLASSIC) -> ClimbingView:
    return hypothetical_view(table, values(hand), values(upcards) or None, values(played), opponents, rank, higher)


def rul(text: str, name: str = "Test"):
    return parse_personality(text, name=name)


def outcome(potential: str, view: ClimbingView):
    return resolve(Potential.parse(potential), view)


def choose(text_or_personality, view: ClimbingView, seed: int = 0):
    personality = rul(text_or_personality) if isinstance(text_or_personality, str) else text_or_personality
    play, rule, _, note = decide(personality, view, random.Random(seed))
    return play, (rule.line if rule else None), note


def variable(view: ClimbingView, var: Variable, play=None, seed: int = 0) -> int:
    return Situation(view, random.Random(seed)).value(var, play)


def view_of(unseen: dict[int, int], opponents: tuple[int, ...], order=tuple(range(3, 16)),
            jokers_beat_singles: bool = True) -> ClimbingView:
    """A bare view for FollowOdds: only the unseen cards and the opponents' sizes matter."""
    u = [0] * 17
    for v, n in unseen.items():
        u[v] = n
    return ClimbingView(hand=(0,) * 17, upcards=None, legal=frozenset(), can_pass=False, unseen=tuple(u),
                        opponent_counts=tuple(opponents), played=0, deck_size=52, order=order,
                        jokers_beat_singles=jokers_beat_singles)


def random_position(seed: int, table: Settings = CLASSIC) -> ClimbingView:
    """A consistent random President position (lead or following), opponents' sizes random."""
    rng = random.Random(seed)
    deck = [v for v in range(3, 16) for _ in range(4)]
    rng.shuffle(deck)
    n_hand = rng.randint(1, 14)
    hand, rest = deck[:n_hand], deck[n_hand:]
    n_played = rng.randint(0, 22)
    played, rest = rest[:n_played], rest[n_played:]
    upcards = None
    if rng.random() < 0.65:
        v = rng.choice(rest)
        k = rng.randint(1, rest.count(v))
        upcards = [v] * k
        for _ in range(k):
            rest.remove(v)
    m = rng.randint(1, min(4, len(rest)))
    cuts = sorted(rng.sample(range(1, len(rest)), m - 1))
    opponents = [b - a for a, b in zip([0] + cuts, cuts + [len(rest)])]
    rank = rng.randint(1, 6)
    higher = 0 if rank == 6 else rng.randint(0, m)
    return hypothetical_view(table, hand, upcards, played, opponents, rank, higher)


# --- 1. the 1997 manual's examples ------------------------------------------------

def test_manual_lp_takes_an_exact_pair_but_l_star_breaks_the_three_eights():
    view = position("8 8 8 9 T T J", "4 4")
    assert outcome("Lp", view) == ((10, 2), True, "")
    assert outcome("L*", view) == ((8, 2), True, "")
    assert choose("Lp\n", view)[0] == (10, 2)
    assert choose("L*\n", view)[0] == (8, 2)


def test_manual_lp_is_ignored_when_the_upcard_is_a_single_six():
    view = position("4 4 8 8 K", "6")
    play, applies, reason = outcome("Lp", view)
    assert (play, applies) == (None, False) and reason.startswith(WRONG_COUNT)
    # the rule is ignored: the next one is played
    assert choose("Lp\nL*\n", view)[:2] == ((8, 1), 2)


def test_manual_l_star_when_leading_is_the_lowest_card_or_cards():
    assert outcome("L*", position("5 5 5 9 K"))[0] == (5, 3)
    assert outcome("H*", position("5 5 5 9 K"))[0] == (13, 1)


def test_manual_a_two_rule_is_ignored_without_a_two():
    view = position("5 9 K", "7")
    assert outcome("2", view) == (None, False, NOT_HELD)
    assert choose("2\nL\n", view)[:2] == ((9, 1), 2)


def test_manual_lower_three_of_a_kind_than_the_upcards_is_ignored():
    view = position("6 6 6 K", "9 9 9")
    assert outcome("Lt", view) == (None, False, CANNOT_BEAT)
    assert choose("Lt\n", view)[0] is None  # no rule used: pass


def test_manual_two_when_not_leading_with_more_than_one_two():
    text = "; manual\n2 Lead = 0 TotMyTwos > 1\n"
    assert choose(text, position("5 2 2", "K"))[:2] == ((TWO, 1), 2)
    assert choose(text, position("5 2 2", "K K"))[:2] == ((TWO, 2), 2)
    assert choose(text, position("5 2", "K"))[0] is None  # one two only: pass
    play, line, note = choose(text, position("5 2 2"))  # leading: the rule fails, L* is played
    assert (play, line) == ((5, 1), None) and "L*" in note


def test_manual_two_with_only_one_other_value():
    text = "2 NumDiffVals = 1\n"
    assert choose(text, position("K 2 2"))[:2] == ((TWO, 2), 1)  # leading: every two
    assert choose(text, position("K K 2 2", "9"))[:2] == ((TWO, 1), 1)
    assert choose(text, position("Q K 2 2", "9"))[0] is None


def test_manual_lowest_card_unless_it_splits_a_set():
    text = "L NumThisValue = 1\n"
    assert choose(text, position("6 6 7 9", "5"))[0] == (7, 1)
    assert choose(text, position("6 6 7 7", "5"))[0] is None


def test_manual_p_is_played_when_its_conditions_hold():
    text = "P TotMyCards > 3\nL*\n"
    assert choose(text, position("6 7 8 9", "5"))[:2] == (None, 1)
    assert choose(text, position("6 7 8", "5"))[:2] == ((6, 1), 2)
    # leading, P cannot be played, whatever its conditions
    assert choose(text, position("6 7 8 9"))[:2] == ((6, 1), 2)


def test_manual_no_rule_used_means_pass():
    assert choose("L CardVal < 5\n", position("9 J", "8")) == (None, None, "no rule applied: pass")


MANUAL_POSITIONS = [
    # (hand, upcards, expected play, line of the manual example that fires)
    ("K 2 2", None, (TWO, 2), 2),  # going out: every two
    ("K 2 2", "9", (TWO, 1), 2),
    ("3 3 8 8 8 9 T T J", "4 4", (10, 2), 6),  # the lowest exact pair that beats 4 4
    ("4 5 5 6 6 6 9", None, (6, 3), 5),  # the lowest trips lead first
    ("4 5 5 5 5 6 6 6 9", None, (5, 4), 4),  # then quads before them
    ("4 7 9 Q Q", None, (4, 1), 8),  # lp is Q Q, not below a queen: the lone 4
    ("Q Q K A", None, (12, 2), 10),  # nothing below a queen: L* leads the lowest cards
    ("4 Q Q A", "9", (12, 1), 10),  # L is the ace (not < Q): L* breaks the queens
    ("Q Q Q K K 2", "J J", (12, 2), 10),  # lp K K is not < Q: L* breaks the three queens
    ("3 4", "K", None, None),  # nothing goes: pass
]


@pytest.mark.parametrize(("hand", "upcards", "expected", "line"), MANUAL_POSITIONS)
def test_manual_closing_example_personality(hand, upcards, expected, line):
    play, fired, note = choose(MANUAL_EXAMPLE, position(hand, upcards))
    assert (play, fired) == (expected, line)
    if line is None:
        assert note == "no rule applied: pass"


# --- 2. every potential form --------------------------------------------------------

HAND = "3 5 5 7 7 7 9 9 9 9 J Q Q 2 2"  # a single 3, pair 5, trips 7, quad 9, single J, pair Q, pair 2
WRONG = WRONG_COUNT

POTENTIAL_CASES = {
    None: {  # I lead: a value plays every card of it; L/H exact counts held
        "3": (3, 1), "4": NOT_HELD, "5": (5, 2), "6": NOT_HELD, "7": (7, 3), "8": NOT_HELD, "9": (9, 4),
        "T": NOT_HELD, "10": NOT_HELD, "J": (11, 1), "Q": (12, 2), "K": NOT_HELD, "A": NOT_HELD, "2": (TWO, 2),
        "L": (3, 1), "Ls": (3, 1), "Lp": (5, 2), "Lt": (7, 3), "Lq": (9, 4), "L*": (3, 1),
        "H": (11, 1), "Hs": (11, 1), "Hp": (12, 2), "Ht": (7, 3), "Hq": (9, 4), "H*": (12, 2),
        "P": NO_PASS,
    },
    "6": {
        "3": CANNOT_BEAT, "4": NOT_HELD, "5": CANNOT_BEAT, "6": NOT_HELD, "7": (7, 1), "8": NOT_HELD,
        "9": (9, 1), "T": NOT_HELD, "10": NOT_HELD, "J": (11, 1), "Q": (12, 1), "K": NOT_HELD, "A": NOT_HELD,
        "2": (TWO, 1),
        "L": (11, 1), "Ls": (11, 1), "Lp": WRONG, "Lt": WRONG, "Lq": WRONG, "L*": (7, 1),
        "H": (11, 1), "Hs": (11, 1), "Hp": WRONG, "Ht": WRONG, "Hq": WRONG, "H*": (12, 1), "P": "pass",
    },
    "K": {
        "Q": CANNOT_BEAT, "J": CANNOT_BEAT, "2": (TWO, 1), "A": NOT_HELD,
        "L": CANNOT_BEAT, "H": CANNOT_BEAT, "L*": CANNOT_BEAT, "H*": CANNOT_BEAT, "P": "pass",
    },
    "6 6": {
        "3": WRONG, "5": CANNOT_BEAT, "7": (7, 2), "9": (9, 2), "J": WRONG, "Q": (12, 2), "2": (TWO, 2),
        "K": NOT_HELD, "L": WRONG, "H": WRONG, "Lp": (12, 2), "Hp": (12, 2), "Lt": WRONG, "Lq": WRONG,
        "L*": (7, 2), "H*": (12, 2), "P": "pass",
    },
    "K K": {
        "Q": CANNOT_BEAT, "9": CANNOT_BEAT, "2": (TWO, 2), "Lp": CANNOT_BEAT, "Hp": CANNOT_BEAT,
        "L*": CANNOT_BEAT, "H*": CANNOT_BEAT,
    },
    "4 4 4": {
        "7": (7, 3), "9": (9, 3), "5": WRONG, "Q": WRONG, "2": WRONG, "3": WRONG,
        "Lt": (7, 3), "Ht": (7, 3), "L*": (7, 3), "H*": (9, 3), "L": WRONG, "Lp": WRONG, "Lq": WRONG,
        "P": "pass",
    },
    "8 8 8": {"Lt": CANNOT_BEAT, "Ht": CANNOT_BEAT, "7": CANNOT_BEAT, "L*": (9, 3), "H*": (9, 3)},
    "4 4 4 4": {
        "Lq": (9, 4), "Hq": (9, 4), "L*": (9, 4), "H*": (9, 4), "9": (9, 4), "7": WRONG, "Lt": WRONG,
        "Lp": WRONG, "L": WRONG,
    },
    "T T T T": {"Lq": CANNOT_BEAT, "9": CANNOT_BEAT, "L*": CANNOT_BEAT, "H*": CANNOT_BEAT, "Lp": WRONG},
}


def _cases():
    for up, table in POTENTIAL_CASES.items():
        for potential, expected in table.items():
            yield pytest.param(up, potential, expected, id=f"{up or 'lead'}:{potential}")


@pytest.mark.parametrize(("upcards", "potential", "expected"), list(_cases()))
def test_every_potential_form(upcards, potential, expected):
    view = position(HAND, upcards)
    play, applies, reason = outcome(potential, view)
    if isinstance(expected, tuple):
        assert (play, applies, reason) == (expected, True, "")
        assert play in view.legal
    elif expected == "pass":
        assert (play, applies, reason) == (None, True, "")
    elif expected == WRONG:
        assert (play, applies) == (None, False)
        assert reason.startswith(WRONG_COUNT), reason
    else:
        assert (play, applies, reason) == (None, False, expected)


def test_wrong_count_reasons_say_which_counts():
    view = position(HAND, "6 6")
    assert outcome("3", view)[2] == "wrong count: hold 1, the upcards are 2"
    assert outcome("Lt", view)[2] == "wrong count: three of a kind while the upcards are 2"
    assert outcome("L*", position("3 5 8", "4 4"))[2] == "wrong count: no value held 2 times"


def test_exact_modifier_not_held_and_l_star_breaks_a_set():
    view = position("5 5 8 8", "4")
    assert outcome("L", view) == (None, False, NOT_HELD)
    assert outcome("H", view) == (None, False, NOT_HELD)
    assert outcome("L*", view)[0] == (5, 1)
    assert outcome("H*", view)[0] == (8, 1)
    assert outcome("Lp", position("3 5 8", "4 4")) == (None, False, NOT_HELD)


def test_equal_value_follows_the_table_rule():
    classic, pagat = position(HAND, "7"), position(HAND, "7", table=PAGAT)
    assert outcome("7", classic)[0] == (7, 1)  # classic: an equal value may be played
    assert outcome("L*", classic)[0] == (7, 1)
    assert outcome("7", pagat) == (None, False, CANNOT_BEAT)
    assert outcome("L*", pagat)[0] == (9, 1)


def test_ten_is_a_synonym_of_t():
    view = position("T T 4", "9 9")
    assert outcome("10", view) == outcome("T", view) == ((10, 2), True, "")


@pytest.mark.parametrize("potential", ["L", "Lp", "Lt", "L*", "H", "Hp", "Ht", "H*"])
def test_l_and_h_never_choose_twos(potential):
    assert outcome(potential, position("2 2 2 K", "A"))[0] is None
    assert outcome(potential, position("2 2 2", "5"))[0] is None
    assert outcome(potential, position("2 2 2"))[0] is None
    assert outcome(potential, position("2 2"))[1] is False


def test_a_value_can_still_play_twos():
    assert outcome("2", position("2 2 2 K", "A"))[0] == (TWO, 1)
    assert outcome("2", position("2 2 2"))[0] == (TWO, 3)


def _legal_by_rules(view: ClimbingView, value: int, count: int, table: Settings) -> bool:
    """Independent of the view's `legal`: can I play `count` cards of `value` now?"""
    if view.hand[value] < count:
        return False
    if view.upcards is None:
        return True
    up_value, up_count = view.upcards
    return count == up_count and (value > up_value or (value == up_value and table is CLASSIC))


@FAST
@given(st.integers(0, 2**32), st.sampled_from(["L", "H"]), st.sampled_from(["", "s", "p", "t", "q", "*"]),
       st.booleans())
def test_l_and_h_choose_the_lowest_or_highest_applicable_value(seed, letter, modifier, strict):
    table = PAGAT if strict else CLASSIC
    view = random_position(seed, table)
    play, applies, reason = outcome(letter + modifier, view)
    exact = {"": 1, "s": 1, "p": 2, "t": 3, "q": 4, "*": None}[modifier]
    candidates = []
    for v in range(3, TWO):  # twos never
        held = view.hand[v]
        if view.upcards is None:
            if held and (exact is None or held == exact):
                candidates.append((v, held))
        else:
            need = view.upcards[1]
            ok_count = held >= need if exact is None else (held == exact == need)
            if ok_count and _legal_by_rules(view, v, need, table):
                candidates.append((v, need))
    if not candidates:
        assert (play, applies) == (None, False) and reason
    else:
        expected = min(candidates) if letter == "L" else max(candidates)
        assert (play, applies, reason) == (expected, True, "")


@FAST
@given(st.integers(0, 2**32), st.integers(3, 15))
def test_a_value_plays_all_its_cards_when_leading_and_the_upcards_count_when_following(seed, value):
    view = random_position(seed)
    play, applies, _ = outcome(card_text(value), view)
    if not view.hand[value]:
        assert not applies
    elif view.upcards is None:
        assert play == (value, view.hand[value])
    elif _legal_by_rules(view, value, view.upcards[1], CLASSIC):
        assert play == (value, view.upcards[1])
    else:
        assert not applies


# --- 3. the 18 variables ------------------------------------------------------------

# hand 3 5 5 9 K 2, following a single 7; played 3 3 8 2 (+ the 7): 5 cards of 52;
# unseen 52 - 6 - 5 = 41 = 10 + 12 + 9 + 10; I am Vice-Loser with 2 higher ranks still in.
VIEW_A = dict(hand="3 5 5 9 K 2", upcards="7", played="3 3 8 2", opponents=[10, 12, 9, 10], rank=4, higher=2)
EXPECTED_A = {
    Variable.LEAD: 0, Variable.RANK: 4, Variable.NUM_DIFF_VALS: 4, Variable.TWOS_LEFT: 2,
    Variable.PERCENT_PLAYED: 9,  # 500 // 52
    Variable.HIGHEST_OPP_CARDS: 12, Variable.HIGHER_PLAYERS: 2, Variable.PLAYERS_LEFT: 5,
    Variable.TOT_MY_CARDS: 6, Variable.TOT_MY_TWOS: 1,
    Variable.HAND_VALUE: 7,  # (3 + 5 + 5 + 9 + 13) / 5
    Variable.MY_LOWEST_CARD: 3, Variable.MY_HIGHEST_CARD: 13,
}


@pytest.mark.parametrize("var", list(EXPECTED_A), ids=lambda v: v.full)
def test_fixed_variables_following(var):
    view = position(**VIEW_A)
    assert variable(view, var) == EXPECTED_A[var]
    assert variable(view, var, (9, 1)) == EXPECTED_A[var]  # does not depend on the play


# a lead with only twos: hand 2 2, nothing played, opponents 13 13 12 12 (50 shared evenly)
EXPECTED_B = {
    Variable.LEAD: 1, Variable.RANK: 6, Variable.NUM_DIFF_VALS: 0, Variable.TWOS_LEFT: 2,
    Variable.PERCENT_PLAYED: 0, Variable.HIGHEST_OPP_CARDS: 13, Variable.HIGHER_PLAYERS: 0,
    Variable.PLAYERS_LEFT: 5, Variable.TOT_MY_CARDS: 2, Variable.TOT_MY_TWOS: 2, Variable.HAND_VALUE: 0,
    Variable.MY_LOWEST_CARD: 0, Variable.MY_HIGHEST_CARD: 0,
}


@pytest.mark.parametrize("var", list(EXPECTED_B), ids=lambda v: v.full)
def test_fixed_variables_leading_with_only_twos(var):
    view = position("2 2")
    assert view.opponent_counts == (13, 13, 12, 12)
    assert variable(view, var) == EXPECTED_B[var]


# late position: played all of 4 6 8 T J Q A (28) + the upcard 7: 29 of 52 played;
# unseen 3x3 5x2 7x3 9x3 Kx3 2x3 = 17 = 9 + 8.
LATE = dict(hand="3 5 5 9 K 2", upcards="7", played=" ".join(["4 6 8 T J Q A"] * 4), opponents=[9, 8])


def test_late_position_variables():
    view = position(**LATE)
    assert sum(view.unseen) == 17
    assert variable(view, Variable.PERCENT_PLAYED) == 55  # 2900 // 52
    assert variable(view, Variable.PLAYERS_LEFT) == 3
    assert variable(view, Variable.HIGHEST_OPP_CARDS) == 9
    assert variable(view, Variable.TWOS_LEFT) == 3
    assert variable(view, Variable.FOLLOW_ODDS, (9, 1)) == 100
    # a pair of fives: a 9-card hand with no pair among 7 9 K 2 is exactly 3 3 3 5 5 7 9 K 2,
    # leaving 7 7 9 9 K K 2 2 to the other: somebody always holds a stronger pair
    assert variable(view, Variable.FOLLOW_ODDS, (5, 2)) == 100


def test_play_variables():
    view = position(**VIEW_A)
    assert [variable(view, v, (9, 1)) for v in (Variable.CARD_VAL, Variable.NUM_THIS_VALUE,
                                                 Variable.MATCHES_UP_CARD, Variable.FOLLOW_ODDS)] == [9, 1, 0, 100]
    # a lone two: nothing is stronger, and there are no jokers
    assert [variable(view, v, (TWO, 1)) for v in (Variable.CARD_VAL, Variable.NUM_THIS_VALUE,
                                                   Variable.MATCHES_UP_CARD, Variable.FOLLOW_ODDS)] == [15, 1, 0, 0]
    assert variable(view, Variable.NUM_THIS_VALUE, (5, 1)) == 2  # how many I hold, not how many I play


@pytest.mark.parametrize("var", [v for v in Variable if v.depends_on_play], ids=lambda v: v.full)
def test_play_dependent_variables_are_zero_for_p(var):
    assert variable(position(**VIEW_A), var, None) == 0
    assert variable(position("7 7 Q", "7"), var, None) == 0


def test_play_dependent_variables_in_a_p_rule():
    text = "P CardVal = 0 NumThisValue = 0 FollowOdds = 0 MatchesUpCard = 0\nL*\n"
    assert choose(text, position(**VIEW_A))[:2] == (None, 1)


def test_matches_up_card_and_hand_value():
    # 26 of 52 played: all 3 4 5 6 8 9 (24) and a T, plus the upcard 7
    view = position("7 7 Q", "7", played=" ".join(["3 4 5 6 8 9"] * 4) + " T")
    assert variable(view, Variable.MATCHES_UP_CARD, (7, 1)) == 1
    assert variable(view, Variable.MATCHES_UP_CARD, (12, 1)) == 0
    assert variable(view, Variable.NUM_THIS_VALUE, (7, 1)) == 2
    assert variable(view, Variable.CARD_VAL, (7, 1)) == 7
    assert variable(view, Variable.HAND_VALUE) == 8  # 26 / 3 = 8.67, rounded down
    assert variable(view, Variable.PERCENT_PLAYED) == 50
    assert variable(position("7 7 Q"), Variable.MATCHES_UP_CARD, (7, 2)) == 0  # leading: no upcards


def test_hand_value_rounds_down_and_ignores_twos():
    assert variable(position("3 4 2"), Variable.HAND_VALUE) == 3  # (3 + 4) / 2 = 3.5
    assert variable(position("A A K 2 2 2"), Variable.HAND_VALUE) == 13  # 41 / 3 = 13.67
    assert variable(position("A A K 2 2 2"), Variable.MY_HIGHEST_CARD) == 14
    assert variable(position("A A K 2 2 2"), Variable.MY_LOWEST_CARD) == 13
    assert variable(position("A A K 2 2 2"), Variable.NUM_DIFF_VALS) == 2


def test_twos_left_counts_neither_mine_nor_played():
    assert variable(position("2", played="2 2"), Variable.TWOS_LEFT) == 1
    assert variable(position("5", "2 2"), Variable.TWOS_LEFT) == 2  # upcards count as played
    assert variable(position("2 2 2 2"), Variable.TWOS_LEFT) == 0


def test_all_18_variables_by_short_name_in_rules_with_full_names_in_the_trace():
    text = ("; every variable\n"
            "L P=4 V=4 T=2 C=9 %=9 N=12 S=1 O=100 H=2 F=6\n"
            "L L=0 I=6 G=1 A=7 M=0 W=3 E=13 R>0 F=5\n")
    rng, reference = random.Random(5), random.Random(5)
    play, trace = explain(rul(text), position(**VIEW_A), rng)
    first, second = trace.rules
    assert play == (9, 1) and trace.fired_line == 3 and second.fired and not first.fired
    assert [(c.variable, c.value, c.verdict) for c in first.conditions] == [
        ("Rank", 4, True), ("NumDiffVals", 4, True), ("TwosLeft", 2, True), ("CardVal", 9, True),
        ("%Played", 9, True), ("HighestOppCards", 12, True), ("NumThisValue", 1, True),
        ("FollowOdds", 100, True), ("HigherPlayers", 2, True), ("PlayersLeft", 5, False)]
    assert [(c.variable, c.value, c.verdict) for c in second.conditions] == [
        ("Lead", 0, True), ("TotMyCards", 6, True), ("TotMyTwos", 1, True), ("HandValue", 7, True),
        ("MatchesUpCard", 0, True), ("MyLowestCard", 3, True), ("MyHighestCard", 13, True),
        ("Random", reference.randint(1, 100), True), ("PlayersLeft", 5, True)]
    assert len({c.variable for r in trace.rules for c in r.conditions}) == 18


# Random ---------------------------------------------------------------------------

def test_random_is_a_fresh_reproducible_draw_per_reference():
    view = position(**VIEW_A)
    situation = Situation(view, random.Random(7))
    draws = [situation.value(Variable.RANDOM, None) for _ in range(200)]
    reference = random.Random(7)
    assert draws == [reference.randint(1, 100) for _ in range(200)]
    assert min(draws) >= 1 and max(draws) <= 100 and len(set(draws)) > 50


def test_random_draws_once_per_reference_in_a_rule():
    personality = rul("P Random > 0 Random > 0 Random > 0\n")
    rng, reference = random.Random(11), random.Random(11)
    play, trace = explain(personality, position(**VIEW_A), rng)
    expected = [reference.randint(1, 100) for _ in range(3)]
    assert play is None
    assert [c.value for c in trace.rules[0].conditions] == expected
    assert rng.getstate() == reference.getstate()


@FAST
@given(st.integers(0, 2**32))
def test_random_rules_are_reproducible_with_a_seed(seed):
    personality = rul("P Random > 50\nL*\n")
    view = position("4 8 9", "3")
    assert choose(personality, view, seed) == choose(personality, view, seed)
    expected = random.Random(seed).randint(1, 100) > 50
    assert (choose(personality, view, seed)[0] is None) == expected


# FollowOdds --------------------------------------------------------------------------

FOLLOW_ODDS_CASES = [
    # (unseen cards, opponents' sizes, play, percent, why)
    ({10: 1, 3: 5}, (3, 3), (9, 1), 100, "a single: one stronger unseen card is always in some hand"),
    ({3: 6}, (3, 3), (9, 1), 0, "nothing stronger is unseen"),
    ({10: 2, 4: 1, 5: 1}, (2, 2), (9, 2), 33, "T T together: 2 of the 6 deals of 4 cards into 2+2: 1/3"),
    ({10: 2, 3: 4}, (2, 2, 2), (9, 2), 20, "T T together: 3 * 6 of 90 deals into 2+2+2: 1/5"),
    ({10: 3, 3: 3}, (3, 3), (9, 3), 10, "T T T in one hand of 3: 2 of C(6,3) = 20 deals"),
    ({14: 2, 3: 3}, (1, 4), (9, 2), 60, "only the 4-card hand can hold A A: C(3,2) / C(5,4) = 3/5"),
    ({10: 2, 3: 1, 4: 1}, (2, 1, 1), (9, 2), 16, "T T in the 2-card hand: 2 of 12 deals, 16.67 rounded down"),
    ({10: 3, 3: 1}, (2, 2), (9, 2), 100, "three tens in two hands of 2: one hand holds two"),
    ({10: 2, 11: 2}, (2, 2), (9, 2), 33, "a pair somewhere unless each hand is T J: 4 of 6 deals"),
    ({10: 1, 11: 1, 3: 2}, (2, 2), (9, 2), 0, "no stronger value has two unseen cards"),
    ({TWO: 4, 3: 4}, (4, 4), (TWO, 2), 0, "nothing beats twos"),
    ({JOKER: 1, 3: 3}, (2, 2), (TWO, 1), 100, "a joker beats a lone two"),
    ({JOKER: 2, 3: 2}, (2, 2), (TWO, 2), 0, "jokers do not beat sets"),
    ({10: 2, 3: 2}, (), (9, 2), 0, "no opponent left"),
]


@pytest.mark.parametrize(("unseen", "sizes", "play", "expected", "why"), FOLLOW_ODDS_CASES,
                         ids=[c[4] for c in FOLLOW_ODDS_CASES])
def test_follow_odds_by_hand(unseen, sizes, play, expected, why):
    view = view_of(unseen, sizes)
    assert follow_odds(view, *play) == expected
    assert brute_force_follow_odds(view, *play) == expected


def test_follow_odds_by_hand_fractions():
    # the 1/3 case above, with Fractions: 4 cards T T 4 5, hands of 2 and 2
    deals = list(itertools.combinations(range(4), 2))  # the first hand's cards (T T are 0, 1)
    beaten = sum(1 for hand in deals if set(hand) in ({0, 1}, {2, 3}))
    assert Fraction(beaten, len(deals)) == Fraction(1, 3) == Fraction(comb(2, 2) * 2, comb(4, 2))
    assert 100 * Fraction(1, 3) // 1 == 33


def test_follow_odds_jokers_only_when_they_beat_singles():
    assert follow_odds(view_of({JOKER: 1, 3: 3}, (2, 2), jokers_beat_singles=False), TWO, 1) == 0
    assert follow_odds(view_of({JOKER: 1, 3: 3}, (2, 2)), JOKER, 1) == 0  # nothing beats a lone joker


def test_follow_odds_follows_the_reversed_order():
    reversed_order = tuple(range(15, 2, -1))  # a revolution: 3 is the strongest
    assert follow_odds(view_of({4: 1, 9: 3}, (2, 2), reversed_order), 5, 1) == 100
    assert follow_odds(view_of({6: 1, 9: 3}, (2, 2), reversed_order), 5, 1) == 0


def test_follow_odds_in_president_positions():
    single_two = position("2", played="2 2 2")
    assert variable(single_two, Variable.FOLLOW_ODDS, (TWO, 1)) == 0
    jokers = Settings(jokers=1)
    assert variable(position("2", played="2 2 2", table=jokers), Variable.FOLLOW_ODDS, (TWO, 1)) == 100
    assert variable(position("2", played="2 2 2 Jk", table=jokers), Variable.FOLLOW_ODDS, (TWO, 1)) == 0


def _beats(view: ClimbingView, value: int, count: int, hand: list[int]) -> bool:
    """Can a hand (list of values) beat `count` cards of `value`?"""
    if value == JOKER:
        return False
    stronger = set(view.order[view.order.index(value) + 1:])
    if count == 1 and view.jokers_beat_singles and JOKER in hand:
        return True
    return any(hand.count(w) >= count for w in stronger)


def brute_force_follow_odds(view: ClimbingView, value: int, count: int) -> int:
    """Every deal of the (distinguishable) unseen cards into the opponents' hands, exactly."""
    cards = [v for v in range(17) for _ in range(view.unseen[v])]
    sizes = list(view.opponent_counts)
    if not sizes:
        return 0
    beaten = total = 0

    def deal(left: list[int], i: int, hands: list[list[int]]) -> None:
        nonlocal beaten, total
        if i == len(sizes):
            total += 1
            beaten += any(_beats(view, value, count, h) for h in hands)
            return
        for chosen in itertools.combinations(range(len(left)), sizes[i]):
            picked = set(chosen)
            deal([c for j, c in enumerate(left) if j not in picked], i + 1,
                 hands + [[left[j] for j in chosen]])

    deal(cards, 0, [])
    return int(100 * Fraction(beaten, total) // 1)


@st.composite
def small_odds_positions(draw):
    n_values = draw(st.integers(1, 4))
    pool = draw(st.lists(st.sampled_from([3, 5, 7, 9, 10, 12, 14, TWO, JOKER]), min_size=n_values,
                         max_size=n_values, unique=True))
    unseen = {v: draw(st.integers(1, 2 if v == JOKER else 4)) for v in pool}
    total = sum(unseen.values())
    if total > 8:  # keep the enumeration small
        for v in list(unseen):
            while total > 8 and unseen[v] > 1:
                unseen[v] -= 1
                total -= 1
    n_opp = draw(st.integers(1, min(3, total)))
    cuts = sorted(draw(st.lists(st.integers(1, total - 1), min_size=n_opp - 1, max_size=n_opp - 1,
                                unique=True))) if n_opp > 1 and total > 1 else []
    sizes = tuple(b - a for a, b in zip([0] + cuts, cuts + [total]))
    reverse = draw(st.booleans())
    order = tuple(range(15, 2, -1)) if reverse else tuple(range(3, 16))
    view = view_of(unseen, sizes, order, draw(st.booleans()))
    value = draw(st.one_of(st.sampled_from([3, 4, 6, 8, 9, 11, 13]), st.sampled_from(list(range(3, 16)) + [JOKER])))
    count = 1 if value == JOKER else draw(st.sampled_from([1, 2, 2, 2, 3, 3, 4]))
    return view, value, count


@settings(deadline=None, max_examples=250)
@given(small_odds_positions())
def test_follow_odds_matches_brute_force(case):
    view, value, count = case
    assert follow_odds(view, value, count) == brute_force_follow_odds(view, value, count)


# --- 4. fallbacks and traces ----------------------------------------------------------

def test_no_rule_applies_following_means_pass():
    play, rule, _, note = decide(rul("K\nLp CardVal > A\n"), position("3 4 4", "9"), random.Random(0))
    assert (play, rule, note) == (None, None, "no rule applied: pass")


def test_no_rule_applies_when_leading_means_l_star():
    play, rule, _, note = decide(rul("K\nP\nLp CardVal > A\n"), position("4 4 7 9 2"), random.Random(0))
    assert (play, rule) == ((4, 2), None)
    assert note == "no rule applied and I must lead: L* (the lowest cards)"


@pytest.mark.parametrize("hand", ["2", "2 2", "2 2 2 2"])
def test_only_twos_when_leading_means_the_weakest_legal_play(hand):
    view = position(hand)
    play, rule, _, note = decide(rul("L*\nH\nP\n"), view, random.Random(0))
    assert (play, rule) == ((TWO, 1), None)
    assert note == "no rule applied and I must lead: my weakest legal play"


def test_an_explicit_two_rule_still_leads_every_two():
    assert choose("L*\n2\n", position("2 2 2"))[:2] == ((TWO, 3), 2)


def test_first_applying_rule_wins_and_later_rules_are_not_tried():
    play, trace = explain(rul("Lp\nL\nH\n"), position("4 6 9", "5"), random.Random(0))
    assert play == (6, 1) and trace.fired_line == 2
    assert [r.line for r in trace.rules] == [1, 2]


RULE_POOL = ["2", "3", "7", "9", "Q", "A", "L", "Lp", "Lt", "Lq", "L*", "H", "Hp", "Ht", "Hq", "H*", "P"]
CONDITION_POOL = ["Lead = 0", "Lead = 1", "Random > 50", "Random < 30", "R > 90", "CardVal < Q", "C > 9",
                  "NumDiffVals > 3", "TwosLeft < 2", "%Played > 20", "HighestOppCards > 8", "S = 1", "S > 1",
                  "FollowOdds < 50", "O = 0", "HigherPlayers > 0", "PlayersLeft < 4", "TotMyCards < 6",
                  "TotMyTwos > 0", "HandValue > 8", "MatchesUpCard = 1", "MyLowestCard < 6", "E > Q", "Rank < 3"]


@st.composite
def personalities(draw):
    lines = ["; random personality"]
    for _ in range(draw(st.integers(1, 7))):
        potential = draw(st.sampled_from(RULE_POOL))
        conditions = draw(st.lists(st.sampled_from(CONDITION_POOL), max_size=4))
        lines.append("  ".join([potential, *conditions]))
    return rul("\n".join(lines) + "\n")


@settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(personalities(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_tracing_never_changes_the_decision_or_the_rng(personality, position_seed, rng_seed):
    view = random_position(position_seed)
    plain_rng, traced_rng = random.Random(rng_seed), random.Random(rng_seed)
    plain = decide(personality, view, plain_rng, trace=False)
    traced = decide(personality, view, traced_rng, trace=True)
    assert plain[0] == traced[0]
    assert plain[1] is traced[1]
    assert plain[3] == traced[3]
    assert plain_rng.getstate() == traced_rng.getstate()
    assert plain[2] is None and traced[2] is not None
    # and explain() is the same decision too
    play, trace = explain(personality, view, random.Random(rng_seed))
    assert play == plain[0] and trace.fired_line == (plain[1].line if plain[1] else None)
    # the decision is always a legal play, or a pass when passing is allowed
    assert (plain[0] is None and view.can_pass) or plain[0] in view.legal


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_trace_records_each_rule_tried_in_order(position_seed, rng_seed):
    from personalities.catalog import shipped, shipped_names

    view = random_position(position_seed)
    for name in shipped_names():
        personality = shipped(name)
        play, trace = explain(personality, view, random.Random(rng_seed))
        lines = [r.line for r in trace.rules]
        assert lines == [r.line for r in personality.rules][:len(lines)]
        assert sum(r.fired for r in trace.rules) == (1 if trace.fired_line else 0)
        for r in trace.rules:
            assert r.applies == (r.reason == "")
            if not r.applies:
                assert r.conditions == () and not r.fired
                assert r.reason in (NOT_HELD, CANNOT_BEAT, NO_PASS) or r.reason.startswith(WRONG_COUNT)
        if trace.fired_line is None:
            assert len(trace.rules) == len(personality.rules)


TRACE_RUL = """\
; for the trace tests.
2    G>1
Lp   TotMyT > 0  CardVal < Q
L    Lead = 0
L*   Lead = 1  Random > 50
L*   C < Q  R > 0
"""


def test_trace_json_has_lines_text_full_names_values_and_verdicts():
    rng, reference = random.Random(3), random.Random(3)
    play, trace = explain(rul(TRACE_RUL, "Tracer"), position("3 3 8 8 8 9 T T J", "4 4"), rng)
    data = json.loads(json.dumps(trace.to_json()))
    assert play == (8, 2)
    assert data["personality"] == "Tracer" and data["action"] == "8 8" and data["rule_line"] == 6
    assert data["situation"]["hand"] == "3 3 8 8 8 9 T T J" and data["situation"]["upcards"] == "4 4"
    rules = data["rules"]
    assert [r["line"] for r in rules] == [2, 3, 4, 5, 6]
    assert [r["rule"].split() for r in rules] == [line.split() for line in TRACE_RUL.splitlines()[1:]]
    assert rules[0] == {"line": 2, "rule": "2    G>1", "applies": False, "cards": None, "reason": "not held",
                        "conditions": [], "fired": False}
    assert rules[1]["cards"] == "T T" and rules[1]["fired"] is False
    assert rules[1]["conditions"] == [
        {"condition": "TotMyTwos > 0", "variable": "TotMyTwos", "value": 0, "verdict": False, "needed": True},
        {"condition": "CardVal < Q", "variable": "CardVal", "value": 10, "verdict": True, "needed": False},
    ]
    assert rules[2]["applies"] is False and rules[2]["reason"].startswith(WRONG_COUNT)
    # after a false condition, Random is not drawn (value None) so tracing draws what playing draws
    assert rules[3]["cards"] == "8 8"
    assert rules[3]["conditions"][0]["variable"] == "Lead" and rules[3]["conditions"][0]["value"] == 0
    assert rules[3]["conditions"][1]["variable"] == "Random" and rules[3]["conditions"][1]["value"] is None
    assert rules[4]["fired"] is True and rules[4]["cards"] == "8 8"
    assert rules[4]["conditions"][0]["variable"] == "CardVal" and rules[4]["conditions"][0]["value"] == 8
    assert rules[4]["conditions"][1]["value"] == reference.randint(1, 100)
    assert rng.getstate() == reference.getstate()


def test_trace_of_a_pass_and_of_a_fallback():
    _, trace = explain(rul("K\n"), position("3 4", "9"), random.Random(0))
    data = trace.to_json()
    assert data["action"] == "pass" and data["rule_line"] is None and data["note"] == "no rule applied: pass"
    _, trace = explain(rul("P\n"), position("3 4"), random.Random(0))
    assert trace.to_json()["rules"][0]["reason"] == NO_PASS
    assert trace.action == "3" and "L*" in trace.note


def test_decision_trace_renders_with_rich():
    play, trace = explain(rul(TRACE_RUL, "Tracer"), position("3 3 8 8 8 9 T T J", "4 4"), random.Random(3))
    assert isinstance(trace, DecisionTrace)
    console = Console(record=True, width=200, color_system=None)
    console.print(trace)
    text = console.export_text()
    assert "Tracer" in text and "→ 8 8" in text and "upcards 4 4" in text
    assert "2: 2    G>1  ✘ not held" in text
    assert "3: Lp   TotMyT > 0  CardVal < Q  → T T" in text
    assert "TotMyTwos > 0   TotMyTwos = 0 → false" in text
    assert "CardVal < Q   CardVal = 10 → true  (not needed)" in text
    assert "Random > 50  (not evaluated" in text
    assert "6: L*   C < Q  R > 0  → 8 8  ✔ fired" in text
    assert trace.summary() == "Tracer (player 0) plays 8 8: rule line 6"


def test_rendered_pass_shows_the_note():
    _, trace = explain(rul("K\n"), position("3 4", "9"), random.Random(0))
    console = Console(record=True, width=200, color_system=None)
    console.print(trace)
    text = console.export_text()
    assert "pass" in text and "no rule applied: pass" in text and "1: K  ✘ not held" in text
