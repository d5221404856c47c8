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
caches and methods, bound on each part when the compiler is made (its interface to the meaning).
The parts are objects, classes of at most two bases each, held by `Compiler`: the expression
compiler (`codegen`, `fast`, `finding`, `forms`), the statement compiler (`runners`,
`explorers`) and the playout shortcuts (`counting`, `quiet`, `deals`). What one part uses of
another is its `NEEDS` list, bound from what the others `PROVIDE` when the compiler is made.
"""
from __future__ import annotations

from functools import partial

from recycle.lang import tree as T

from recycle.interp import forms
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
#: errors it raises, and the `_Form` methods closures fall back on for the located error (those of
#: the forms written once, as source, among them: `forms.WRITTEN`).
USES = ("table", "attrs", "max_steps", "_actions", "_fns", "fn", "ev", "bind", "iterate", "error", "closure",
        "runner", "flat", "too_long", "over", "not_int", "bounded", "loc_key", "storage_key", "owner_of",
        "point_map_of", "check_tuples", "_points", "_real", "_explore", "_extreme_card", "extreme_of", "_PointMap",
        *sorted("_" + kind.__name__ for kind in forms.WRITTEN))


#: What the executor (the meaning) asks of the compiler, and the part that answers.
ASKED = {"expressions": ("function", "maker", "source_of", "tuple_sets"),
         "statements": ("generated_runner", "generated_walk", "explorer"),
         "shortcuts": ("quiet", "leaves", "plan_of", "count")}


class Closures(FastMixin, FindingMixin):
    """Expressions as closures over their children's functions (`fast`, `finding`)."""


class ExpressionCompiler(ExprSource, Closures):
    """Expressions as Python source (`codegen`), else as closures; the operator forms' both
    derived from their `forms.Constant` or `forms.Operator`."""

    NEEDS = ("value",)
    PROVIDES = ("function", "maker", "source_of", "tuple_sets", "expr", "items", "key", "fixed_key", "pure",
                "_source_base", "loc_key_fn", "storage_key_fn")

    def __init__(self, ex: Executor) -> None:
        kinds = [cls for cls in vars(T).values() if isinstance(cls, type)]
        self._makers = {c: getattr(self, "_make_" + c.__name__) for c in kinds if hasattr(self, "_make_" + c.__name__)}
        for kind in forms.OPERATORS:  # closures derived from the form's `Operator` or `Constant`
            self._makers[kind] = partial(forms.operator_closure, ex.fn, getattr(ex, "_" + kind.__name__))
        for kind in forms.CONSTANTS:
            self._makers[kind] = forms.constant_closure
        for kind in forms.WRITTEN:  # closures derived from the form's source (`codegen.closure_of`)
            self._makers[kind] = self.written
        self._pure: dict[int, bool] = {}  # id(node) -> no random draw or fresh name in it (see `codegen`)
        self._gvars: frozenset | None = None
        self._sets: dict[int, object] = {}  # id(node) -> the sets of a (tuples ...), see `fast`

    def maker(self, kind):
        """The maker of a closure for nodes of class `kind` (`fast`, `finding`, `forms`), or None."""
        return self._makers.get(kind)


class StatementCompiler(RunnersMixin, ExplorersMixin):
    """Actions (`runners`) and the exploration of options (`explorers`) as Python source."""

    NEEDS = ("_source_base", "expr", "items", "key", "fixed_key", "pure", "loc_key_fn", "storage_key_fn",
             "deal_source", "quiet_start")
    PROVIDES = ("generated_runner", "generated_walk", "explorer", "value", "stmt", "hoist", "_statement_base",
                "_generate", "_writable")

    def __init__(self, ex: Executor) -> None:
        self._explorers: dict[int, object] = {}  # id(node) -> explore(env, st, out, work), see `explorers`


class QuietRunners(QuietMixin, DealsMixin):
    """Blocks run for a state keeping no record (`quiet`), deals done at once (`deals`)."""


class PlayoutShortcuts(CountingMixin, QuietRunners):
    """What random playouts skip: trying every option (`counting`), step checks and records."""

    NEEDS = ("_generate", "_writable", "_statement_base", "hoist", "stmt", "value", "fixed_key", "items")
    PROVIDES = ("quiet", "leaves", "plan_of", "count", "deal_source", "quiet_start")

    def __init__(self, ex: Executor) -> None:
        self._quiets: dict[int, object] = {}  # id(node) -> a runner for a state keeping no record, see `quiet`
        self._plans: dict[int, object] = {}  # id(choice) -> its `counting.Plan`, or None


class Compiler:
    """The fast engine's compilers and shortcuts for one executor (see the module's text): three
    parts, each given the meaning's `USES` and what it `NEEDS` of the others (bound once, by
    name, from what they `PROVIDE`); the executor asks the parts through the names in `ASKED`."""

    def __init__(self, ex: Executor) -> None:
        self.ex = ex
        self.expressions, self.statements = ExpressionCompiler(ex), StatementCompiler(ex)
        self.shortcuts = PlayoutShortcuts(ex)
        parts = (self.expressions, self.statements, self.shortcuts)
        provided = {name: getattr(part, name) for part in parts for name in part.PROVIDES}
        for part in parts:
            part.ex = ex
            for name in USES:  # the interface to the meaning
                setattr(part, name, getattr(ex, name))
            for name in part.NEEDS:  # the interfaces between the parts
                setattr(part, name, provided[name])
        for part, names in ASKED.items():
            for name in names:
                setattr(self, name, getattr(getattr(self, part), name))
        self._quiets, self._sets = self.shortcuts._quiets, self.expressions._sets  # (read by `flow`, tests)

    def forget(self) -> None:
        """Drop the functions made so far (they may hold plain functions of the executor)."""
        for made in (self.shortcuts._quiets, self.statements._explorers, self.shortcuts._plans):
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
