"""Parsed personalities kept between runs (personalities/parsed.py): the same personality, faster."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from personalities import parsed, reader
from personalities.catalog import find_personality, shipped_names, shipped_text
from personalities.reader import RulError, parse_personality

WARNED = "; a rule that can never hold\nL TotMyTwos > 20\n"


def same(a, b) -> bool:
    return (a == b and a.filename == b.filename and [(r.line, r.source) for r in a.rules] ==
            [(r.line, r.source) for r in b.rules] and [[c.column for c in r.conditions] for r in a.rules] ==
            [[c.column for c in r.conditions] for r in b.rules])


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_personality_comes_back_from_its_entry_unchanged(name):
    original = parse_personality(shipped_text(name), name=name, filename=f"{name}.rul")
    assert same(parsed.from_json(json.loads(json.dumps(parsed.to_json(original)))), original)


def test_the_second_read_needs_no_parser(monkeypatch):
    text = "; kept\nLp CardVal < Q  Lead = 1\nL*\n"
    first = parsed.parse(text, "Kept", "kept.rul")

    def refuse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(reader, "parse_personality", refuse)
    assert same(parsed.parse(text, "Kept", "kept.rul"), first)
    with pytest.raises(AssertionError):  # another text, name or file is another entry
        parsed.parse(text + "P\n", "Kept", "kept.rul")
    with pytest.raises(AssertionError):
        parsed.parse(text, "Kept", "other.rul")


def test_a_damaged_entry_is_parsed_again(parsed_personalities_folder):
    text = "L CardVal < Q\n"
    good = parsed.parse(text, "D", "d.rul")
    for damage in ("{not json", json.dumps({"rules": [{"kind": "Z"}]}), json.dumps([1, 2]),
                   json.dumps({**parsed.to_json(good), "rules": [{"kind": "value", "value": 99, "modifier": None,
                                                                  "conditions": [], "line": 1, "source": ""}]})):
        for entry in parsed_personalities_folder.glob("*.json"):
            entry.write_text(damage, encoding="utf-8")
        assert same(parsed.parse(text, "D", "d.rul"), good)


def test_warnings_are_never_lost_and_errors_still_raise():
    for _ in range(2):
        assert parsed.parse(WARNED, "W", "w.rul").warnings  # not kept: read again, warned again
    with pytest.raises(RulError) as error:
        parsed.parse("Lx CardVal < Q\n", "E", "e.rul")
    assert "e.rul:1:" in str(error.value)


def test_the_folder_stays_bounded_and_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setattr(parsed, "MAX_ENTRIES", 5)
    monkeypatch.setenv(parsed.CACHE_ENV, str(tmp_path))
    for k in range(12):
        parsed.parse(f"L CardVal < Q\nL* TotMyCards > {k}\n", "B", "b.rul")
        assert len(list(tmp_path.glob("*.json"))) == min(k + 1, 5)
    monkeypatch.setenv(parsed.CACHE_ENV, "off")
    assert parsed.folder() is None
    assert parsed.parse("P\n", "Off", "off.rul").rules[0].potential.kind.value == "P"


def test_a_folder_that_cannot_be_written_is_no_error(monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(parsed.CACHE_ENV, str(blocker / "sub"))
    assert parsed.parse("L\n", "X", "x.rul").rules


def test_user_files_are_kept_too_and_a_bad_file_still_gives_its_located_error(tmp_path):
    good = tmp_path / "Mine.rul"
    good.write_text("; mine\nLp\nL*\n", encoding="utf-8")
    assert same(find_personality(str(good)), find_personality(str(good)))
    bad = tmp_path / "Bad.rul"
    bad.write_bytes(b"L CardVal < Q\n\xff\xfe\n")
    with pytest.raises(RulError) as error:
        find_personality(str(bad))
    assert "Bad.rul" in str(error.value)


def test_a_command_reading_kept_personalities_never_imports_the_parser(tmp_path):
    code = ("import sys; from personalities.catalog import shipped; "
            "[shipped(n) for n in ('Classic', 'Counter', 'Cautious')]; print('pyparsing' in sys.modules)")
    env = dict(os.environ, **{parsed.CACHE_ENV: str(tmp_path / "kept")})
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                           cwd=Path(__file__).resolve().parents[1]).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]


def test_without_the_readers_source_nothing_is_kept(monkeypatch, tmp_path):
    """An install without `.py` files cannot tell an old entry from a new one: it parses every time."""
    monkeypatch.setenv(parsed.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(parsed, "_reader_digest", None)
    monkeypatch.setattr(parsed, "_READER_FILES", ("no-such-file.py",))
    assert parsed.parse("L*\n", "S", "s.rul").rules
    assert not list(tmp_path.iterdir())
