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
  literal text `L`, never as a variable (`literal_location_names`).
"""
from __future__ import annotations

import dataclasses

from recycle.lang import tree as T

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
