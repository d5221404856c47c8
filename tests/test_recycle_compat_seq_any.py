"""`--compat cardstock`: several `any` in one option are enumerated as the reference engine does."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.interp import new_game
from recycle.lang.reader import parse_game

RANKS = ("ACE", "TWO", "THREE", "FOUR", "FIVE")


def discard_game(cards: int, picks: int) -> str:
    """`cards` in hand; one choice: discard `picks` of them one after the other (one `any` each), as
    ../shared/repro/compat_seq_any2.gdl (3, 2) and compat_seq_any3.gdl (4, 3)."""
    anys = "\n".join(f"(any ((current player) iloc HAND) 'C{'C' * i} (move 'C{'C' * i} (top (game vloc DISCARD))))"
                     for i in range(picks))
    return f"""(game
 (setup (create players 1)
  (create deck (game iloc STOCK) (deck (RANK ({', '.join(RANKS[:cards])})))))
 (do ((repeat {cards} (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (stage player
  (end (== ((current player) sto DONE) 1))
  (choice ((do ({anys} (set ((current player) sto DONE) 1))))))
 (scoring max (size ((current player) iloc HAND))))"""


def options(cards: int, picks: int, compat: str | None, seed: int = 0) -> list:
    game = parse_game(discard_game(cards, picks), f"discard{cards}{picks}.gdl")
    return new_game(game, seed, **({"compat": compat} if compat else {})).legal_actions()


@pytest.mark.parametrize(("cards", "picks", "ours", "reference"), [(3, 2, 6, 8), (4, 3, 24, 44)])
def test_sequential_anys_give_the_reference_engines_options(cards, picks, ours, reference):
    assert len(options(cards, picks, None)) == ours  # the default: ordered selections, unchanged
    assert len(options(cards, picks, "cardstock")) == reference


def test_the_repro_files_give_8_and_44_options(shared_dir):
    for name, ours, reference in (("compat_seq_any2.gdl", 6, 8), ("compat_seq_any3.gdl", 24, 44)):
        path = shared_dir / "repro" / name
        if not path.exists():
            pytest.skip("../shared/repro is not beside the checkout")
        assert len(new_game(str(path), 0, compat="cardstock").legal_actions()) == reference
        assert len(new_game(str(path), 0).legal_actions()) == ours


def test_reference_options_run_out_of_order_and_name_moved_cards():
    texts = [str(a) for a in options(3, 2, "cardstock")]
    assert texts[0].startswith("move") and texts[-1].startswith("set")  # the set-aside work runs reversed
    assert any("from game DISCARD to game DISCARD" in t for t in texts)  # a card already discarded, moved again


@settings(max_examples=25, deadline=None)
@given(cards=st.integers(1, 5), picks=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_every_reference_option_plays_to_the_end(cards, picks, seed):
    picks = min(picks, cards)
    compat = options(cards, picks, "cardstock", seed)
    if picks == 1:  # one `any`: the options are ours
        assert [str(a) for a in compat] == [str(a) for a in options(cards, picks, None, seed)]
    rng = random.Random(seed)
    game = parse_game(discard_game(cards, picks), "discard.gdl")
    s = new_game(game, seed, compat="cardstock")
    s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    assert s.is_terminal()
    assert sum(len(c) for k, c in s.st.locs.items() if k[2] != "mem") == cards  # no card made or lost
