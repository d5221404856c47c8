"""The fast engine's compiler is three parts held by `Compiler` (expressions, statements,
playout shortcuts), not one class of eleven: a part reaches the meaning only through `USES`
and the other parts only through the names it `NEEDS`, bound from what they `PROVIDE`."""
from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from recycle.interp import compiler as C
from recycle.interp.engine import Engine
from recycle.interp.setup import new_game
from recycle.games import game_path

PARTS = (C.ExpressionCompiler, C.StatementCompiler, C.PlayoutShortcuts)


def _classes(part) -> list[type]:
    return [cls for cls in part.__mro__ if cls is not object]


def _own_names(part) -> set[str]:
    names = set()
    for cls in _classes(part):
        names |= set(vars(cls))
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        names |= {a.attr for a in ast.walk(tree) if isinstance(a, ast.Attribute) and isinstance(a.ctx, ast.Store)
                  and isinstance(a.value, ast.Name) and a.value.id == "self"}
    return names


def _self_names(part) -> set[str]:
    names = set()
    for cls in _classes(part):
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        names |= {a.attr for a in ast.walk(tree)
                  if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self"}
    return names


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_a_part_uses_only_itself_the_meaning_and_what_it_needs(part):
    assert _self_names(part) - _own_names(part) - set(C.USES) - set(part.NEEDS) - {"ex"} == set()
    assert set(part.PROVIDES) <= set(dir(part))


def test_what_a_part_needs_another_provides_and_no_class_has_three_bases():
    provided = [name for part in PARTS for name in part.PROVIDES]
    assert len(provided) == len(set(provided))
    assert {name for part in PARTS for name in part.NEEDS} <= set(provided)
    assert all(len(cls.__bases__) <= 2 for part in PARTS for cls in _classes(part))
    assert C.Compiler.__bases__ == (object,)


def test_the_executor_asks_the_parts_it_is_given():
    state = new_game(game_path("President5"), seed=1, engine=Engine.COMPILED)
    compiler = state.rules.ex.compiler
    for part, names in C.ASKED.items():
        for name in names:
            assert getattr(compiler, name) == getattr(getattr(compiler, part), name)
    assert compiler.expressions.value == compiler.statements.value  # bound across parts, once
