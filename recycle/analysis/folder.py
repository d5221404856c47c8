"""Analysing many games into one table, resumably: the analysis journal.

As the tournament's results file (`recycle.tournament.journal`): line 1 is a
header with the configuration; every other line is one finished game of one
experiment set of one game file (a `GameLog` line with a `file` key), or a
file that could not be analysed (`file` and `error`), appended and flushed
the moment it is known. A kill loses at most the games being played; running
the same command again reads the journal back and plays only what is missing.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from recycle.kernel.arguments import UsageError
from recycle.tournament.journal import JournalError, config_differences, repair

from .experiment import MAX_DECISIONS
from .records import SETS, GameLog

FORMAT = "recycle-analysis"
VERSION = 1
MAX_JOURNAL_BYTES = 1 << 32
MAX_PLAYERS = 64


class AnalysisJournal:
    """An open analysis journal that game logs are appended to."""

    def __init__(self, path: Path, config: dict[str, Any]) -> None:
        self.path = Path(path)
        self.logs: dict[str, list[GameLog]] = {}
        self.errors: dict[str, str] = {}
        if self.path.exists() and self.path.stat().st_size:
            self._read(config)
            self._fh = open(self.path, "a", encoding="utf-8")
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "w", encoding="utf-8")
            self._fh.write(json.dumps({"format": FORMAT, "version": VERSION, "config": config}) + "\n")
            self._fh.flush()

    def _read(self, config: dict[str, Any]) -> None:
        if self.path.stat().st_size > MAX_JOURNAL_BYTES:
            raise JournalError(f"{self.path} is larger than any analysis journal ({MAX_JOURNAL_BYTES:,} bytes)")
        repair(self.path)
        lines = _lines(self.path)
        header = next(lines, (1, None))[1]
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise JournalError(f"{self.path} is not an analysis journal (its first line is not the header)")
        if header.get("version") != VERSION:
            raise JournalError(f"{self.path} has version {header.get('version')}, this program reads {VERSION}")
        diffs = config_differences(header.get("config", {}), config)
        if diffs:
            raise JournalError(f"{self.path} was made with other settings ({'; '.join(diffs)}): "
                               "run with the same settings to resume, or give another --journal")
        games = config.get("games", 0)
        for number, data in lines:
            try:
                if "error" in data:
                    self.errors[str(data["file"])] = str(data["error"])[:500]
                    continue
                log = GameLog.from_json(data)
                problem = _implausible(log, games)
                if problem:
                    raise ValueError(problem)
                self.logs.setdefault(str(data["file"]), []).append(log)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise JournalError(f"{self.path}:{number}: not an analysis record ({exc})") from None

    @property
    def played(self) -> int:
        return sum(len(v) for v in self.logs.values())

    def append(self, file: str, log: GameLog) -> None:
        data = json.loads(log.to_line())
        self._fh.write(json.dumps({"file": file, **data}, separators=(",", ":")) + "\n")
        self._fh.flush()  # into the OS: survives the process being killed
        self.logs.setdefault(file, []).append(log)

    def fail(self, file: str, message: str) -> None:
        self._fh.write(json.dumps({"file": file, "error": message}) + "\n")
        self._fh.flush()
        self.errors[file] = message

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> AnalysisJournal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _implausible(log: GameLog, games: int) -> str | None:
    """Why a journal line cannot be a log this configuration wrote (the file is user input)."""
    n = log.players
    if log.set not in SETS or not 1 <= n <= MAX_PLAYERS or not 0 <= log.index < 3 * games:
        return f"set {log.set!r}, {n} players, game {log.index}"
    if len(log.ranks) != n or len(log.scores) != n or any(len(e) != n for e in log.episodes):
        return "ranks, scores or places do not have one entry per player"
    if len(log.decisions) > MAX_DECISIONS or len(log.episodes) > MAX_DECISIONS:
        return "too many decisions"
    for d in log.decisions:
        if not 0 <= d.player < n or d.options < 1 or (d.values and len(d.values) > d.options):
            return f"a decision of player {d.player} with {d.options} options"
    return None


def _lines(path: Path) -> Iterator[tuple[int, Any]]:
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError:
                raise JournalError(f"{path}:{number}: damaged line") from None


def game_files(folder: str | Path, limit: int = 10_000) -> list[Path]:
    """The game files of a folder (`*.gdl`, `*.rcy`), sorted, at most `limit`."""
    files = sorted(p for p in Path(folder).iterdir() if p.suffix in (".gdl", ".rcy") and p.is_file())
    if not files:
        raise UsageError(f"{folder}: no .gdl or .rcy game files in this folder")
    if len(files) > limit:
        raise UsageError(f"{folder}: {len(files)} game files; at most {limit} in one run")
    return files
