"""The results file: one JSON line per finished game, so no work is ever lost.

Line 1 is a header with the tournament's full configuration; every other line
is one finished game. Lines are appended (and flushed to the OS) the moment a
game finishes, in completion order, so a `kill -9` loses at most the games
still being played. A last line cut short by the kill is ignored and the file
is truncated before it, so the game is played again and written whole.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

FORMAT = "recycle-tournament"
VERSION = 1


class JournalError(ValueError):
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


def read_header(path: str | Path) -> dict[str, Any]:
    """The configuration stored in a results file's first line."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
    except FileNotFoundError:
        raise JournalError(f"no such results file: {path}") from None
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{path} is not a tournament results file (its first line is not the header)")
    if header.get("version") != VERSION:
        raise JournalError(f"{path} has format version {header.get('version')}, this program reads {VERSION}")
    return header["config"]


def repair(path: str | Path) -> int:
    """Drop a cut-off last line (the trace of a kill); returns how many bytes were dropped.

    A damaged line anywhere else is not a kill's doing, so it is an error.
    """
    path = Path(path)
    good_end = 0
    bad_line = None
    with open(path, "rb") as fh:
        for number, line in enumerate(fh, start=1):
            if bad_line is not None:
                raise JournalError(f"{path}:{bad_line}: damaged line in the middle of the file")
            if line.endswith(b"\n") and _parses(line):
                good_end += len(line)
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
    except ValueError:
        return False
    return True


def records(path: str | Path) -> Iterator[GameRecord]:
    """Every game in the file, in file order, streamed (never all in memory)."""
    path = Path(path)
    with open(path, encoding="utf-8") as fh:
        fh.readline()  # the header
        for number, line in enumerate(fh, start=2):
            try:
                yield GameRecord.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise JournalError(f"{path}:{number}: not a game record ({exc})") from None
