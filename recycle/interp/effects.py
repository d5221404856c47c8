"""Primitive effects: every change a RECYCLE game makes, one small object each.

An effect knows how to `apply` itself to a `Store`, `undo` itself (so a
choice's options can be tried and taken back), say what it does in words
(`text`, for the player `viewer`: cards it cannot see are named by position,
the same in every determinization) and give a transcript `record`.
Effects are immutable once made, so one option's effects are shared by every
clone of the state that offers it.
"""
from __future__ import annotations

from .state import Store, Table, loc_text, owner_text

#: The old value of a storage that was not set before.
MISSING = object()


class Move:
    __slots__ = ("card", "src", "si", "dst", "di", "ft")

    def __init__(self, card, src, si, dst, di, ft):
        self.card, self.src, self.si, self.dst, self.di, self.ft = card, src, si, dst, di, ft

    def apply(self, st: Store) -> None:
        del st.locs[self.src][self.si]
        st.loc(self.dst).insert(self.di, self.card)
        st.where[self.card] = self.dst

    def undo(self, st: Store) -> None:
        del st.locs[self.dst][self.di]
        st.locs[self.src].insert(self.si, self.card)
        st.where[self.card] = self.src

    def text(self, table: Table, viewer: int) -> str:
        if table.visible(self.src, viewer):
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

    def text(self, table: Table, viewer: int) -> str:
        return f"remember {table.text[self.card]} in {loc_text(self.dst)}"

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

    def text(self, table: Table, viewer: int) -> str:
        return f"forget {table.text[self.card]} in {loc_text(self.src)}"

    def record(self, table: Table) -> dict:
        return {"t": "forget", "card": table.text[self.card], "id": self.card, "from": loc_text(self.src)}


class Reorder:
    """A location's whole content replaced (shuffle, faro, swaps)."""

    __slots__ = ("key", "old", "new", "why")

    def __init__(self, key, old, new, why):
        self.key, self.old, self.new, self.why = key, tuple(old), tuple(new), why

    def _put(self, st: Store, cards: tuple) -> None:
        st.loc(self.key)[:] = cards
        if self.key[2] != "mem":
            for c in cards:
                st.where[c] = self.key

    def apply(self, st: Store) -> None:
        self._put(st, self.new)

    def undo(self, st: Store) -> None:
        self._put(st, self.old)

    def text(self, table: Table, viewer: int) -> str:
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

    def text(self, table: Table, viewer: int) -> str:
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

    def text(self, table: Table, viewer: int) -> str:
        who = self.new[1] if self.mode == "next" else self.new[0]
        return f"{self.mode} player p{who}"

    def record(self, table: Table) -> dict:
        return {"t": "cycle", "mode": self.mode, "current": self.new[0], "next": self.new[1]}


class Pass:
    __slots__ = ()

    def apply(self, st: Store) -> None:
        pass

    undo = apply

    def text(self, table: Table, viewer: int) -> str:
        return "pass"

    def record(self, table: Table) -> dict:
        return {"t": "pass"}
