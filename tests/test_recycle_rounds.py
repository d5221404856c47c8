"""A stage's rounds played in one loop (`rounds.play_rounds`) play exactly as the machine.

A random playout of a state that records nothing runs a stage shaped
`(stage ... (end C) PRE... (choice ...) POST...)` through `play_rounds` instead of
`Machine.advance`. Everything a caller can see must be what the reference engine (no speed
layer at all) gives: the draws, the moves, the store, the frames, the step count, the
results, the error and where it points, and the state an error leaves behind.
"""
from __future__ import annotations

import random

import pytest
from test_recycle_speed_golden import OURS, corpus_names, game_path
from recycle_engines import new_compiled_game

from recycle.interp import new_game, rounds
from recycle.interp import game as game_module
from recycle.interp.engine import Engine
from recycle.lang import load_game, parse_game

#: A stage with actions before and after its choice; the cards run out after some rounds,
#: and then a move (after the choice), a score (in the end test) or a move before the
#: choice fails, by the variant (A).
STAGED = """(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)))))
  (do ((set (game points V) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)))
       (set (game sto A) VARIANT)))
  (stage player (end (or (>= (game sto N) 30)
                         (and (== (game sto A) 2) (> (score (top (game iloc STOCK)) using (game points V)) 9))))
    (do ((inc (game sto E) 1) (repeat (game sto N) (inc (game sto B) 1))))
    (do (((== (game sto A) 3) (move (top (game iloc STOCK)) (top (game iloc PILE))))))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2)
             ((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
    (do ((inc (game sto C) 1) ((== (game sto N) 7) (cycle next current)) (repeat (game sto N) (inc (game sto D) 1))))
    (do (((== (game sto A) 1) (move (top (game iloc STOCK)) (top (game iloc PILE)))))))
  (stage player (end (>= (game sto M) 3))
    (choice ((inc (game sto M) 1) (inc (game sto M) 2))))
  (scoring max ((current player) sto N)))"""

#: Step bounds that stop the variants' playouts at every kind of item, in several rounds.
STEP_BOUNDS = range(20, 80, 3)


def _seen(state) -> tuple:
    st = state.st
    return (state.over, state.called, state.choices, state.chooser, state.stack, state.pending, st.steps,
            st.ints, st.locs, st.where, st.pcycles, st.tcycles, st.rng.s,
            state.results() if state.over else len(state.found), state._options)


def playout(game, seed: int, engine: Engine = Engine.COMPILED, **limits) -> tuple:
    """What a seeded random playout leaves: its result or error, the state, the draws."""
    rng, state = random.Random(seed), None
    try:
        state = new_game(game, seed, engine=engine, **limits)
        got = state.random_playout(rng, rng._randbelow if seed % 2 else None)
    except Exception as e:  # noqa: BLE001 — the error is what is compared
        got = (type(e).__name__, str(e), getattr(e, "line", None), getattr(e, "column", None))
    return got, state and _seen(state), rng.getstate()


@pytest.fixture
def loops_used(monkeypatch):
    """The number of `play_rounds` calls made."""
    calls = []
    real = game_module.play_rounds

    def counted(*args):
        calls.append(args[1])
        return real(*args)
    monkeypatch.setattr(game_module, "play_rounds", counted)
    return calls


@pytest.mark.parametrize("key", OURS + corpus_names())
def test_playouts_of_every_game_are_the_reference_engines(key):
    name, seed = key.rsplit("#", 1)
    game = load_game(game_path(name))
    looped = [playout(game, seed) for seed in range(int(seed), int(seed) + 2)]
    assert [playout(game, seed, Engine.REFERENCE) for seed in range(int(seed), int(seed) + 2)] == looped


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
@pytest.mark.parametrize("limits", [{}, {"max_choices": 5}, {"max_choices": 12, "strict": True}]
                         + [{"max_steps": m} for m in STEP_BOUNDS])
def test_errors_limits_and_the_next_stage_are_the_reference_engines(variant, limits, loops_used):
    game = parse_game(STAGED.replace("VARIANT", str(variant)), "staged.rcy")
    looped = [playout(game, seed, **limits) for seed in range(6)]
    assert loops_used, "the stage was not played by play_rounds"
    assert [playout(game, seed, Engine.REFERENCE, **limits) for seed in range(6)] == looped


