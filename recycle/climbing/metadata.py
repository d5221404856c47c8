"""Climbing metadata: the few facts about a RECYCLE climbing game the adapter cannot derive.

The adapter (`recycle.climbing.adapter`) finds a play's cards and its (value, count)
from the game itself; it only needs to be told which location is each
player's hand, which is the table the plays go to, and which point map
orders the values. One line says it, in the game's own names:

    hand=HAND table=TABLE order=VALUE [value=RANKS] [rank=PLACE] [reverse=REV]

- `hand`: the location every player holds its cards in (`('P iloc HAND)`);
- `table`: the game's location plays are moved to (`(game vloc TABLE)`);
- `order`: the game's point map whose scores order the values (a value is as
  strong as its weakest card: BigTwo's ORDER = 4 * value + suit works);
- `value` (optional): a point map giving each card its `.rul` value (3..14,
  15 a two, 16 a joker); without it a card's value is its RANK (TWO is 15,
  ACE 14, JOKER 16, whatever the game's order);
- `rank` (optional): the player storage `('P sto NAME)` holding each
  player's rank from a previous round (1 best; 0 or unset: none);
- `reverse` (optional): the game storage `(game sto NAME)` that is not 0
  while the order is reversed (Daifugo's revolution).

It is read, first found wins, from: the text given on the command line
(`--climbing "..."`), a sidecar file `STEM.climbing` next to the game (the
line, optionally after `climbing:`; `#` and `;` start comments; this is how
read-only games such as the corpus's get it), or a header comment of the
game file (`;; climbing: hand=HAND table=TABLE order=VALUE`). Every mistake
is a located error (file:line:col, caret, hint naming what the game has).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from recycle.kernel import user_files as uploads
from recycle.kernel.diagnostics import Diagnostic, DiagnosticError, read_user_file
from recycle.kernel.suggest import nearest_names
from recycle.lang import MAX_CHARS
from recycle.lang import tree as T

#: Keys of the metadata line: what each one names.
KEYS = {"hand": "each player's hand location", "table": "the game's location plays go to",
        "order": "the point map that orders the values", "value": "the point map giving .rul values",
        "rank": "the player storage holding last round's rank",
        "reverse": "the game storage that is not 0 during a revolution"}
REQUIRED = ("hand", "table", "order")
USAGE = "hand=LOCATION table=LOCATION order=POINTMAP [value=POINTMAP] [rank=STORAGE] [reverse=STORAGE]"
SIDECAR_SUFFIX = ".climbing"
_HEADER = re.compile(r"^\s*;+\s*climbing\s*:", re.IGNORECASE)
_PAIR = re.compile(r"(\S+?)=(\S*)|\S+")
_NAME = re.compile(r"'?[A-Za-z_][A-Za-z0-9_-]*$")
#: Characters of metadata text read (it is one line; anything longer is a mistake).
MAX_META_CHARS = 1000


class ClimbingMetaError(DiagnosticError, ValueError):
    """Climbing metadata missing, malformed or naming what the game does not have."""


@dataclass(frozen=True)
class ClimbingMeta:
    """What the adapter is told about a game (names as the game writes them)."""

    hand: str
    table: str
    order: str
    value: str | None = None
    rank: str | None = None
    reverse: str | None = None
    source: str = ""  # where it was read, `file:line`

    def text(self) -> str:
        return " ".join(f"{k}={getattr(self, k)}" for k in KEYS if getattr(self, k))


@dataclass(frozen=True)
class _Line:
    """One metadata line and where it stands, for located errors."""

    text: str
    filename: str
    line: int = 1
    offset: int = 0  # column of text[0] in the source line, 0-based
    source: str = ""

    def error(self, col: int, length: int, message: str, expected: str = "", hint: str = "") -> ClimbingMetaError:
        shown = self.source or self.text
        return ClimbingMetaError([Diagnostic(self.filename, self.line, self.offset + col + 1, message, shown,
                                             max(1, length), expected, hint)])


@dataclass(frozen=True)
class GameNames:
    """The names a game uses, found in its syntax tree (nothing is run)."""

    player_locations: dict[str, str]  # name -> visibility
    game_locations: dict[str, str]
    point_maps: frozenset[str]
    player_storage: frozenset[str]
    game_storage: frozenset[str]

    def summary(self) -> str:
        parts = [("player locations", self.player_locations), ("game locations", self.game_locations),
                 ("point maps", self.point_maps)]
        return "; ".join(f"{what}: {', '.join(sorted(names)) or 'none'}" for what, names in parts)


def game_names(game: T.Game) -> GameNames:
    """Every location, point map and player storage named in `game` (a walk of its finite tree)."""
    players: dict[str, str] = {}
    tables: dict[str, str] = {}
    maps: set[str] = set()
    storage: set[str] = set()
    game_storage: set[str] = set()
    for node in T.walk(game):
        kind = type(node)
        if kind is T.Location and isinstance(node.name, T.Name):
            owner = _owner_kind(node.owner)
            if owner == "game":
                tables.setdefault(node.name.value, node.visibility)
            elif owner == "player":
                players.setdefault(node.name.value, node.visibility)
        elif kind is T.PointStorage and isinstance(node.name, T.Name) and isinstance(node.owner, T.GameOwner):
            maps.add(node.name.value)
        elif kind is T.PutPoints:
            maps.add("'" + node.var.name.lstrip("'"))
        elif kind is T.IntStorage and isinstance(node.name, T.Name):
            owner = _owner_kind(node.owner)
            if owner == "player":
                storage.add(node.name.value)
            elif owner == "game":
                game_storage.add(node.name.value)
    return GameNames(players, tables, frozenset(maps), frozenset(storage), frozenset(game_storage))


def _owner_kind(owner: T.Node) -> str:
    if isinstance(owner, T.GameOwner):
        return "game"
    if isinstance(owner, (T.TeamRef, T.TeamAt, T.TeamOf)) or (isinstance(owner, T.Var) and owner.kind == "team"):
        return "team"
    return "player"


def read_meta(game: T.Game, explicit: str | None = None) -> ClimbingMeta:
    """The game's climbing metadata, checked against its names; raises `ClimbingMetaError`."""
    names = game_names(game)
    if explicit is not None:
        line = _Line(explicit[:MAX_META_CHARS], "--climbing")
    else:
        line = _sidecar(Path(game.filename)) or _header(game.filename)
        if line is None:
            raise _missing(game, names)
    return _check(_parse(line), line, names)


