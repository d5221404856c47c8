"""Issue 33 part 3: a choice's options never depend on what the chooser cannot see.

From `../shared/repro/hidden_filter_options.gdl` (+ `.py`): a choice filtering a `hloc` hand
named the places of its non-spades, and a determinization with the same observation offered
other options. Now a face-reading choice names a hidden card by its rank among the hidden cards
its options move, and an option's words end at its first hidden card; the options are part of
the chooser's observation, and its determinizations offer the very same ones
(docs/recycle-language.md, "Options and hidden cards").
"""
from __future__ import annotations

import random

import pytest
from conftest import SHARED, corpus_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recycle.games import game_path, shipped_games
from recycle.interp import new_game
from recycle.lang import load_game, parse_game

REPRO = SHARED / "repro" / "hidden_filter_options.gdl"

#: A face-down hand of 4 from 8 cards; the chooser plays any of its red cards, or passes.
RED_BLIND = """
(game
 (setup (create players 1) (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FOUR))
                                                               (COLOR (RED (SUIT (HEARTS))) (BLACK (SUIT (SPADES)))))))
 (do ((shuffle (game iloc STOCK)) (repeat 4 (move (top (game iloc STOCK)) (top ((current player) hloc HAND))))))
 (stage player (end (== (game sto DONE) 1))
  (choice ((do ((any (filter ((current player) hloc HAND) 'D (== (cardatt COLOR 'D) RED)) 'C (move 'C (top (game vloc PILE))))))
           (turn pass)))
  (do ((set (game sto DONE) 1))))
 (scoring max (size (game vloc PILE))))
"""


def texts(state) -> list[str]:
    return [o.text for o in state.legal_actions()]


def red_blind(seed: int):
    state = new_game(parse_game(RED_BLIND, "red_blind.gdl"), seed)
    hand = state.st.locs[("p", 0, "hloc", "HAND")]
    reds = [c for c in reversed(hand) if "RED" in state.table.text[c]]  # from the top
    return state, reds


# ---- the repro: a world drawn for the chooser offers it its own options ---------------------------
@pytest.mark.parametrize("seed", range(20))
def test_a_determinization_offers_the_chooser_its_own_options(shared_dir, seed):
    state = new_game(REPRO, seed, check=True)
    p = state.current_player()
    world = state.determinize(p, random.Random(seed))
    assert texts(world) == texts(state)
    assert world.observation(p) == state.observation(p)


def test_the_repros_options_tell_how_many_non_spades_only(shared_dir):
    """Rule 1 plays any non-spade of the unseen hand, rule 2 its top card: the words depend on how
    many non-spades there are, not where they lie nor whether the top card is one (a card both
    rules may take is two options, one per rule)."""
    by_count: dict[int, set] = {}
    for seed in range(40):
        state = new_game(REPRO, seed)
        hand = state.st.locs[("p", state.current_player(), "hloc", "HAND")]
        count = sum("SPADES" not in state.table.text[c] for c in hand)
        by_count.setdefault(count, set()).add(tuple(texts(state)))
    assert len(by_count) > 1 and all(len(words) == 1 for words in by_count.values()), by_count
    for count, (words,) in by_count.items():
        top = "move hidden card 1 of p0 HAND to game PILE" + (" (rule 2)" if count else "")  # said when two rules could
        assert len(words) == count + 1 and words[-1] == top


def records(state, options) -> list:
    """Options as what their effects record (effects are plain tuples or objects, by engine)."""
    from recycle.interp.undo import effect

    return [[effect(e).record(state.table) for e in entries] for entries in options]


@pytest.mark.parametrize("name", ["Hearts4", "Daifugo4"])
def test_a_choice_explored_rule_by_rule_offers_the_same_options(name):
    """`options_by_rule` (a face-reading choice, each option's rule kept) = the choice explored at once."""
    from recycle.interp.canonical import options_by_rule

    state, rng, checked = new_game(game_path(name), 1), random.Random(1), 0
    while not state.is_terminal() and checked < 30:
        node, env = state.pending
        if state.rules.faces(node):
            ex = state.rules.ex
            by_rule = options_by_rule(ex, node, env, state.st)
            assert records(state, by_rule) == records(state, ex.options(node, env, state.st))
            assert len(by_rule.rules) == len(by_rule)
            checked += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert checked


def test_the_options_are_part_of_the_choosers_observation(shared_dir):
    state = new_game(REPRO, 4)
    p = state.current_player()
    assert state.observation(p)._key()[-1] == tuple(texts(state))
    assert state.observation(1 - p)._key()[-1] == ()  # only the chooser is told


def test_the_reference_mode_keeps_its_words_and_does_not_redeal(shared_dir):
    """--compat cardstock: hidden cards named by place, worlds not matched to the options (as CardStock)."""
    differ = 0
    for seed in range(40):
        state = new_game(REPRO, seed, compat="cardstock")
        assert not any("hidden card" in t for t in texts(state))
        world = state.determinize(state.current_player(), random.Random(seed))
        differ += texts(world) != texts(state)
    assert differ > 0


# ---- canonical words --------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_deals_with_as_many_qualifying_hidden_cards_read_alike(a, b):
    """Which of the hidden cards pass the filter, and where they lie, is not in the words: only how many."""
    (one, reds_a), (two, reds_b) = red_blind(a), red_blind(b)
    if len(reds_a) == len(reds_b):
        assert texts(one) == texts(two)
    # offered in the hand's order (from the bottom), each named by its rank from the top
    assert texts(one) == [f"move hidden card {k} of p0 HAND to game PILE" for k in range(len(reds_a), 0, -1)] + ["pass"]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.data())