def test_the_variants_reach_what_they_are_for():
    """The cases above are not vacuous: each variant ends or stops with its own error, and the
    step bounds stop playouts in many rounds, at actions before and after the choice."""
    def stops(variant, **limits) -> set:
        game = parse_game(STAGED.replace("VARIANT", str(variant)), "staged.rcy")
        return {(got[1].split(": ")[0], seen and seen[2]) if type(got) is tuple else "over"
                for got, seen, _ in (playout(game, seed, **limits) for seed in range(6))}
    assert stops(0) == {"over"}
    assert {where for where, _ in stops(1)} == {"staged.rcy:11:37"}  # after the choice
    assert {where for where, _ in stops(2)} == {"staged.rcy:5:54"}  # the end test
    assert {where for where, _ in stops(3)} == {"staged.rcy:7:37"}  # before the choice
    bounded = set().union(*(stops(0, max_steps=m) for m in STEP_BOUNDS)) - {"over"}
    assert {where for where, _ in bounded} >= {"staged.rcy:7:5", "staged.rcy:7:10", "staged.rcy:8:14",
                                               "staged.rcy:8:35", "staged.rcy:9:46"}
    assert len({choices for _, choices in bounded}) > 15


def test_president_and_big_two_are_played_by_the_loop(loops_used):
    for name in ("President5", "BigTwo4"):
        state = new_compiled_game(load_game(game_path(name)), 3)
        state.random_playout(random.Random(3))
        assert state.over
    assert len(loops_used) == 2  # one loop a playout: each game is one stage of rounds


def test_only_a_stage_with_one_choice_and_an_end_test_is_looped():
    game = parse_game("""(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE)))))
      (stage player (end (>= (game sto N) 4)) (choice ((inc (game sto N) 1))) (choice ((inc (game sto N) 2))))
      (stage player (end (>= (game sto M) 4)) (choice ((inc (game sto M) 1))))
      (scoring max ((current player) sto N)))""", "two.rcy")
    state = new_compiled_game(game, 0)
    first, second = game.flow
    assert rounds.round_loop(state.rules.machine, first, state.table) is None
    assert rounds.round_loop(state.rules.machine, second, state.table).at == 0


@pytest.mark.parametrize("name", ["President5", "BigTwo4", "Daifugo4"])
def test_games_played_in_turns_play_as_each_alone(name):
    """Generated source keeps each location's list for the store it last saw (`source.place`):
    three games and a clone, a choice of each in turn, play as each played alone."""
    game = load_game(game_path(name))

    def play(states: list, first: int = 0) -> list:
        rngs = [random.Random(first + i) for i in range(len(states))]
        while not all(s.is_terminal() for s in states):
            for s, rng in zip(states, rngs):
                if not s.is_terminal():
                    legal = s.legal_actions()
                    s.apply(legal[rng.randrange(len(legal))])
        return [(s.results(), s.st.locs, s.st.ints) for s in states]

    def fresh() -> list:
        states = [new_compiled_game(game, seed) for seed in (1, 2, 3)]
        return states + [states[0].clone()]
    apart = [play([s], i)[0] for i, s in enumerate(fresh())]
    assert play(fresh()) == apart


def test_an_interpreter_failure_in_a_call_of_a_quiet_block_is_placed_at_its_action(monkeypatch):
    """Quiet blocks set `Executor.at` only before actions that call out (what could fail in a
    way of its own): an interpreter bug there is still placed at the very action."""
    from recycle.interp import InternalError
    from recycle.interp.evaluate import Evaluator

    def broken(self, n, env, st):
        return [][1]  # an interpreter bug: IndexError
    monkeypatch.setattr(Evaluator, "_Tri", broken)
    game = parse_game("""(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE)))))
  (stage player (end (>= (game sto N) 12))
    (do ((inc (game sto E) 1) ((> (game sto N) 3) (set (game sto T) (tri 3))) (inc (game sto F) 1)))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2))))
  (scoring max ((current player) sto N)))""", "t.rcy")
    state = new_compiled_game(game, 0)
    with pytest.raises(InternalError, match=r"t\.rcy:3:51: IndexError"):
        state.random_playout(random.Random(0))