def _sidecar(path: Path) -> _Line | None:
    side = path.with_name(path.stem + SIDECAR_SUFFIX)
    if not uploads.is_file(side):  # on a cluster's worker: the files that travelled with the task
        return None
    text, problems = read_user_file(side, MAX_META_CHARS * 10, "a climbing metadata file")
    if text is None:
        raise ClimbingMetaError(problems)
    for number, source in enumerate(text.splitlines()[:1000], 1):  # bounded: a user file
        body = re.split(r"[#;]", source, maxsplit=1)[0]
        if body.strip():
            start = len(body) - len(body.lstrip())
            prefix = re.match(r"\s*climbing\s*:\s*", body, re.IGNORECASE)
            start = prefix.end() if prefix else start
            return _Line(body[start:], str(side), number, start, source)
    raise ClimbingMetaError([Diagnostic(str(side), 1, 1, "the climbing metadata file is empty",
                                        expected=USAGE)])


def _header(filename: str) -> _Line | None:
    if not uploads.is_file(filename):
        return None
    text, _ = read_user_file(filename, MAX_CHARS, "a RECYCLE game")  # unreadable: load_game said so first
    for number, source in enumerate((text or "").splitlines(), 1):
        stripped = source.lstrip()
        if stripped and not stripped.startswith(";"):
            continue
        found = _HEADER.match(source)
        if found:
            start = found.end() + len(source[found.end():]) - len(source[found.end():].lstrip())
            return _Line(source[start:], filename, number, start, source)
    return None


def _missing(game: T.Game, names: GameNames) -> ClimbingMetaError:
    filename = game.filename
    source = ""
    if Path(filename).is_file():
        text, _ = read_user_file(filename, MAX_CHARS, "a RECYCLE game")
        source = (text or "").split("\n", 1)[0]
    stem = Path(filename).stem
    likely = suggest(game, names)
    guess = (f"probably --climbing \"{likely}\" (guessed from where cards move and which point maps "
             f"compare them); " if likely else "")
    return ClimbingMetaError([Diagnostic(
        filename, 1, 1, "this game has no climbing metadata (which location is the hand, the table, "
                        "which point map orders values)", source,
        expected=f"a header comment ';; climbing: {USAGE}'",
        hint=f"{guess}add that line to the header comments, write it in {stem}{SIDECAR_SUFFIX} next to the "
             f"game, or pass --climbing \"hand=... table=... order=...\"; this game has {names.summary()}")])


#: Names that usually mean the role (a tie-break between equally likely candidates).
_USUAL = {"hand": ("HAND",), "table": ("TABLE", "PILE", "PLAY", "SEQUENCE", "TRICK", "CENTER"),
          "order": ("VALUE", "ORDER", "PRECEDENCE", "RANK", "RANKS", "POWER")}


