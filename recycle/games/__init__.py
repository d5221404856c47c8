"""The RECYCLE games shipped with the project, as data (`*.gdl`), found by name."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def game_path(name: str) -> str:
    """A game file path, or the path of a shipped game named without folder or `.gdl`."""
    if Path(name).exists() or "/" in name or name.endswith((".gdl", ".rcy")):
        return name
    for entry in resources.files("recycle.games").iterdir():
        if entry.name.lower() in (name.lower() + ".gdl", name.lower()):
            return str(entry)
    return name
