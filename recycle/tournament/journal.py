"""The results file: one JSON line per finished game, so no work is ever lost.

Line 1 is a header with the tournament's full configuration (and the text of
every user file its bots read: `files`); every other line is one finished
game. The file is a chained, locked journal (`recycle.kernel.journal_file`):
each line is written whole the moment a game finishes, in completion order,
so a `kill -9` loses at most the games still being played; a last line cut
short is dropped on resume (with a warning) and the game played again; an
edited or damaged line is refused, naming it; a second run on the same file
is refused while the first holds it.

Reading back checks every line's chain digest, its shape
(`recycle.kernel.schema`: an error names the file, the line and the field)
and, given the schedule, that each game line is the game the tournament
plays under its number.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from recycle.kernel import journal_file
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.journal_file import JournalError
from recycle.kernel.schema import AnyJson, Float, Int, ListOf, MapOf, Obj, Shape, describe, parse_line, raw_lines

from recycle.tournament.schedule import Schedule

FORMAT = "recycle-tournament"
VERSION = 2  # 2: chained digests (version 1 files cannot be resumed)
KIND = "a tournament results file"
MAX_JOURNAL_BYTES = 1 << 32  # a million matches of many rounds fit; anything larger is not ours
MAX_SEATS = 64
MAX_ROUNDS = 100_000  # rounds of one match


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game: per round, every seat's place and points."""

    index: int
    deal: int
    rotation: int
    seats: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]  # places[r][s]: seat s's place in round r (1 = best)
    points: tuple[tuple[float, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.index, "deal": self.deal, "rot": self.rotation, "seats": list(self.seats),
                "places": [list(r) for r in self.places], "points": [list(r) for r in self.points]}

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

    def __init__(self, file: journal_file.Journal) -> None:
        self._file = file
        self.path = file.path

    @staticmethod
    def header(config: dict[str, Any], files: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "config": config, "files": files or {}}

    @classmethod
    def create(cls, path: str | Path, config: dict[str, Any], files: dict[str, Any] | None = None) -> "Journal":
        """A new file with its header; refuses to overwrite earlier work."""
        return cls(journal_file.Journal.create(path, cls.header(config, files)))

    @classmethod
    def create_new(cls, folder: str | Path, stem: str, config: dict[str, Any],
                   files: dict[str, Any] | None = None) -> "Journal":
        """A new file in `folder` under a name no earlier run took (`stem.jsonl`, `stem-2.jsonl`, ...)."""
        return cls(journal_file.Journal.create_new(folder, stem, cls.header(config, files)))

    @classmethod
    def reopen(cls, path: str | Path, warn: Callable[[str], None] = lambda message: None) -> "Journal":
        """Lock an existing file, check every line's digest, drop a torn last line; append after it."""
        file, _ = journal_file.Journal.resume(path, MAX_JOURNAL_BYTES, KIND, warn)
        return cls(file)

    def append(self, record: GameRecord) -> None:
        self._file.append(record.to_json())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_full_header(path: str | Path) -> dict[str, Any]:
    """A results file's first line, checked to be our header of this version, with its digest."""
    path = Path(path)
    if not path.exists():
        raise JournalError(f"no such results file: {path}")
    lines = raw_lines(path, MAX_JOURNAL_BYTES, KIND)
    try:
        first = next(lines, None)
    finally:
        lines.close()
    header = None
    if first is not None and first.text.strip():
        try:
            header = parse_line(first)
        except DiagnosticError:
            header = None
    if first is None or not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{path} is not a tournament results file (its first line is not the header)")
    if header.get("version") != VERSION:
        raise JournalError(f"{path} has format version {describe(header.get('version'))}, this program reads "
                           f"{VERSION} (files of version 1, without integrity digests, cannot be resumed: "
                           "start the tournament again)")
    header, _ = journal_file.check_line(first, "")
    return header


def read_header(path: str | Path, config: Shape = MapOf(AnyJson(), 200)) -> dict[str, Any]:
    """The configuration stored in a results file's first line, checked against `config`.

    Special files are refused before opening; a header of the wrong shape is
    a located error naming the field (`t.jsonl:1:1: error: field 'config.matches': ...`).
    """
    header = read_full_header(path)
    lines = raw_lines(path, MAX_JOURNAL_BYTES, KIND)
    try:
        first = next(lines)
    finally:
        lines.close()
    return first.check(header, Obj({"config": config}))["config"]


def repair(path: str | Path, warn: Callable[[str], None] = lambda message: None) -> None:
    """Check the whole file's chain and drop a cut-off last line (the trace of a kill)."""
    Journal.reopen(path, warn).close()


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
    lines = journal_file.verify(path, MAX_JOURNAL_BYTES, KIND)
    next(lines, None)  # the header
    for line, data in lines:
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
