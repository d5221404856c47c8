"""Primitive effects: every change a RECYCLE game makes, one small object each.

An effect knows how to `apply` itself to a `Store`, `undo` itself (so a
choice's options can be tried and taken back), say what it does in words
(`text`, for the player `viewer`: cards it could not see when the choice came
are named by position, the same in every determinization) and give a
transcript `record`.
Effects are immutable once made, so one option's effects are shared by every
clone of the state that offers it.
"""
from __future__ import annotations

from dataclasses import dataclass

from recycle.interp.knowledge import apply_changes
from recycle.interp.store import Store, Table, loc_text, owner_text

#: The old value of a storage that was not set before.
MISSING = object()


def seen(table: Table, st: Store, card: int, viewer: int) -> bool:
    """Does `viewer` see `card` now? Option texts are made when every trial is undone, so
    this is where the card was when the choice came: a card drawn from a hidden pile
    earlier in the same option stays unnamed (its face depends on the hidden deal)."""
    return table.visible(st.where[card], viewer)


class Move:
    """A card from index `si` of `src` to index `di` of `dst`; `ft` is its place from the top
    of `src`, `kn` what players learn or forget (see `knowledge`)."""

    __slots__ = ("card", "src", "si", "dst", "di", "ft", "kn")

    def __init__(self, card, src, si, dst, di, ft, kn=()):
        self.card, self.src, self.si, self.dst, self.di, self.ft, self.kn = card, src, si, dst, di, ft, kn

    def apply(self, st: Store) -> None:
        del st.locs[self.src][self.si]
        st.loc(self.dst).insert(self.di, self.card)
        st.where[self.card] = self.dst
        if self.kn:
            apply_changes(st, self.kn)

    def undo(self, st: Store) -> None:
        del st.locs[self.dst][self.di]
        st.locs[self.src].insert(self.si, self.card)
        st.where[self.card] = self.src
        if self.kn:
            apply_changes(st, self.kn, undo=True)

    def text(self, table: Table, st: Store, viewer: int) -> str:
        if seen(table, st, self.card, viewer):
            what = table.text[self.card]
        else:  # the chooser cannot see it: name it by position, the same in every determinization
            what = "top card" if self.ft == 0 else f"card {self.ft} from the top"
        return f"move {what} from {loc_text(self.src)} to {loc_text(self.dst)}"

    def record(self, table: Table) -> dict:
        return {"t": "move", "card": table.text[self.card], "id": self.card,
                "from": loc_text(self.src), "to": loc_text(self.dst), "at": self.di}


class Remember:
    __slots__ = ("card", "dst", "di")

    def __init__(self, card, dst, di):
        self.card, self.dst, self.di = card, dst, di

    def apply(self, st: Store) -> None:
        st.loc(self.dst).insert(self.di, self.card)

    def undo(self, st: Store) -> None:
        del st.locs[self.dst][self.di]

    def text(self, table: Table, st: Store, viewer: int) -> str:
        what = table.text[self.card] if seen(table, st, self.card, viewer) else "a card"
        return f"remember {what} in {loc_text(self.dst)}"

    def record(self, table: Table) -> dict:
        return {"t": "remember", "card": table.text[self.card], "id": self.card, "to": loc_text(self.dst)}


class Forget:
    __slots__ = ("card", "src", "si")

    def __init__(self, card, src, si):
        self.card, self.src, self.si = card, src, si

    def apply(self, st: Store) -> None:
        del st.locs[self.src][self.si]

    def undo(self, st: Store) -> None:
        st.locs[self.src].insert(self.si, self.card)

    def text(self, table: Table, st: Store, viewer: int) -> str:
        what = table.text[self.card] if seen(table, st, self.card, viewer) else "a card"
        return f"forget {what} in {loc_text(self.src)}"

    def record(self, table: Table) -> dict:
        return {"t": "forget", "card": table.text[self.card], "id": self.card, "from": loc_text(self.src)}