def test_hidden_card_k_is_the_kth_qualifying_card_from_the_top(seed, data):
    """The option named `hidden card k` moves the real card the game's own option moves: the k-th
    qualifying card from the top, by text as by index."""
    state, reds = red_blind(seed)
    if not reds:
        return
    k = data.draw(st.integers(1, len(reds)))
    name = f"move hidden card {k} of p0 HAND to game PILE"
    index = texts(state).index(name)
    assert [e.card for e in state.effects[index]] == [reds[k - 1]]  # the game's own option at that index
    state.apply(name)
    assert state.st.locs[("g", 0, "vloc", "PILE")] == [reds[k - 1]]


def test_words_end_at_the_draw_blackjack_hit_does_not_tell_the_bust():
    """Blackjack2's hit passes the turn on only when the drawn card does not bust; it said so."""
    from recycle.interp.effects import CycleSet

    game = load_game(corpus_file("gdl/Blackjack2.gdl"))
    hits, passes_on = set(), set()
    for seed in range(20):
        state, rng = new_game(game, seed), random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if "STOCK" in legal[0].text:
                hits.add(legal[0].text)
                passes_on.add(any(type(e) is CycleSet for e in state.effects[0]))
            state.apply(legal[rng.randrange(len(legal))])
    assert passes_on == {True, False}, "some hits bust, some do not"
    assert hits == {"move hidden card 1 of game STOCK to p0 HAND", "move hidden card 1 of game STOCK to p1 HAND"}


def test_options_reading_alike_that_differ_after_the_draw_are_numbered():
    """A draw, then a bet of 1 or 2: both options kept, numbered (the choice reads faces in its condition)."""
    game = parse_game("""
(game (setup (create players 1) (create deck (game iloc STOCK) (deck (RANK (A, TWO)))))
 (do ((shuffle (game iloc STOCK))))
 (stage player (end (== (game sto DONE) 1))
  (choice (((>= (size (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) A))) 0)
            (do ((move (top (game iloc STOCK)) (top (game iloc PILE)))
                 (any (range 1..2) 'B (set (game sto BET) 'B)))))))
  (do ((set (game sto DONE) 1))))
 (scoring max (size (filter (game iloc PILE) 'C (== (cardatt RANK 'C) A)))))""", "ways.gdl")
    state = new_game(game, 0)
    assert texts(state) == ["move hidden card 1 of game STOCK to game PILE (way 1)",
                            "move hidden card 1 of game STOCK to game PILE (way 2)"]
    state.apply(texts(state)[1])
    assert state.st.ints[("g", 0, "BET")] == 2


# ---- every game: the chooser's worlds offer its options ----------------------------------------------
def worlds_offer_the_real_options(state, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    if state.is_terminal():
        return
    p = state.current_player()
    for n in range(2):
        world = state.determinize(p, random.Random(f"{seed}/{n}"))
        assert texts(world) == texts(state), f"after {moves} moves from seed {seed}"
        assert world.observation(p) == state.observation(p)


SHIPPED = [g.name for g in shipped_games()]
#: Corpus games with face-reading choices that move cards the chooser cannot see.
CORPUS_FACES = ["gdl/Blackjack2.gdl", "rcy/Cuckoo6.rcy", "rcy/ContinuousPairs4.rcy", "gdl/DuckSoup2.gdl",
                "rcy/PageOne3.rcy", "rcy/CrazyEights4.rcy"]


@pytest.mark.parametrize("name", SHIPPED)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120))
def test_shipped_games_offer_the_chooser_the_same_options_in_its_worlds(name, seed, moves):
    worlds_offer_the_real_options(new_game(game_path(name), seed), seed, moves)


@pytest.mark.parametrize("name", CORPUS_FACES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120))
def test_corpus_games_offer_the_chooser_the_same_options_in_its_worlds(shared_dir, name, seed, moves):
    worlds_offer_the_real_options(new_game(load_game(corpus_file(name)), seed), seed, moves)


def corpus_names() -> list[str]:
    from test_leaks_audit import corpus_files

    return corpus_files()


@pytest.mark.slow
@pytest.mark.parametrize("name", corpus_names() or ["<corpus missing>"])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 200))
def test_the_whole_corpus_offers_the_chooser_the_same_options_in_its_worlds(shared_dir, name, seed, moves):
    worlds_offer_the_real_options(new_game(load_game(corpus_file(name)), seed), seed, moves)


def test_a_choice_reading_no_face_keeps_its_first_deal():
    """Games without face-reading choices determinize exactly as before: one deal, same draws."""
    from recycle.interp.knowledge import redeal

    state = new_game(game_path("Poker5"), 3)
    p = state.current_player()
    assert not state.rules.faces(state.pending[0])
    rng_a, rng_b = random.Random(9), random.Random(9)
    world = state.determinize(p, rng_a)
    twin = state.clone()
    redeal(state.table, twin.st, p, state.hidden_cards(p), rng_b)
    assert world.st.locs == twin.st.locs and rng_a.random() == (rng_b.getrandbits(64), rng_b.random())[1]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_the_tables_labels_name_hidden_cards_by_rank_too(a, b):
    """`recycle play`'s labels (the person's view of the same options) follow the same rule."""
    from recycle.labels import Labeller

    def labels(state):
        options = [state.effects[o.index] for o in state.legal_actions()]
        return Labeller(state.table).choice(options, 0, 0, state.hidden_ranks())

    (one, reds_a), (two, reds_b) = red_blind(a), red_blind(b)
    assert labels(one) == [f"play hidden card {k} of HAND" for k in range(len(reds_a), 0, -1)] + ["pass"]
    if len(reds_a) == len(reds_b):
        assert labels(one) == labels(two)
