"""`@node`: the syntax tree's frozen dataclasses, made cheaply (a start-up speed layer).

Every command that reads a game imports the ~100 node classes of `expr`, `coll` and `tree`.
`dataclass(frozen=True, slots=True)` writes and compiles six methods for each of them
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`), about a third
of `recycle run`'s start-up. Here the class is a dataclass all the same (`fields`, `replace`,
`__match_args__`, slots), but:

- `__eq__`, `__hash__`, `__repr__`, `__setattr__`, `__delattr__` and the pickling pair are
  written once, on `Frozen`, and read the fields each class lists (`_compared`, `_shown`);
- `__init__` is compiled the first time a class is instantiated (a game uses a few dozen of
  the classes), with the signature and body `dataclass` would write.

What a user sees is the same: equality and hashes of the same tuples of fields, the same
repr, `FrozenInstanceError` on assignment, the same pickles.
"""
from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from operator import attrgetter


class Frozen:
    """What `dataclass(frozen=True)` writes per class, written once for every node class."""

    __slots__ = ()

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            key = self.__class__._compared
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.__class__._compared(self))

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(" \
               + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__class__._shown) + ")"

    def __setattr__(self, name: str, value) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list:  # (slots and frozen: as `dataclass` pickles them)
        return [getattr(self, f.name) for f in fields(self)]

    def __setstate__(self, state: list) -> None:
        for f, value in zip(fields(self), state):
            object.__setattr__(self, f.name, value)


def node(cls: type) -> type:
    """`@dataclass(frozen=True, slots=True)` for a class deriving from `Frozen`, the same to its
    users (see the module's docstring). Fields with a default factory and `__post_init__` are
    not supported (no node has them)."""
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: @node does not run __post_init__")
    cls = dataclass(cls, init=False, repr=False, eq=False, slots=True)
    made = fields(cls)
    if any(f.default_factory is not MISSING for f in made):
        raise TypeError(f"{cls.__name__}: @node fields take plain defaults")
    cls._compared = _tuple_of([f.name for f in made if f.compare])
    cls._shown = tuple(f.name for f in made if f.repr)
    cls.__init__ = _first_init
    return cls


def _tuple_of(names: list[str]):
    """`node -> (node.a, node.b, ...)`, as `dataclass` compares and hashes."""
    if len(names) > 1:
        return attrgetter(*names)
    if not names:
        return lambda n: ()
    get = attrgetter(names[0])
    return lambda n: (get(n),)


def _first_init(self, *args, **kwargs) -> None:
    """The class's first instance: its `__init__` compiled, kept on the class, and run."""
    cls = type(self)
    init = _init_of(cls)
    type.__setattr__(cls, "__init__", init)
    init(self, *args, **kwargs)


def _init_of(cls: type):
    """The `__init__` `dataclass(frozen=True)` writes: the fields in order, then the keyword-only
    ones, each set with `object.__setattr__`."""
    ns: dict = {"_set": object.__setattr__}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        param = f.name
        if f.default is not MISSING:
            ns[f"_d_{f.name}"] = f.default
            param = f"{f.name}=_d_{f.name}"
        (keywords if f.kw_only else positional).append(param)
        body.append(f"    _set(self, {f.name!r}, {f.name})")
    signature = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    exec(f"def __init__({signature}):\n" + ("\n".join(body) or "    pass"), ns)  # noqa: S102 — our own source
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in fields(cls)}, "return": None}
    return init


__all__ = ["Frozen", "node"]
