"""The text of one generated function (`Source`), its pieces (`Piece`), and what every
generated function shares: steps counted at once (`merge_steps`), in a local in quiet
functions (`local_steps`), and a location's list kept per store (`place`).

`codegen` writes expressions into a `Source`, `runners` and `explorers` statements, `counting`
the walks of choices; `Source.build` makes the function.
"""
from __future__ import annotations

import re

#: The reset of an env built on demand (see `Source.bind`).
_ENV_RESET = re.compile(r"\b(_e\d+) = None\b")


class Piece:
    """A piece of generated source: its text, what it yields, and whether it can raise. A key
    of a location may say how it is found: `fixed`, the name of a constant key, or `seats`,
    (the name of the keys by seat, the seat's source)."""

    __slots__ = ("code", "kind", "safe", "called", "fixed", "seats")

    def __init__(self, code: str, kind: str = "any", safe: bool = False, called: bool = False,
                 fixed: str | None = None, seats: tuple[str, str] | None = None) -> None:
        self.code, self.kind, self.safe, self.called = code, kind, safe, called
        self.fixed, self.seats = fixed, seats


def place(cells: list, i: int, st, key):
    """`st.locs.get(key)`, kept in `cells[i]` as (store, list) for the next time: a location's
    list, once made, is the same object as long as its store lives (`state.Store`), and a
    tuple key costs a hash at every lookup. (One tuple, so a thread reading it mid-write
    never pairs one store with another's list.)"""
    got = st.locs.get(key)
    if got is not None:
        cells[i] = (st, got)
    return got


def seated(cells: list, st, keys: tuple) -> list:
    """The lists of one location of every seat (`keys`), None where a seat has none yet; kept in
    `cells[0]` as (store, lists) once all exist (see `place`)."""
    got = [st.locs.get(key) for key in keys]
    if None not in got:
        cells[0] = (st, got)
    return got


def merge_steps(lines: list[str]) -> list[str]:
    """Steps counted one after another with nothing done between (an action's own step, then
    its first inner action's) counted at once: k of them

        st.steps += 1                          st.steps += k
        if st.steps > MAX:                     if st.steps > MAX:
            raise _too_long(A)        ->           _over(st, k, (A, ..., B))
        _ex.at = A                             _ex.at = B
        ... (k times, the last for B)

    where `_over` raises at the very step the lines on the left would (`runners`); in a quiet
    function (no check, see `quiet`) `st.steps += k` and `_ex.at = B`."""
    out, i, n = [], 0, len(lines)
    while i < n:
        run, j, pad = [], i, lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        size = 4 if i + 1 < n and lines[i + 1].lstrip().startswith("if st.steps > ") else 2
        while (j + size - 1 < n and lines[j] == pad + "st.steps += 1"
               and (size == 2 or lines[j + 1] == lines[i + 1] and lines[j + 2].lstrip().startswith("raise _too_long("))
               and lines[j + size - 1].startswith(pad + "_ex.at = ")):
            run.append(lines[j + size - 1].lstrip()[len("_ex.at = "):])
            j += size
        if len(run) < 2:
            out.append(lines[i])
            i += 1
            continue
        out += [f"{pad}st.steps += {len(run)}"] + (
            [lines[i + 1], f"{pad}    _over(st, {len(run)}, ({', '.join(run)}))"] if size == 4 else []) + [
            f"{pad}_ex.at = {run[-1]}"]
        i = j
    return out


_STEPS = re.compile(r"(\s*)st\.steps \+= (\d+)")


def local_steps(lines: list[str]) -> list[str]:
    """A quiet function (`quiet`: its first three lines are the def and the bound check) with
    its steps counted in a local and added to `st.steps` when it returns or raises:

        st.steps += 2          _stepped += 2
        ...                    finally: st.steps += _stepped

    A runner it calls meanwhile sees fewer steps than were made, and still cannot pass the
    bound: the check at the start made room for all of them."""
    out = lines[:3] + ["    _stepped = 0", "    try:"]
    for line in lines[3:]:
        steps = _STEPS.fullmatch(line)
        out.append(f"    {steps[1]}_stepped += {steps[2]}" if steps else "    " + line)
    return out + ["    finally:", "        st.steps += _stepped"]


class Source:
    """The source of one generated function, and the values its names stand for."""

    def __init__(self, base: dict) -> None:
        self.ns = dict(base)
        self.lines: list[str] = []
        self.temps = 0
        self.journaled = False  # the function only runs while options are explored (see `explorers`)
        self.quiet = False  # no step checked, nothing recorded (see `quiet`)
        self.bare = False  # quiet, and no step counted nor `Executor.at` set (see `counting`)
        self.hoisted: dict[int, Piece] = {}  # id(node) -> its value, computed before a loop (see `explorers`)

    def const(self, value) -> str:
        name = f"_c{len(self.ns)}"
        self.ns[name] = value
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def emit(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def kept(self, cells: int, slot: str, fill: str) -> tuple[str, str]:
        """(the name of `cells` new cells, source giving what cell `slot` keeps for this store,
        else `fill`'s value, which keeps it: see `place`, `seated`)."""
        name, t = self.const([(None, None)] * cells), self.temp()
        return name, f"({t}[1] if ({t} := {name}[{slot}])[0] is st else {fill.format(cells=name)})"

    def place(self, key: Piece) -> str:
        """Source giving the list of the location `key` names, or None while it has none; where
        the key is a constant or one per seat, its list is kept between calls (`place`)."""
        if key.fixed is not None:
            return self.kept(1, "0", f"_place({{cells}}, 0, st, {key.fixed})")[1]
        if key.seats is not None:
            keys, seat = key.seats
            i = self.temp()
            return self.kept(len(self.ns[keys]), f"{i} := {seat}", f"_place({{cells}}, {i}, st, {keys}[{i}])")[1]
        return f"st.locs.get({key.code})"

    def bind(self, indent: int, env: str, bound: dict, name: str, kind: str, local: str) -> tuple[str, dict]:
        """Variable `name` bound to the Python local `local` (it holds the value): -> (env, bound).
        The env dict with the binding is built only where a call needs one, once per binding."""
        self.temps += 1
        e = f"_e{self.temps}"
        self.emit(indent, f"{e} = None")
        return f"({e} or ({e} := {{**{env}, {name!r}: {local}}}))", {**bound, name: (kind, local)}

    def build(self, node):
        """The function `f` the lines define, for `node` (named after it in tracebacks and profiles)."""
        where = f"<recycle {type(node).__name__} {getattr(node, 'line', 0)}:{getattr(node, 'column', 0)}>"
        lines = merge_steps(self.lines) if "_over" in self.ns else self.lines
        text = "\n".join(local_steps(lines) if self.quiet and not self.bare else lines)
        for e in set(_ENV_RESET.findall(text)):  # envs that no call needed: nothing to reset
            if len(re.findall(rf"\b{e}\b", text)) == 1:
                text = re.sub(rf"\b{e} = None\b", "pass", text)
        exec(compile(text, where, "exec"), self.ns)  # noqa: S102 — our own source
        return self.ns["f"]