@pytest.mark.parametrize("op", [">", "==", "!=", "<="])
def test_players_counted_by_an_empty_place_are_the_filters_size(op):
    """`(size (filter player 'P (OP (size ('P LOC)) 0)))` is counted over the players' lists
    (`codegen._count_seated`): the same count as the filter's closure, in every position of
    random games, also while some players have no such place yet."""
    from recycle.lang import tree as T

    game = parse_game(f"""(game (setup (create players 4) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
  (stage player (end (or (== (size (game iloc STOCK)) 0)
                         (>= (size (filter player 'P ({op} (size ('P vloc PILE)) 0))) 9)))
    (choice ((move (top (game iloc STOCK)) (top ((current player) vloc PILE)))
             ((> (size ((current player) vloc PILE)) 0) (move (top ((current player) vloc PILE)) (top (game iloc STOCK))))
             (inc (game sto N) 1))))
  (scoring max ((current player) sto N)))""", "count.rcy")
    count = next(x for x in T.walk(game) if type(x) is T.Size and type(x.collection) is T.Filter)
    seen = set()
    for seed in range(6):
        state, rng = new_compiled_game(game, seed), random.Random(seed)
        ex = state.rules.ex
        while not state.is_terminal():
            got = ex.fn(count)({}, state.st)
            assert got == ex.closure(count)({}, state.st)
            seen.add(got)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert len(seen) >= 3 and "_seated" in ex.fn(count).__code__.co_names


def test_the_step_bound_reached_at_the_stage_leaves_the_machines_frames():
    """A round whose step past the bound is the stage's own (after the actions that follow the
    choice): the game stops there, with the stage's frame and the new round's first frame, as
    the machine leaves them."""
    game = parse_game("""(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE)))))
  (stage player (end (>= (game sto N) 50))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2)))
    (do ((inc (game sto C) 1) (inc (game sto C) 1) (inc (game sto C) 1) (inc (game sto C) 1) (inc (game sto C) 1))))
  (scoring max ((current player) sto N)))""", "stage.rcy")
    looped = playout(game, 1, max_steps=7)
    assert looped[0][0] == "LimitError" and looped[0][1].startswith("stage.rcy:2:3:")  # the stage
    assert playout(game, 1, Engine.REFERENCE, max_steps=7) == looped


def test_a_round_is_one_function_with_its_blocks_walk_and_options_written_in(monkeypatch):
    """President5's rounds run as one generated function: the blocks around the choice, the
    walk counting its options and the drawn option's action are written in, not called, and
    the game's table is kept in a local once found (`rounds.round_source`)."""
    made = []
    real = rounds.round_source

    def recording(loop, rules, counting, inline=True, **how):
        f = real(loop, rules, counting, inline, **how)
        made.append(f)
        return f
    monkeypatch.setattr(rounds, "round_source", recording)
    state = new_compiled_game(load_game(game_path("President5")), 3)
    state.random_playout(random.Random(3))
    assert state.over and len(made) == 1
    names = set(made[0].__code__.co_varnames)
    assert {"_stepped", "_out", "_rv0", "_L0"} <= names  # a quiet block, the walk, a site, a kept list
    assert "_walk" not in made[0].__code__.co_names


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_rounds_with_their_items_called_play_as_the_reference(variant, monkeypatch):
    """The round function with its items called instead of written in (as when writing them in
    passes Python's limits) plays as the reference engine too."""
    real = rounds.round_source
    monkeypatch.setattr(rounds, "round_source", lambda loop, rules, counting, **how: real(loop, rules, counting, False,
                                                                                        **how))
    game = parse_game(STAGED.replace("VARIANT", str(variant)), "staged.rcy")
    for limits in ({}, {"max_steps": 41}, {"max_choices": 5}):
        assert [playout(game, seed, **limits) for seed in range(4)] == \
            [playout(game, seed, Engine.REFERENCE, **limits) for seed in range(4)]


