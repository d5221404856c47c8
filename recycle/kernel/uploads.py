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

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator


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
    _local.served = files
    try:
        yield
    finally:
        _local.served = None


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
