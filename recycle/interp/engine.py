"""Which engine runs a game: the plain meaning of every form, or the same meaning made fast.

Both engines play every game identically (same options, texts, draws, records, errors and the
line they name); `tests/test_recycle_engines.py` compares them game by game. The reference
engine is the definition: each expression is its `_Form` method (`evaluate`, `cardsets`), each
action its `_do_Form` method (`actions`), options are found by `Executor._explore`, and the
flow starts every item through `flow.Machine.enter`. The fast engine adds the speed layers on
top: closures (`fast`, `finding`), generated source (`codegen`, `runners`, `explorers`,
`quiet`, `deals`), counted options in playouts (`counting`, `proof`) and a stage's rounds in
one loop (`rounds`).

Compiling costs more than it saves on a game played once (a traced game, a replay): the fast
engine plays as the reference does until its rules start a second game (`recycle run`, a
benchmark: `new_game` reuses the rules of a game it set up before), a random playout
(`RecycleState.random_playout`: they come by the thousand) or have played `WARM_CHOICES`
choices (over all their states: a search's clones), then compiles what it runs from then on
(`Executor.compile_from_now`). `Engine.COMPILED` compiles from the
first choice: the same code as `fast` after its warm-up, for the tests and benches that
compare it with the reference.
"""
from __future__ import annotations

import enum


class Engine(enum.Enum):
    """How a game's forms are run."""

    REFERENCE = "reference"
    """The plain meaning of every form: no generated code, no playout shortcuts (slow, the definition)."""
    FAST = "fast"
    """The speed layers over the same meaning, after a warm-up as the reference: what users run by default."""
    COMPILED = "compiled"
    """The speed layers from the first choice (no warm-up): what `fast` runs once warm."""

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


#: The engines' names, as `new_game(engine=...)` takes them (the commands offer reference and fast).
NAMES = tuple(e.value for e in Engine)
#: Choices the fast engine plays as the reference before it compiles (about two games of most of ours).
WARM_CHOICES = 200
