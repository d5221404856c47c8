"""Reliability of the RECYCLE interpreter: no card lost or duplicated, no unbounded work, no
Python failure presented as the game's fault. Every reproducer of tests/data/repro is here."""
from __future__ import annotations

import random
import time
from importlib import resources
from pathlib import Path

import pytest

from recycle.interp import CardConservationError, InternalError, LimitError, RecycleRuntimeError, check_cards, new_game
from recycle.interp.invariants import ENV_FLAG, card_problems
from recycle.kernel.protocol import GameError
from recycle.lang import GameSyntaxError, load_game, parse_game

REPRO = Path(__file__).parent / "data" / "repro"
DECK = "(deck (RANK (ACE, TWO, THREE)) (SUIT (HEARTS, CLUBS)))"


def game(body: str, scoring: str = "(scoring max 0)", deck: str = DECK, name: str = "t.gdl"):
    return parse_game(f"""(game (setup (create players 2) (create deck (game iloc STOCK) {deck}))
                 {body}
                 {scoring})""", name)


def play_checked(state, rng: random.Random, determinize: bool = True):
    """Random choices to the end, card conservation asserted after every step (and in a
    determinization for the player on turn)."""
    assert card_problems(state.table, state.st) == []
    while not state.is_terminal():
        if determinize:
            other = state.determinize(state.current_player(), rng)
            assert card_problems(other.table, other.st) == []
        state.apply(rng.choice(state.legal_actions()))
        assert card_problems(state.table, state.st) == []
    return state


# --- lost and duplicated cards ---------------------------------------------------------------

@pytest.mark.parametrize("name, line, words", [
    ("forget_destroys.gdl", 10, "(forget ...) removes a remembered copy from a mem location"),
    ("remember_dup.gdl", 10, "(remember ...) copies a card into a mem location"),
    ("deck_in_mem.gdl", 4, "cannot be created in a mem location"),
])
def test_games_that_would_lose_or_duplicate_a_card_are_refused_at_their_line(name, line, words):
    with pytest.raises(GameSyntaxError) as caught:
        load_game(REPRO / name)
    first = caught.value.errors[0]
    assert (first.line, words in first.message) == (line, True), first.render()
    assert first.hint  # says what to write instead


def test_remember_and_forget_on_mem_locations_keep_every_card():
    g = game("""(do ((shuffle (game iloc STOCK))
                    (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
                (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
                  (choice ((any ((current player) iloc HAND) 'C
                     (do ((move 'C (top ((current player) vloc TRICK)))
                          (remember (top ((current player) vloc TRICK)) (top (game mem SEEN)))
                          (remember (top ((current player) vloc TRICK)) (top (game mem SEEN)))
                          (forget (top (game mem SEEN)))))))))""")
    for seed in range(5):
        state = play_checked(new_game(g, seed, check=True), random.Random(seed))
        assert len(state.st.locs[("g", 0, "mem", "SEEN")]) == 6  # one copy of each card played


def test_exchanging_a_mem_location_with_a_real_one_is_a_located_error():
    g = game("""(do ((remember (top (game iloc STOCK)) (top (game mem SEEN)))
                    (swap (game mem SEEN) (game vloc TABLE))))""")
    with pytest.raises(RecycleRuntimeError, match=r"^t\.gdl:3:\d+: cannot exchange cards between a mem location"):
        new_game(g, check=True)


# --- the invariant itself ------------------------------------------------------------------

def test_card_conservation_check_names_lost_duplicated_and_misplaced_cards():
    state = new_game(game("(do ((move (top (game iloc STOCK)) (top (game vloc TABLE)))))"))
    check_cards(state, "now")  # holds
    st = state.st
    lost = st.locs[("g", 0, "iloc", "STOCK")].pop()
    with pytest.raises(CardConservationError, match=r"was lost"):
        check_cards(state, "after a test")
    st.locs[("g", 0, "iloc", "STOCK")] += [lost, lost]
    with pytest.raises(CardConservationError, match=r"is in 2 real locations"):
        check_cards(state, "after a test")
    st.locs[("g", 0, "iloc", "STOCK")].pop()
    st.where[lost] = ("g", 0, "vloc", "TABLE")
    with pytest.raises(CardConservationError, match=r"its index says game TABLE") as caught:
        check_cards(state, "after a test")
    assert isinstance(caught.value, InternalError) and not isinstance(caught.value, GameError)


def test_the_check_is_off_by_default_and_on_with_a_flag_or_the_environment(monkeypatch):
    g = game("")
    monkeypatch.delenv(ENV_FLAG, raising=False)
    assert not new_game(g).rules.check and new_game(g, check=True).rules.check
    monkeypatch.setenv(ENV_FLAG, "1")
    assert new_game(g).rules.check


def _shipped_games() -> list[Path]:
    return sorted(Path(str(p)) for p in resources.files("recycle.games").iterdir() if p.name.endswith(".gdl"))


@pytest.mark.parametrize("path", _shipped_games(), ids=lambda p: p.stem)
def test_shipped_games_conserve_cards_after_every_step_and_in_every_determinization(path):
    g = load_game(path)
    for seed in range(2):
        play_checked(new_game(g, seed, check=True), random.Random(seed))


