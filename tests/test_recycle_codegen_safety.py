"""Nothing from a game file is executed as Python, even though the interpreter compiles.

`recycle/interp/codegen.py` (with `runners.py` and `explorers.py`) writes Python
source for a game's expressions and actions. The file's content may reach that
source only as data: a variable name as a string literal (a dictionary key),
a number as an integer literal. Every identifier of the generated code is the
interpreter's own; values the file defines are passed as constants (`_c12`).
These tests read every piece of source generated while games of the corpus
and our shipped games are played, so a change that inlines a name from a file
into code fails here.
"""
from __future__ import annotations

import ast
import io
import keyword
import random
import re
import tokenize
from pathlib import Path

import pytest
from recycle_engines import new_compiled_game

from recycle.kernel.protocol import RandomAgent, play_game
from recycle.interp import codegen
from recycle.interp.source import Source
from recycle.lang import GameSyntaxError, parse_game

GAMES_DIR = Path(__file__).resolve().parent.parent / "recycle" / "games"
#: Identifiers the generated code may use: the interpreter's private names
#: (`_c12`, `_t3`, `_players`, ...), Python's keywords and a few builtins, and
#: attributes of the interpreter's own objects.
PRIVATE = re.compile(r"_[A-Za-z0-9_]*$")
OWN_WORDS = {"bool", "len", "int", "str", "list", "tuple", "type", "range", "reversed", "sum", "map", "Exception",
             "None", "True", "False", "env", "st", "f"}
#: A RECYCLE name as a string literal (`HAND`, `'P`): a key, never code.
NAME_STRING = re.compile(r"'?[A-Z_][A-Z0-9_-]*$")
INTERPRETER = Path(codegen.__file__).parent


def interpreter_strings() -> set[str]:
    """Every string constant written in the interpreter's own modules (its messages)."""
    return {n.value for f in INTERPRETER.glob("*.py") for n in ast.walk(ast.parse(f.read_text()))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def generated_sources(monkeypatch, paths: list[Path], games: int = 1) -> list[str]:
    sources: list[str] = []
    build = Source.build

    def recording(self, node):
        sources.append(self.text())  # the source as it runs, after the passes
        return build(self, node)

    monkeypatch.setattr(Source, "build", recording)
    for path in paths:
        for seed in range(games):
            try:
                state = new_compiled_game(path, seed=seed)
                play_game(state, [RandomAgent()] * state.num_players, random.Random(seed))
            except Exception:  # noqa: BLE001 — only the source written matters here
                continue
    return sources


def identifiers_and_strings(source: str) -> tuple[set[str], set[str]]:
    names, strings = set(), set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            names.add(token.string)
        elif token.type == tokenize.STRING:
            strings.add(ast.literal_eval(token.string))
    return names, strings


def member_names(source: str) -> set[str]:
    """Attributes, keyword arguments and parameters (`st.locs`, `hint=`, `def f(env, st, out)`)."""
    names = set()
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, ast.Attribute):
            names.add(n.attr)
        elif isinstance(n, (ast.keyword, ast.arg)) and n.arg:
            names.add(n.arg)
    return names


def assert_only_data_from_the_file(sources: list[str]) -> None:
    assert sources, "no source was generated: the compiled layer is not exercised"
    own = interpreter_strings()
    for source in sources:
        names, strings = identifiers_and_strings(source)
        foreign = {n for n in names - member_names(source)
                   if not (keyword.iskeyword(n) or PRIVATE.match(n) or n in OWN_WORDS)}
        assert not foreign, f"identifiers that are not the interpreter's own: {foreign}\n{source}"
        assert all(NAME_STRING.match(s) or s in own for s in strings), f"unexpected string literal in:\n{source}"


def test_generated_code_of_our_games_uses_file_content_only_as_data(monkeypatch):
    assert_only_data_from_the_file(generated_sources(monkeypatch, sorted(GAMES_DIR.glob("*.gdl"))))


@pytest.mark.slow
def test_generated_code_of_the_whole_corpus_uses_file_content_only_as_data(monkeypatch, shared_dir):
    paths = sorted(p for p in (shared_dir / "recycle-corpus").rglob("*") if p.suffix in (".gdl", ".rcy"))
    assert_only_data_from_the_file(generated_sources(monkeypatch, paths))


HOSTILE = """
(game
 (declare 2 'NUMP)
 (setup (create players 'NUMP))
 (do ((set (game str X) __import__)
      (all player '__class__ (move (top (game iloc STOCK)) (top ('__class__ iloc HAND)))))))
"""


def test_names_that_look_like_python_are_refused_before_anything_runs():
    # Names are upper-case by the grammar, so none can be mistaken for Python's own.
    with pytest.raises(GameSyntaxError) as caught:
        parse_game(HOSTILE, "hostile.gdl")
    text = str(caught.value)
    assert "hostile.gdl:5:" in text and "hostile.gdl:6:" in text and "upper-case" in text
