"""Finding personalities: the shipped ones (package data), user folders, paths.

The one rule for a name, used by every command and the table (`locate`):
a `.rul` path is that file; otherwise the folders of `search_dirs` are looked
through in order (`--rules-dir` first, then the per-user folder where the
editor saves copies), then the shipped files, case-insensitively. So a
shipped personality edited and saved by the editor is played as the user's
copy everywhere, `catalog` marks such a copy `edited`, and results name it
"Classic (your copy)" (`shown_name`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from recycle.kernel import user_files as uploads
from recycle.kernel.diagnostics import read_user_file

from personalities import parsed
from personalities.syntax import MAX_FILE_BYTES, Personality

# The reader (pyparsing) is imported where a file is read: `president simulate --players random`
# looks up the user folder here but reads no personality.


@dataclass(frozen=True)
class Entry:
    """A personality that can be chosen by name."""

    name: str
    description: str
    source: str  # "shipped" or the folder it was found in
    path: Path | None = None  # the file; None for a shipped one
    edited: bool = False  # a user file with a shipped personality's name: the user's copy, played instead
    replaced: bool = False  # a shipped personality that a user copy replaces


#: Overrides the per-user folder of `.rul` files (tests, several profiles).
USER_FOLDER_ENV = "PRESIDENT_USER_RULES"


def user_folder() -> Path:
    """The per-user folder of `.rul` files (where the editor saves copies); not created here."""
    if os.environ.get(USER_FOLDER_ENV):
        return Path(os.environ[USER_FOLDER_ENV])
    from platformdirs import user_data_dir

    return Path(user_data_dir("president-rul")) / "personalities"


def search_dirs(rules_dir: Path | str | None = None) -> tuple[Path, ...]:
    """The folders a name is looked up in, in order: `rules_dir` (a command's `--rules-dir`),
    then the per-user folder. Every command and the table use this, so names resolve alike."""
    folders = [Path(rules_dir)] if rules_dir else []
    user = user_folder()
    if all(f.resolve() != user.resolve() for f in folders):
        folders.append(user)
    return tuple(folders)


def is_edited_copy(path: Path | None) -> bool:
    """A user file named like a shipped personality: an edited copy of it."""
    return path is not None and path.stem.lower() in {n.lower() for n in shipped_names()}


#: Follows the name of a user's edited copy of a shipped personality in every table, journal and report.
YOUR_COPY = "(your copy)"


def shown_name(spec: str, rules_dirs: tuple[Path, ...] = ()) -> str:
    """How results name the bot of `spec`: `Classic (your copy)` when the name finds the user's edited
    copy of a shipped personality (`locate`), so it is never mistaken for the shipped one; else `spec`."""
    where = locate(spec, rules_dirs) if spec.strip() else None
    if isinstance(where, Path) and is_edited_copy(where) and uploads.is_file(where):
        return f"{where.stem} {YOUR_COPY}"
    return spec


def shipped_text(name: str) -> str:
    """The text of a shipped personality's file, by exact file stem."""
    return resources.files("personalities").joinpath(f"{name}.rul").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def shipped(name: str) -> Personality:
    """A shipped personality by exact file stem."""
    return parsed.parse(shipped_text(name), name, f"{name}.rul")


def shipped_names() -> list[str]:
    return sorted(p.name[:-4] for p in resources.files("personalities").iterdir() if p.name.endswith(".rul"))


#: `.rul` files read from one user folder (a folder is user input: bounded).
MAX_FOLDER_FILES = 1000


def folder_files(folder: Path) -> list[Path]:
    """A user folder's `.rul` files in name order (the first of equal names wins), bounded."""
    return [folder / name for name in uploads.folder_names(folder, "*.rul", MAX_FOLDER_FILES)]


def known_names(rules_dirs: tuple[Path, ...] = ()) -> list[str]:
    """Every name `locate` finds, without reading a file: the shipped ones and the user folders' stems."""
    return [*shipped_names(), *(path.stem for folder in rules_dirs for path in folder_files(folder))]


def catalog(rules_dirs: tuple[Path, ...] = ()) -> list[Entry]:
    """Every personality that can be chosen by name: shipped ones first, then user files.

    A shipped one that a user file replaces (`locate` finds the user file first) is `replaced`,
    and that user file is `edited`."""
    users = [path for folder in rules_dirs for path in folder_files(folder)]
    stems = {path.stem.lower() for path in users}
    entries = [Entry(n, shipped(n).description, "shipped", replaced=n.lower() in stems) for n in shipped_names()]
    entries += [Entry(path.stem, _description(path), str(path.parent), path, is_edited_copy(path)) for path in users]
    return entries


def _description(path: Path) -> str:
    from personalities.reader import load_personality

    try:
        return load_personality(path).description
    except Exception as exc:  # a broken user file is listed, not fatal
        return f"(has errors: {str(exc).splitlines()[0]})"


def locate(spec: str, rules_dirs: tuple[Path, ...] = ()) -> Path | str | None:
    """Where a spec's personality is: a `.rul` path (as given, even if missing), a file of a
    user folder, or a shipped name; None when `spec` names none of them (case-insensitive)."""
    path = Path(spec)
    if spec.lower().endswith(".rul") or uploads.is_file(path):
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
        if not uploads.is_file(where):
            raise FileNotFoundError(f"no such personality file: {spec}")
        text, _ = read_user_file(where, MAX_FILE_BYTES, "a .rul file")
        if text is None:  # the reader says why, located
            from personalities.reader import load_personality

            return load_personality(where)
        return parsed.parse(text, where.stem, str(where))
    return None if where is None else shipped(where)


class NothingToRevert(LookupError):
    """`revert_copy` found no edited copy to delete (or the name is not a shipped personality)."""


def revert_copy(name: str, rules_dirs: tuple[Path, ...] = ()) -> Path:
    """Delete the user's edited copy of the shipped personality `name` (the file `locate` finds for
    the name, which every seat and command plays instead of the shipped one) and return its path;
    from then on the name means the shipped file again, unless another folder holds a copy too.
    Raises `NothingToRevert` when `name` is not shipped or no copy of it exists; `OSError` when the
    file cannot be deleted."""
    shipped_name = next((n for n in shipped_names() if n.lower() == name.strip().lower()), None)
    if shipped_name is None:
        raise NothingToRevert(f"{name!r} is not a shipped personality (shipped: {', '.join(shipped_names())}): "
                              "only your copy of a shipped one can be reverted")
    where = locate(shipped_name, rules_dirs)
    if not isinstance(where, Path) or not uploads.is_file(where):
        folders = ", ".join(str(f) for f in rules_dirs) or "no folder"
        raise NothingToRevert(f"{shipped_name} has no edited copy in {folders}: it is the shipped one already")
    where.unlink()
    return where
