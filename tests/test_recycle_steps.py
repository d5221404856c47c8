"""The passes on generated functions' structure fire, and steps counted at once
(`source.merge_steps`) hit the step bound where counting them one by
one does (the reference engine): the same located error, at the same node, after the same
number of steps."""
from __future__ import annotations

import random

import pytest
from recycle.games import game_path
from recycle.interp import LimitError, cardsets, new_game, source
from recycle.interp.engine import Engine
from recycle.interp.source import Source
from recycle.lang import load_game, parse_game

#: Nested blocks and repeats: actions whose steps follow one another with nothing between.
LOOPING = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (stage player (end (== 1 0))
    (do ((do ((do ((set (game sto A) 1) (inc (game sto B) 1)))
              (repeat 3 (do ((do ((inc (game sto C) 1))))))
              (all player 'P (do ((set ('P sto D) 1))))))))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2))))
  (scoring max ((current player) sto N)))"""


#: A repeat whose condition turns false after two turns: the turns after are counted at once.
UNTIL_FALSE = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (stage player (end (== 1 0))
    (do ((repeat 5 ((< (game sto C) 2) (inc (game sto C) 1)))
         (set (game sto C) 0)))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2))))
  (scoring max ((current player) sto N)))"""


def _failure(max_steps: int, engine: Engine, text: str = LOOPING) -> tuple:
    game = parse_game(text, "loop.rcy")  # a new Game: rules (and their code) made anew
    try:
        state = new_game(game, 0, max_steps=max_steps, engine=engine)
        for _ in range(3):
            state.apply(state.legal_actions()[0])
    except LimitError as e:
        return str(e), e.line, e.column
    return None, state.st.steps, state.st.ints


@pytest.mark.parametrize("max_steps", range(1, 40))
def test_steps_counted_at_once_stop_where_one_by_one_stops(max_steps):
    assert _failure(max_steps, Engine.COMPILED) == _failure(max_steps, Engine.REFERENCE)


@pytest.mark.parametrize("max_steps", range(1, 30, 2))
def test_a_repeat_left_at_a_false_condition_stops_where_every_turn_stops(max_steps):
    assert _failure(max_steps, Engine.COMPILED, UNTIL_FALSE) == _failure(max_steps, Engine.REFERENCE, UNTIL_FALSE)


def test_a_repeat_left_at_a_false_condition_is_written_so(monkeypatch):
    """(Steps restart at every choice: the bound, above, is where a wrong count would show.)"""
    functions = _built(monkeypatch, parse_game(UNTIL_FALSE, "loop.rcy"), 1)
    assert any(type(e) is source.Step and e.more for f in functions for e in f)


def test_steps_in_a_row_become_one_step_of_them_all():
    one = [source.Step(1, 1, ("_c1",), "_c1", 9), source.Step(1, 1, ("_c2",), "_c2", 9)]
    (merged,) = source.merge_steps(one)
    assert merged == source.Step(1, 2, ("_c1", "_c2"), "_c2", 9)
    assert merged.lines() == ["    st.steps += 2", "    if st.steps > 9:", "        _over(st, 2, (_c1, _c2))",
                              "    _ex.at = _c2"]


def test_steps_of_other_blocks_or_with_anything_between_stay_apart():
    apart = [source.Step(1, 1, ("_c1",), "_c1", 9), source.Step(2, 1, ("_c2",), "_c2", 9), "        x = 1",
             source.Step(2, 1, ("_c3",), "_c3", 9), source.Step(2, 1, ("_c4",), "_c4", None)]
    assert source.merge_steps(apart) == apart


def test_a_quiet_function_counts_its_steps_in_a_local():
    head = ["def f(env, st):", "    if st.steps > 7:", "        return _c1(env, st)"]
    body = [source.Step(1, 3, at="_c2"), "    if x:", source.Step(2, 1)]
    src = Source({})
    src.lines, src.quiet, src.head = head + body, True, 3
    assert src.text().splitlines()[3:] == [
        "    _stepped = 0", "    try:", "        _stepped += 3", "        _ex.at = _c2", "        if x:",
        "            _stepped += 1", "    finally:", "        st.steps += _stepped"]


