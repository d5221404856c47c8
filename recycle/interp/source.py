"""One generated function (`Source`), its pieces (`Piece`), and what every generated function
shares: a location's list kept per store (`place`), and the passes made on its entries before
it is built (`Source.final`): steps counted at once (`merge_steps`), in a local in quiet
functions (`local_steps`), envs no call needs not reset (`unused_envs`).

The entries are lines of source and, for what the passes change, statements kept as values
(`Step`, `EnvReset`): a pass finds them by what they are, never by matching text, so a change
in how a line is written cannot turn one off (`tests/test_recycle_steps.py` checks each fires).

An env built on demand is an `EnvRef`, written into source by formatting it: it knows whether
any line (or piece of one) holds it, so no pass reads the text to find its uses.

`codegen` writes expressions into a `Source`, `runners` and `explorers` statements, `counting`
the walks of choices; `Source.build` makes the function.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Union


class Piece:
    """A piece of generated source: its text, what it yields, and whether it can raise. A key
    of a location may say how it is found: `fixed`, the name of a constant key, or `seats`,
    (the name of the keys by seat, the seat's source)."""

    __slots__ = ("code", "kind", "safe", "called", "fixed", "seats", "exact")

    def __init__(self, code: str, kind: str = "any", safe: bool = False, called: bool = False,
                 fixed: str | None = None, seats: tuple[str, str] | None = None, exact: bool = False) -> None:
        self.code, self.kind, self.safe, self.called = code, kind, safe, called
        self.fixed, self.seats = fixed, seats
        self.exact = exact  # does exactly what a call of the node's function does (its errors and draws too)


def place(cells: list, i: int, st, key):
    """`st.locs.get(key)`, kept in `cells[i]` as (store, list) for the next time: a location's
    list, once made, is the same object as long as its store lives (`state.Store`), and a
    tuple key costs a hash at every lookup. (One tuple, so a thread reading it mid-write
    never pairs one store with another's list.)"""
    got = st.locs.get(key)
    if got is not None:
        cells[i] = (st, got)
    return got


def keep(lists: list, i: int, got):
    """`got`, kept in `lists[i]` unless None (a seat's list in a local, see `Source.place`)."""
    if got is not None:
        lists[i] = got
    return got


def seated(cells: list, st, keys: tuple) -> list:
    """The lists of one location of every seat (`keys`), None where a seat has none yet; kept in
    `cells[0]` as (store, lists) once all exist (see `place`)."""
    got = [st.locs.get(key) for key in keys]
    if None not in got:
        cells[0] = (st, got)
    return got


def later(make):
    """`f(env, st)`, made by `make()` at its first call: for what rarely runs (a block's runner
    where its steps could pass the bound, see `quiet`), compiled only if it ever does."""
    made: list = []

    def run(env, st):
        if not made:
            made.append(make())
        return made[0](env, st)
    return run


@dataclass(frozen=True, slots=True)
class Step:
    """Steps counted in generated source, kept as a statement of their own (not text) so that
    the passes below find them by what they are, whatever the wording around them:

        st.steps += count
        if st.steps > bound:                   (`bound` None: no check, a quiet function)
            raise _too_long(NODE)              (count 1; k steps: `_over(st, k, nodes)`)
        _ex.at = at                            (`at` None: left as it is)

    `nodes` names the node of each step (one per step where the bound is checked); in a
    quiet function with its steps kept in a local (`local_steps`), `_stepped += count`.
    `more`: source of a number of steps counted besides (quiet functions only: the turns a
    `repeat` leaves out, see `runners`). `counter`: the local that holds `st.steps` meanwhile (a
    stage's rounds, `rounds.round_source`), counted in instead of `st.steps` (or `_stepped`); set
    to None while `st.steps` holds the count again (`_over`, which reads and sets it, then raises)."""

    indent: int
    count: int
    nodes: tuple[str, ...] = ()
    at: str | None = None
    bound: int | None = None
    local: bool = False
    more: str | None = None
    counter: str | None = None

    def lines(self) -> list[str]:
        pad = "    " * self.indent
        count = str(self.count) if self.more is None else self.more if not self.count else f"{self.count} + {self.more}"
        if self.local:
            return [f"{pad}{self.counter or '_stepped'} += {count}"] + ([f"{pad}_ex.at = {self.at}"] if self.at else [])
        steps = self.counter or "st.steps"
        out = [f"{pad}{steps} += {count}"]
        if self.bound is not None:
            out.append(f"{pad}if {steps} > {self.bound}:")
            if self.count == 1:
                out.append(f"{pad}    raise _too_long({self.nodes[0]})")
            else:
                if self.counter:
                    out += [f"{pad}    st.steps = {steps}", f"{pad}    {steps} = None"]
                out.append(f"{pad}    _over(st, {self.count}, ({', '.join(self.nodes)}))")
        return out + ([f"{pad}_ex.at = {self.at}"] if self.at else [])


class EnvRef:
    """The source of an env built on demand (see `Source.bind`), the env `outer` with variable
    `var` bound to the Python local `local`:

        (_e3 or (_e3 := {**OUTER, 'VAR': local}))

    It is written into source by formatting it (`f"{env}"`), which marks it `used` (and its
    outer env, written inside it). A piece formatted and then left out only keeps a reset."""

    __slots__ = ("name", "outer", "var", "local", "used")

    def __init__(self, name: str, outer: "EnvRef | str", var: str, local: str) -> None:
        self.name, self.outer, self.var, self.local, self.used = name, outer, var, local, False

    def __format__(self, spec: str) -> str:
        self.used = True
        return f"({self.name} or ({self.name} := {{**{self.outer}, {self.var!r}: {self.local}}}))"

    def __str__(self) -> str:
        return self.__format__("")

    def __repr__(self) -> str:
        return f"EnvRef({self.name})"


@dataclass(frozen=True, slots=True)
class EnvReset:
    """`name = None`: the reset of an env built on demand (see `Source.bind`); `pass` where no
    source holds the env (`used` False, see `unused_envs`)."""

    indent: int
    env: EnvRef
    used: bool = True

    def lines(self) -> list[str]:
        return ["    " * self.indent + (f"{self.env.name} = None" if self.used else "pass")]


#: An entry of a generated function: a line of source, or a statement kept as a structure.
Entry = Union[str, Step, EnvReset]


def shifted(entry: Entry, by: int) -> Entry:
    """`entry` indented `by` levels more (less, `by` negative)."""
    if type(entry) is str:
        return "    " * by + entry if by >= 0 else entry[-4 * by:]
    return replace(entry, indent=entry.indent + by)


def merge_steps(entries: list[Entry]) -> list[Entry]:
    """Steps counted one after another with nothing done between (an action's own step, then
    its first inner action's) counted at once: k `Step`s of one block and bound, in a row,
    become one `Step` of k steps, its nodes theirs, its `at` the last one set; where the bound
    is checked, `_over` raises at the very step counting one by one would (`actions.over`)."""
    out: list[Entry] = []
    for entry in entries:
        last = out[-1] if out else None
        if type(entry) is Step and type(last) is Step \
                and (last.indent, last.bound, last.local, last.counter) == (entry.indent, entry.bound, entry.local,
                                                                             entry.counter) \
                and last.more is None and entry.more is None:
            out[-1] = replace(last, count=last.count + entry.count, nodes=last.nodes + entry.nodes,
                              at=entry.at or last.at)
        else:
            out.append(entry)
    return out


def local_steps(entries: list[Entry], head: int) -> list[Entry]:
    """A quiet function (`quiet`: its first `head` entries are the def and the bound check) with
    its steps counted in a local and added to `st.steps` when it returns or raises:

        st.steps += 2          _stepped += 2
        ...                    finally: st.steps += _stepped

    A runner it calls meanwhile sees fewer steps than were made, and still cannot pass the
    bound: the check at the start made room for all of them."""
    return entries[:head] + stepped([shifted(e, 1) for e in entries[head:]], 1)


def stepped(body: list[Entry], indent: int) -> list[Entry]:
    """`body` (entries at `indent` + 1) with its steps counted in the local `_stepped` and added to
    `st.steps` when it ends or raises (`local_steps`; a quiet block written in, `rounds`)."""
    pad = "    " * indent
    return [f"{pad}_stepped = 0", f"{pad}try:"] + [replace(e, local=True) if type(e) is Step else e for e in body] \
        + [f"{pad}finally:", f"{pad}    st.steps += _stepped"]


def unused_envs(entries: list[Entry]) -> list[Entry]:
    """Env resets (`EnvReset`) of envs no source holds (never formatted, see `EnvRef`) written
    `pass`."""
    return [replace(e, used=False) if type(e) is EnvReset and not e.env.used else e for e in entries]


class Source:
    """The source of one generated function, and the values its names stand for."""

    def __init__(self, base: dict) -> None:
        self.ns = dict(base)
        self.lines: list[Entry] = []
        self.head: int | None = None  # entries before a quiet function's body (see `local_steps`)
        self.temps = 0
        self.calls = 0  # functions the source calls (see `call`)
        self.journaled = False  # the function only runs while options are explored (see `explorers`)
        self.quiet = False  # no step checked, nothing recorded (see `quiet`)
        self.bare = False  # quiet, and no step counted nor `Executor.at` set (see `counting`)
        self.hoisted: dict[int, Piece] = {}  # id(node) -> its value, computed before a loop (see `explorers`)
        # a constant key (or the keys by seat) -> (the local keeping its list(s), its first value): `place`
        self.places: dict[tuple, tuple[str, str]] | None = None
        # while set (code storing no point map runs: `counting.count_source`), a constant key ->
        # the local its point map is read into once, where the code starts (`points`, `read_points`)
        self.pointed: dict[tuple, str] | None = None
        self.seat = "st.pcycles[-1][0]"  # source of the current player's number (a local where it is kept)
        # `places` of constant keys (and, where `placed`, of the keys by seat): the tests of their
        # locals true where one is missing (`fixed`); `placed`: each found at the start of the
        # call, the function run only where all are (see `rounds.round_source`)
        self.fixed: list[str] = []
        self.placed = False
        self.steady = False  # nothing the function runs stores a point map (see `points`)

    def const(self, value) -> str:
        name = f"_c{len(self.ns)}"
        self.ns[name] = value
        return name

    def call(self, fn) -> str:
        """The name of `fn`, a function the source calls (counted in `calls`: an action that calls
        nothing needs no `_ex.at`, see `runners.stmt`)."""
        self.calls += 1
        return self.const(fn)

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def emit(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def step(self, indent: int, count: int, node: str | None = None, bound: int | None = None,
             more: str | None = None) -> Step:
        """Count `count` steps (of `node`, which `_ex.at` is then set to; `bound`: raise past it;
        `more`: source of more steps, in a quiet function)."""
        made = Step(indent, count, (node,) if node else (), node, bound, more=more)
        self.lines.append(made)
        return made

    def unplace(self, i: int) -> None:
        """The `Step` entry `i` no longer sets `_ex.at`."""
        self.lines[i] = replace(self.lines[i], at=None)

    def kept(self, cells: int, slot: str, fill: str) -> tuple[str, str]:
        """(the name of `cells` new cells, source giving what cell `slot` keeps for this store,
        else `fill`'s value, which keeps it: see `place`, `seated`)."""
        name, t = self.const([(None, None)] * cells), self.temp()
        return name, f"({t}[1] if ({t} := {name}[{slot}])[0] is st else {fill.format(cells=name)})"

    def place(self, key: Piece) -> str:
        """Source giving the list of the location `key` names, or None while it has none; where
        the key is a constant or one per seat, its list is kept between calls (`place`), and
        where `places` is set, in a local for the rest of the call."""
        if key.fixed is not None:
            made = self.kept(1, "0", f"_place({{cells}}, 0, st, {key.fixed})")[1]
            if self.places is None:
                return made
            # a function running long with one store (`rounds`): the list kept in a local once
            # found (the same object as long as the store lives), None until then; `placed`:
            # found at the start
            first = f"st.locs.get({key.fixed})" if self.placed else "None"
            if self.ns[key.fixed] not in self.places:
                self.fixed.append(f"_L{len(self.places)} is None")
            local = self.places.setdefault(self.ns[key.fixed], (f"_L{len(self.places)}", first))[0]
            return local if self.placed else f"({local} if {local} is not None else ({local} := {made}))"
        if key.seats is not None:
            keys, seat = key.seats
            i, n = self.temp(), len(self.ns[keys])
            if self.places is None:
                return self.kept(n, f"{i} := {seat}", f"_place({{cells}}, {i}, st, {keys}[{i}])")[1]
            if self.placed:
                return f"{self.seated(keys)}[{seat}]"
            # (the same, the lists by seat in a local list)
            made, got = self.kept(n, i, f"_place({{cells}}, {i}, st, {keys}[{i}])")[1], self.temp()
            local = self.places.setdefault(self.ns[keys], (f"_L{len(self.places)}", f"[None] * {n}"))[0]
            self.ns["_keep"] = keep
            return f"({got} if ({got} := {local}[{i} := {seat}]) is not None else _keep({local}, {i}, {made}))"
        return f"st.locs.get({key.code})"

    def seated(self, keys: str) -> str:
        """Where `placed`: a local holding the lists of one location of every seat (`keys`: the
        name of their keys), found at the start of the call, as the constant keys' are (the
        function is run only where all exist)."""
        if ("seats", self.ns[keys]) not in self.places:
            self.fixed.append(f"None in _L{len(self.places)}")
        return self.places.setdefault(("seats", self.ns[keys]), (
            f"_L{len(self.places)}", f"[st.locs.get(_k) for _k in {keys}]"))[0]

    def points(self, key: tuple, code: str | None = None) -> str:
        """Source giving the point map stored at the constant `key` (`code`: the name of the
        constant, where there is one), or None: while `pointed` is set, a local read once (see
        `read_points`); where `steady` (a function running long with one store, which stores
        no point map: `rounds`), a local read once at the start of the call."""
        if self.places is not None and self.steady:
            return self.places.setdefault(("points", key), (f"_L{len(self.places)}",
                                                            f"st.points.get({code or self.const(key)})"))[0]
        if self.pointed is None:
            return f"st.points.get({code or self.const(key)})"
        return self.pointed.setdefault(key, f"_P{len(self.pointed)}")

    def read_points(self, at: int, indent: int) -> None:
        """The point maps `points` asked for since `pointed` was set, read into their locals at
        entry `at`; `pointed` unset."""
        self.lines[at:at] = ["    " * indent + f"{local} = st.points.get({self.const(key)})"
                             for key, local in (self.pointed or {}).items()]
        self.pointed = None

    def proven(self, question: str, key) -> str:
        """Where `places` is set (a function running long with one store: a stage's rounds), a
        local keeping the point map at `key` last found to pass `question` ("distinct", "small";
        maps are immutable, so the answer holds while the same map is stored); False before any."""
        return self.places.setdefault((question, key), (f"_L{len(self.places)}", "False"))[0]

    def store(self, attr: str) -> str:
        """Source giving the state's dict `attr` (`ints`, `strs`): where `places` is set (a
        function running long with one store, `rounds`), a local read once at the start of the
        call (the store's dicts are made once, in the setup: `Table.canonical`)."""
        return self.once(f"st.{attr}")

    def once(self, code: str) -> str:
        """Source giving `code`'s value: where `places` is set (a function running long with one
        store, `rounds`), a local computing it once, at the start of the call (for values fixed
        while a game plays, such as its number of cards)."""
        if self.places is None:
            return code
        return self.places.setdefault(("once", code), (f"_L{len(self.places)}", code))[0]

    def bind(self, indent: int, env: EnvRef | str, bound: dict, name: str, kind: str,
             local: str) -> tuple[EnvRef, dict]:
        """Variable `name` bound to the Python local `local` (it holds the value): -> (env, bound).
        The env dict with the binding is built only where a call needs one, once per binding."""
        self.temps += 1
        made = EnvRef(f"_e{self.temps}", env, name, local)
        self.lines.append(EnvReset(indent, made))
        return made, {**bound, name: (kind, local)}

    def final(self) -> list[Entry]:
        """The entries of the function as it is built: steps counted at once, in a local in a
        quiet function, envs no call needs not reset."""
        entries = unused_envs(merge_steps(self.lines))
        return local_steps(entries, self.head) if self.quiet and not self.bare else entries

    def text(self) -> str:
        return "\n".join(line for e in self.final() for line in ([e] if type(e) is str else e.lines()))

    def build(self, node):
        """The function `f` the lines define, for `node` (named after it in tracebacks and profiles)."""
        where = f"<recycle {type(node).__name__} {getattr(node, 'line', 0)}:{getattr(node, 'column', 0)}>"
        exec(compile(self.text(), where, "exec"), self.ns)  # noqa: S102 — our own source
        return self.ns["f"]
