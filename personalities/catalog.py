"""Finding personalities: the shipped ones (package data), user folders, paths."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .reader import load_personality, parse_personality
from .syntax import Personality


@dataclass(frozen=True)
class Entry:
    """A personality that can be chosen by name."""

    name: str
    description: str
    source: str  # "shipped" or the folder it was found in


def shipped_text(name: str) -> str:
    """The text of a shipped personality's file, by exact file stem."""
    return resources.files("personalities").joinpath(f"{name}.rul").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def shipped(name: str) -> Personality:
    """A shipped personality by exact file stem."""
    return parse_personality(shipped_text(name), name=name, filename=f"{name}.rul")


def shipped_names() -> list[str]:
    return sorted(p.name[:-4] for p in resources.files("personalities").iterdir() if p.name.endswith(".rul"))


#: `.rul` files read from one user folder (a folder is user input: bounded).
MAX_FOLDER_FILES = 1000


def folder_files(folder: Path) -> list[Path]:
    """A user folder's `.rul` files in name order (the first of equal names wins), bounded."""
    return sorted(folder.glob("*.rul"))[:MAX_FOLDER_FILES] if folder.is_dir() else []


def catalog(rules_dirs: tuple[Path, ...] = ()) -> list[Entry]:
    """Every personality that can be chosen by name: shipped ones first, then user files."""
    entries = [Entry(n, shipped(n).description, "shipped") for n in shipped_names()]
    for folder in rules_dirs:
        entries += [Entry(path.stem, _description(path), str(folder)) for path in folder_files(folder)]
    return entries


def _description(path: Path) -> str:
    try:
        return load_personality(path).description
    except Exception as exc:  # a broken user file is listed, not fatal
        return f"(has errors: {str(exc).splitlines()[0]})"


def locate(spec: str, rules_dirs: tuple[Path, ...] = ()) -> Path | str | None:
    """Where a spec's personality is: a `.rul` path (as given, even if missing), a file of a
    user folder, or a shipped name; None when `spec` names none of them (case-insensitive)."""
    path = Path(spec)
    if spec.lower().endswith(".rul") or path.is_file():
        return path
    wanted = spec.lower()
    for folder in rules_dirs:
        for candidate in folder_files(folder):
            if candidate.stem.lower() == wanted:
                return candidate
    return next((name for name in shipped_names() if name.lower() == wanted), None)


def find_personality(spec: str, rules_dirs: tuple[Path, ...] = ()) -> Personality | None:
    """A personality by `.rul` path, user-folder name or shipped name (case-insensitive).

    Returns None when `spec` names none of them; raises `RulError` for a file with errors.
    """
    where = locate(spec, rules_dirs)
    if isinstance(where, Path):
        if not where.is_file():
            raise FileNotFoundError(f"no such personality file: {spec}")
        return load_personality(where)
    return None if where is None else shipped(where)
