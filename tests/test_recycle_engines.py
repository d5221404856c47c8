"""The reference engine and the fast one play every game alike.

The reference engine is the plain meaning of every form (`recycle/interp/engine.py`); the
fast one adds the speed layers (closures, generated source, counted options, a stage's rounds
in one loop, deals at once). For shipped games, generated games (`recycle_generator`) and the
corpus, the whole trace of a seeded random game (`recycle_engines.trace`: options,
observations, determinizations, results, records, errors) and a random playout's outcome must
be the same on both; a difference is reported at its first line (the step, the form, both
values). The compiled engine is the fast one from its first choice (no warm-up).
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recycle_engines import assert_same_on_both, first_difference, playout, trace
from recycle_generator import games
from test_recycle_speed_golden import corpus_names, game_path

from recycle.cli.main import main
from recycle.games import shipped_games
from recycle.interp import new_game
from recycle.interp.engine import WARM_CHOICES, Engine
from recycle.interp.source import Source
from recycle.lang import load_game, parse_game

SHIPPED = sorted(g.name for g in shipped_games())
def examples(n: int) -> settings:
    """Hypothesis settings for `n` games (no deadline: a game takes what it takes)."""
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _loaded(name: str, cache: dict = {}):  # noqa: B006 — one parse per game for the whole module
    if name not in cache:
        cache[name] = load_game(game_path(name))
    return cache[name]


@examples(12)
@given(st.sampled_from(SHIPPED), st.integers(0, 2**16))
def test_shipped_games_trace_alike_on_both_engines(name, seed):
    assert_same_on_both(_loaded(name), seed)


@examples(12)
@given(st.sampled_from(SHIPPED), st.integers(0, 2**16), st.booleans())
def test_shipped_games_play_out_alike_on_both_engines(name, seed, by_index):
    game = _loaded(name)
    assert playout(game, seed, Engine.REFERENCE, by_index) == playout(game, seed, Engine.COMPILED, by_index)


@examples(30)
@given(games(), st.integers(0, 99))
def test_generated_games_trace_alike_on_both_engines(text, seed):
    assert_same_on_both(parse_game(text, "generated.gdl"), seed)


@examples(30)
@given(games(), st.integers(0, 99), st.booleans())
def test_generated_games_play_out_alike_on_both_engines(text, seed, by_index):
    game = parse_game(text, "generated.gdl")
    assert playout(game, seed, Engine.REFERENCE, by_index) == playout(game, seed, Engine.COMPILED, by_index)


@pytest.mark.slow
@examples(400)
@given(games(), st.integers(0, 99), st.booleans())
def test_many_generated_games_alike_on_both_engines(text, seed, by_index):
    game = parse_game(text, "generated.gdl")
    assert_same_on_both(game, seed)
    assert playout(game, seed, Engine.REFERENCE, by_index) == playout(game, seed, Engine.COMPILED, by_index)


@pytest.mark.slow
@pytest.mark.parametrize("key", corpus_names() or ["<corpus missing>"])
def test_corpus_games_alike_on_both_engines(shared_dir, key):
    name, seed = key.rsplit("#", 1)
    game = load_game(game_path(name))
    for s in (int(seed), int(seed) + 1):
        assert_same_on_both(game, s)
        assert playout(game, s, Engine.REFERENCE) == playout(game, s, Engine.COMPILED)


# --- the harness itself ------------------------------------------------------------------------

def test_a_difference_is_shown_at_its_first_line_with_the_step_the_form_and_both_values():
    game = _loaded("Hearts4")
    reference = trace(game, 3, Engine.REFERENCE)
    changed = list(reference)
    k = next(i for i, line in enumerate(changed) if line.step == 5)
    changed[k] = type(changed[k])(5, changed[k].what, changed[k].form, '[0, ["something else"]]')
    shown = first_difference(reference, changed)
    assert shown.startswith(f"line {k + 1} of the trace, after 5 choice(s) at ")
    assert "Hearts4.gdl:" in shown and "Choice" in shown
    assert f"reference: {reference[k].value}" in shown and 'fast: [0, ["something else"]]' in shown
    assert first_difference(reference, reference) is None
    assert "ends after" in first_difference(reference, reference[:-1])


def test_a_game_that_fails_fails_alike_and_the_error_is_the_last_line():
    text = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))"
            " (stage player (end (>= (game sto N) 3)) (do ((inc (game sto N) 1)))"
            " (choice ((move (top (game vloc EMPTY)) (top (game vloc PILE))))))"
            " (scoring max (game sto N)))")
    lines = assert_same_on_both(parse_game(text, "fails.gdl"), 0)
    assert lines[-1].what == "error" and "fails.gdl:1:" in lines[-1].value


# --- the engines as users choose them --------------------------------------------------------

def _built(monkeypatch) -> list:
    """The nodes whose Python source is built from now on."""
    built, real = [], Source.build

    def recording(self, node):
        built.append(node)
        return real(self, node)
    monkeypatch.setattr(Source, "build", recording)
    return built


def _play(state, seed: int):
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_the_reference_engine_generates_no_code_and_takes_no_shortcut(monkeypatch):
    built = _built(monkeypatch)
    game = _loaded("President5")
    state = _play(new_game(game, 1, engine="reference"), 1)
    new_game(game, 2, engine="reference").random_playout(random.Random(2))
    ex = state.rules.ex
    assert built == [] and not ex.compiling and ex.compiler is None  # the meaning alone


def test_the_fast_engine_plays_as_the_reference_until_warm_then_compiles(monkeypatch):
    built = _built(monkeypatch)
    game = load_game(game_path("President5"))  # a Game of its own: rules of its own, not warm yet
    state = _play(new_game(game, 1), 1)  # fewer choices than the warm-up: nothing compiled
    assert built == [] and 0 < state.rules.warm < WARM_CHOICES and not state.rules.ex.compiling
    _play(new_game(game, 7), 7)  # a second game of the same rules
    assert built and state.rules.ex.compiling
    searched = new_game(load_game(game_path("Hearts4")), 1)  # one game, searched: its many clones play on
    while searched.rules.warm:
        _play(searched.clone(), searched.rules.warm)
    assert searched.rules.ex.compiling
    rolled = new_game(load_game(game_path("Poker5")), 1)  # one game, rolled out: playouts come by the thousand
    assert not rolled.rules.ex.compiling
    rolled.clone().random_playout(random.Random(1))
    assert rolled.rules.ex.compiling


def test_unknown_engine_names_are_refused_with_the_names_to_use():
    with pytest.raises(ValueError, match="unknown engine 'quick': use one of reference, fast, compiled"):
        new_game(game_path("Poker5"), 0, engine="quick")


@pytest.mark.parametrize("command", [["run", "Poker5", "--games", "3", "--seed", "4"], ["corpus", "DIR", "--games", "1", "--seed", "4"]])
def test_commands_give_the_same_results_on_both_engines(command, tmp_path, capsys):
    if "DIR" in command:
        folder = tmp_path / "games"
        folder.mkdir()
        (folder / "Poker5.gdl").write_text(game_path("Poker5").read_text(encoding="utf-8"), encoding="utf-8")
        command = [str(folder) if word == "DIR" else word for word in command]
    outputs = []
    for engine in ("reference", "fast"):
        out = tmp_path / f"{engine}.json"
        assert main([*command, "--engine", engine, "--json", str(out)]) == 0
        got = json.loads(out.read_text(encoding="utf-8"))
        for each in got.get("files", ()):  # (how long each file took is no result)
            each.pop("seconds")
        outputs.append(got)
    assert outputs[0] == outputs[1]


def test_a_transcript_replays_on_either_engine(tmp_path, capsys):
    assert main(["run", "Hearts4", "--games", "1", "--transcript", str(tmp_path)]) == 0
    transcript = next(tmp_path.glob("*.jsonl"))
    for engine in ("reference", "fast"):
        assert main(["replay", str(transcript), "--engine", engine]) == 0
        assert "reproduced" in capsys.readouterr().out


def test_the_interpreter_is_made_of_parts_not_of_many_mixins():
    """No class of the interpreter has more than two base classes (the executor holds its compiler)."""
    import ast
    from pathlib import Path

    import recycle.interp

    crowded = [(path.name, node.name) for path in Path(recycle.interp.__file__).parent.glob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.ClassDef) and len(node.bases) > 2]
    assert crowded == []
