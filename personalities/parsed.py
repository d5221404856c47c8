"""Parsed personalities kept between runs, as JSON: a command that plays shipped or saved
personalities starts without importing the reader (pyparsing and the grammar: ~70 ms of a
`president simulate` start of ~200 ms).

An entry is found by a hash of the text, the name, the file name and the reader's own source
code, so an edited `.rul` file or a changed reader never meets an old entry. Only personalities
read without a warning are kept (the warnings are printed where a file is read). Entries are
data: JSON turned back into the rule model's values, whose constructors check them; anything
unreadable is ignored and the text parsed again. The folder is bounded (oldest entries go).
"""
from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from pathlib import Path

from personalities.syntax import Comparison, Condition, Modifier, Personality, Potential, PotentialKind, Rule
from personalities.variables import Variable

#: Overrides the folder of kept personalities (tests); `off` keeps none.
CACHE_ENV = "PRESIDENT_CACHE_DIR"
#: The most entries kept; writing one more removes the oldest.
MAX_ENTRIES = 500
#: The sources a parse depends on: a change to any of them is a new reader.
_READER_FILES = ("reader.py", "grammar.py", "syntax.py", "variables.py", "parsed.py")
_BY_FULL = {v.full: v for v in Variable}
_reader_digest: str | None = None


def folder() -> Path | None:
    """Where entries are kept, or None when keeping is off."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("president-rul")) / "personalities"


def parse(text: str, name: str, filename: str) -> Personality:
    """`reader.parse_personality(text, name, filename)`, from a kept entry when there is one."""
    path = _entry(text, name, filename)
    if path is not None:
        try:
            return from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # none yet, or unreadable: parse again
    from personalities.reader import parse_personality

    personality = parse_personality(text, name=name, filename=filename)
    if path is not None and not personality.warnings:
        _keep(path, to_json(personality))
    return personality


def to_json(personality: Personality) -> dict:
    return {"name": personality.name, "description": personality.description, "filename": personality.filename,
            "rules": [{"kind": r.potential.kind.value, "value": r.potential.value,
                       "modifier": r.potential.modifier and r.potential.modifier.value,
                       "conditions": [[c.variable.full, c.comparison.value, c.value, c.column] for c in r.conditions],
                       "line": r.line, "source": r.source} for r in personality.rules]}


def from_json(data: dict) -> Personality:
    """The personality of `to_json`; the model's constructors reject impossible values."""
    rules = []
    for r in data["rules"]:
        modifier = r["modifier"]
        potential = Potential(PotentialKind(r["kind"]), r["value"], None if modifier is None else Modifier(modifier))
        conditions = tuple(Condition(_BY_FULL[v], Comparison(op), value, _integer(column))
                           for v, op, value, column in r["conditions"])
        rules.append(Rule(potential, conditions, _integer(r["line"]), _text(r["source"])))
    return Personality(_text(data["name"]), tuple(rules), _text(data["description"]), _text(data["filename"]))


def _integer(value: object) -> int:
    if type(value) is not int:
        raise TypeError("not an integer")
    return value


def _text(value: object) -> str:
    if type(value) is not str:
        raise TypeError("not a text")
    return value


def _entry(text: str, name: str, filename: str) -> Path | None:
    """The entry's file; None when keeping is off or the reader's source cannot be read (an
    install without `.py` files: nothing can tell an old entry from a new one)."""
    where = folder()
    if where is None:
        return None
    try:
        return where / f"{_key(text, name, filename)}.json"
    except OSError:
        return None


def _key(text: str, name: str, filename: str) -> str:
    digest = hashlib.sha256(_reader().encode())
    for part in (name, filename, text):
        digest.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _reader() -> str:
    """A digest of the reader's source: entries made by another reader are never used."""
    global _reader_digest
    if _reader_digest is None:
        digest = hashlib.sha256()
        for name in _READER_FILES:
            digest.update(resources.files("personalities").joinpath(name).read_bytes())
        _reader_digest = digest.hexdigest()
    return _reader_digest


def _keep(path: Path, data: dict) -> None:
    """Write an entry (atomically: a rename), making room first; a folder we cannot write is no error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = sorted(path.parent.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in entries[:max(0, len(entries) - MAX_ENTRIES + 1)]:
            old.unlink(missing_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text(json.dumps(data), encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass
