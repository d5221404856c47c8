"""Where each seat's personality comes from, and following its file (no Textual here).

`SeatSources` is the part of `Session` that knows the seats' `.rul` files:
a reload when one changes on disk, a copy saved or reverted by the editor.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class SeatSource:
    """Where a seat's personality comes from; `path` None means shipped (read-only)."""

    path: Path | None
    mtime: float = 0.0


class SeatSources:
    """The seats' sources; mixed into `Session`, whose `agents`, `specs`, `texts`, `sources`,
    `settings` and `options` it reads."""

    agents: list
    specs: list[str]
    texts: dict[int, str]
    sources: list
    settings: Any
    options: Any

    def reload_seat(self, p: int, personality: Any, path: Path | None = None, text: str | None = None) -> None:
        """Seat p plays `personality` from its next decision (a decision in flight keeps the old one)."""
        self.agents[p].reload(personality)
        self.agents[p].name = personality.name
        if text is not None:
            self.texts[p] = text
        else:
            self.texts.pop(p, None)
        if path is not None:
            self.sources[p] = SeatSource(path, file_mtime(path))

    def changed_sources(self) -> list[tuple[int, Path]]:
        """Seats whose .rul file changed on disk since it was last read (the file's mtime is noted)."""
        changed = []
        for p, source in enumerate(self.sources):
            if source is None or source.path is None:
                continue
            mtime = file_mtime(source.path)
            if mtime != source.mtime:
                source.mtime = mtime
                changed.append((p, source.path))
        return changed

    def adopt_copy(self, path: Path) -> list[int]:
        """The editor saved `path`, a copy of a shipped personality: seats whose spec now names it
        (the one lookup rule, `locate`) take it as their source; the next look at the sources
        reloads them. Returns those seats."""
        from personalities.catalog import locate

        seats = []
        for p in range(1, self.settings.players):
            source = self.sources[p]
            if source is not None and source.path is None and locate(self.specs[p], self.options.rules_dirs) == path:
                self.sources[p] = SeatSource(path, -1.0)  # differs from any mtime: reloaded next time
                seats.append(p)
        return seats

    def follow_revert(self, path: Path) -> list[int]:
        """The user's copy `path` was deleted: the seats playing it play what their spec names now
        (the shipped personality, or another copy). Returns those seats."""
        from personalities.catalog import find_personality
        from personalities.reader import RulError

        seats = [p for p, source in enumerate(self.sources) if source is not None and source.path == path]
        for p in seats:
            try:
                personality = find_personality(self.specs[p], self.options.rules_dirs)
            except (OSError, RulError):  # the seat named that very file: it keeps the rules it has
                continue
            self.sources[p] = seat_source(self.specs[p], self.options.rules_dirs)
            self.reload_seat(p, personality)
        return seats

    def note_saved(self, path: Path) -> None:
        """Our own editor wrote `path`: not an outside change to reload from."""
        for source in self.sources:
            if source is not None and source.path == path:
                source.mtime = file_mtime(path)


def seat_source(spec: str, rules_dirs: tuple[Path, ...]) -> SeatSource | None:
    """The .rul file a spec names (as `find_personality` looks it up); None for non-personality bots."""
    from personalities.catalog import locate

    where = locate(spec, rules_dirs)
    if isinstance(where, Path):
        return SeatSource(where, file_mtime(where))
    return None if where is None else SeatSource(None)


def file_mtime(path: Path | None) -> float:
    """The file's modification time; 0 for no file or one that cannot be read."""
    try:
        return path.stat().st_mtime if path else 0.0
    except OSError:
        return 0.0
