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


@lru_cache(maxsize=None)
def shipped(name: str) -> Personality:
    """A shipped personality by exact file stem."""
    resource = resources.files("personalities").joinpath(f"{name}.rul")
    return parse_personality(resource.read_text(encoding="utf-8"), name=name, filename=f"{name}.rul")


def shipped_names() -> list[str]:
    return sorted(p.name[:-4] for p in resources.files("personalities").iterdir() if p.name.endswith(".rul"))


def catalog(rules_dirs: tuple[Path, ...] = ()) -> list[Entry]:
    """Every personality that can be chosen by name: shipped ones first, then user files."""
    entries = [Entry(n, shipped(n).description, "shipped") for n in shipped_names()]
    for folder in rules_dirs:
        if folder.is_dir():
            for path in sorted(folder.glob("*.rul"))[:1000]:  # bounded: a folder is user input
                entries.append(Entry(path.stem, _description(path), str(folder)))
    return entries


def _description(path: Path) -> str:
    try:
        return load_personality(path).description
    except Exception as exc:  # a broken user file is listed, not fatal
        return f"(has errors: {str(exc).splitlines()[0]})"


def find_personality(spec: str, rules_dirs: tuple[Path, ...] = ()) -> Personality | None:
    """A personality by `.rul` path, user-folder name or shipped name (case-insensitive).

    Returns None when `spec` names none of them; raises `RulError` for a file with errors.
    """
    path = Path(spec)
    if spec.lower().endswith(".rul") or path.is_file():
        if not path.is_file():
            raise FileNotFoundError(f"no such personality file: {spec}")
        return load_personality(path)
    wanted = spec.lower()
    for folder in rules_dirs:
        if folder.is_dir():
            for candidate in folder.glob("*.rul"):
                if candidate.stem.lower() == wanted:
                    return load_personality(candidate)
    for name in shipped_names():
        if name.lower() == wanted:
            return shipped(name)
    return None
