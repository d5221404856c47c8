"""Did you mean: the nearest known names to a word a user mistyped.

One helper for every name a user types, on a command line (subcommands, bots
and personalities, games, presets, settings: `Clasic` -> "did you mean
Classic?") and in a file (`.rul` and RECYCLE words). Matching ignores case,
as every lookup of those names does; a suggestion keeps the name's own spelling.
"""
from __future__ import annotations

import difflib
from typing import Iterable

#: How alike a word and a known name must be (difflib's ratio) to be suggested.
CUTOFF = 0.5


def nearest_names(word: str, names: Iterable[str], limit: int = 3) -> list[str]:
    """The names closest to a misspelt word (case-insensitive), best first; [] when none is close."""
    lowered: dict[str, str] = {}
    for name in names:
        lowered.setdefault(str(name).lower(), str(name))
    close = difflib.get_close_matches(str(word).lower(), list(lowered), n=limit, cutoff=CUTOFF)
    return [lowered[c] for c in close]


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """'did you mean X?' for the closest of `names`, or ''."""
    close = nearest_names(word, sorted(set(names)), limit=1)
    return f"did you mean {close[0]}?" if close else ""


def hint(word: str, names: Iterable[str]) -> str:
    """' (did you mean X?)', to follow the unknown word in a one-line error, or ''."""
    text = did_you_mean(word, names)
    return f" ({text})" if text else ""
