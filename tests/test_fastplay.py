"""The compiled engine (president/game/_fastplay.c) makes exactly the moves of the pure Python reference.

Random play (`PresidentState.random_playout` against `random_moves`), legal
plays (`legal_plays` against `python_legal_plays`) and the determinizations
of a search (`Dealer.deal` against `place_cards`) are
compared field by field on the same seeds; a search decides the same move,
with the same statistics, compiled or not; `PRESIDENT_PURE=1` forces the pure
engine and `president --version` says which one runs (docs/compiled.md).
"""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import pickle
import random
import subprocess
import sys
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import president.game.knowledge as knowledge
import president.game.legality as legality
import president.game.state as state_module
from president.game import fastplay
from president.agents.bots import make_bot
from president.game.cards import Play
from president.game.knowledge import Dealer
from president.game.legality import python_legal_plays
from president.game.settings import EqualValue, JokerMode, Settings, preset
from president.game.state import Phase, PresidentState

from pure_runs import run_module

compiled_only = pytest.mark.skipif(not fastplay.compiled(), reason=f"engine: {fastplay.engine()}")

tables = st.builds(
    Settings, players=st.integers(3, 7), decks=st.sampled_from([1, 1, 1, 2]), jokers=st.integers(0, 2),
    joker_mode=st.sampled_from(JokerMode), pass_locks=st.booleans(), equal_value=st.sampled_from(EqualValue),
    twos_end_trick=st.booleans(), revolution=st.booleans(), eight_cut=st.booleans(),
    no_going_out_on_two=st.booleans(), rounds=st.integers(1, 3), exchange_big=st.integers(1, 2),
    exchange_small=st.integers(0, 1))


@contextmanager
def pure_python():
    """The pure Python engine within (as `PRESIDENT_PURE=1` gives a whole process)."""
    saved = state_module._FAST, knowledge._DEAL, legality._LEGAL
    state_module._FAST = knowledge._DEAL = legality._LEGAL = None
    try:
        yield
    finally:
        state_module._FAST, knowledge._DEAL, legality._LEGAL = saved


def fields(state: PresidentState) -> dict:
    return {name: getattr(state, name) for name in PresidentState.__slots__}


