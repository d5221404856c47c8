"""The compiled walk (personalities/compiled.py): nothing from a file becomes code, and it decides as
the traced walk does (tests/test_rul_engine.py checks decisions and draws on random personalities)."""
from __future__ import annotations

import io
import random
import re
import tokenize

from hypothesis import given, settings
from hypothesis import strategies as st

from personalities.catalog import shipped, shipped_names
from personalities.compiled import _source, compiled
from personalities.evaluator import decide
from personalities.reader import parse_personality
from personalities.view import ClimbingView

#: Every name the generated source may hold: its own locals, Python's words, the constants passed in.
OWN_NAMES = {"def", "walk", "view", "rng", "hand", "legal", "play", "if", "is", "not", "None", "and", "else",
             "in", "return", "randint", "can_pass", "_resolve", "_no_rule", "_none", "_no_note"}
GENERATED_NAME = re.compile(r"[rf]\d+|_k\d+")

POTENTIALS = ["2", "3", "7", "T", "10", "Q", "A", "L", "Lp", "Lt", "Lq", "L*", "H", "Hp", "Ht", "Hq", "H*", "P"]
# every variable, every comparison, targets up to the largest a condition may hold
CONDITIONS = st.builds("{} {} {}".format,
                       st.sampled_from(["Lead", "Rank", "NumDiffVals", "TwosLeft", "CardVal", "Random", "%Played",
                                        "HighestOppCards", "S", "FollowOdds", "O", "HigherPlayers", "PlayersLeft",
                                        "TotMyCards", "TotMyTwos", "HandValue", "MatchesUpCard", "MyLowestCard",
                                        "E"]),
                       st.sampled_from([">", "<", "=", "!", ">=", "<=", "==", "!="]),
                       st.one_of(st.integers(0, 20), st.just(999_999_999), st.sampled_from(["Q", "T", "A"])))


@st.composite
def rule_files(draw) -> str:
    lines = ["; drawn"]
    for _ in range(draw(st.integers(1, 9))):
        lines.append("  ".join([draw(st.sampled_from(POTENTIALS)), *draw(st.lists(CONDITIONS, max_size=4))]))
    return "\n".join(lines) + "\n"


def check_source(source: str) -> None:
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            assert token.string in OWN_NAMES or GENERATED_NAME.fullmatch(token.string), token.string
        elif token.type == tokenize.NUMBER:
            assert re.fullmatch(r"0|[1-9]\d{0,8}", token.string), token.string
        else:
            assert token.type not in (tokenize.STRING, tokenize.ERRORTOKEN), token.string


def test_the_shipped_personalities_compile_to_their_own_names_and_integers_only():
    for name in shipped_names():
        program = compiled(shipped(name))
        for need in range(0, 9):
            check_source(_source(program, need)[0])


@settings(deadline=None, max_examples=150)
@given(rule_files(), st.integers(0, 8))
def test_any_personality_compiles_to_its_own_names_and_integers_only(text, need):
    try:
        personality = parse_personality(text)
    except ValueError:  # a drawn rule the reader refuses (e.g. CardVal = 2): nothing to compile
        return
    check_source(_source(compiled(personality), need)[0])


def test_each_situation_is_compiled_once_and_a_changed_personality_is_compiled_again():
    from personalities import compiled as module

    personality = parse_personality("Lp Lead = 1\nL*\n")
    view = ClimbingView(tuple(2 if v in (4, 9) else 0 for v in range(17)), None, {(4, 2): 1, (4, 1): 1, (9, 2): 1},
                        False, (0,) * 17, (5,), 10, 52)
    assert decide(personality, view, random.Random(0))[0] == (4, 2)
    walk = compiled(personality).walks[0]
    decide(personality, view, random.Random(0))
    assert compiled(personality).walks[0] is walk and set(compiled(personality).walks) == {0}
    # an edited personality at the address of the old one (as after the editor's reload) is not
    # played by the old one's walk
    edited = parse_personality("H*\n")
    module._COMPILED[id(edited)] = compiled(personality)
    assert decide(edited, view, random.Random(0))[0] == (9, 2)
