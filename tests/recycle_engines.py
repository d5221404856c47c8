"""The two engines side by side: one seeded game's trace on either, and the first difference.

A trace is everything a user or a search player can see of a seeded random game, line by line:
each choice's options (the chooser, their texts), every third choice the observations of all
seats and a determinization's options and observation, the results and the transcript's
records; an error of the game ends it (its class, message and line). Each line carries the
step (choices made before it) and the form (the pending choice, as file:line:col), so a
difference reads as "at choice 12, the choice at Hearts4.gdl:40:3, options of p1: fast says
..., reference says ...".

The golden digests (`test_recycle_speed_golden.py`) hash exactly these values; the
differential tests (`test_recycle_engines.py`) compare the reference engine with the compiled
one, line by line.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import partial

from recycle.interp import new_game
from recycle.interp.engine import Engine
from recycle.interp.transcript import records
from recycle.kernel.protocol import GameError
from recycle.lang import tree as T

#: The fast engine from its first choice (no warm-up): what the speed tests exercise.
new_compiled_game = partial(new_game, engine=Engine.COMPILED)


@dataclass(frozen=True)
class Line:
    """One line of a trace."""

    step: int  # choices made before it
    what: str  # what it shows: "options of p1", "observation of p0", "results", "record 7"...
    form: str  # the pending choice (file:line:col), or "" at the end
    value: str  # the text hashed by the golden digests
    scores: tuple = ()  # the results' scores (on the "results" line)


def _where(state) -> str:
    pending = getattr(state, "pending", None)
    if not pending:
        return ""
    node = pending[0]
    return f"{state.table.filename}:{node.line}:{node.column} {type(node).__name__}"


def trace(game: T.Game, seed: int, engine: Engine | str = Engine.COMPILED) -> list[Line]:
    """The trace of one seeded random game (see above) on `engine`."""
    lines: list[Line] = []
    state = None
    try:
        state = new_game(game, seed, transcript=True, engine=engine)
        rng, other = random.Random(seed), random.Random(seed + 99)
        while not state.is_terminal():
            step, where = state.choices, _where(state)
            add = lambda what, value: lines.append(Line(step, what, where, value))  # noqa: E731
            player, legal = state.current_player(), state.legal_actions()
            add(f"options of p{player}", json.dumps([player, [a.text for a in legal]]))
            if state.choices % 3 == 0:
                for q in range(state.num_players):
                    add(f"observation of p{q}", repr(state.observation(q)))
                sample = state.determinize(player, other)
                add(f"a determinization's options for p{player}", json.dumps([a.text for a in sample.legal_actions()]))
                add(f"a determinization's observation of p{player}", repr(sample.observation(player)))
            state.apply(legal[rng.randrange(len(legal))])
        step = state.choices
        results = state.results()
        lines.append(Line(step, "results", "", repr(results), results.scores))
        lines += [Line(step, f"record {i}", "", json.dumps(r, sort_keys=True))
                  for i, r in enumerate(records(state)[1:], 1)]  # the header names the file
    except GameError as e:  # (RecycleRuntimeError, LimitError, NoOptionsError...)
        step = state.choices if state is not None else 0
        lines.append(Line(step, "error", _where(state) if state is not None else "",
                          f"{type(e).__name__}: {e} (line {getattr(e, 'line', None)}, column "
                          f"{getattr(e, 'column', None)})"))
    return lines


def first_difference(a: list[Line], b: list[Line], names: tuple[str, str] = ("reference", "fast")) -> str | None:
    """The first line where two traces differ, readably (None: identical)."""
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            where = f" at {x.form}" if x.form else ""
            what = x.what if x.what == y.what else f"{x.what} / {y.what}"
            return (f"line {k + 1} of the trace, after {x.step} choice(s){where}, {what}:\n"
                    f"  {names[0]}: {x.value}\n  {names[1]}: {y.value}")
    if len(a) != len(b):
        shorter, longer = (names[0], names[1]) if len(a) < len(b) else (names[1], names[0])
        extra = (b if len(a) < len(b) else a)[min(len(a), len(b))]
        return (f"{shorter}'s trace ends after {min(len(a), len(b))} lines; {longer} goes on with "
                f"{extra.what} (after {extra.step} choice(s)): {extra.value}")
    return None


def assert_same_on_both(game: T.Game, seed: int) -> list[Line]:
    """The reference and the compiled engine give the same trace (else the first difference)."""
    reference, fast = trace(game, seed, Engine.REFERENCE), trace(game, seed, Engine.COMPILED)
    difference = first_difference(reference, fast)
    assert difference is None, f"{game.filename} seed {seed}: the engines differ at {difference}"
    return fast


def playout(game: T.Game, seed: int, engine: Engine | str, by_index: bool = False) -> tuple:
    """What a random playout leaves (its steps, the results, storage and every location, or the
    error) and where it leaves the generator (`by_index`: drawn by `_randbelow`, as search does)."""
    rng = random.Random(seed)
    try:
        state = new_game(game, seed, engine=engine)
        steps = state.random_playout(rng, rng._randbelow if by_index else None)
        st = state.st
        got = (steps, state.choices, state.called, repr(state.results()), sorted(st.ints.items()),
               sorted(st.strs.items()), sorted((k, repr(v)) for k, v in st.points.items()),
               sorted(st.locs.items()), st.where, st.pcycles, st.rng.s)
    except GameError as e:
        got = (type(e).__name__, str(e), getattr(e, "line", None), getattr(e, "column", None))
    return got, rng.getstate()
