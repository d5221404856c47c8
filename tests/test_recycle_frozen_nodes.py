"""The syntax tree's node classes (`recycle.lang.frozen.node`) behave as the frozen, slotted
dataclasses they stand for: each is compared with its twin made by `dataclass(frozen=True,
slots=True)` from the same fields — constructor signature, repr, equality, hash, frozenness,
pickling and `dataclasses.replace`."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from recycle.lang import tree as T

NODES = sorted((c for c in vars(T).values() if isinstance(c, type) and issubclass(c, T.Node)),
               key=lambda c: c.__name__)


def twin(cls: type) -> type:
    """`cls` as `dataclass(frozen=True, slots=True)` makes it from the same fields."""
    spec = []
    for f in dataclasses.fields(cls):
        options = {"compare": f.compare, "repr": f.repr, "kw_only": f.kw_only}
        if f.default is not dataclasses.MISSING:
            options["default"] = f.default
        spec.append((f.name, object, dataclasses.field(**options)))
    return dataclasses.make_dataclass(cls.__name__, spec, frozen=True, slots=True)


def values(cls: type, salt: str) -> dict:
    """A value for each positional field (names: hashable, told apart by `salt`)."""
    return {f.name: f"{salt}{i}" for i, f in enumerate(dataclasses.fields(cls)) if not f.kw_only}


def parameters(cls: type) -> list[tuple]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(cls.__init__).parameters.values()]


def test_every_node_class_is_checked():
    assert len(NODES) > 90 and T.Var in NODES and T.Game in NODES
    T.Var("x")
    assert inspect.signature(T.Var.__init__).return_annotation in (None, "None")


@pytest.mark.parametrize("cls", NODES, ids=lambda c: c.__name__)
def test_a_node_class_is_its_frozen_dataclass_twin(cls):
    other = twin(cls)
    made, expected = cls(**values(cls, "a"), line=3, column=4), other(**values(cls, "a"), line=3, column=4)
    assert parameters(cls) == parameters(other)
    assert repr(made) == repr(expected)
    assert hash(made) == hash(expected)
    assert made == cls(**values(cls, "a"))  # positions are not compared
    assert made.__match_args__ == expected.__match_args__ and not hasattr(made, "__dict__")  # slots
    if values(cls, "a"):
        assert made != cls(**values(cls, "b"))
        name = next(iter(values(cls, "a")))
        assert dataclasses.replace(made, **{name: "z"}) == cls(**{**values(cls, "a"), name: "z"})
    for f in dataclasses.fields(cls):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, f.name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(made, f.name)
    for back in (pickle.loads(pickle.dumps(made)), copy.deepcopy(made)):
        assert back == made and (back.line, back.column) == (3, 4)


def test_a_node_is_not_equal_to_a_node_of_another_class_with_the_same_fields():
    assert T.IntLit(3) != T.Name(3) and T.IntLit(3) == T.IntLit(3, line=9)
    assert len({T.IntLit(3), T.IntLit(3, line=2), T.Name(3)}) == 2
