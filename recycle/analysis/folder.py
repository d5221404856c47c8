"""The analysis journal: every analysis (one game, a folder of games, President presets) resumable.

As the tournament's results file (`recycle.tournament.journal`), a chained,
locked journal (`recycle.kernel.journal_file`): line 1 is a header with the
configuration (and the command's options, so `--resume` needs nothing else);
every other line is one finished game of one experiment set of one subject
(a `GameLog` line with a `file` key naming the game file or preset), or a
subject that could not be analysed (`file` and `error`), written whole the
moment it is known. A kill loses at most the games being played.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from recycle.kernel import journal_file
from recycle.cli.arguments import UsageError
from recycle.kernel.journal_file import JournalError
from recycle.tournament.journal import config_differences

from recycle.analysis.experiment import MAX_DECISIONS
from recycle.analysis.records import SETS, GameLog

FORMAT = "recycle-analysis"
VERSION = 2  # 2: chained digests (version 1 journals cannot be resumed)
KIND = "an analysis journal"
MAX_JOURNAL_BYTES = 1 << 32
MAX_PLAYERS = 64


class AnalysisJournal:
    """An open analysis journal that game logs are appended to; `logs` and `errors` hold what it has."""

    def __init__(self, file: journal_file.Journal, header: dict[str, Any]) -> None:
        self._file, self.path, self.header = file, file.path, header
        self.logs: dict[str, list[GameLog]] = {}
        self.errors: dict[str, str] = {}

    @staticmethod
    def _header(config: dict[str, Any], command: dict[str, Any]) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "config": config, "command": command}

    @classmethod
    def create(cls, path: str | Path | None, config: dict[str, Any], command: dict[str, Any],
               stem: str) -> "AnalysisJournal":
        """A new journal at `path`, or (None) in the per-user state folder under a name no run took."""
        header = cls._header(config, command)
        if path is None:
            return cls(journal_file.Journal.create_new(journal_file.state_folder(), stem, header), header)
        return cls(journal_file.Journal.create(path, header), header)

    @classmethod
    def resume(cls, path: str | Path, warn: Callable[[str], None] = lambda message: None) -> "AnalysisJournal":
        """An existing journal, locked and checked line by line, its records read (`check_config` next)."""
        file, header = journal_file.Journal.resume(path, MAX_JOURNAL_BYTES, KIND, warn,
                                                   expect=lambda h: h.get("format") == FORMAT)
        with journal_file.journal_closed_on_error(file):
            if header.get("version") != VERSION:
                raise JournalError(f"{path} has version {header.get('version')}, this program reads {VERSION}")
            journal = cls(file, header)
            journal._read(header.get("config", {}).get("games", 0))
        return journal

    @classmethod
    def open(cls, path: str | Path, config: dict[str, Any], command: dict[str, Any],
             warn: Callable[[str], None] = lambda message: None) -> "AnalysisJournal":
        """`--journal PATH`: continued when it holds a run of this configuration, else created."""
        if Path(path).exists() and Path(path).stat().st_size:
            journal = cls.resume(path, warn)
            journal.check_config(config)
            return journal
        return cls.create(path, config, command, "")

    def check_config(self, config: dict[str, Any]) -> None:
        diffs = config_differences(self.header.get("config", {}), config)
        if diffs:
            self.close()
            raise JournalError(f"{self.path} was made with other settings ({'; '.join(diffs)}): "
                               "run with the same settings to resume, or give another --journal")

    def _read(self, games: int) -> None:
        lines = journal_file.verify(self.path, MAX_JOURNAL_BYTES, KIND)
        next(lines, None)  # the header
        for line, data in lines:
            try:
                if "error" in data:
                    self.errors[str(data["file"])] = str(data["error"])[:500]
                    continue
                log = GameLog.from_json(data)
                problem = _implausible(log, games if isinstance(games, int) else 0)
                if problem:
                    raise ValueError(problem)
                self.logs.setdefault(str(data["file"]), []).append(log)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise JournalError(f"{self.path}:{line.number}: not an analysis record ({exc})") from None

    @property
    def played(self) -> int:
        return sum(len(v) for v in self.logs.values())

    def append(self, file: str, log: GameLog) -> None:
        self._file.append({"file": file, **json.loads(log.to_line())})
        self.logs.setdefault(file, []).append(log)

    def fail(self, file: str, message: str) -> None:
        self._file.append({"file": file, "error": message})
        self.errors[file] = message

    def close(self) -> None:
        self._file.close()

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


def game_files(folder: str | Path, limit: int = 10_000) -> list[Path]:
    """The game files of a folder (`*.gdl`, `*.rcy`), sorted, at most `limit`."""
    files = sorted(p for p in Path(folder).iterdir() if p.suffix in (".gdl", ".rcy") and p.is_file())
    if not files:
        raise UsageError(f"{folder}: no .gdl or .rcy game files in this folder")
    if len(files) > limit:
        raise UsageError(f"{folder}: {len(files)} game files; at most {limit} in one run")
    return files