def test_an_env_is_reset_only_where_source_holds_it():
    """Whether an env built on demand is used is known from the source written, not its text."""
    src = Source({})
    outer, _ = src.bind(1, "env", {}, "N", "int", "_v0")
    inner, _ = src.bind(2, outer, {}, "T", "set", "_v1")
    unused, _ = src.bind(2, "env", {}, "'P", "seat", "_v2")
    src.emit(2, f"_c1({inner}, st)")  # the inner env holds the outer one
    assert src.text().splitlines() == [
        "    _e1 = None", "        _e2 = None", "        pass",
        "        _c1((_e2 or (_e2 := {**(_e1 or (_e1 := {**env, 'N': _v0})), 'T': _v1})), st)"]
    assert not unused.used


def _built(monkeypatch, game, playouts: int) -> list[list[source.Entry]]:
    """The entries of every function the compiled engine builds for `game`, as they run: in
    random playouts, and in a game recorded move by move (where the runners, checking every
    step, run: playouts make them only if a block could pass the bound, `source.later`)."""
    made, build = [], Source.build

    def recording(self, node):
        made.append(self.final())
        return build(self, node)

    monkeypatch.setattr(Source, "build", recording)
    for seed in range(playouts):
        new_game(game, seed, engine=Engine.COMPILED).random_playout(random.Random(seed))
    state, rng = new_game(game, playouts, engine=Engine.COMPILED, transcript=True), random.Random(playouts)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return made


def test_each_pass_fires_on_a_shipped_game(monkeypatch):
    """The passes find steps and envs by their structure: a change in how a line is written
    cannot turn one off unnoticed."""
    entries = [e for f in _built(monkeypatch, load_game(game_path("President5")), 2) for e in f]
    steps = [e for e in entries if type(e) is source.Step]
    assert any(s.count > 1 and s.bound is not None and len(s.nodes) == s.count for s in steps)  # merged, checked
    assert any(s.count > 1 and s.bound is None for s in steps)  # merged, quiet
    assert any(s.local for s in steps)  # counted in a local
    assert any(s.local and s.nodes and s.at is None for s in steps)  # calling nothing: `at` left as it is
    assert any(s.local and s.at is not None for s in steps)  # calling a function: `at` set for its errors
    assert any(type(e) is source.EnvReset and not e.used for e in entries)  # an env no call needs
    written = [e.strip() for e in entries if type(e) is str and "st.steps +=" in e]
    assert set(written) == {"st.steps += _stepped"}  # every other step is a Step


def test_counted_options_are_written_without_closures(monkeypatch):
    """Counting a choice's options: an `any` whose every element is an option appends them all at
    once (President5's leads: `leaves`); a max that cannot tie is called directly, not through the
    closures of its condition (BigTwo4's follows): `extreme_of`, or `sift_into` judging every set
    and appending the options in one call."""
    made, build = [], Source.build

    def recording(self, node):
        made.append((type(node).__name__, self.text(), self.ns))
        return build(self, node)

    monkeypatch.setattr(Source, "build", recording)
    for name in ("President5", "BigTwo4"):
        new_game(load_game(game_path(name)), 0, engine=Engine.COMPILED).random_playout(random.Random(0))
    walks = [(text, ns) for kind, text, ns in made if kind == "Choice"]
    # (`leaves(_out, (site, ...), items)`: the function itself, not only a call of that shape, which
    # `sift_into` makes too)
    assert any(v is cardsets.fast_leaves for _, ns in walks for v in ns.values())
    assert any("(_out, (" in text for text, _ in walks)
    assert any(getattr(v, "__name__", "") in ("extreme_of", "sift_into") for _, ns in walks for v in ns.values())


def test_the_looping_game_has_steps_counted_at_once(monkeypatch):
    functions = _built(monkeypatch, parse_game(LOOPING, "loop.rcy"), 1)
    assert max(e.count for f in functions for e in f if type(e) is source.Step) >= 3
