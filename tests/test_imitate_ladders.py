"""Ladders: blocks of value rules in ascending order, which say with today's `.rul` language what no single
potential names ("lead the second-lowest value"), induced from records and written as one commented block
(`personalities/induction.py`, docs/imitate.md)."""
from __future__ import annotations

import random

import pytest

from personalities.evaluator import decide
from personalities.induction import LADDERS, Features, Induced, Ladder, induce
from personalities.reader import parse_personality
from personalities.records import Situation
from personalities.syntax import Comparison, Condition, Personality
from personalities.variables import Variable
from personalities.view import ClimbingView
from president.authoring.crossval import RUNG, origins_of, rules_of
from president.game.settings import preset
from president.match.recording import record_matches

#: Leads its second-lowest value (all of it), follows as Classic would shed: a bot no shipped file imitates.
SECOND = """\
; lead the second-lowest value
4 Lead = 1 MyLowestCard < 4
5 Lead = 1 MyLowestCard < 5
6 Lead = 1 MyLowestCard < 6
7 Lead = 1 MyLowestCard < 7
8 Lead = 1 MyLowestCard < 8
9 Lead = 1 MyLowestCard < 9
T Lead = 1 MyLowestCard < T
J Lead = 1 MyLowestCard < J
Q Lead = 1 MyLowestCard < Q
K Lead = 1 MyLowestCard < K
A Lead = 1 MyLowestCard < A
L*
"""


def _leading(hand: dict[int, int]) -> ClimbingView:
    counts = tuple(hand.get(v, 0) for v in range(17))
    legal = [(v, n) for v, k in hand.items() for n in range(1, k + 1)]
    return ClimbingView(counts, None, legal, False, tuple(4 - c for c in counts), (5, 5), 10, 52)


def test_a_second_lowest_ladder_written_as_rules_plays_the_second_lowest_value():
    ladder = Ladder(above_lowest=True)
    file = parse_personality(str(Personality("ladder", ladder.rungs())))
    for hand, second in (({3: 1, 5: 2, 9: 1}, (5, 2)), ({4: 2, 13: 1, 15: 1}, (13, 1)), ({7: 3, 8: 1}, (8, 1))):
        view = _leading(hand)
        assert decide(file, view, random.Random(0))[0] == second == ladder.play(view)
    alone = _leading({6: 2, 15: 1})  # nothing above the lowest but a two: no rung applies (twos are not in it)
    assert ladder.play(alone) is None and decide(file, alone, random.Random(0))[1] is None


@pytest.fixture(scope="module")
def classic_records():
    return list(record_matches("Classic", ["Classic"], preset("classic"), 8, 4))


def test_every_ladder_plays_what_its_rules_play_at_the_table(classic_records):
    """The learner's reading of a ladder (`Ladder.play`) is the `.rul` walk of its rungs, on every recorded view:
    what it learns is what the written file does."""
    views = [r.view for r in classic_records if r.situation is not Situation.EXCHANGE]
    for ladder in LADDERS:
        file = parse_personality(str(Personality("ladder", ladder.rungs())))
        for view in views:
            play, rule, _, _ = decide(file, view, random.Random(0))
            assert (play if rule is not None else None) == ladder.play(view), (ladder, view.hand)


def test_induction_learns_the_second_lowest_lead_as_one_commented_block(tmp_path):
    path = tmp_path / "Second.rul"
    path.write_text(SECOND)
    records = list(record_matches(str(path), ["Classic"], preset("classic"), 12, 5))
    leading = [r for r in records if r.situation is Situation.LEADING]
    found = induce(Features(leading), max_rules=4, min_support=6)
    top = found[0]
    assert top.ladder is not None and top.ladder.above_lowest and len(top.rules) == 11
    assert top.correct == top.fired >= 0.6 * len(leading)  # the rest: one value (or only twos) left, L*
    learned = Personality("learned", tuple(rules_of(found)))
    right = sum(decide(learned, r.view, random.Random(0))[0] == r.play for r in leading)
    assert right >= 0.95 * len(leading)
    origins = origins_of(top, lambda i: i.words())
    assert origins[0].startswith("a ladder of 11 rules: play the second-lowest value") and set(origins[1:]) == {RUNG}


def test_a_ladder_with_a_condition_on_every_rung_plays_the_lowest_value_meeting_it():
    pairs = Ladder(above_lowest=False, each=(Condition(Variable.NUM_THIS_VALUE, Comparison.GT, 1),))
    assert pairs.play(_leading({3: 1, 6: 1, 8: 3, 9: 2})) == (8, 3)  # not Lp: a set of three is no pair
    assert all(str(r).endswith("NumThisValue > 1") for r in pairs.rungs())
    lead = Condition(Variable.LEAD, Comparison.EQ, 1)
    block = Induced(pairs.rungs((lead,)), 9, 7, pairs)  # the comment above the block says what it plays, and when
    assert block.words() == "a ladder of 12 rules: play the lowest value with NumThisValue > 1, when Lead = 1"


def test_rules_placed_before_the_closing_pass_decide_only_where_the_start_would_pass(classic_records):
    """`Placement.BEFORE_PASS`: the induced rules go between the start's rules and its closing `P`, learned
    from the decisions that reach it; everywhere else the file plays as the start does."""
    from personalities.catalog import shipped
    from personalities.matching import bits
    from personalities.mutation import Candidate
    from president.authoring.crossval import Placement, closing, induce_placed, placed, reached

    start = Candidate.of(shipped("Cautious"), "Cautious")
    k = closing(start)
    assert str(start.personality.rules[k]) == "P" and k == len(start.personality.rules) - 1
    features = Features(classic_records)
    found = induce_placed(features, Placement.BEFORE_PASS, start, 0, max_rules=6, min_support=3)
    assert found  # Classic plays where Cautious passes: there is something to learn there
    file = placed(start, found, Placement.BEFORE_PASS).personality
    assert file.rules[:k] == start.personality.rules[:k] and file.rules[-1] == start.personality.rules[-1]
    reach = reached(features.records, start, 0)
    same = bits([decide(file, r.view, random.Random(0))[0] == decide(start.personality, r.view, random.Random(0))[0]
                 for r in features.records])
    assert same | reach == features.all and reach != features.all
