"""Rules checked against the reference engine (docs/recycle-language.md, "Rules checked against the reference
engine"): each has a minimal game in tests/data that failed before the rule was followed."""
from __future__ import annotations

import random
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.cli.main import main
from recycle.interp import RecycleRuntimeError, new_game
from recycle.kernel.diagnostics import Severity
from recycle.kernel.protocol import RandomAgent, play_game
from recycle.lang import check_file, check_text, load_game
from recycle.lang import tree as T
from recycle.lang.errors import SourceFile
from recycle.lang.lexer import read_form
from recycle.lang.vocab import KEYWORDS

DATA = Path(__file__).resolve().parent / "data"


def play(path: Path, seeds=range(20), **kw) -> list:
    """Seeded random games to the end: their final states."""
    game = load_game(path)
    out = []
    for seed in seeds:
        state = new_game(game, seed, **kw)
        play_game(state, [RandomAgent()] * state.num_players, random.Random(seed))
        out.append(state)
    return out


def walk_options(state) -> list[tuple]:
    """The options of the pending choice found by the reference walk (`Executor._explore`),
    not by the compiled explorer."""
    node, env = state.pending
    ex, st = state.rules.ex, state.st
    out: list[tuple] = []
    saved = st.journal, st.log
    st.journal, st.log = [], None
    try:
        ex._explore((node, env, None), st, out)
    finally:
        from recycle.interp.undo import undo_to
        undo_to(st, st.journal, 0)
        st.journal, st.log = saved
    return out


# ---- an option whose nested `any` ranges over nothing is still an option ---------------------
def test_a_play_that_captures_nothing_is_still_offered():
    state = new_game(load_game(DATA / "EmptyAny2.gdl"), 0)
    # Nothing lies in the pool: each of the three cards in hand is a play that captures nothing.
    assert len(state.legal_actions()) == 3
    assert all(a.text.startswith("move") and "CAUGHT" not in a.text for a in state.legal_actions())
    assert len(walk_options(state)) == 3  # the walk agrees with the compiled explorer
    finished = play(DATA / "EmptyAny2.gdl")
    assert all(s.is_terminal() for s in finished)
    # Captures happen when a rank matches (two suits of each rank): some game captures a pair.
    assert any(sum(s.results().scores) > 0 for s in finished)


# ---- a variable bound to a location is a destination --------------------------------------------
def test_check_and_run_agree_on_a_location_variable_as_destination():
    path = DATA / "LocationVariable2.gdl"
    assert not [d for d in check_file(path) if d.severity is Severity.ERROR]
    state = new_game(load_game(path), 0)
    # Two cards in hand, each to either row: four options.
    assert len(state.legal_actions()) == 4
    assert {a.text.split(" to ")[-1] for a in state.legal_actions()} == {"game ROW:1", "game ROW:2"}
    for s in play(path):
        rows = {k[3]: len(v) for k, v in s.st.locs.items() if k[3].startswith("ROW")}
        # 2 cards laid at the start + 4 played; the `let` moved one more card onto ROW 1.
        assert sum(rows.values()) == 6 and s.results().scores[0] == rows["ROW:1"] >= 2


def test_a_variable_that_names_no_location_is_a_located_error(tmp_path):
    text = (DATA / "LocationVariable2.gdl").read_text().replace("(let (game vloc ROW 1) 'PILE",
                                                                  "(let (game vloc NOWHERE) 'PILE")
    bad = tmp_path / "NoPile2.gdl"
    bad.write_text(text)
    with pytest.raises(RecycleRuntimeError) as caught:
        play(bad, seeds=[0])
    assert str(caught.value).startswith(f"{bad}:22:")
    assert "names none here" in str(caught.value)


# ---- the tokenizer splits a variable from a glued keyword ------------------------------------------
def test_a_keyword_glued_to_a_variable_is_its_own_token():
    game = load_game(DATA / "GluedVariable2.gdl")
    locations = [n for n in T.walk(game) if type(n) is T.Location and n.visibility == "vloc"
                 and type(n.owner) is T.Var]
    assert [(n.owner.name, n.visibility, n.name.value) for n in locations] == [("OP", "vloc", "DISCARD")]
    assert all(s.is_terminal() for s in play(DATA / "GluedVariable2.gdl"))


@settings(max_examples=200, deadline=None)
@given(name=st.text(alphabet=string.ascii_uppercase, min_size=1, max_size=8), keyword=st.sampled_from(sorted(KEYWORDS)))
def test_any_keyword_glued_to_any_variable_splits(name, keyword):
    src = SourceFile(f"('{name}{keyword} X)", "x.gdl")
    items = read_form(src).form.items
    assert [(a.kind, a.text) for a in items] == [("var", name), ("word", keyword), ("name", "X")]
    assert not src.diagnostics


def test_other_glued_text_is_still_a_bad_variable_name():
    game = (DATA / "GluedVariable2.gdl").read_text()
    errors = [d for d in check_text(game.replace("'OPvloc", "'OPx"), "g.gdl") if d.severity is Severity.ERROR]
    assert [e.message for e in errors] == ["bad variable name \"'OPx\": variables are upper-case letters"]


# ---- (scoring max|min EXPR) in the documented dialect ------------------------------------------------
def test_scoring_takes_any_integer_expression_in_the_documented_dialect():
    game = load_game(DATA / "ScoringExpression2.gdl")
    assert game.dialect == {"A"}
    for s in play(DATA / "ScoringExpression2.gdl"):
        # 10 per odd card kept (ONE, THREE) plus the points of the cards won: 6 cards, 12 points in all.
        won = [s.st.ints.get(("p", p, "SCORE"), 0) for p in range(2)]
        assert sum(s.results().scores) == 10 * sum(won) + 12


# ---- climbing values outside 3..15 ------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_rank_map_from_zero_traces(seed, capsys):
    assert main(["trace", str(DATA / "RanksFromZero2.gdl"), "Classic", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "decision(s) of Classic" in out and "upcards" in out


def test_a_rank_map_from_zero_gives_values_in_rank_order():
    from recycle.climbing.adapter import adapter_for

    game = load_game(DATA / "RanksFromZero2.gdl")
    state = new_game(game, 1)
    values, pack = adapter_for(game)._pack(state.table, state.st, 0)
    by_rank = {state.table.attrs[c]["RANK"]: v for c, v in enumerate(values)}
    assert by_rank == {"ZERO": 3, "ONE": 4, "TWO": 5, "THREE": 6}
    assert pack[3:7] == (2, 2, 2, 2)


def test_a_value_map_with_too_many_values_is_a_located_error(capsys):
    big_two = Path(__file__).resolve().parents[1] / "recycle" / "games" / "BigTwo4.gdl"
    code = main(["run", str(big_two), "--players", "Classic", "--games", "1", "--seed", "1",
                 "--climbing", "hand=HAND table=TABLE order=ORDER value=ORDER"])
    err = capsys.readouterr().err
    assert code != 0
    assert "--climbing:1: the point map ORDER gives the cards 52 different values" in err
