"""Option texts that do not depend on what the chooser cannot see (docs/recycle-language.md,
"Options and hidden cards").

A choice whose syntax reads cards' faces (`reads_faces`: a filter, a card attribute, a point
map...) may offer options that depend on hidden faces. Its options are worded canonically:

- a card the chooser could not see when the choice came is named by its rank among the hidden
  cards of its place that the options of the same rule of the choice (one of its `(choice ...)`
  items) move (`hidden card 2 of p0 HAND`: the second from the top of those), not by its place
  in the location; where two rules move hidden cards of one place, each says which it is
  (`(rule 2)`), so a card two rules may both take is two options. Which hidden cards qualify
  is then not told, only how many for each rule;
- an option's words end at its first such card (its first *draw*): what follows may be decided
  by the drawn card's face (a hit that busts does not pass the turn), which the chooser does not
  know when it chooses. Options reading alike that do different things are numbered
  (`(way 1)`, `(way 2)`, in the order the choice offers them), so none is lost; options doing
  the very same thing still read alike and are one decision.

Applying an option is unchanged: the option at that index, i.e. the real card of that rank.
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.effects import Move
from recycle.interp.store import loc_text
from recycle.interp.undo import MOVE, effect, option_texts

#: Syntax nodes that read a card's face (besides any node with a point map, `using`).
FACE_READERS = (T.Filter, T.CardAtt, T.Partition)


def reads_faces(choice) -> bool:
    """Does this choice's syntax read a card's face (so its options may depend on hidden faces)?"""
    return any(isinstance(n, FACE_READERS) or "using" in n.__dataclass_fields__ for n in T.walk(choice))


class ByRule(tuple):
    """A choice's options (a tuple of effect tuples) with `rules`: the index of the choice's item
    (its rule) that made each option."""

    def __new__(cls, options, rules):
        made = super().__new__(cls, options)
        made.rules = tuple(rules)
        return made


def options_by_rule(ex, choice, env, st) -> ByRule:
    """`ex.options(choice, ...)`, each rule of the choice explored alone, in order (the very same
    options: a choice's options are its rules' options one after the other)."""
    options, rules = [], []
    for i, rule in enumerate(choice.options):
        got = ex.options(rule, env, st)
        options += got
        rules += [i] * len(got)
    return ByRule(options, rules)


def rules_matter(options, table, st, viewer: int) -> bool:
    """Could two rules move hidden cards of one place (so each option's rule must be known)? Only
    if two options do: most choices (one draw, or no hidden card) are explored once."""
    where, sights, by_place = st.where, table.sights, {}
    for i, entries in enumerate(options):
        for card in _cards(entries):
            if not (sights.get(where[card]) or table.sight(where[card]))[viewer]:
                if by_place.setdefault(where[card], i) != i:
                    return True
    return False


def _cards(entries) -> list[int]:
    """The cards an option's entries (tuples or effect objects) move, in order."""
    return [e[1] if type(e) is tuple else e.card for e in entries
            if (e[0] == MOVE if type(e) is tuple else type(e) is Move)]


def kept(options, indices) -> tuple:
    """The options at `indices` (in order), keeping their rules if they have them."""
    chosen = [options[i] for i in indices]
    return ByRule(chosen, [options.rules[i] for i in indices]) if type(options) is ByRule else tuple(chosen)


def frozen(options) -> tuple:
    """The options as a tuple (a `ByRule` kept as it is)."""
    return options if isinstance(options, tuple) else tuple(options)


def hidden_ranks(options, table, st, viewer: int) -> dict[tuple[int, int], tuple[tuple, int, int | None]]:
    """(option index, card) -> (the card's place, its rank from the top among the place's hidden
    cards the options of its rule move, the rule if another rule also moves hidden cards of that
    place, else None), for every card the options move that `viewer` cannot see where it is (all
    trials undone)."""
    where, sights, moved = st.where, table.sights, {}  # moved: (rule, place) -> cards
    rules = options.rules if type(options) is ByRule else (0,) * len(options)
    for rule, entries in zip(rules, options):
        for card in _cards(entries):
            if not (sights.get(where[card]) or table.sight(where[card]))[viewer]:
                moved.setdefault((rule, where[card]), set()).add(card)
    if not moved:
        return {}
    places = [place for _, place in moved]
    ranks = {}
    for (rule, place), cards in moved.items():
        pile = st.locs[place]
        top_first = sorted(cards, key=lambda c: len(pile) - 1 - pile.index(c))
        said = rule if places.count(place) > 1 else None
        ranks.update(((rule, c), (place, k, said)) for k, c in enumerate(top_first, 1))
    return {(i, card): ranks[(rule, card)] for i, (rule, entries) in enumerate(zip(rules, options))
            for card in _cards(entries) if (rule, card) in ranks}


def canonical_texts(options, table, st, viewer: int) -> list[str]:
    """The options' texts for `viewer`, worded as the module says."""
    ranks = hidden_ranks(options, table, st, viewer)
    if not ranks:  # no hidden card moved: the usual words (and their cache)
        return option_texts(options, table, st, viewer)
    ranked = {i for i, _ in ranks}
    plain = iter(option_texts([o for i, o in enumerate(options) if i not in ranked], table, st, viewer))
    told, full = [], []
    for i, entries in enumerate(options):
        if i not in ranked:  # no hidden card: the usual words (made at once, with their cache)
            words = next(plain)
            told.append(words)
            full.append(words)
            continue
        words, cut = [], None
        for e in map(effect, entries):
            if type(e) is Move and (i, e.card) in ranks:
                place, k, rule = ranks[(i, e.card)]
                came = "" if place == e.src else f" from {loc_text(e.src)}"
                said = "" if rule is None else f" (rule {rule + 1})"
                words.append(f"move hidden card {k} of {loc_text(place)}{came} to {loc_text(e.dst)}{said}")
                cut = len(words) if cut is None else cut
            else:
                words.append(e.text(table, st, viewer))
        told.append("; ".join(words[:cut]))
        full.append("; ".join(words))
    ways: dict[str, dict[str, int]] = {}
    for t, f in zip(told, full):
        ways.setdefault(t, {}).setdefault(f, len(ways[t]) + 1)
    return [t if len(ways[t]) == 1 else f"{t} (way {ways[t][f]})" for t, f in zip(told, full)]
