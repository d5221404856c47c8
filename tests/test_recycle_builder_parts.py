"""The RECYCLE reader's builder is parts, one per syntax family, held by `GameBuilder`: no part
inherits another, and a part calls another's builders only through the names it declares
(`Part.USES`), which the `GameBuilder` binds from its table."""
from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from recycle.lang.build_expr import Core, Part
from recycle.lang.build_game import GameBuilder, Structure
from recycle.lang.errors import SourceFile
from recycle.lang.reader import parse_game
from recycle.lang.tree import Range, walk

PARTS = GameBuilder.PARTS + (Structure,)


def _own_names(cls) -> set[str]:
    return {name for name, value in vars(cls).items() if callable(value) or isinstance(value, property)}


def _self_names(cls) -> set[str]:
    """Every `self.NAME` the class's methods read."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    return {a.attr for a in ast.walk(tree)
            if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self"}


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_a_part_is_one_family_on_the_core(part):
    assert part.__bases__ == (Part,)


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_a_part_calls_only_itself_the_core_and_what_it_declares(part):
    known = _own_names(part) | set(Part.CORE) | set(part.USES) | {"core", "builders"}
    assert _self_names(part) - known == set()
    assert set(part.PROVIDES) <= _own_names(part)


def test_every_builder_is_made_by_exactly_one_part():
    provided = [name for part in PARTS for name in part.PROVIDES]
    assert len(provided) == len(set(provided))
    assert {name for part in PARTS for name in part.USES} <= set(provided)


def test_the_parts_share_one_core():
    builder = GameBuilder(SourceFile("(game)", "x.gdl"))
    assert isinstance(builder.core, Core)
    assert builder.saw_range is False


def test_the_collections_part_sees_the_cores_range_rule():
    text = """(game (setup (create players 2))
      (do ((all (range 0..2) 'I (inc (game sto N) 'I)))) (scoring max 0))"""
    game = parse_game(text)
    ranges = [n for n in walk(game) if type(n) is Range]
    assert ranges and ranges[0].inclusive is True
