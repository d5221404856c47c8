"""Option texts that do not depend on what the chooser cannot see (docs/recycle-language.md,
"Options and hidden cards").

A choice whose syntax reads cards' faces (`reads_faces`: a filter, a card attribute, a point
map...) may offer options that depend on hidden faces. Its options are worded canonically:

- a card the chooser could not see when the choice came is named by its rank among the hidden
  cards of its place that the choice's options move (`hidden card 2 of p0 HAND`: the second from
  the top of those), not by its place in the location. Which hidden cards qualify is then not
  told, only how many;
- an option's words end at its first such card (its first *draw*): what follows may be decided
  by the drawn card's face (a hit that busts does not pass the turn), which the chooser does not
  know when it chooses. Options reading alike that do different things are numbered
  (`(way 1)`, `(way 2)`, in the order the choice offers them), so none is lost; options doing
  the very same thing still read alike and are one decision.

Applying an option is unchanged: the option at that index, i.e. the real card of that rank.
"""
from __future__ import annotations

from recycle.lang import tree as T

from .effects import Move
from .state import loc_text
from .undo import effect, option_texts

#: Syntax nodes that read a card's face (besides any node with a point map, `using`).
FACE_READERS = (T.Filter, T.CardAtt, T.Partition)


def reads_faces(choice) -> bool:
    """Does this choice's syntax read a card's face (so its options may depend on hidden faces)?"""
    return any(isinstance(n, FACE_READERS) or "using" in n.__dataclass_fields__ for n in T.walk(choice))


def hidden_ranks(options, table, st, viewer: int) -> dict[int, tuple[tuple, int]]:
    """card -> (its place, its rank from the top among that place's hidden cards the options move),
    for every card the options move that `viewer` cannot see where it is (all trials undone)."""
    where, by_place = st.where, {}
    for entries in options:
        for e in entries:
            card = _moved(e)
            if card is not None and not table.visible(where[card], viewer):
                by_place.setdefault(where[card], set()).add(card)
    ranks = {}
    for place, cards in by_place.items():
        pile = st.locs[place]
        top_first = sorted(cards, key=lambda c: len(pile) - 1 - pile.index(c))
        ranks.update((c, (place, k)) for k, c in enumerate(top_first, 1))
    return ranks


def _moved(entry) -> int | None:
    """The card a move entry (tuple or `Move`) moves, else None."""
    if type(entry) is tuple:
        return entry[1] if entry[0] == 0 else None  # undo.MOVE
    return entry.card if type(entry) is Move else None


def canonical_texts(options, table, st, viewer: int) -> list[str]:
    """The options' texts for `viewer`, worded as the module says."""
    ranks = hidden_ranks(options, table, st, viewer)
    if not ranks:  # no hidden card moved: the usual words (and their cache)
        return option_texts(options, table, st, viewer)
    told, full = [], []
    for entries in options:
        words, cut = [], None
        for e in map(effect, entries):
            if type(e) is Move and e.card in ranks:
                place, k = ranks[e.card]
                came = "" if place == e.src else f" from {loc_text(e.src)}"
                words.append(f"move hidden card {k} of {loc_text(place)}{came} to {loc_text(e.dst)}")
                cut = len(words) if cut is None else cut
            else:
                words.append(e.text(table, st, viewer))
        told.append("; ".join(words[:cut]))
        full.append("; ".join(words))
    ways: dict[str, dict[str, int]] = {}
    for t, f in zip(told, full):
        ways.setdefault(t, {}).setdefault(f, len(ways[t]) + 1)
    return [t if len(ways[t]) == 1 else f"{t} (way {ways[t][f]})" for t, f in zip(told, full)]
