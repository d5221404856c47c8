"""A determinization keeps the position's options where no re-deal can change them (`recycle.interp.sight`):
the world it gives, its options, their effects and every draw are those of finding the options again."""
from __future__ import annotations

import random
from unittest.mock import patch

import pytest
from hypothesis import given, settings, strategies as st
from recycle_engines import new_compiled_game

from recycle.games import game_path
from recycle.kernel.protocol import GameError
from recycle.interp import game as game_module
from recycle.interp.sight import blind_to_redeal
from recycle.lang import load_game, parse_game

#: A hand game: the chooser plays a card of its own hand to a pile all see, and OTHER.
GAME = """(game (setup (create players 3)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX)) (SUIT (RED, BLACK)))))
  (do ((shuffle (game iloc STOCK)) (repeat 3 (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player (end (== (size ((current player) iloc HAND)) 0))
    (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))) OTHER)))
  (scoring max ((current player) sto M)))"""
#: What else the choice offers, and whether that keeps the options of every re-deal for the chooser.
OTHERS = {
    "": True,
    "((> (size (game iloc STOCK)) 0) (inc (game sto M) 1))": True,  # a hidden place's size: kept by a re-deal
    "((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))": False,
    "((> (size ((next player) iloc HAND)) 0) (move (top ((next player) iloc HAND)) (top (game vloc PILE))))": False,
    "((> (size (game iloc STOCK)) 0) (set (game sto M) (random 3)))": False,  # a draw while options are found
    "((> (size (game iloc STOCK)) 0) (shuffle (game vloc PILE)))": False,
    "((== 1 2) (move (top ((7 player) vloc HAND)) (top (game vloc PILE))))": False,  # an owner never evaluated
    # the size of a place named by a hidden card (the top of STOCK's suit): another world, another place
    "((> (size (game vloc (cardatt SUIT (top (game iloc STOCK))))) 0) (inc (game sto M) 1))": False,
}


def effects(state) -> list:
    return [[(type(e).__name__,) + tuple(getattr(e, k) for k in type(e).__slots__) for e in option]
            for option in state.effects]


def found_again(root, player: int, rng: random.Random):
    """A determinization that finds the options again whatever the choice reads."""
    with patch.object(game_module, "blind_to_redeal", lambda state, player: False):
        return root.determinize(player, rng)


def same_world(root, player: int, k: int) -> None:
    """A world that keeps the options (`determinize`, a `determinizer`'s) is the one finding them
    again makes with the same generator, draw for draw."""
    ra, rb, rc = random.Random(k), random.Random(k), random.Random(k)
    a, b, c = found_again(root, player, ra), root.determinizer(player)(rb), root.determinize(player, rc)
    assert c.st.locs == b.st.locs and c.option_texts() == b.option_texts()
    assert ra.random() == rb.random() == rc.random()  # as many draws from the caller's generator
    assert a.option_texts() == b.option_texts() and effects(a) == effects(b)
    assert (a.st.locs, a.st.known, a.st.ints, a.st.where) == (b.st.locs, b.st.known, b.st.ints, b.st.where)
    assert a.st.rng.below(1 << 30) == b.st.rng.below(1 << 30)  # the game's own generator reseeded alike
    if not a.is_terminal():
        legal = a.legal_actions()
        a.apply(legal[k % len(legal)])
        b.apply(b.legal_actions()[k % len(legal)])
        assert a.option_texts() == b.option_texts() and a.st.locs == b.st.locs


def positions(game, seed: int, moves: int, compat: str | None = None):
    """The positions of one random game, the first `moves` of them."""
    state, rng = new_compiled_game(game, seed, compat=compat), random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("other, kept", OTHERS.items())
def test_the_choosers_options_are_kept_only_where_nothing_hidden_is_read(other, kept):
    game = parse_game(GAME.replace("OTHER", other), "sight.gdl")
    state = new_compiled_game(game, 3)
    mover = state.current_player()
    assert blind_to_redeal(state, mover) is kept
    assert not blind_to_redeal(state, (mover + 1) % 3)  # it reads the mover's hand, hidden from the others


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(OTHERS)), st.integers(0, 50), st.integers(1, 12), st.integers(0, 3),
       st.sampled_from([None, "cardstock"]))
def test_a_kept_world_is_the_world_found_again(other, seed, moves, k, compat):
    game = parse_game(GAME.replace("OTHER", other), "sight.gdl")
    for state in positions(game, seed, moves, compat):
        for player in range(3):
            same_world(state, player, k)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 1000), st.integers(0, 3))
def test_big_two_worlds_are_kept_for_the_mover_and_found_again_for_the_others(seed, k):
    game = load_game(game_path("BigTwo4"))
    for state in positions(game, seed, 30):
        mover = state.current_player()
        assert blind_to_redeal(state, mover) and not blind_to_redeal(state, (mover + 1) % 4)
        for player in (mover, (mover + 1) % 4):
            same_world(state, player, k)


def test_a_determinizer_of_a_position_played_on_since_deals_from_where_it_is_now():
    state = new_compiled_game(load_game(game_path("BigTwo4")), 5)
    mover = state.current_player()
    deal = state.determinizer(mover)
    state.apply(state.legal_actions()[0])
    got, expected = deal(random.Random(1)), found_again(state, mover, random.Random(1))
    assert got.st.locs == expected.st.locs and got.option_texts() == expected.option_texts()


def test_an_observations_samples_prove_the_position_once_and_are_the_determinizations():
    state = new_compiled_game(load_game(game_path("BigTwo4")), 9)
    mover = state.current_player()
    proofs = []

    def counted(s, player):
        proofs.append(player)
        return blind_to_redeal(s, player)

    for player in (mover, (mover + 1) % 4):  # options kept for the mover, found again for another
        obs = state.observation(player)
        with patch.object(game_module, "blind_to_redeal", counted):
            samples = [obs.sample_state(random.Random(k)) for k in range(4)]
        assert proofs.count(player) == 1
        for k, got in enumerate(samples):
            expected = state.determinize(player, random.Random(k))
            assert got.st.locs == expected.st.locs and got.option_texts() == expected.option_texts()
            assert effects(got) == effects(expected)


def test_a_sample_of_a_position_played_on_since_is_refused():
    state = new_compiled_game(load_game(game_path("BigTwo4")), 5)
    obs = state.observation(state.current_player())
    obs.sample_state(random.Random(1))  # (the proof worked out for this position)
    state.apply(state.legal_actions()[0])
    with pytest.raises(GameError, match="stale"):
        obs.sample_state(random.Random(2))
