"""A finished game's places: 1 + how many players score strictly better (ties share the better place),
whichever way the scoring goes, for any scores (`RecycleState._score`)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.interp import new_game
from recycle.lang import parse_game

DECK = "(deck (RANK (A)))"


def finished(scores: list[int], goal: str):
    sets = " ".join(f"(set (({p} player) sto SCORE) {s if s >= 0 else f'(- 0 {-s})'})" for p, s in enumerate(scores))
    text = f"""(game (setup (create players {len(scores)}) (create deck (game iloc STOCK) {DECK}))
                 (do ({sets}))
                 (stage player (end (== (game sto DONE) 1)) (choice ((set (game sto DONE) 1))))
                 (scoring {goal} ((current player) sto SCORE)))"""
    s = new_game(parse_game(text, "t.rcy"))
    s.apply(s.legal_actions()[0])
    return s.results()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=2, max_size=5), st.sampled_from(["max", "min"]))
def test_a_place_is_one_plus_the_players_scoring_strictly_better(scores, goal):
    better = (lambda o, s: o > s) if goal == "max" else (lambda o, s: o < s)
    results = finished(scores, goal)
    assert results.ranks == tuple(1 + sum(better(o, s) for o in scores) for s in scores)
    assert results.scores == tuple(float(s) for s in scores)


def test_equal_best_scores_share_first_place():
    assert finished([2, 5, 5, 1], "max").ranks == (3, 1, 1, 4)
    assert finished([2, 5, 5, 1], "min").ranks == (2, 3, 3, 1)