class Reorder:
    """A location's whole content replaced (shuffle, faro, swaps)."""

    __slots__ = ("key", "old", "new", "why", "kn")

    def __init__(self, key, old, new, why, kn=()):
        self.key, self.old, self.new, self.why, self.kn = key, tuple(old), tuple(new), why, kn

    def _put(self, st: Store, cards: tuple) -> None:
        st.loc(self.key)[:] = cards
        if self.key[2] != "mem" and self.why != "shuffle":  # a shuffle's cards stay where they are
            for c in cards:
                st.where[c] = self.key

    def apply(self, st: Store) -> None:
        self._put(st, self.new)
        if self.kn:
            apply_changes(st, self.kn)

    def undo(self, st: Store) -> None:
        self._put(st, self.old)
        if self.kn:
            apply_changes(st, self.kn, undo=True)

    def text(self, table: Table, st: Store, viewer: int) -> str:
        return f"{self.why} {loc_text(self.key)}"

    def record(self, table: Table) -> dict:
        return {"t": self.why, "loc": loc_text(self.key), "order": list(self.new)}


class SetValue:
    """A storage write: `kind` is ints, strs, points or gvars (`put points`)."""

    __slots__ = ("kind", "key", "old", "new")

    def __init__(self, kind, key, old, new):
        self.kind, self.key, self.old, self.new = kind, key, old, new

    def apply(self, st: Store) -> None:
        getattr(st, self.kind)[self.key] = self.new

    def undo(self, st: Store) -> None:
        table = getattr(st, self.kind)
        if self.old is MISSING:
            del table[self.key]
        else:
            table[self.key] = self.old

    def name(self) -> str:
        if self.kind == "gvars":
            return f"'{self.key}"
        word = {"ints": "sto", "strs": "str", "points": "points"}[self.kind]
        return f"{owner_text(self.key)} {word} {self.key[2]}"

    def text(self, table: Table, st: Store, viewer: int) -> str:
        return f"set {self.name()} = {self.new}" if self.kind in ("ints", "strs") else f"set {self.name()}"

    def record(self, table: Table) -> dict:
        value = self.new if self.kind in ("ints", "strs") else repr(self.new)
        return {"t": "set", "what": self.name(), "value": value}


class CycleSet:
    """`(cycle next|current ...)`: the innermost player cycle's (current, queued next)."""

    __slots__ = ("depth", "old", "new", "mode")

    def __init__(self, depth, old, new, mode):
        self.depth, self.old, self.new, self.mode = depth, old, new, mode

    def apply(self, st: Store) -> None:
        st.pcycles[self.depth] = self.new

    def undo(self, st: Store) -> None:
        st.pcycles[self.depth] = self.old

    def text(self, table: Table, st: Store, viewer: int) -> str:
        who = self.new[1] if self.mode == "next" else self.new[0]
        return f"{self.mode} player p{who}"

    def record(self, table: Table) -> dict:
        return {"t": "cycle", "mode": self.mode, "current": self.new[0], "next": self.new[1]}


class Pass:
    __slots__ = ()

    def apply(self, st: Store) -> None:
        pass

    undo = apply

    def text(self, table: Table, st: Store, viewer: int) -> str:
        return "pass"

    def record(self, table: Table) -> dict:
        return {"t": "pass"}


@dataclass(frozen=True, eq=False)
class RecycleAction:
    """One option of a choice: its index among the options and its text. What it does
    (its effects, hidden cards included) stays inside the state that offered it."""

    index: int
    text: str

    def __eq__(self, other) -> bool:
        return isinstance(other, RecycleAction) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text


_new = object.__new__


def action(index: int, text: str) -> RecycleAction:
    """`RecycleAction(index, text)`, made as its frozen `__init__` does but at half the cost
    (one is made for every option of every choice)."""
    made = _new(RecycleAction)
    fields = made.__dict__  # a frozen dataclass: its fields are set in place
    fields["index"] = index
    fields["text"] = text
    return made