@pytest.mark.parametrize("name", ["President5", "BigTwo4"])
def test_rounds_entered_with_every_kept_location_made_play_as_the_reference(name, monkeypatch):
    """Entered mid-game (as an estimator's rollouts are), the rounds run the function that finds
    its constant locations at its start (`rounds._round_source`'s second one): it plays as the
    reference engine, and the first one, which waits for a location, is not called."""
    waited, placed = [], []
    real = rounds._round_source

    def counting_waits(loop, rules, counting, inline=True, *, drawing, general=None):
        if general is not None:
            first = general
            placed.append(1)
            general = lambda *a: waited.append(1) or first(*a)  # noqa: E731
        return real(loop, rules, counting, inline, drawing=drawing, general=general)
    monkeypatch.setattr(rounds, "_round_source", counting_waits)
    game = load_game(game_path(name))
    for seed in range(3):
        seen = []
        for engine in (Engine.COMPILED, Engine.REFERENCE):
            state, rng = new_game(game, seed, engine=engine), random.Random(seed)
            for _ in range(8):  # choices made by the machine, one by one: every location made
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            state.random_playout(rng)
            seen.append((_seen(state), rng.getstate()))
        assert seen[0] == seen[1]
    assert placed and not waited


#: A stage whose items all have a known bound on their steps and which never moves the cycle
#: itself: its rounds are written twice, with and without step checks (`between`), and find the
#: next player from the loop's own last one ("turning").
TURNING = """(game (setup (create players 3)
                     (create deck (game iloc STOCK) (deck (RANK (A, B, C, D, E, F, G, H, I, J, K, L)))))
  (do ((shuffle (game iloc STOCK))))
  (stage player (end (>= (game sto N) 12))
    (do ((inc (game sto E) 1) (all player 'P (inc ('P sto B) 1))))
    (choice ((inc (game sto N) 1)
             ((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
    (do ((inc (game sto C) 1)
         ((> (size ((current player) iloc HAND)) 3)
          (repeat all (move (top ((current player) iloc HAND)) (top (game iloc PILE))))))))
  (scoring max ((current player) sto N)))"""


def _turning_playouts(limits: dict, monkeypatch) -> tuple[list, set]:
    """The compiled engine's playouts of TURNING and which copies of the items were written."""
    written, real = set(), rounds.between
    monkeypatch.setattr(rounds, "between", lambda *a: written.add(a[-1]) or real(*a))
    game = parse_game(TURNING, "turning.rcy")
    looped = [playout(game, seed, **limits) for seed in range(6)]
    assert [playout(game, seed, Engine.REFERENCE, **limits) for seed in range(6)] == looped
    return looped, written


#: Step bounds that stop TURNING's playouts in the setup, at the first choice and in the rounds
#: (checked: no room for all the items' steps), or not at all (the unchecked copy runs).
TURNING_BOUNDS = range(3, 30)


@pytest.mark.parametrize("limits", [{}, {"max_choices": 7}] + [{"max_steps": m} for m in TURNING_BOUNDS])
def test_rounds_with_room_for_all_their_steps_play_as_the_reference(limits, loops_used, monkeypatch):
    """With and without step checks, as the count leaves room (`between_bound`), the rounds play
    as the reference engine: the same errors where the step bound stops them, the same frames,
    counts and cycle."""
    _, written = _turning_playouts(limits, monkeypatch)
    assert written == ({True, False} if loops_used else set())  # (no rounds where the setup stops)


def test_the_step_bounds_stop_rounds_at_items_before_and_after_the_choice(monkeypatch):
    """The cases above are not vacuous: small bounds stop the playouts at the items around the
    choice and at the stage, larger ones (where only the unchecked copy runs) let them end."""
    assert _turning_playouts({}, monkeypatch)[1] == {True, False}  # (both copies written)
    stops = set()
    for m in TURNING_BOUNDS:
        looped, _ = _turning_playouts({"max_steps": m}, monkeypatch)
        stops |= {(got[1].split(": ")[0], bool(seen and seen[2])) if type(got) is tuple else ("over", True)
                  for got, seen, _ in looped}
    in_rounds = {where for where, played in stops if played} - {"over"}
    assert ("over", True) in stops and len(in_rounds) >= 3