def suggest(game: T.Game, names: GameNames | None = None) -> str:
    """The likely metadata line of a climbing game, from its tree: the hand is the private
    player location cards leave most, the table the game location they go to most, the order
    the point map most compared with (`using`); '' when the game lacks one of them."""
    names = names or game_names(game)
    left: dict[str, int] = {}
    went: dict[str, int] = {}
    used: dict[str, int] = {}
    for node in T.walk(game):
        if type(node) is T.Move:
            src, dst = _named(node.card), _named(node.to)
            if src is not None and src[0] == "player":
                left[src[1]] = left.get(src[1], 0) + 1
            if dst is not None and dst[0] == "game" and (src is None or src[0] != "game"):
                went[dst[1]] = went.get(dst[1], 0) + 1  # a play: from a hand (or a card chosen), not a sweep
        pm = getattr(node, "using", None)
        if isinstance(pm, T.PointStorage) and isinstance(pm.name, T.Name):
            used[pm.name.value] = used.get(pm.name.value, 0) + 1
        elif isinstance(pm, T.Var):
            used["'" + pm.name] = used.get("'" + pm.name, 0) + 1
    hands = {n: 2 * left.get(n, 0) + (v == "iloc") for n, v in names.player_locations.items()}
    tables = {n: 2 * went.get(n, 0) + (v == "vloc") for n, v in names.game_locations.items()}
    orders = {n: used.get(n, 0) for n in names.point_maps}
    picked = [_best(hands, "hand"), _best(tables, "table"), _best(orders, "order")]
    if None in picked:
        return ""
    return " ".join(f"{key}={name}" for key, name in zip(("hand", "table", "order"), picked))


def _named(end) -> tuple[str, str] | None:
    """(owner kind, name) of a move's `(top|bottom (OWNER vloc NAME))`, None for a card by value."""
    loc = getattr(end, "cards", None)
    if type(loc) is T.Location and isinstance(loc.name, T.Name):
        return _owner_kind(loc.owner), loc.name.value
    return None


def _best(scores: dict[str, int], key: str) -> str | None:
    if not scores:
        return None
    usual = _USUAL[key]
    return max(sorted(scores), key=lambda n: (scores[n], n.lstrip("'") in usual))


def _parse(line: _Line) -> dict[str, tuple[str, int]]:
    """key -> (name, column of the name): syntax only."""
    found: dict[str, tuple[str, int]] = {}
    for m in _PAIR.finditer(line.text):
        if m.group(1) is None:
            raise line.error(m.start(), len(m.group(0)), f"{m.group(0)!r} is not KEY=NAME", USAGE)
        key, name = m.group(1).lower(), m.group(2)
        if key not in KEYS:
            close = nearest_names(key, list(KEYS), 1)
            raise line.error(m.start(), len(m.group(1)), f"unknown climbing key {m.group(1)!r}", USAGE,
                             f"did you mean {close[0]}?" if close else f"the keys are {', '.join(KEYS)}")
        if key in found:
            raise line.error(m.start(), len(m.group(1)), f"{key} is given twice", USAGE)
        if not _NAME.match(name):
            raise line.error(m.start(2), len(name), f"{key}= needs a name, not {name!r}", USAGE,
                             "names are written as in the game, e.g. HAND")
        found[key] = (name, m.start(2))
    for key in REQUIRED:
        if key not in found:
            raise line.error(len(line.text.rstrip()), 1, f"the climbing metadata does not name {key}= "
                             f"({KEYS[key]})", USAGE)
    return found


def _check(found: dict[str, tuple[str, int]], line: _Line, names: GameNames) -> ClimbingMeta:
    """Every name must be one the game uses, of the right kind."""
    point_map = ("point map", names.point_maps, "a point map of the game, as in (game points VALUE)")
    wanted = {"hand": ("player location", names.player_locations,
                       "a location the game gives each player, as in ('P iloc HAND)"),
              "table": ("game location", names.game_locations, "a location of the game, as in (game vloc TABLE)"),
              "order": point_map, "value": point_map,
              "rank": ("player storage", names.player_storage, "a player storage, as in ('P sto PLACE)"),
              "reverse": ("game storage", names.game_storage, "a game storage, as in (game sto REV)")}
    for key, (name, col) in found.items():
        what, have, expected = wanted[key]
        if name not in have:
            close = nearest_names(name, sorted(have), 1)
            mean = f"did you mean {close[0]}? " if close else ""
            raise line.error(col, len(name), f"{key}={name}: the game has no {what} named {name}", expected,
                             f"{mean}this game has {names.summary()}")
    return ClimbingMeta(**{k: v[0] for k, v in found.items()}, source=f"{line.filename}:{line.line}")
