"""The .rul reader on valid input: every form, every variable, canonical text."""
from __future__ import annotations

from pathlib import Path


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from personalities.reader import load_personality, parse_condition, parse_personality, parse_potential
from personalities.syntax import (
    COUNT_MODIFIERS,
    Comparison,
    Condition,
    Modifier,
    Personality,
    Potential,
    PotentialKind,
    Rule,
)
from personalities.variables import AmbiguousVariable, UnknownVariable, Variable, resolve_variable

V, K, M, C = Variable, PotentialKind, Modifier, Comparison

MANUAL_EXAMPLE = (Path(__file__).parent / "data" / "ManualExample.rul").read_text(encoding="utf-8")


def rules_of(text: str) -> list[str]:
    return [str(rule) for rule in parse_personality(text).rules]


# --- potentials ------------------------------------------------------------------

POTENTIALS = [
    *[(str(n), Potential(K.VALUE, n), str(n)) for n in range(3, 10)],
    ("10", Potential(K.VALUE, 10), "T"), ("t", Potential(K.VALUE, 10), "T"),
    ("J", Potential(K.VALUE, 11), "J"), ("q", Potential(K.VALUE, 12), "Q"),
    ("K", Potential(K.VALUE, 13), "K"), ("a", Potential(K.VALUE, 14), "A"),
    ("2", Potential(K.VALUE, 15), "2"),
    ("L", Potential(K.LOWEST, modifier=M.SINGLE), "L"), ("ls", Potential(K.LOWEST), "L"),
    ("LP", Potential(K.LOWEST, modifier=M.PAIR), "Lp"), ("lT", Potential(K.LOWEST, modifier=M.TRIPS), "Lt"),
    ("Lq", Potential(K.LOWEST, modifier=M.QUADS), "Lq"), ("l*", Potential(K.LOWEST, modifier=M.NEEDED), "L*"),
    ("h", Potential(K.HIGHEST), "H"), ("HS", Potential(K.HIGHEST, modifier=M.SINGLE), "H"),
    ("Hp", Potential(K.HIGHEST, modifier=M.PAIR), "Hp"), ("ht", Potential(K.HIGHEST, modifier=M.TRIPS), "Ht"),
    ("HQ", Potential(K.HIGHEST, modifier=M.QUADS), "Hq"), ("H*", Potential(K.HIGHEST, modifier=M.NEEDED), "H*"),
    ("P", Potential(K.PASS), "P"), ("p", Potential(K.PASS), "P"),
]


@pytest.mark.parametrize(("text", "expected", "canonical"), POTENTIALS)
def test_every_potential_form(text, expected, canonical):
    assert parse_potential(text) == expected
    assert str(expected) == canonical
    assert rules_of(f"{text} Lead = 1\n") == [f"{canonical} Lead = 1"]


def test_modifier_counts_and_potential_validation():
    assert [m.count for m in COUNT_MODIFIERS] == [1, 2, 3, 4, None]
    assert Modifier.RUN.count is None and Modifier.RUN not in COUNT_MODIFIERS  # a sequence counts no value
    for bad in [dict(kind=K.VALUE, value=2), dict(kind=K.VALUE, value=16), dict(kind=K.VALUE),
                dict(kind=K.VALUE, value=7, modifier=M.PAIR), dict(kind=K.PASS, modifier=M.PAIR),
                dict(kind=K.LOWEST, value=3)]:
        with pytest.raises(ValueError):
            Potential(**bad)


# --- variables -------------------------------------------------------------------

PREFIXES = {
    V.LEAD: "Le", V.RANK: "rank", V.NUM_DIFF_VALS: "NumD", V.TWOS_LEFT: "Tw", V.CARD_VAL: "Car",
    V.RANDOM: "Rand", V.PERCENT_PLAYED: "%Pl", V.HIGHEST_OPP_CARDS: "Highes", V.NUM_THIS_VALUE: "NumT",
    V.FOLLOW_ODDS: "Fo", V.HIGHER_PLAYERS: "Higher", V.PLAYERS_LEFT: "Pl", V.TOT_MY_CARDS: "TotMyC",
    V.TOT_MY_TWOS: "TotMyT", V.HAND_VALUE: "Ha", V.MATCHES_UP_CARD: "Ma", V.MY_LOWEST_CARD: "MyL",
    V.MY_HIGHEST_CARD: "MyH", V.LOCKED: "Lo", V.SEQUENCE_UP: "Se",
}


def test_the_twenty_variables():
    assert len(Variable) == 20 == len(PREFIXES)
    assert {v.short for v in Variable} == set("LPVTCR%NSOHFIGAMWEBX")
    assert [v.full for v in Variable if v.is_card_value] == [
        "CardVal", "HandValue", "MyLowestCard", "MyHighestCard"]
    assert Variable("TotMyTwos") is V.TOT_MY_TWOS and V.TOT_MY_TWOS.short == "G"
    assert (V.TOT_MY_TWOS.low, V.TOT_MY_TWOS.high, V.RANK.high, V.RANDOM.low) == (0, 4, 6, 1)
    assert V.HAND_VALUE.range_text == "0, 3-14" and 2 not in V.MY_LOWEST_CARD.possible_values
    assert all(v.meaning and v.__doc__ == v.meaning for v in Variable)


@pytest.mark.parametrize("variable", list(Variable), ids=lambda v: v.full)
def test_every_variable_by_full_short_and_prefix_name(variable):
    for name in (variable.full, variable.full.lower(), variable.full.upper(), variable.short,
                 variable.short.lower(), PREFIXES[variable]):
        assert resolve_variable(name) is variable
        assert parse_personality(f"L {name} > 0").rules[0].conditions[0].variable is variable


def test_ambiguous_prefix_lists_every_candidate():
    with pytest.raises(AmbiguousVariable) as info:
        resolve_variable("TotMy")
    assert info.value.candidates == (V.TOT_MY_CARDS, V.TOT_MY_TWOS)
    assert resolve_variable("TotMyT") is V.TOT_MY_TWOS
    with pytest.raises(UnknownVariable):
        resolve_variable("Lx")


@pytest.mark.parametrize(("name", "variable"), [
    ("T", V.TWOS_LEFT), ("P", V.RANK), ("H", V.HIGHER_PLAYERS), ("F", V.PLAYERS_LEFT),
    ("M", V.MATCHES_UP_CARD), ("N", V.HIGHEST_OPP_CARDS), ("R", V.RANDOM), ("%", V.PERCENT_PLAYED),
])
def test_short_name_beats_prefix(name, variable):
    assert resolve_variable(name) is variable


# --- conditions ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "comparison"), [
    (">", C.GT), ("<", C.LT), ("=", C.EQ), ("!", C.NE), (">=", C.GE), ("<=", C.LE), ("==", C.EQ), ("!=", C.NE),
])
def test_comparisons_with_and_without_blanks(text, comparison):
    for condition in (f"TotMyTwos {text} 1", f"TotMyTwos{text}1", f"g\t{text}1"):
        assert parse_condition(condition) == Condition(V.TOT_MY_TWOS, comparison, 1)
    assert str(Comparison.from_symbol(text)) == comparison.value


def test_comparison_test_and_can_hold():
    assert [c.test(3, 2) for c in Comparison] == [True, False, False, True, True, False]
    assert [c.test(2, 2) for c in Comparison] == [False, False, True, False, True, True]
    assert not C.GT.can_hold(frozenset(range(5)), 4) and C.GE.can_hold(frozenset(range(5)), 4)
    assert not C.NE.can_hold(frozenset({1}), 1) and not C.EQ.can_hold(frozenset(), 0)


@pytest.mark.parametrize(("text", "value", "canonical"), [
    ("CardVal < T", 10, "CardVal < T"), ("CardVal < 10", 10, "CardVal < T"),
    ("CardVal < j", 11, "CardVal < J"), ("CardVal < Q", 12, "CardVal < Q"), ("c < k", 13, "CardVal < K"),
    ("CardVal < A", 14, "CardVal < A"), ("CardVal = 2", 15, "CardVal = 2"), ("CardVal = 15", 15, "CardVal = 2"),
    ("CardVal > 3", 3, "CardVal > 3"), ("HandValue > 0", 0, "HandValue > 0"),
    ("MyLowestCard < 1", 1, "MyLowestCard < 1"), ("MyHighestCard = 14", 14, "MyHighestCard = A"),
    ("TotMyTwos = 2", 2, "TotMyTwos = 2"), ("TotMyCards > 10", 10, "TotMyCards > 10"),
    ("Random < 050", 50, "Random < 50"),
])
def test_values_cards_and_numbers(text, value, canonical):
    condition = parse_condition(text)
    assert condition.value == value and str(condition) == canonical
    assert parse_condition(canonical) == condition


def test_condition_validation_and_column_not_compared():
    assert Condition(V.LEAD, C.EQ, 1, column=7) == Condition(V.LEAD, C.EQ, 1)
    for value in (-1, 2, 10**12):
        with pytest.raises(ValueError):
            Condition(V.CARD_VAL, C.EQ, value)


# --- files -----------------------------------------------------------------------

def test_manual_example_parses_to_the_expected_rules():
    p = parse_personality(MANUAL_EXAMPLE, name="Manual")
    lt_queen = (Condition(V.CARD_VAL, C.LT, 12),)
    assert p.rules == (
        Rule(Potential(K.VALUE, 15), (Condition(V.NUM_DIFF_VALS, C.EQ, 1),)),
        Rule(Potential(K.LOWEST, modifier=M.QUADS), lt_queen),
        Rule(Potential(K.LOWEST, modifier=M.TRIPS), lt_queen),
        Rule(Potential(K.LOWEST, modifier=M.PAIR), lt_queen),
        Rule(Potential(K.LOWEST), lt_queen),
        Rule(Potential(K.LOWEST, modifier=M.NEEDED)),
    )
    assert [r.line for r in p.rules] == [2, 4, 5, 6, 8, 10]
    assert p.rules[1].source == "lq  CardVal < Q" and p.rules[1].conditions[0].column == 5
    assert p.description.startswith("Play all twos to get the lead") and p.warnings == ()
    assert str(p).splitlines()[1:] == ["2 NumDiffVals = 1", "Lq CardVal < Q", "Lt CardVal < Q",
                                       "Lp CardVal < Q", "L CardVal < Q", "L*"]


def test_case_tabs_comments_crlf_and_bom():
    text = ("\ufeff;;; Mixed Bag \r\n\r\n   ; indented comment\r\n\tLP\tCARDVAL\t<\tq\t; pair\r\n"
            "h*   totmytwos>=1 LEAD!0;c\r\n  P ; pass\n2 g = 2 c = 2\n\n")
    p = parse_personality(text)
    assert p.description == "Mixed Bag"
    assert [str(r) for r in p.rules] == ["Lp CardVal < Q", "H* TotMyTwos >= 1 Lead ! 0", "P",
                                         "2 TotMyTwos = 2 CardVal = 2"]
    assert [r.line for r in p.rules] == [4, 5, 6, 7]


def test_ten_is_t_everywhere():
    assert rules_of("10 CardVal = 10\n") == rules_of("T CardVal = T\n") == ["T CardVal = T"]


def test_names_files_and_equality(tmp_path):
    path = tmp_path / "CautiousBot.rul"
    path.write_text("; Careful\nL* Lead = 1\n", encoding="utf-8")
    p = load_personality(path)
    assert (p.name, p.description, p.filename) == ("CautiousBot", "Careful", str(path))
    assert p == parse_personality(path.read_text(), name="CautiousBot")  # filename not compared
    assert parse_personality("L").name == "" and parse_personality("L", filename="x/Ab.rul").name == "Ab"
    assert Rule(Potential(K.PASS), line=3, source="p") == Rule(Potential(K.PASS))
    assert str(Personality("E")) == "" and parse_personality("").rules == ()


# --- canonical round-trip (property) ----------------------------------------------

def condition_values(variable: Variable):
    # a card variable cannot hold 2: the written `2` means a two (15)
    values = st.integers(0, 20) | st.integers(0, 999_999_999)
    return values.filter(lambda n: not (variable.is_card_value and n == 2))


potentials = st.one_of(
    st.builds(Potential, st.just(K.VALUE), st.integers(3, 15)),
    st.builds(Potential, st.sampled_from([K.LOWEST, K.HIGHEST]), st.none(),
              st.none() | st.sampled_from(Modifier)),  # None means SINGLE
    st.just(Potential(K.PASS)),
)
conditions = st.sampled_from(Variable).flatmap(
    lambda v: st.builds(Condition, st.just(v), st.sampled_from(Comparison), condition_values(v)))
rules = st.builds(Rule, potentials, st.lists(conditions, max_size=10).map(tuple))
descriptions = (st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), max_size=40)
                .map(str.strip).filter(lambda d: not d.startswith(";")))
personalities = st.builds(Personality, st.text("AbcXyz_", min_size=1, max_size=8),
                          st.lists(rules, max_size=12).map(tuple), descriptions)


@settings(max_examples=200, deadline=None)
@given(personalities)
def test_generated_personalities_round_trip(personality):
    text = str(personality)
    again = parse_personality(text, name=personality.name)
    assert again == personality and again.rules == personality.rules
    assert str(again) == text  # the canonical text is a fixed point


@settings(max_examples=200, deadline=None)
@given(potentials, conditions)
def test_potentials_and_conditions_round_trip(potential, condition):
    assert parse_potential(str(potential)) == potential
    assert parse_condition(str(condition)) == condition
    assert parse_potential(str(potential).lower()) == potential
