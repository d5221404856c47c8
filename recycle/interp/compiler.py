"""The fast engine's compilers and playout shortcuts: one component held by the executor.

The meaning of every form is the executor's (`evaluate`, `cardsets`, `actions`, `flow`); it
never imports what is here. The fast engine gives the executor a `Compiler` (`executor`),
which it asks, while `compiling`, for faster functions doing the same:

- expressions: Python source for the common forms (`codegen`), closures for the others
  (`fast`, `finding`): `function(node)`, `maker(kind)`;
- actions: Python source (`runners`), also for a state keeping no record (`quiet`, with deals
  done at once, `deals`): `generated_runner(node)`, `generated_walk(node)`, `quiet(node)`;
- the options of a choice: explored by Python source (`explorers`), or only counted in a
  random playout where that is proven (`counting`, `proof`): `explorer(node)`, `plan_of(node)`.

What the compilers use of the meaning is the `USES` list: the executor's table, bounds,
caches and methods, bound on the compiler when it is made (its interface to the meaning).
The parts are classes of at most two bases each, joined in `Compiler`.
"""
from __future__ import annotations

from functools import partial

from recycle.lang import tree as T

from recycle.interp import operators
from recycle.interp.actions import Executor
from recycle.interp.codegen import ExprSource
from recycle.interp.counting import CountingMixin
from recycle.interp.deals import DealsMixin
from recycle.interp.engine import Engine
from recycle.interp.explorers import ExplorersMixin
from recycle.interp.fast import FastMixin
from recycle.interp.finding import FindingMixin
from recycle.interp.quiet import QuietMixin
from recycle.interp.runners import RunnersMixin
from recycle.interp.store import Table

#: What the compilers use of the meaning (the executor): its game, bounds and caches, the
#: functions of nodes it makes (`fn`, `runner`, `flat`: compiled ones while compiling), the
#: errors it raises, and the `_Form` methods closures fall back on for the located error.
USES = ("table", "attrs", "max_steps", "_actions", "_fns", "fn", "ev", "bind", "iterate", "error", "closure",
        "runner", "flat", "too_long", "over", "not_int", "bounded", "loc_key", "storage_key", "owner_of",
        "point_map_of", "check_tuples", "_points", "_real", "_explore", "_extreme_card", "extreme_of", "_Arithmetic", "_CardAt",
        "_CardAtt", "_Compare", "_Location", "_PlayerRef", "_PointMap", "_Size", "_Var")


class Closures(FastMixin, FindingMixin):
    """Expressions as closures over their children's functions (`fast`, `finding`)."""


class ExpressionCompiler(ExprSource, Closures):
    """Expressions as Python source (`codegen`), else as closures."""


class QuietRunners(QuietMixin, DealsMixin):
    """Blocks run for a state keeping no record (`quiet`), deals done at once (`deals`)."""


class StatementCompiler(RunnersMixin, ExplorersMixin):
    """Actions (`runners`) and the exploration of options (`explorers`) as Python source."""


class PlayoutShortcuts(CountingMixin, QuietRunners):
    """What random playouts skip: trying every option (`counting`), step checks and records."""


class Statements(StatementCompiler, PlayoutShortcuts):
    """Every compiler of actions and choices."""


class Compiler(Statements, ExpressionCompiler):
    """The fast engine's compilers and shortcuts for one executor (see the module's text)."""

    def __init__(self, ex: Executor) -> None:
        self.ex = ex
        for name in USES:  # the interface to the meaning, bound once
            setattr(self, name, getattr(ex, name))
        forms = [cls for cls in vars(T).values() if isinstance(cls, type)]
        self._makers = {c: getattr(self, "_make_" + c.__name__) for c in forms if hasattr(self, "_make_" + c.__name__)}
        for kind in operators.OPERATORS:  # closures derived from the form's `Operator`
            self._makers[kind] = partial(operators.closure, self.fn, getattr(ex, "_" + kind.__name__))
        self._pure: dict[int, bool] = {}  # id(node) -> no random draw or fresh name in it (see `codegen`)
        self._gvars: frozenset | None = None
        self._sets: dict[int, object] = {}  # id(node) -> the sets of a (tuples ...), see `fast`
        self._quiets: dict[int, object] = {}  # id(node) -> a runner for a state keeping no record, see `quiet`
        self._explorers: dict[int, object] = {}  # id(node) -> explore(env, st, out, work), see `explorers`
        self._plans: dict[int, object] = {}  # id(choice) -> its `counting.Plan`, or None

    def maker(self, kind):
        """The maker of a closure for nodes of class `kind` (`fast`, `finding`), or None."""
        return self._makers.get(kind)

    def forget(self) -> None:
        """Drop the functions made so far (they may hold plain functions of the executor)."""
        for made in (self._quiets, self._explorers, self._plans):
            made.clear()


def executor(table: Table, max_steps: int, engine: Engine) -> Executor:
    """The executor of `engine`: the meaning alone (reference), with a compiler used from the first
    choice (compiled) or once warm (fast, see `engine`)."""
    ex = Executor(table, max_steps)
    if engine is Engine.COMPILED:
        ex.compiler, ex.compiling = Compiler(ex), True
    elif engine is Engine.FAST:  # made when it pays (a game played once never needs it)
        ex.make_compiler = lambda: Compiler(ex)
    return ex
