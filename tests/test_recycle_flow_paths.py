"""The flow's quick paths play exactly as the general ones.

`Machine.advance` runs the items of a sequence that hold no choice in a loop of its own; the
general path starts each one through `Machine.enter`, a frame written per item. For a state
keeping no record it runs them by their quiet runners (`quiet`: no step checked when the
bound cannot be passed, nothing recorded); the general path is the runner. Both must give
the same games (every option, observation and record of seeded random games, see
`test_recycle_speed_golden.trace`; without a transcript, every option and the final store)
and stop at the same step with the same error.
"""
from __future__ import annotations

import random

import pytest
from test_recycle_speed_golden import OURS, corpus_names, game_path, trace

from recycle.interp import LimitError, flow, new_game, quiet
from recycle.lang import load_game, parse_game

#: Plain actions and blocks between stages and choices, at the top and in a stage.
SEQUENCES = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (do ((set (game sto A) 1)))
  (do ((inc (game sto A) 1) (repeat 2 (inc (game sto B) 1))))
  (stage player (end (>= (game sto N) 9))
    (do ((inc (game sto E) 1) (repeat all (move (top (game iloc STOCK)) (top (game iloc PILE))))
         (repeat all (move (top (game iloc PILE)) (top (game iloc STOCK))))))
    (do ((inc (game sto C) 1) (all player 'P (inc ('P sto D) 1))))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2)))
    (do ((inc (game sto E) 1)))
    (do ((inc (game sto C) 1) (repeat 2 (inc (game sto B) 1)))))
  (do ((inc (game sto F) 1)))
  (scoring max ((current player) sto N)))"""


class _Every(set):
    """Every node counts as a flow node: `advance` hands each item to `enter` (which looks at
    the real ones, `real`)."""

    def __contains__(self, key) -> bool:
        return True


@pytest.fixture
def one_by_one(monkeypatch):
    """Play through the general path: every item of a sequence started by `Machine.enter`."""
    made, enter = flow.flow_nodes, flow.Machine.enter

    def flow_nodes(game):
        every = _Every()
        every.real = made(game)
        return every

    def enter_real(self, s, node, env):
        every, self.flowy = self.flowy, self.flowy.real
        try:
            return enter(self, s, node, env)
        finally:
            self.flowy = every

    def start():
        monkeypatch.setattr(flow, "flow_nodes", flow_nodes)
        monkeypatch.setattr(flow.Machine, "enter", enter_real)
    return start


@pytest.fixture
def loud(monkeypatch):
    """Play through the general path: the runners, never the quiet ones."""
    return lambda: monkeypatch.setattr(quiet.QuietMixin, "quiet", lambda self, node: self.runner(node))


def unrecorded(path, seed: int) -> tuple:
    """Every option, the results and the final store of a seeded random game without a transcript."""
    state, rng, seen = new_game(load_game(path), seed), random.Random(seed), []
    while not state.is_terminal():
        legal = state.legal_actions()
        seen.append([a.text for a in legal])
        state.apply(legal[rng.randrange(len(legal))])
    st = state.st
    return seen, state.results(), st.steps, st.ints, st.strs, st.locs, st.where, st.pcycles, st.tcycles, st.rng.s


@pytest.mark.parametrize("path", ["one_by_one", "loud"])
@pytest.mark.parametrize("key", OURS[::4] + corpus_names())
def test_games_play_as_through_the_general_path(key, path, request):
    name, seed = key.rsplit("#", 1)
    quick = trace(game_path(name), int(seed)), unrecorded(game_path(name), int(seed))
    request.getfixturevalue(path)()
    assert (trace(game_path(name), int(seed)), unrecorded(game_path(name), int(seed))) == quick


def _outcome(max_steps: int) -> tuple:
    try:
        state = new_game(parse_game(SEQUENCES, "seq.rcy"), 0, max_steps=max_steps)
        while not state.is_terminal():
            state.apply(state.legal_actions()[-1])
    except LimitError as e:
        return str(e), e.line, e.column
    return state.st.steps, state.st.ints, state.stack


@pytest.mark.parametrize("path", ["one_by_one", "loud"])
@pytest.mark.parametrize("max_steps", range(1, 40))
def test_the_step_bound_stops_where_the_general_path_stops(max_steps, path, request):
    quick = _outcome(max_steps)
    request.getfixturevalue(path)()
    assert _outcome(max_steps) == quick