CORPUS_SAMPLE = ["testing/Test-Team.gdl", "testing/Test-Team2.gdl", "gdl/Agram4.gdl", "gdl/Hearts4.gdl",
                 "rcy/Hearts4.rcy", "gdl/GermanWhist2.gdl"]


@pytest.mark.parametrize("name", CORPUS_SAMPLE)
def test_corpus_games_determinize_with_every_card_where_its_index_says(name, shared_dir):
    g = load_game(shared_dir / "recycle-corpus" / name)
    for seed in range(3):
        play_checked(new_game(g, seed, check=True, max_choices=200), random.Random(seed))


# --- bounded arithmetic and collections -------------------------------------------------------

def test_a_huge_power_is_a_located_error_not_a_traceback():
    state = new_game(load_game(REPRO / "pow_2000.gdl"), 1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    with pytest.raises(LimitError, match=r"pow_2000\.gdl:8:\d+: \(\^ \.\.\.\) gives a number beyond 128 bits"):
        state.results()


@pytest.mark.parametrize("expression", ["(^ 10 100000000)", "(^ (- 0 7) 999999999999)", "(* (^ 2 100) (^ 2 100))",
                                        "(fib 100000000)", "(tri (^ 2 100))", "(- (- 0 (^ 2 126)) (^ 2 127))"])
def test_integers_beyond_128_bits_are_refused_at_once(expression):
    started = time.process_time()
    with pytest.raises(LimitError, match=r"t\.gdl:2:\d+: .*beyond 128 bits"):
        new_game(game(f"(do ((set (game sto X) {expression})))"))
    assert time.process_time() - started < 1.0


def test_integers_within_128_bits_still_work():
    state = new_game(game("(do ((set (game sto X) (* 9 (^ 2 70))) (set (game sto Y) (^ (- 0 1) 999999999999))))"))
    assert state.st.ints[("g", 0, "X")] == 9 * 2**70 and state.st.ints[("g", 0, "Y")] == -1


def test_a_growing_stored_integer_stops_at_the_bound():
    g = game("(do ((set (game sto X) 3) (repeat 200 (inc (game sto X) (game sto X)))))")
    with pytest.raises(LimitError, match=r"t\.gdl:2:\d+: a number beyond 128 bits"):
        new_game(g)


def test_tuples_of_many_equal_cards_are_a_located_error_without_running_out_of_memory():
    many = "(deck (RANK (" + ", ".join(f"R{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(52)) + ")))"
    g = game("""(do ((put points 'ALL (((RANK : RAA) 1)))
                    (set (game sto N) (size (tuples 5 (game iloc STOCK) using 'ALL)))))""", deck=many)
    started = time.process_time()
    with pytest.raises(LimitError, match=r"\(tuples 5 \.\.\.\) makes 2,349,060 sets \(at most 65,536\)"):
        new_game(g)
    assert time.process_time() - started < 2.0


def test_a_huge_range_is_a_located_error():
    with pytest.raises(LimitError, match=r"t\.gdl:2:\d+: \(range 0\.\.10000000000\) has more than"):
        new_game(game("(do ((all (range 0..10000000000) 'I (inc (game sto N) 'I))))"))


# --- the game's mistakes are the game's, ours are ours -----------------------------------------

@pytest.mark.parametrize("body, words", [
    # a variable over collections of cards used as a card (found by fuzzing: once a TypeError)
    ("(do ((any (all player 'P ('P vloc TRICK)) 'D (move 'D (top (game vloc DISCARD))))))", "expected a card"),
    ("(do ((any (all player 'P ('P vloc TRICK)) 'D (set (game str R) (cardatt RANK 'D)))))", "expected a card"),
])
def test_values_of_the_wrong_kind_from_variables_are_located_game_errors(body, words):
    g = game(body)
    with pytest.raises(RecycleRuntimeError, match=rf"^t\.gdl:2:\d+: {words}"):
        new_game(g)


def test_points_of_the_wrong_kind_are_a_located_game_error():
    g = game("""(do ((let (all player 'P ('P vloc T)) 'L (put points 'PM (((RANK : ACE) 'L))))
                    (set (game sto N) (score (top (game iloc STOCK)) using 'PM))))""")
    with pytest.raises(RecycleRuntimeError, match=r"^t\.gdl:\d+:\d+: an award's points are an integer"):
        new_game(g)


def test_a_deck_of_billions_of_cards_is_refused_before_it_is_made():
    values = "(" + ", ".join(f"V{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(600)) + ")"
    deck = f"(deck (A {values}) (B {values}) (C {values}))"  # 216 million cards
    started = time.process_time()
    with pytest.raises(LimitError, match=r"t\.gdl:1:\d+: more than 10,000 cards"):
        new_game(game("", deck=deck))
    assert time.process_time() - started < 1.0


@pytest.mark.parametrize("name, line, words", [
    ("move_to_a_pair.gdl", 23, "a card goes to the top, the bottom or a numbered place"),
    ("max_of_players.gdl", 177, "max and min compare cards"),
])
def test_found_by_the_final_fuzz_run_wrong_kinds_are_located_errors(name, line, words, capsys):
    # Both were TypeErrors inside the interpreter (a position that is a location, a max over
    # players); the fuzzer saved them. Now the game file is blamed, at its line.
    from recycle.cli.main import main

    assert main(["run", str(REPRO / name), "--games", "3", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert f"{name}:{line}:" in err and words in err and "internal error" not in err
