"""The results file: one JSON line per finished game, so no work is ever lost.

Line 1 is a header with the tournament's full configuration; every other line
is one finished game. Lines are appended (and flushed to the OS) the moment a
game finishes, in completion order, so a `kill -9` loses at most the games
still being played. A last line cut short by the kill is ignored and the file
is truncated before it, so the game is played again and written whole.

Reading back checks every line's shape (`recycle.kernel.schema`: an error
names the file, the line and the field) and, given the schedule, that each
game line is the game the tournament plays under its number: an edited line
cannot change the results.
"""
from __future__ import annotations

import json
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from recycle.kernel.arguments import UsageError
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.schema import (MAX_LINE_BYTES, AnyJson, Float, Int, ListOf, MapOf, Obj, Shape, describe,
                                   json_lines, open_checked, parse_line, raw_lines)

from .schedule import Schedule

FORMAT = "recycle-tournament"
VERSION = 1
KIND = "a tournament results file"
MAX_JOURNAL_BYTES = 1 << 32  # a million matches of many rounds fit; anything larger is not ours
MAX_SEATS = 64
MAX_ROUNDS = 100_000  # rounds of one match


class JournalError(UsageError):
    """A results file that cannot be resumed; the message says why."""


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game: per round, every seat's place and points."""

    index: int
    deal: int
    rotation: int
    seats: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]  # places[r][s]: seat s's place in round r (1 = best)
    points: tuple[tuple[float, ...], ...]

    def to_line(self) -> str:
        data = {"game": self.index, "deal": self.deal, "rot": self.rotation, "seats": self.seats,
                "places": self.places, "points": self.points}
        return json.dumps(data, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GameRecord":
        return cls(int(data["game"]), int(data["deal"]), int(data["rot"]), tuple(data["seats"]),
                   tuple(tuple(r) for r in data["places"]), tuple(tuple(r) for r in data["points"]))


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Human-readable differences between two configurations."""
    return [f"{key}: file has {old.get(key)!r}, now {new.get(key)!r}"
            for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]


class Journal:
    """An open results file that games are appended to."""

    def __init__(self, path: Path, fh) -> None:
        self.path = path
        self._fh = fh

    @classmethod
    def create(cls, path: str | Path, config: dict[str, Any]) -> "Journal":
        """A new file with its header; refuses to overwrite earlier work."""
        path = Path(path)
        try:
            fh = open(path, "x", encoding="utf-8")
        except FileExistsError:
            raise JournalError(f"{path} already exists: continue it with --resume {path}, "
                               f"or choose another --out") from None
        fh.write(json.dumps({"format": FORMAT, "version": VERSION, "config": config}) + "\n")
        fh.flush()
        return cls(path, fh)

    @classmethod
    def reopen(cls, path: str | Path) -> "Journal":
        """Append to an existing file (after `read_header` and `records`)."""
        return cls(Path(path), open(path, "a", encoding="utf-8"))

    def append(self, record: GameRecord) -> None:
        self._fh.write(record.to_line())
        self._fh.flush()  # into the OS: survives the process being killed

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_header(path: str | Path, config: Shape = MapOf(AnyJson(), 200)) -> dict[str, Any]:
    """The configuration stored in a results file's first line, checked against `config`.

    Special files are refused before opening; a header of the wrong shape is
    a located error naming the field (`t.jsonl:1:1: error: field 'config.matches': ...`).
    """
    path = Path(path)
    if not path.exists():
        raise JournalError(f"no such results file: {path}")
    with closing(raw_lines(path, MAX_JOURNAL_BYTES, KIND)) as lines:
        first = next(lines, None)
    header = None
    if first is not None and first.text.strip():
        try:
            header = parse_line(first)
        except DiagnosticError:
            header = None
    if first is None or not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{path} is not a tournament results file (its first line is not the header)")
    if header.get("version") != VERSION:
        raise JournalError(f"{path} has format version {describe(header.get('version'))}, "
                           f"this program reads {VERSION}")
    return first.check(header, Obj({"config": config}))["config"]


def repair(path: str | Path) -> int:
    """Drop a cut-off last line (the trace of a kill) and blank lines at the end; returns the bytes dropped.

    Blank lines are ignored anywhere (an editor may add some); any other
    damaged line before the end is not a kill's doing, so it is an error.
    """
    path = Path(path)
    good_end = offset = 0
    bad_line = None
    with open_checked(path, KIND) as fh:
        for number, line in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), start=1):
            offset += len(line)
            if not line.strip():
                continue
            if bad_line is not None:
                raise JournalError(f"{path}:{bad_line}: damaged line in the middle of the file")
            if line.endswith(b"\n") and _parses(line):
                good_end = offset
            else:
                bad_line = number
        size = fh.tell()
    if good_end < size:
        with open(path, "r+b") as fh:
            fh.truncate(good_end)
    return size - good_end


def _parses(line: bytes) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def record_shape(schedule: Schedule | None = None) -> Obj:
    """What a game line must be; with a schedule, every number within the tournament's bounds."""
    if schedule is None:
        n, bots, deals, total = None, None, None, None
    else:
        n, bots, deals, total = schedule.seats, schedule.bots, schedule.deals, schedule.total_games
    last = (lambda k: None if k is None else k - 1)
    row = (lambda item: ListOf(item, n or 1, n or MAX_SEATS))
    return Obj({"game": Int(0, last(total)), "deal": Int(0, last(deals)), "rot": Int(0, last(n)),
                "seats": row(Int(0, last(bots))),
                "places": ListOf(row(Int(1, n or MAX_SEATS)), 1, MAX_ROUNDS),
                "points": ListOf(row(Float()), 1, MAX_ROUNDS)})


class _Seating:
    """The schedule's seats of game i, computed as far as the journal asks (streamed, never all at once)."""

    def __init__(self, schedule: Schedule) -> None:
        self._games, self._seats = schedule.games(), []

    def __getitem__(self, index: int) -> tuple[int, ...]:
        while len(self._seats) <= index:
            self._seats.append(next(self._games).seats)
        return self._seats[index]


def records(path: str | Path, schedule: Schedule | None = None) -> Iterator[GameRecord]:
    """Every game in the file, in file order, streamed (never all in memory); blank lines are skipped.

    Each line is checked before use: its shape (a located error naming the
    field) and, given the `schedule`, that its deal, rotation and seats are
    the ones the tournament plays as that game, so an edited line cannot
    change the results.
    """
    shape = record_shape(schedule)
    seating = _Seating(schedule) if schedule is not None else None
    for line, data in json_lines(path, MAX_JOURNAL_BYTES, KIND, start=2):
        data = line.check(data, shape, hint="a line of this file is one finished game, as the program wrote it")
        record = GameRecord.from_json(data)
        if len(record.places) != len(record.points):
            raise line.error(f"game {record.index}: {len(record.places)} rounds of places "
                             f"but {len(record.points)} of points")
        if seating is not None:
            n = schedule.seats
            want = (record.index // n, record.index % n, seating[record.index])
            if (record.deal, record.rotation, record.seats) != want:
                raise line.error(f"game {record.index} is not the game this tournament plays as game "
                                 f"{record.index} (deal {want[0]}, rotation {want[1]}, seats {list(want[2])})",
                                 hint="the line was edited, or belongs to another tournament")
        yield record
