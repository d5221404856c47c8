"""Reliability of the `.rul` reader: any line ending and whitespace keeps the canonical round
trip, big files read fast, an empty file is warned about, and every error of a line is reported."""
from __future__ import annotations

import random
import time
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyparsing import ParseBaseException

from personalities import grammar
from personalities.reader import check_text, parse_personality
from fuzzing.inputs import ODD_WHITESPACE, rul_problem
from recycle.kernel.diagnostics import Severity

REPRO = Path(__file__).parent / "data" / "repro"
SHIPPED = sorted(Path(str(p)) for p in resources.files("personalities").iterdir() if p.name.endswith(".rul"))


def round_trips(text: str) -> None:
    p = parse_personality(text, "bot")
    again = parse_personality(str(p), "bot")
    assert again == p and str(again) == str(p)


def test_old_mac_line_endings_are_line_breaks():
    text = (REPRO / "cr_only_endings.rul").read_bytes().decode()
    p = parse_personality(text, "bot")
    assert p.description == "my bot" and [str(r) for r in p.rules] == ["L", "H* Lead = 1"]
    round_trips(text)


def test_a_description_keeps_unicode_separators_and_round_trips():
    text = (REPRO / "desc_u2028.rul").read_bytes().decode()
    assert parse_personality(text, "bot").description == "a\u2028b"
    round_trips(text)
    for odd in ("\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\xa0"):
        round_trips(f"; one{odd}two{odd}\nL\n")


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.lists(st.tuples(st.floats(0, 1), st.sampled_from(ODD_WHITESPACE)),
                                          min_size=1, max_size=6))
def test_whitespace_anywhere_in_a_shipped_file_keeps_the_canonical_round_trip(path, changes):
    text = path.read_text(encoding="utf-8")
    for where, blank in changes:
        at = int(where * len(text))
        text = text[:at] + blank + text[at:]
    assert rul_problem(text) is None


LINE_PIECES = st.sampled_from(["L", "Lp", "H*", "10", "P", "q", "CardVal", "Lead", "c", "%", "<", ">=", "==", "!",
                               "<>", "3", "Q", "15", "99999999999", " ", "\t", ";", "; x", "\x0c", "=", "x"])


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(LINE_PIECES, max_size=14).map("".join))
def test_the_fast_line_reader_gives_exactly_what_the_grammar_gives(line):
    try:
        slow = grammar.RULE.parse_string(line, parse_all=True)
        expected = grammar.RawRule(slow[0], tuple(slow[1]))
    except ParseBaseException:
        expected = None
    try:
        got = grammar.parse_rule(line)
    except ParseBaseException:
        got = None
    assert got == expected


def test_an_empty_file_or_one_without_rules_gets_a_warning():
    for text in ("", "; only a description\n", "\n\n"):
        (warning,) = check_text(text, "empty.rul")
        assert warning.severity is Severity.WARNING and "no rules" in warning.message
    assert all("no rules" not in d.message for d in check_text("L\n"))


@pytest.mark.parametrize("line, expected", [
    ("Lp CardVal < Z Foo = 1", [(14, "bad value 'Z'"), (16, "unknown variable 'Foo'")]),
    ("Lp Foo < 3 CardVal < Z", [(4, "unknown variable 'Foo'"), (22, "bad value 'Z'")]),
    ("X CardVal < 3 Lead >> 1", [(1, "unknown potential cards 'X'"), (20, "unknown comparison '>>'")]),
    ("Lp Lead 3 Bar = 99999999999", [(9, "missing comparison between 'Lead' and '3'"),
                                     (11, "unknown variable 'Bar'"), (17, "number too large: '99999999999'")]),
])
def test_every_error_of_a_line_is_reported(line, expected):
    got = [(d.column, d.message) for d in check_text(line + "\n") if d.severity is Severity.ERROR]
    assert got == expected


def _big_file(lines: int, rng: random.Random) -> str:
    conditions = ["CardVal < Q", "Lead = 1", "TotMyTwos > 2", "NumThisVal >= 2", "CardVal > 9", "Random < 50"]
    return "; big\n" + "".join(f"{rng.choice(['Lp', 'H*', 'Ls', 'A', '3'])} "
                               f"{' '.join(rng.choice(conditions) for _ in range(rng.randint(0, 4)))}\n"
                               for _ in range(lines))


def test_a_ten_thousand_line_file_checks_fast():
    text = _big_file(10_000, random.Random(1))
    started = time.process_time()  # CPU time: CI machines are shared
    check_text(text, "big.rul")
    assert time.process_time() - started < 1.0  # about 0.2 s (bench/bench_rul_reader.py); was 3.1 s


def test_a_file_of_thousands_of_unknown_names_checks_fast_with_hints_for_the_first():
    text = "".join(f"Lp Cardvl{i} < {i % 9} Leed{i} = 1\n" for i in range(5_000))
    started = time.process_time()
    diagnostics = check_text(text, "unknown.rul")
    assert time.process_time() - started < 1.0  # about 0.2 s: the hint search is bounded
    assert len(diagnostics) == 10_000 and "did you mean CardVal" in diagnostics[0].hint