def played_into(table: Settings, seed: int, moves: int, truncated: bool) -> PresidentState:
    """A match of `table` after `moves` random checked moves (cut at its round when `truncated`)."""
    state = PresidentState.new_match(table, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state.truncated() if truncated else state


@compiled_only
@settings(max_examples=250, deadline=None)
@given(tables, st.integers(0, 2**32), st.integers(0, 60), st.booleans(), st.booleans())
def test_compiled_random_play_is_the_pure_loop(table, seed, moves, truncated, randbelow):
    state = played_into(table, seed, moves, truncated)
    pure, fast = state.clone(), state.clone()
    pure_rng, fast_rng = random.Random(seed), random.Random(seed)
    pure_draw, fast_draw = (pure_rng._randbelow, fast_rng._randbelow) if randbelow else (None, None)
    with pure_python():
        steps = pure.random_playout(pure_rng, pure_draw)
    assert fast.random_playout(fast_rng, fast_draw) == steps
    assert fields(fast) == fields(pure)  # hands, trick, places, scores, the whole history
    assert fast_rng.getstate() == pure_rng.getstate()  # the same draws, no more


@compiled_only
@settings(max_examples=100, deadline=None)
@given(tables, st.integers(0, 2**32))
def test_compiled_legal_plays_are_the_pure_ones(table, seed):
    state, rng = PresidentState.new_match(table, seed), random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.phase is Phase.PLAY:
            pure = python_legal_plays(state)
            assert legal == pure and all(a is b for a, b in zip(legal, pure))  # the same interned plays
        state.apply(legal[rng.randrange(len(legal))])


@compiled_only
def test_compiled_loop_covers_one_deck_tables_without_suits():
    assert fastplay.rules_of(preset("classic")) is not None
    assert fastplay.rules_of(preset("daifugo")) is not None  # wild jokers, revolution, 8-cut
    assert fastplay.rules_of(preset("uecda")) is None  # suits matter: the pure loop plays
    assert fastplay.rules_of(Settings(decks=2)) is None  # a hand of two decks is more than 64 bits
    state = PresidentState.new_match(preset("uecda"), 3)
    assert fastplay.playout(state, random.Random(1)) is None and not state.history


@compiled_only
@settings(max_examples=150, deadline=None)
@given(tables, st.integers(0, 2**32), st.integers(0, 80))
def test_compiled_deal_is_the_pure_deal(table, seed, moves):
    state = played_into(table, seed, moves, False)
    if state.is_terminal():
        return
    observer = seed % table.players
    dealer = Dealer(state, observer)
    def world() -> tuple:
        rng = random.Random(seed)
        dealt = dealer.deal(rng)
        return dealt.masks, dealt.counts, dealt.deal_seed, rng.getstate()

    with pure_python():
        pure = world()
    assert world() == pure


def decisions(spec: str) -> list:
    table = dataclasses.replace(preset("classic"), rounds=1)
    out = []
    for seed in range(3):
        state = played_into(table, seed, 7 * seed, False)
        trace = make_bot(spec).explain(state.observation(state.current_player()), state.legal_actions(),
                                       random.Random(seed)).trace
        out.append((trace.action, trace.candidates, trace.calls))
    return out


@compiled_only
def test_search_decides_the_same_compiled_or_not():
    spec = "ismcts:iterations=120"
    with pure_python():
        pure = decisions(spec)
    assert decisions(spec) == pure  # same moves, visits and values, forward-model calls


def run_president(*args: str, pure: bool) -> subprocess.CompletedProcess:
    return run_module("president.cli.main", fastplay.PURE_VARIABLE, pure, *args)


def test_version_says_which_engine_runs():
    assert "engine: pure Python (PRESIDENT_PURE is set)" in run_president("--version", pure=True).stdout
    built = importlib.util.find_spec("president.game._fastplay") is not None  # whatever this process runs
    expected = "compiled (C: president.game._fastplay)" if built else "pure Python (the compiled engine is not built)"
    assert f"engine: {expected}" in run_president("--version", pure=False).stdout
    odds = importlib.util.find_spec("personalities._odds") is not None
    assert ("rule odds: compiled (C: personalities._odds)" if odds else "rule odds: pure Python") \
        in run_president("--version", pure=False).stdout
    assert "rule odds: pure Python" in run_president("--version", pure=True).stdout


def test_random_simulation_is_the_same_compiled_or_pure(tmp_path):
    results = []
    for pure in (True, False):
        out = tmp_path / f"{pure}.json"
        run_president("simulate", "--players", "random", "--matches", "20", "--rounds", "3", "--seed", "5",
                      "--json", str(out), pure=pure)
        results.append(json.loads(out.read_text()))
    assert results[0] == results[1]


def test_a_play_hashes_as_its_fields_do():
    # hashed once when made (search trees look plays up all the time), to the dataclass's own value:
    # sets and dicts of plays keep their order, equal plays made apart share a hash
    for play in (Play.PASS, Play.parse("7 7"), Play.parse("9 9 Jk"), Play(8, 2), Play.parse("5h 6h 7h", True)):
        assert hash(play) == hash(dataclasses.astuple(play)) == hash(dataclasses.replace(play))


def test_a_play_from_another_process_finds_its_equal():
    # root-parallel trees send their plays back pickled (recycle/search/parallel.py)
    code = "import pickle, sys; from president.game.cards import Play; sys.stdout.buffer.write(pickle.dumps(Play(8, 2)))"
    sent = pickle.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout)
    assert hash(sent) == hash(Play(8, 2)) and {Play(8, 2): 1}[sent] == 1
