"""The RECYCLE games shipped with the project, as data (`*.gdl`), found by name.

Each game describes itself: the first line of its header comment is its title
(`;; President`), shown by `recycle games`; a `;; climbing: ...` header line
marks a game rule personalities can play.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from recycle.kernel import user_files as uploads
from recycle.cli.arguments import UsageError
from recycle.kernel.suggest import hint

#: Header lines read for a description (a header is a few dozen lines).
_HEADER_LINES = 200
_CLIMBING = re.compile(r"^\s*;+\s*climbing\s*:", re.IGNORECASE)


@dataclass(frozen=True)
class ShippedGame:
    """A shipped game: its name (the file's stem), path, title and whether it declares climbing metadata."""

    name: str
    path: str
    title: str
    climbing: bool

    @property
    def players(self) -> str:
        """The player count its name ends in (`President5` -> `5`), or '' when it has none."""
        digits = re.search(r"\d+$", self.name)
        return digits.group(0) if digits else ""


def shipped_games() -> list[ShippedGame]:
    """Every shipped game, by name."""
    found = []
    for entry in resources.files("recycle.games").iterdir():
        if entry.name.endswith(".gdl") and entry.is_file():
            title, climbing = _header(entry.read_text(encoding="utf-8", errors="replace"))
            found.append(ShippedGame(entry.name[:-4], str(entry), title, climbing))
    return sorted(found, key=lambda g: g.name.lower())


def _header(text: str) -> tuple[str, bool]:
    """(the first line of the leading comment, does the header name climbing metadata)."""
    title, climbing = "", False
    for line in text.splitlines()[:_HEADER_LINES]:
        stripped = line.strip()
        if stripped and not stripped.startswith(";"):
            break  # the header comment ends where the code starts
        climbing = climbing or bool(_CLIMBING.match(line))
        if not title:
            title = stripped.lstrip(";").strip()
    return title or "(no description: the file has no header comment)", climbing


def game_path(name: str) -> str:
    """A game file path, or the path of a shipped game named without folder or `.gdl`;
    raises `UsageError` (a ValueError) naming the shipped games for a name that is neither."""
    if uploads.is_file(name) or "/" in name or name.endswith((".gdl", ".rcy")):
        return name
    games = shipped_games()
    for game in games:
        if game.name.lower() == name.lower():
            return game.path
    raise UsageError(f"{name!r} is neither a file nor a shipped game{hint(name, [g.name for g in games])}; "
                     f"the shipped games are "
                     f"{', '.join(g.name for g in games)} (recycle games lists them), or give a .gdl or .rcy file")


def shipped_name(path: str | Path) -> str | None:
    """The name of the shipped game at `path` (`President5`), or None for any other file.

    Transcripts store this name rather than the path, which changes with the
    virtual environment."""
    try:
        folder = Path(str(resources.files("recycle.games"))).resolve()
        file = Path(path).resolve()
    except (OSError, ValueError):
        return None
    if file.parent == folder and file.suffix == ".gdl" and file.is_file():
        return file.stem
    return None
