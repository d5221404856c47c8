"""The reference-compatible mode (`new_game(..., compat="cardstock")`, `--compat cardstock`).

Our default reading of RECYCLE is the sensible one; CardStock, the reference
engine, has a few quirks that move its published statistics. A user comparing
numbers with it asks for them by name:

- ties in `(max|min CARDS using PM)`: the reference walks the cards in order
  and, on a tie, replaces the best card with probability 1/2 (so later cards
  win ties more often); ours picks uniformly among the tied cards
  (`evaluate.Evaluator._extreme_card`);
- identical options: the reference offers one option per physical card (two
  decks give two equal options); ours merges options that read the same
  (`flow.Machine.offer`);
- the choice limit: the reference calls a game after its 501st choice, not
  its 500th (`game.Rules`);
- location names: in `(OWNER vloc 'L)` the reference reads `'L` as the
  literal text `L`, never as a variable (`literal_location_names`);
- several `any` in one option (`(do ((any HAND 'C ...) (any HAND 'CC ...) ...))`):
  ours offers the ordered selections (3 cards, two picks: 6 options); the
  reference finds options by a depth-first walk that, at each `any`, sets
  the rest of the option's work aside for every later element as a copy
  whose order is reversed (its stack is copied from its own enumeration,
  top first), and resumes it with the variable that is on top of its
  bookkeeping then, not the element it was set aside for. Those options run
  their actions out of order, some name a card already moved, some repeat:
  8 options for 3 cards and two picks, 44 for 4 cards and three
  (`reference_options`, used for the choices that hold such an option).
"""
from __future__ import annotations

import dataclasses

from recycle.lang import tree as T

from recycle.interp.undo import undo_to

#: The modes `new_game(compat=...)` accepts (None is the default reading).
COMPAT_MODES = ("cardstock",)

_LOCATIONS = (T.Location, T.IndexedLocations)
#: Games already rewritten: id(game) -> (game, rewritten); a few games at a time are played.
_REWRITTEN: dict[int, tuple] = {}
_KEPT = 16
#: The copies made, by id (kept alive with them: a copy is never collected and its id reused).
_CARDSTOCK: dict[int, T.Game] = {}


def check_mode(compat: str | None) -> str | None:
    """`compat` itself when it is a known mode (or None); else a ValueError naming the modes."""
    if compat is not None and compat not in COMPAT_MODES:
        raise ValueError(f"unknown compatibility mode {compat!r}: the modes are {', '.join(COMPAT_MODES)}")
    return compat


def cardstock_game(game: T.Game) -> T.Game:
    """The game as the reference engine plays it: a copy of `game` (the same copy each time)
    whose location names are never variables (`(OWNER vloc 'L)` names `L`), and which
    `is_cardstock` recognises, so its rules break ties and offer options as the reference."""
    got = _REWRITTEN.get(id(game))
    if got is not None and got[0] is game:
        return got[1]
    if is_cardstock(game):
        return game
    new = _rewrite(game)
    if new is game:
        new = dataclasses.replace(game)  # a distinct object: its setups are cached apart
    while len(_REWRITTEN) >= _KEPT:
        del _REWRITTEN[next(iter(_REWRITTEN))]
    _REWRITTEN[id(game)] = (game, new)
    _CARDSTOCK[id(new)] = new
    return new


def is_cardstock(game: T.Game) -> bool:
    """Is `game` a copy made by `cardstock_game`?"""
    return _CARDSTOCK.get(id(game)) is game


