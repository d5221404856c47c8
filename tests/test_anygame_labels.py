"""Options in the game's words (`recycle.labels`) and what a game file says about itself
(`recycle.about`), over the shipped games, a small game written here, and the corpus when present."""
from __future__ import annotations

import random
from importlib import resources

import pytest
from conftest import SHARED

from recycle.about import about_game, description_lines
from recycle.games import game_path
from recycle.interp import new_game
from recycle.labels import Labeller, counter_word, human_sized
from recycle.lang import load_game

SHIPPED = sorted(e.name[:-4] for e in resources.files("recycle.games").iterdir() if e.name.endswith(".gdl"))
CORPUS = SHARED / "recycle-corpus"
CORPUS_FILES = sorted(p for p in CORPUS.glob("*/*") if p.suffix in (".rcy", ".gdl")) if CORPUS.is_dir() else []

DRAW = """;; Draw or pass
;;
;; climbing: hand=HAND
;; Take the top card of STOCK, give a card to the next player, or pass.

(game
 (setup
  (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (TWO, THREE, FOUR, FIVE, SIX, SEVEN))
                                       (COLOR (RED (SUIT (HEARTS, DIAMONDS)))))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player
        (end (>= (game sto TURNS) 6))
        (choice (
                 (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
                 (any ((current player) iloc HAND) 'C (move 'C (top ((next player) iloc HAND))))
                 (inc (game sto PASSES) 1)))
        (do ((inc (game sto TURNS) 1))))
 (scoring min (size ((current player) iloc HAND))))
"""


def labels_now(state, viewer=None):
    p = state.current_player()
    labeller = Labeller(state.table)
    return labeller.choice([state.effects[o.index] for o in state.legal_actions()], p, p if viewer is None else viewer)


def walk(state, rng, choices=400):
    """Each pending choice of a random game, up to `choices`."""
    for _ in range(choices):
        if state.is_terminal():
            return
        yield state
        state.apply(rng.choice(state.legal_actions()))


def test_a_draw_a_gift_and_a_pass_read_as_such(tmp_path):
    path = tmp_path / "Draw2.gdl"
    path.write_text(DRAW)
    state = new_game(load_game(path), 1)
    hand = [state.table.text[c] for c in state.st.locs[("p", 0, "iloc", "HAND")]]
    assert labels_now(state) == ["take the top card of STOCK", *(f"give {c} to p1" for c in hand), "pass"]
    # What p1 sees p0 do: the gift arrives in p1's hand (named), the draw stays unnamed.
    labeller = Labeller(state.table)
    seen = [labeller.label(state.effects[o.index], 0, 1, done=True) for o in state.legal_actions()]
    assert seen[0] == "take the top card of STOCK" and seen[1] == f"give {hand[0]} to p1"
    about = about_game(load_game(path))
    assert about.title == "Draw or pass" and "climbing:" not in about.text and "Take the top card" in about.text
    assert about.scoring == "score: the game's scoring rule for each player; the lowest wins"
    assert about.followed == {"PASSES"}


def test_poker_bets_are_chip_changes_and_a_check_is_a_pass():
    state = new_game(game_path("Poker5"), 3)
    assert labels_now(state) == ["pass", "CHIPS -1, BET +1, POT +1", "CHIPS -2, BET +2, POT +2",
                                 "CHIPS -3, BET +3, POT +3"]
    about = about_game(load_game(game_path("Poker5")))
    assert about.title == "Poker (five-card draw)" and about.scoring == "score: your CHIPS; the highest wins"
    assert about.followed == {"CHIPS", "BET", "POT"}  # not POINTS, TIE, CAT: the hand's arithmetic


def test_daifugo_plays_name_their_cards_and_its_pass_is_named_by_its_counter():
    state, rng = new_game(game_path("Daifugo4"), 1), random.Random(2)
    seen_pass = seen_clear = False
    for s in walk(state, rng, 120):
        labels = labels_now(s)
        texts = [o.text for o in s.legal_actions()]
        for label, text in zip(labels, texts):
            if text.startswith("set game sto PASSES"):
                assert label == "pass"
                seen_pass = True
            elif "from game TABLE to game DISCARD" in text:  # the trick cleared before each play
                assert label.startswith("play ") and "TABLE" not in label
                seen_clear = True
            else:
                assert label.startswith("play ") and "sto" not in label
    assert seen_pass and seen_clear


@pytest.mark.parametrize("name", SHIPPED)
def test_labels_are_distinct_and_alike_in_every_world_the_chooser_cannot_tell_apart(name):
    """One label per option; the chooser's labels (as a set) are those of a determinization for it;
    what another seat is told of a choice never names a card it cannot see."""
    state, rng = new_game(game_path(name), 4), random.Random(4)
    for s in walk(state, rng, 150):
        p = s.current_player()
        labels = labels_now(s)
        assert len(set(labels)) == len(labels)
        assert sorted(labels) == sorted(labels_now(s.determinize(p, random.Random(len(labels)))))
        labeller, table = Labeller(s.table), s.table
        hidden = {table.text[c] for k, cards in s.st.locs.items() for c in cards
                  if not table.visible(k, (p + 1) % s.num_players)}
        for o in s.legal_actions():
            told = labeller.label(s.effects[o.index], p, (p + 1) % s.num_players)
            assert not any(card in told for card in hidden), told


def test_tides_picks_are_named_for_the_picker_only():
    state = new_game(game_path("TidesOfTime2"), 2)
    mine = labels_now(state)
    assert all(label.startswith("put ") and label.endswith(" in PICK") for label in mine)
    assert set(labels_now(state, viewer=1)) == {"put a card in PICK"}


def test_words_for_numbers_and_counters():
    assert counter_word("PASSES") == "pass" and counter_word("KNOCKS") == "knock" and counter_word("BID") == "bid"
    assert human_sized(18) and human_sized("HEARTS") and not human_sized(3541774862152251752448)
    assert description_lines(";; A\n;;\n;; climbing: hand=HAND\n;; B\n(game)\n;; not this") == ["A", "", "B"]


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_corpus_labels_are_distinct(shared_dir, path):
    try:
        state = new_game(load_game(path), 1)
    except Exception as exc:  # a file the reader or the setup refuses: other tests cover those
        pytest.skip(f"does not start: {type(exc).__name__}")
    rng = random.Random(1)
    try:
        for s in walk(state, rng, 25):
            labels = labels_now(s)
            assert len(set(labels)) == len(labels), labels
            assert all(label and "sto " not in label for label in labels)
    except Exception as exc:
        if type(exc).__name__ in ("RecycleRuntimeError", "LimitError"):
            return  # the game fails while playing (its own located error): not the labeller's
        raise
