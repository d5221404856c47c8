"""Effects as the compiled actions record them: plain tuples, the cheap form of `effects`.

Exploring a choice tries every option and undoes it (`actions.Executor.options`),
so most effects ever made are undone at once and only one option's are applied.
The generated source (`runners`, `explorers`) therefore records the common
effects as plain tuples, whose first item says what they are:

    (MOVE, card, src, si, dst, di, ft, kn)     as `effects.Move`
    (INTS, key, old, new)                      as `effects.SetValue("ints", ...)`
    (STRS, key, old, new)                      as `effects.SetValue("strs", ...)`
    (CYCLE, depth, old, new, mode)             as `effects.CycleSet`

A journal or an option may mix them with effect objects (the rarer effects
are made by the `_do_Form` methods). `effect(entry)` is the object an entry
stands for: what `RecycleState.effects` shows, what a transcript records.
"""
from __future__ import annotations

from recycle.interp.effects import MISSING, CycleSet, Move, SetValue
from recycle.interp.knowledge import apply_changes

MOVE, INTS, STRS, CYCLE = 0, 1, 2, 3


def effect(entry):
    """The effect object a journal entry stands for."""
    if type(entry) is not tuple:
        return entry
    tag = entry[0]
    if tag == MOVE:
        return Move(*entry[1:])
    if tag == CYCLE:
        return CycleSet(*entry[1:])
    return SetValue("ints" if tag == INTS else "strs", *entry[1:])


def undo_to(st, journal: list, mark: int) -> None:
    """Undo, last first, what `journal` holds after `mark`, and drop it."""
    locs, where = st.locs, st.where
    for entry in reversed(journal[mark:]):
        if type(entry) is not tuple:
            entry.undo(st)
            continue
        tag = entry[0]
        if tag == MOVE:
            _, card, src, si, dst, di, _, kn = entry
            del locs[dst][di]
            locs[src].insert(si, card)
            where[card] = src
            if kn:
                apply_changes(st, kn, undo=True)
        elif tag == INTS:
            _, key, old, _ = entry
            if old is MISSING:
                del st.ints[key]
            else:
                st.ints[key] = old
        elif tag == CYCLE:
            st.pcycles[entry[1]] = entry[2]
        else:
            _, key, old, _ = entry
            if old is MISSING:
                del st.strs[key]
            else:
                st.strs[key] = old
    del journal[mark:]


def apply_all(st, entries: tuple) -> None:
    """Do an option's effects (as `Store.do` would: journaled or logged as objects when asked)."""
    if st.journal is not None or st.log is not None:
        for entry in entries:
            st.do(effect(entry))
        return
    locs, where = st.locs, st.where
    for entry in entries:
        if type(entry) is not tuple:
            entry.apply(st)
            continue
        tag = entry[0]
        if tag == MOVE:
            _, card, src, si, dst, di, _, kn = entry
            del locs[src][si]
            got = locs.get(dst)
            if got is None:
                got = locs[dst] = []
            got.insert(di, card)
            where[card] = dst
            if kn:
                apply_changes(st, kn)
        elif tag == CYCLE:
            st.pcycles[entry[1]] = entry[3]
        else:
            (st.ints if tag == INTS else st.strs)[entry[1]] = entry[3]


def option_texts(options, table, st, viewer: int) -> list[str]:
    """What each option does, in words: its effects' texts joined by "; ". The texts of integer
    writes and moves (most options) are kept in `table.phrases` by what decides their words:
    the value written, or the card (or its place from the top when `viewer` cannot see it).
    (One call for all the options of a choice: the loop is the hot part of offering them.)"""
    phrases, where, sights, texts = table.phrases, st.where, table.sights, []
    for entries in options:
        parts = []
        for e in entries:
            if type(e) is tuple:
                tag = e[0]
                if tag == MOVE:
                    card = e[1]
                    seen = sights.get(where[card]) or table.sight(where[card])
                    key = (card if seen[viewer] else -1 - e[6], e[2], e[4])  # a move's key: three items
                elif tag == INTS:
                    key = (e[1], e[3])  # an integer write's: two
                else:
                    parts.append(effect(e).text(table, st, viewer))
                    continue
            else:
                kind = type(e)
                if kind is SetValue and e.kind == "ints":
                    key = (e.key, e.new)
                elif kind is Move:
                    key = (e.card if table.sight(where[e.card])[viewer] else -1 - e.ft, e.src, e.dst)
                else:
                    parts.append(e.text(table, st, viewer))
                    continue
            got = phrases.get(key)
            parts.append(table.keep(key, effect(e).text(table, st, viewer)) if got is None else got)
        texts.append("; ".join(parts))
    return texts


class OptionEffects:
    """`RecycleState.effects`: per option, its effects as objects (made when asked for)."""

    __slots__ = ("found",)

    def __init__(self, found: tuple) -> None:
        self.found = found

    def __len__(self) -> int:
        return len(self.found)

    def __getitem__(self, index: int) -> tuple:
        return tuple(effect(entry) for entry in self.found[index])

    def __iter__(self):
        return (self[i] for i in range(len(self.found)))


def all_read_apart(options, table, st, viewer: int) -> bool:
    """True only if no two options can read alike, found from the cards they move without
    making words, where no effect's words hold a ';' and no two cards have the same name.
    Then two texts are equal only when the options have as many effects and the same words
    at each place, and two moves of cards `viewer` sees, between the same locations, read
    alike only when they move the same card. Options of one length are told apart move by
    move. (False: maybe alike, their texts decide.)"""
    by_length: dict[int, list] = {}
    for entries in options:
        by_length.setdefault(len(entries), []).append(entries)
    sights, where = table.sights, st.where
    for group in by_length.values():
        if len(group) < 2:
            continue
        alike = [group]  # options not told apart yet, in classes of two or more
        for i, e in enumerate(group[0]):
            if type(e) is not tuple or e[0] != MOVE:
                continue
            split = []
            for members in alike:
                first = members[0][i]
                if type(first) is not tuple or first[0] != MOVE:  # (this class: no move here to tell by)
                    split.append(members)
                    continue
                _, _, src, _, dst, *_ = first
                by_card: dict[int, list] | None = {}
                for entries in members:
                    m = entries[i]
                    if type(m) is not tuple or m[0] != MOVE or m[2] != src or m[4] != dst \
                            or not (sights.get(where[m[1]]) or table.sight(where[m[1]]))[viewer]:
                        by_card = None
                        break
                    by_card.setdefault(m[1], []).append(entries)
                split += [members] if by_card is None else [c for c in by_card.values() if len(c) > 1]
            alike = split
            if not alike:
                break
        if alike:
            return False
    return True