def _rewrite(node):
    """The node rebuilt where a location's name is a variable; shared where nothing changes.
    (Recursion is bounded: the reader rejects forms nested over 100 levels.)"""
    if type(node) is tuple:
        items = tuple(_rewrite(x) for x in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not isinstance(node, T.Node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        if f.name in ("line", "column"):
            continue
        value = getattr(node, f.name)
        new = _rewrite(value)
        if new is not value:
            changes[f.name] = new
    if isinstance(node, _LOCATIONS) and type(node.name) is T.Var:
        changes["name"] = T.Name(node.name.name, line=node.name.line, column=node.name.column)
    return dataclasses.replace(node, **changes) if changes else node


# ---- options as the reference engine enumerates them ------------------------------------------
_FORKS: dict[int, tuple] = {}  # id(choice) -> (choice, does an option hold two `any`s?)
_WALKED = (T.Do, T.Conditional, T.Let, T.AllDo, T.AnyDo)
_LOOP, _ACT = 0, 1


def reference_walk(choice) -> bool:
    """Does an option of `choice` hold more than one `any`, where the reference's options differ from ours?"""
    got = _FORKS.get(id(choice))
    if got is None or got[0] is not choice:
        while len(_FORKS) >= 256:
            del _FORKS[next(iter(_FORKS))]
        got = _FORKS[id(choice)] = (choice, any(_count_any(o) > 1 for o in choice.options))
    return got[1]


def _count_any(node) -> int:
    if type(node) is tuple:
        return sum(_count_any(x) for x in node)
    if not isinstance(node, T.Node):
        return 0
    own = 1 if type(node) is T.AnyDo else 0
    return own + sum(_count_any(getattr(node, f.name)) for f in dataclasses.fields(node)
                     if f.name not in ("line", "column"))


class _Work:
    """The work left on one path: a stack of nodes and variable changes, and its depth (`level`)."""

    __slots__ = ("items", "level")

    def __init__(self, items: list, level: int) -> None:
        self.items, self.level = items, level

    def set_aside(self) -> "_Work":
        """The copy the reference keeps for a later element: one level deeper, its order reversed."""
        return _Work(self.items[::-1], self.level + 1)


def reference_options(ex, choice, env: dict, st, limit: int) -> list[tuple]:
    """Every option of `choice` as the reference engine lists them, each a tuple of effects
    (as `Executor.options`); at most `limit` + 1 (the caller reports too many)."""
    out: list[tuple] = []
    saved = st.journal, st.log
    st.journal, st.log = [], None
    try:
        for option in choice.options:
            _walk(ex, option, env, st, out, limit)
            if len(out) > limit:
                break
    finally:
        undo_to(st, st.journal, 0)
        st.journal, st.log = saved
    return out


def _rebind(names: dict, name: str, value) -> None:
    """Bind `name` to `value` in the walk's table (`_UNSET`: unbind it)."""
    if value is _UNSET:
        names.pop(name, None)
    else:
        names[name] = value


def _walk(ex, option, env: dict, st, out: list, limit: int) -> None:
    """One option's paths, in the reference's order (the meaning of its `RecurseDo`, in our terms).

    `names` are the variables bound now (the reference keeps one table of them for the whole
    walk); `done` the bookkeeping: (_LOOP, name, value, level) for each element still to
    try, (_ACT, journal mark) for each action run, undone from the top as paths end."""
    names: dict = {}
    done: list[tuple] = []
    pending = [_Work([("node", option)], 0)]
    paths = 0
    while pending and len(out) <= limit:
        paths += 1
        if paths > 50 * (limit + 1):  # paths that offer nothing are bounded too
            break
        work = pending.pop()
        while work.items:
            item = work.items.pop()
            if item[0] == "var":
                _rebind(names, item[1], item[2])
                continue
            node = item[1]
            kind = type(node)
            now = {**env, **names}
            if kind is T.Do:
                work.items.extend(("node", a) for a in reversed(node.actions))
            elif kind is T.Conditional:
                if ex.ev(node.condition, now, st):
                    work.items.append(("node", node.action))
            elif kind is T.Let:
                name = node.var.name
                names[name] = value = ex.ev(node.value, now, st)
                work.items.append(("node", node.action))
                work.level += 1
                done.append((_LOOP, name, value, work.level))
            elif kind is T.AllDo:
                name = node.var.name
                for x in ex.iterate(node.collection, now, st):  # pushed in order: run last first
                    work.items += [("var", name, _UNSET), ("node", node.action), ("var", name, x)]
            elif kind is T.AnyDo:
                elements = ex.iterate(node.collection, now, st)
                if elements:
                    name = node.var.name
                    work.items.append(("node", node.action))
                    names[name] = elements[0]
                    for x in elements[1:]:
                        later = work.set_aside()
                        pending.append(later)
                        done.append((_LOOP, name, x, later.level))
                    work.level += 1
                    done.append((_LOOP, name, elements[0], work.level))
            else:  # an action: run now (its effects journaled), undone as the path ends
                mark = len(st.journal)
                ex.at = node
                run = ex.flat(node)
                if run is None:
                    raise ex.error(node, "compat mode cannot walk this option as the reference engine does: an "
                                         "`any` or `choice` inside a form other than do, let, all or any")
                run(now, st)
                done.append((_ACT, mark))
        if any(d[0] == _ACT for d in done) and st.journal:
            out.append(tuple(st.journal))
        _unwind(st, done, names)


def _unwind(st, done: list, names: dict) -> None:
    """Undo the path's actions back to the element to try next, and bind it (the reference's
    unwinding: a finished level's elements are dropped on the way)."""
    _undo_actions(st, done)
    level = 0
    if done:
        _, name, _, level = done.pop()
        names.pop(name, None)
    while True:
        _undo_actions(st, done)
        if not done:
            return
        _, name, value, at = done[-1]
        if at == level:
            names[name] = value
            return
        done.pop()
        level = at


def _undo_actions(st, done: list) -> None:
    while done and done[-1][0] == _ACT:
        undo_to(st, st.journal, done.pop()[1])


_UNSET = object()
