"""The user files a run reads, recorded where it starts and served where it is played.

A tournament (or an analysis) names `.rul` files, folders of them and game
files by paths that exist on the machine it was started from. On a cluster,
games are played on other machines, where those paths mean nothing. So the
driver records every user file its own checks read (`recording()`: the bots
and the game are built once before any game starts, reading exactly what a
game will read), and each remote task serves that record (`serving(files)`)
instead of the worker's file system. The files are then also the same for
every game: a file edited during a long run does not change it half-way.

The readers of user files ask this module first: `served` and `note` (in
`recycle.kernel.diagnostics.read_user_file`), `is_file` and `folder_names`
(personalities' lookup). Outside `serving` they read the file system.
"""
from __future__ import annotations

import hashlib
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator


@dataclass(frozen=True)
class FileSet:
    """User files by the path text a run named them with: contents, and folder listings."""

    texts: tuple[tuple[str, str], ...] = ()
    folders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    def text(self, path: str) -> str | None:
        if not self._index:
            self._index.update({("file", p): t for p, t in self.texts})
            self._index.update({("dir", p): names for p, names in self.folders})
        return self._index.get(("file", path))

    def listing(self, folder: str) -> tuple[str, ...] | None:
        self.text("")  # builds the index
        return self._index.get(("dir", folder))

    def to_json(self) -> dict:
        """For a journal's header: every file's text with its SHA-256, and every folder listing."""
        return {"texts": [[p, _sha(t), t] for p, t in self.texts], "folders": [[p, list(n)] for p, n in self.folders]}

    @classmethod
    def from_json(cls, data: Any) -> "FileSet":
        """The files of `to_json`; a ValueError if the data is not that shape or a text not its hash."""
        try:
            texts = tuple((p, t) for p, _, t in data["texts"])
            hashes = [h for _, h, _ in data["texts"]]
            folders = tuple((p, tuple(names)) for p, names in data["folders"])
        except (TypeError, KeyError, ValueError) as exc:
            raise ValueError(f"not a list of files ({exc})") from None
        if not all(isinstance(x, str) for pair in texts for x in pair) or \
                not all(isinstance(p, str) and all(isinstance(n, str) for n in names) for p, names in folders):
            raise ValueError("not a list of files (a path, text or name that is not a string)")
        for (path, text), recorded in zip(texts, hashes):
            if _sha(text) != recorded:
                raise ValueError(f"the recorded text of {path} does not match its hash")
        return cls(texts, folders)

    def changed(self) -> list[str]:
        """The paths whose file on disk is no longer the recorded text (edited, removed, unreadable)."""
        out = []
        for path, text in self.texts:
            try:
                now = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                now = None
            if now != text:
                out.append(path)
        return out

    @property
    def size(self) -> int:
        """Characters held, for the progress line."""
        return sum(len(t) for _, t in self.texts)


class _Record:
    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.folders: dict[str, tuple[str, ...]] = {}

    def frozen(self) -> FileSet:
        return FileSet(tuple(sorted(self.texts.items())), tuple(sorted(self.folders.items())))


_local = threading.local()  # a worker may run tasks in threads: each serves its own task's files


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def served_call(files: FileSet, run: Callable[[Any], Any], unit: Any) -> Any:
    """`run(unit)` reading user files from `files` (a pool's worker: the run's recorded files, never the disk)."""
    with serving(files):
        return run(unit)


def _key(path: str | Path) -> str:
    return str(path)


@contextmanager
def recording() -> Iterator[Callable[[], FileSet]]:
    """Record the user files read inside; the yielded function returns them as a `FileSet`."""
    record = _Record()
    _local.record = record
    try:
        yield record.frozen
    finally:
        _local.record = None


@contextmanager
def serving(files: FileSet) -> Iterator[None]:
    """Read user files from `files` inside (a remote task); a path it lacks does not exist."""
    before = getattr(_local, "served", None)  # nested (a cluster task's unit serving its own): restored
    _local.served = files
    try:
        yield
    finally:
        _local.served = before


@contextmanager
def read_once(recorded: FileSet | None) -> Iterator[Callable[[], FileSet]]:
    """A run's checks, reading its user files once: a new run (`recorded` None) records what is read
    inside; a resumed run serves the files its journal recorded instead of the disk. Either way the
    yielded function returns the files every game of the run reads."""
    if recorded is None:
        with recording() as files:
            yield files
    else:
        with serving(recorded):
            yield lambda: recorded


def is_recording() -> bool:
    """Whether user files read now are being recorded (a cache must then read them again)."""
    return getattr(_local, "record", None) is not None


def served() -> FileSet | None:
    """The files this thread's task serves (inside `serving`), or None: read the file system."""
    return getattr(_local, "served", None)


def note(path: str | Path, text: str) -> None:
    """A user file was read from disk: record it while `recording`."""
    record: _Record | None = getattr(_local, "record", None)
    if record is not None:
        record.texts[_key(path)] = text


def is_file(path: str | Path) -> bool:
    served: FileSet | None = getattr(_local, "served", None)
    if served is not None:
        return served.text(_key(path)) is not None
    return Path(path).is_file()


def folder_names(folder: str | Path, pattern: str, limit: int) -> list[str]:
    """File names in `folder` matching `pattern`, sorted, at most `limit`: served, or listed (and recorded)."""
    served: FileSet | None = getattr(_local, "served", None)
    if served is not None:
        return list(served.listing(_key(folder)) or ())
    folder = Path(folder)
    names = sorted(p.name for p in folder.glob(pattern))[:limit] if folder.is_dir() else []
    record: _Record | None = getattr(_local, "record", None)
    if record is not None:
        record.folders[_key(folder)] = tuple(names)
    return names