#: Players learn where cards are (a hand's card put into the hidden stock, the table's taken into
#: a hand) and forget it (the stock's top turned up on the table, by an option and after the
#: choice): the moves' knowledge kept in the loop as the machine keeps it.
KNOWING = """(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE)))))
  (stage player (end (>= (game sto N) 40))
    (do ((inc (game sto N) 1)))
    (choice (((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top (game vloc TABLE))))
             ((> (size (game vloc TABLE)) 0) (move (top (game vloc TABLE)) (top ((current player) iloc HAND))))
             ((> (size ((current player) iloc HAND)) 0) (move (top ((current player) iloc HAND)) (top (game iloc STOCK))))
             (inc (game sto M) 1)))
    (do (((> (size (game iloc STOCK)) 3) (move (top (game iloc STOCK)) (top (game vloc TABLE)))))))
  (scoring max ((current player) sto N)))"""


def test_what_players_know_is_kept_as_the_reference_engine_keeps_it(loops_used):
    game = parse_game(KNOWING, "knowing.rcy")
    known = []
    for seed in range(8):
        states = [new_game(game, seed, engine=engine) for engine in (Engine.COMPILED, Engine.REFERENCE)]
        for state in states:
            state.random_playout(random.Random(seed))
        assert _seen(states[0]) == _seen(states[1]) and states[0].st.known == states[1].st.known
        known.append(len(states[0].st.known))
    assert loops_used and len(set(known)) > 2  # (knowledge kept, and forgotten, in the loop)


#: Items whose every step is taken (no card-bounded loop, conditions true): the steps from one
#: choice to the next are exactly what `between_bound` allows for, so a bound one step short
#: (the unchecked copy picked where the last step passes the bound) shows.
EXACT = """(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, B)))))
  (stage player (end (>= (game sto N) 20))
    (do ((inc (game sto E) 1) (all player 'P (inc ('P sto B) 1))))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2)))
    (do ((inc (game sto C) 1) ((>= (game sto C) 0) (do ((inc (game sto D) 1) (inc (game sto F) 1)))))))
  (scoring max ((current player) sto N)))"""


def test_the_step_bound_at_the_edge_of_the_rooms_test_stops_rounds_as_the_reference(loops_used):
    game = parse_game(EXACT, "exact.rcy")
    ends = []
    for m in range(8, 22):
        looped = [playout(game, seed, max_steps=m) for seed in range(2)]
        assert [playout(game, seed, Engine.REFERENCE, max_steps=m) for seed in range(2)] == looped
        got, seen, _ = looped[0]
        ends.append("over" if type(got) is not tuple else "rounds" if seen and seen[2] else "before")
    # (a bound stops the rounds, the next one lets the game end: the edge is crossed)
    assert loops_used and ("rounds", "over") in zip(ends, ends[1:])


#: A stage that stores a point map between its choices, which an item after the choice reads
#: (`Source.steady` false: the map read where it is used, not once a call).
REPOINTED = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B, C)))))
  (do ((set (game points V) (((RANK : A) 1) ((RANK : B) 2) ((RANK : C) 3)))))
  (stage player (end (>= (game sto N) 12))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2)))
    (do (((>= (game sto N) 6) (set (game points V) (((RANK : A) 9) ((RANK : B) 10) ((RANK : C) 11))))
         (set (game sto S) (score (max (game iloc STOCK) using (game points V)) using (game points V))))))
  (scoring max ((current player) sto N)))"""


def test_a_point_map_stored_in_the_rounds_is_read_anew(loops_used):
    game = parse_game(REPOINTED, "repointed.rcy")
    looped = [playout(game, seed) for seed in range(4)]
    assert [playout(game, seed, Engine.REFERENCE) for seed in range(4)] == looped
    assert loops_used and all(seen[7][("g", 0, "S")] == 11 for _, seen, _ in looped)  # (the new map's)
