"""The .rul reader on bad input: located errors, all of them, warnings, fuzzing."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from personalities.reader import (
    MAX_FILE_BYTES,
    RulError,
    check_file,
    check_text,
    load_personality,
    parse_condition,
    parse_personality,
    parse_potential,
)
from recycle.kernel.diagnostics import Severity

ELEVEN = "L" + " Lead = 1" * 11  # the 11th condition starts at column 93

# (file text, every error as (line, column, message fragment))
CATALOGUE = [
    ("L CardVal Q\n", [(1, 11, "missing comparison between 'CardVal' and 'Q'")]),
    ("L Lead\n", [(1, 7, "missing comparison after 'Lead'")]),
    ("L Lead 1 ; x\n", [(1, 8, "missing comparison between 'Lead' and '1'")]),
    ("L Lead = 1\nL Lead = 1 Random\n", [(2, 18, "missing comparison after 'Random'")]),
    ("  \t ; comment\n\tL CardVal ! Q extra\n", [(2, 21, "missing comparison after 'extra'")]),
    ("L Lead => 1\n", [(1, 8, "unknown comparison '=>'")]),
    ("L CardVal <> 3\n", [(1, 11, "unknown comparison '<>'")]),
    ("L CardVal <\n", [(1, 12, "missing value after '<'")]),
    ("\tL\tLead\t=\t\t\n", [(1, 10, "missing value after '='")]),
    ("L Lead = 1 ; fine\nH* Lead = ; bad\n", [(2, 10, "missing value after '='")]),
    ("L Lead >\t; nothing\n", [(1, 9, "missing value after '>'")]),
    ("L CardVal < Queen\n", [(1, 13, "bad value 'Queen'")]),
    ("L Lead = -1\n", [(1, 10, "bad value '-1'")]),
    ("Ls Lead = 1.5\n", [(1, 11, "bad value '1.5'")]),
    ("L Lead = 1X\n", [(1, 10, "bad value '1X'")]),
    ("L CardVal == == 3\n", [(1, 14, "bad value '=='")]),
    ("L CardVal < \uff31\n", [(1, 13, "bad value")]),
    ("L Lead = 1234567890\n", [(1, 10, "number too large")]),
    ("L Lead = A\n", [(1, 10, "card letter 'A' compared with Lead")]),
    ("L* TotMyTwos > T\n", [(1, 16, "card letter 'T' compared with TotMyTwos")]),
    ("L Lead=1Random<3\n", [(1, 9, "missing blank after the value '1'")]),
    ("LCardVal<3\n", [(1, 2, "missing blank after the potential cards 'L'")]),
    ("2Lead=1\n", [(1, 2, "missing blank after the potential cards '2'")]),
    ("L < 3\n", [(1, 3, "comparison without a variable")]),
    ("L =\n", [(1, 3, "comparison without a variable")]),
    ("L Lead = 1 Lead = 0 = 3\n", [(1, 21, "comparison without a variable")]),
    ("L*\n7p\n", [(2, 2, "modifiers go only on L and H")]),
    ("Pp CardVal < 3\n", [(1, 2, "modifiers go only on L and H")]),
    ("10p\n", [(1, 3, "modifiers go only on L and H")]),
    ("Lx\n", [(1, 2, "unknown modifier 'x' on 'L'")]),
    ("Lpp\n", [(1, 1, "unknown potential cards 'Lpp'")]),
    ("X\n", [(1, 1, "unknown potential cards 'X'")]),
    ("; c\n1\n", [(2, 1, "unknown potential cards '1'")]),
    ("11 Lead = 1\n", [(1, 1, "unknown potential cards '11'")]),
    ("0\n", [(1, 1, "unknown potential cards '0'")]),
    ("ace\n", [(1, 1, "unknown potential cards 'ace'")]),
    ("CardVal < 3\n", [(1, 1, "missing potential cards")]),
    ("L TotMy > 1\n", [(1, 3, "ambiguous variable 'TotMy': TotMyCards or TotMyTwos")]),
    ("L Hi > 1\n", [(1, 3, "ambiguous variable 'Hi': HighestOppCards or HigherPlayers")]),
    ("L TotMyTows > 1\n", [(1, 3, "unknown variable 'TotMyTows'")]),
    ("H* %Playd > 50\n", [(1, 4, "unknown variable '%Playd'")]),
    ("L Lead = 0\n\nL 9 > 1\n", [(3, 3, "unknown variable '9'")]),
    ("L Xyz = 1 Abc = 2\n", [(1, 3, "unknown variable 'Xyz'"), (1, 11, "unknown variable 'Abc'")]),
    (ELEVEN + "\n", [(1, 93, "at most 10 conditions per rule")]),
    ("L\n" + ELEVEN + " Lead = 1 Lead = 1\n", [(2, 93, "at most 10 conditions per rule")]),
]


def errors(diagnostics):
    return [(d.line, d.column, d.message) for d in diagnostics if d.severity is Severity.ERROR]


def matches(found, expected) -> bool:
    return len(found) == len(expected) and all(
        (line, col) == (e_line, e_col) and fragment in message
        for (line, col, message), (e_line, e_col, fragment) in zip(found, expected))


@pytest.mark.parametrize(("text", "expected"), CATALOGUE, ids=[repr(t)[:40] for t, _ in CATALOGUE])
def test_catalogue_of_malformed_files(text, expected):
    with pytest.raises(RulError) as info:
        parse_personality(text, filename="bad.rul")
    assert matches(errors(info.value.diagnostics), expected), errors(info.value.diagnostics)
    assert errors(check_text(text, "bad.rul")) == errors(info.value.diagnostics)
    for d in info.value.errors:
        assert d.source_line == text.split("\n")[d.line - 1] and d.expected
        assert f"bad.rul:{d.line}:{d.column}: error: " in info.value.render()


def test_catalogue_is_large_enough():
    assert len(CATALOGUE) >= 30


def test_caret_underlines_the_offending_text():
    [d] = check_text("lp  TotMyTwo > 1 TotMyTows > 1\n", "Cautious.rul")
    assert d.render().splitlines()[:3] == [
        "Cautious.rul:1:18: error: unknown variable 'TotMyTows'",
        "    lp  TotMyTwo > 1 TotMyTows > 1",
        "                     ^~~~~~~~~",
    ]
    assert "did you mean TotMyTwos" in d.hint


@pytest.mark.parametrize(("text", "hint"), [
    ("L TotMy > 1", "'TotMyC', 'TotMyT'"), ("7p", "'7' alone"), ("11", "'J' for 11"), ("15", "'2' for 15"),
    ("L Lead => 1", "'>='"), ("L CardVal <> 3", "'!'"), ("L TotMyTows > 1", "TotMyTwos"),
    ("L Lead = Q", "CardVal, HandValue, MyLowestCard, MyHighestCard"), ("CardVal < 3", "'L CardVal < 3'"),
    (ELEVEN, "split the rule"),
])
def test_hints(text, hint):
    [d] = check_text(text)
    assert hint in d.hint


def test_every_bad_line_of_a_file_is_reported():
    text = "; five mistakes\nL*\nLp TotMy > 1\nH CardVal Q\n\nP Lead = 0\n7p\nL Xyz < 3 Lead = Q\nL\n"
    assert [(line, col) for line, col, _ in errors(check_text(text))] == [
        (3, 4), (4, 11), (7, 2), (8, 3), (8, 18)]
    with pytest.raises(RulError) as info:
        parse_personality(text)
    assert len(info.value.errors) == 5


# --- warnings ------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "line", "col", "fragment"), [
    ("L TotMyTwos > 4", 1, 3, "TotMyTwos is 0-4"),
    ("L Lead = 2", 1, 3, "Lead is 0-1"),
    ("L Random > 100", 1, 3, "Random is 1-100"),
    ("L Random < 1", 1, 3, "Random is 1-100"),
    ("H HandValue = 1", 1, 3, "HandValue is 0, 3-14"),
    ("L CardVal = 2", 1, 3, "CardVal is 3-14 for L and H"),
    ("7 Lead = 1 CardVal > 9", 1, 12, "CardVal is 7 for 7"),
    ("P CardVal > 3", 1, 3, "CardVal is 0 for P"),
    ("Lp NumThisValue = 3", 1, 4, "NumThisValue is 2 for Lp"),
    ("L*\nL* Lead = 1", 2, 1, "line 1 ('L*') always wins"),
    ("Ls\n\tL CardVal < Q", 2, 2, "line 1 ('L') always wins"),
    ("P\nL\nP Lead = 0", 3, 1, "line 1 ('P') always wins"),
])
def test_warnings_do_not_stop_the_file(text, line, col, fragment):
    p = parse_personality(text, filename="w.rul")
    [w] = p.warnings
    assert (w.line, w.column, w.severity) == (line, col, Severity.WARNING) and fragment in w.message
    assert w.render().startswith(f"w.rul:{line}:{col}: warning: ")
    assert check_text(text, "w.rul") == [w]


@pytest.mark.parametrize("text", [
    "L TotMyTwos > 3", "2 CardVal = 2", "P CardVal = 0", "L Random <= 100", "L Lead ! 2",
    "L Lead = 1\nL", "P\nL", "Lp\nLt", "L NumThisValue = 1", "H* NumThisValue = 4", "L HandValue = 0",
])
def test_no_warning_for_sensible_rules(text):
    assert parse_personality(text).warnings == ()


def test_warnings_travel_with_errors():
    with pytest.raises(RulError) as info:
        parse_personality("L Lead = 2\nX\n")
    assert [d.severity for d in info.value.diagnostics] == [Severity.WARNING, Severity.ERROR]


# --- files and sizes -------------------------------------------------------------------

def test_unreadable_files_are_rul_errors(tmp_path):
    bad = tmp_path / "Latin1.rul"
    bad.write_bytes(b"; ok\nL CardVal < Q ; caf\xe9\n")
    for path, line, col, fragment in [
        (bad, 2, 20, "not UTF-8"), (tmp_path / "Missing.rul", 1, 1, "cannot read file"),
        (tmp_path, 1, 1, "cannot read file"), ("nul\0.rul", 1, 1, "cannot read file"),
    ]:
        with pytest.raises(RulError) as info:
            load_personality(path)
        [d] = info.value.diagnostics
        assert (d.line, d.column) == (line, col) and fragment in d.message
        assert check_file(path) == [d]


def test_absurd_sizes_are_rejected(tmp_path):
    big = tmp_path / "Big.rul"
    big.write_bytes(b"L\n" * (MAX_FILE_BYTES // 2 + 1))
    with pytest.raises(RulError, match="file too large"):
        load_personality(big)
    with pytest.raises(RulError, match="file too large"):
        parse_personality("L\n" * (MAX_FILE_BYTES // 2 + 1))
    [d] = check_text("L\n" + "L Lead = 1 " * 1000 + "\nX")[:1]
    assert (d.line, d.column) == (2, 10_001) and "line too long" in d.message


def test_lone_potentials_and_conditions_raise_rul_error():
    for parse, text in [(parse_potential, "Pp"), (parse_potential, ""), (parse_potential, "L Lead = 1"),
                        (parse_condition, "Lead ="), (parse_condition, "< 3"), (parse_condition, "")]:
        with pytest.raises(RulError) as info:
            parse(text)
        assert isinstance(info.value, ValueError) and info.value.errors


# --- fuzzing: only ever RulError, always located ---------------------------------------

LOCATION = re.compile(r"^f\.rul:(\d+):(\d+): (error|warning): ", re.MULTILINE)
VALID = [
    "; Manual\n2   NumDiffVals = 1\nlq  CardVal < Q\nlp\tCardVal<Q ; pair\nL   CardVal < Q\nL*\n",
    "h* TotMyTwos >= 1 Lead ! 0 %Played > 30\nP Lead = 0 HigherPlayers > 1\n10 c = 10\nL\n",
]
rul_text = st.text(alphabet="LHPlhp23456789TJQKAsptq*10%<>=!; \t\n\rCardVlTotMyws-.x", max_size=200)


def assert_only_rul_errors(text: str) -> None:
    try:
        p = parse_personality(text, filename="f.rul")
        diagnostics = list(p.warnings)
    except RulError as exc:
        diagnostics = exc.diagnostics
        assert exc.errors
    lines = re.split("\r\n|\r|\n", text.removeprefix("\ufeff"))  # LF, CRLF or a lone CR end a line
    for d in diagnostics:
        rendered = d.render()
        assert f"f.rul:{d.line}:{d.column}" in rendered and LOCATION.match(rendered)
        assert 1 <= d.line <= len(lines) and 1 <= d.column <= len(lines[d.line - 1]) + 1
    assert check_text(text, "f.rul") == diagnostics


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), rul_text))
def test_random_text_only_raises_rul_error(text):
    assert_only_rul_errors(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VALID), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(
    ["", "x", " ", "\t", "<", "=", "!", ";", "\n", "2", "p", "*", "Q", "99999999999", "%", "\u00e9"])),
    min_size=1, max_size=6))
def test_mutated_valid_files_only_raise_rul_error(text, edits):
    for position, insert in edits:  # replace one character (or delete it, with "")
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + 1:]
    assert_only_rul_errors(text)
