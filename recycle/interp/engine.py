"""Which engine runs a game: the plain meaning of every form, or the same meaning made fast.

Both engines play every game identically (same options, texts, draws, records, errors and the
line they name); `tests/test_recycle_engines.py` compares them game by game. The reference
engine is the definition: each expression is its `_Form` method (`evaluate`, `cardsets`), each
action its `_do_Form` method (`actions`), options are found by `Executor._explore`, and the
flow starts every item through `flow.Machine.enter`. The fast engine adds the speed layers on
top: closures (`fast`, `finding`), generated source (`codegen`, `runners`, `explorers`,
`quiet`, `deals`), counted options in playouts (`counting`, `proof`) and a stage's rounds in
one loop (`rounds`).
"""
from __future__ import annotations

import enum


class Engine(enum.Enum):
    """How a game's forms are run."""

    REFERENCE = "reference"
    """The plain meaning of every form: no generated code, no playout shortcuts (slow, the definition)."""
    FAST = "fast"
    """The speed layers over the same meaning: what users run by default."""

    @classmethod
    def of(cls, engine: "Engine | str | None") -> "Engine":
        """The engine named `engine` (None: the default, fast); a clear error for another name."""
        if engine is None:
            return cls.FAST
        if isinstance(engine, cls):
            return engine
        try:
            return cls(str(engine))
        except ValueError:
            raise ValueError(f"unknown engine {engine!r}: use one of {', '.join(NAMES)}") from None


#: The engines' names, as the commands' `--engine` takes them.
NAMES = tuple(e.value for e in Engine)
