"""Every RECYCLE corpus file parses (or fails with its known, located defect),
and so does the Agram listing of the language reference."""
from __future__ import annotations

import re

import pytest
from conftest import SHARED

from recycle.kernel.diagnostics import Severity
from recycle.lang import GameSyntaxError, load_game, parse_game
from recycle.lang import tree as T

CORPUS = SHARED / "recycle-corpus"
FILES = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.glob("*/*")
               if p.suffix in (".rcy", ".gdl")) if CORPUS.is_dir() else ["<corpus missing>"]

#: Files with a real defect: (line, column, message start) of each error.
KNOWN_DEFECTS = {
    # EIGHTSUIT is an integer store here but read as a string later (rcy/ has it fixed).
    "gdl/CrazyEights4.gdl": [(49, 34, "an integer storage cannot hold (SUIT ...)"),
                             (79, 48, "expected a card collection, found (OWNER str NAME)")],
}
#: Files with one extra ')' after (game ...), which the reference engine ignored.
EXTRA_PAREN = {f"{d}/StealingBundles{n}.{d[:3]}" for d in ("gdl", "rcy") for n in (2, 3, 4, 5)}


@pytest.mark.parametrize("name", FILES)
def test_corpus_file(shared_dir, name):
    path = shared_dir / "recycle-corpus" / name
    if name in KNOWN_DEFECTS:
        with pytest.raises(GameSyntaxError) as caught:
            load_game(path)
        found = [(d.line, d.column, d.message) for d in caught.value.errors]
        assert [(line, col) for line, col, _ in found] == [(line, col) for line, col, _ in KNOWN_DEFECTS[name]]
        for (_, _, message), (_, _, start) in zip(found, KNOWN_DEFECTS[name]):
            assert message.startswith(start)
        return
    game = load_game(path)
    assert isinstance(game, T.Game) and game.flow and isinstance(game.scoring, T.Scoring)
    assert "A" not in game.dialect  # the corpus is written in B (and the common core)
    warned = [d.message for d in game.warnings if d.severity is Severity.WARNING]
    if name in EXTRA_PAREN:
        assert "text after the end of (game ...) is ignored" in warned


def test_corpus_is_complete(shared_dir):
    files = [p for p in (shared_dir / "recycle-corpus").glob("*/*") if p.suffix in (".rcy", ".gdl")]
    assert len(files) >= 120 and len(files) == len(FILES)


# --- the Agram listing of the reference (seeds/recycle-cardstock-docs.txt) ---------------

#: Two places where the PDF-to-text conversion broke the listing's parentheses,
#: established against gdl/Agram4.gdl: a wrapped line lost one ')' and a line
#: gained two. Each must occur exactly once.
PDF_DAMAGE = {
    "(top (game mem LEAD))))))))))))": "(top (game mem LEAD))))))))))",
    "using 'PRECEDENCE))": "using 'PRECEDENCE)))",
}
_NOISE = re.compile(r"[\d ]+|```|\((continues on next|continued from previous) page\)")


def extract_agram(doc: str) -> str:
    """The Agram program of the reference, without the PDF's page furniture."""
    start = doc.index(";; Agram")
    stop = doc.index("\n", doc.index("(scoring max", start))
    lines: list[str] = []
    for raw in doc[start:stop].splitlines():
        line = raw.strip()
        if not line or _NOISE.fullmatch(line):  # listing line numbers, fences, page notes
            continue
        wrapped = re.match(r"(\\rightarrow|\u2192)\s*(.*)", line)
        if wrapped:  # a long line the PDF wrapped
            lines[-1] += " " + wrapped.group(2)
            continue
        line = line.replace("]", "")  # stray glyph from the page layout
        if line.startswith("::"):  # ';;' rendered as '::'
            line = ";;" + line[2:]
        if not set("();'") & set(line):  # a comment line that lost its ';;'
            line = ";; " + line
        lines.append(line)
    text = "\n".join(lines) + "\n"
    for bad, good in PDF_DAMAGE.items():
        assert text.count(bad) == 1, bad
        text = text.replace(bad, good)
    return text


def test_reference_agram_listing_parses_as_dialect_a(shared_dir):
    doc = (shared_dir / "seeds" / "recycle-cardstock-docs.txt").read_text(encoding="utf-8")
    game = parse_game(extract_agram(doc), "recycle-cardstock-docs.txt#agram")
    assert game.dialect == {"A"}
    assert {f.name for f in game.features} == {"(put points 'V ...)", "using 'VAR (point map in a variable)"}
    # The same game as the corpus's Agram4.gdl, except for where the point map lives.
    corpus = load_game(shared_dir / "recycle-corpus" / "gdl" / "Agram4.gdl")
    assert (game.declarations, game.setup, game.scoring) == (corpus.declarations, corpus.setup, corpus.scoring)
    assert game.flow[0] == corpus.flow[0]
    stage, corpus_stage = game.flow[1], corpus.flow[1]
    assert stage.end == corpus_stage.end and stage.body[0] == corpus_stage.body[0]
    wrap_up, corpus_wrap_up = stage.body[1].actions, corpus_stage.body[1].actions
    assert isinstance(wrap_up[0], T.PutPoints) and isinstance(corpus_wrap_up[0], T.SetPoints)
    assert wrap_up[0].points == corpus_wrap_up[0].points
    assert wrap_up[1] == corpus_wrap_up[1] and wrap_up[3:] == corpus_wrap_up[3:]
    assert wrap_up[2].who.card.using == T.Var("PRECEDENCE", "points")


def test_a_unicode_digit_in_a_game_is_a_located_syntax_error_not_an_internal_one():
    # found by bench/fuzz.py: '⓷'.isdigit() is True but int('⓷') raises
    from pathlib import Path

    from recycle.games import game_path

    text = Path(game_path("Poker5")).read_text(encoding="utf-8").replace("(+ ", "(+ ⓷ ", 1)
    with pytest.raises(GameSyntaxError) as info:
        parse_game(text, "x.gdl")
    assert "unexpected character '⓷'" in str(info.value) and "internal error" not in str(info.value)
