"""Transcripts: every game as JSON Lines, and replaying one to check it reproduces.

A transcript is one JSON object per line, in the order things happened:

    {"t": "game", "file": ..., "seed": 7, "players": 4, "max_choices": 500, "sha256": ...}
    {"t": "deck", "to": "game STOCK", "cards": ["A RED HEARTS", ...]}
    {"t": "shuffle", "loc": "game STOCK", "order": [12, 3, ...], "player": 0}   card ids
    {"t": "move", "card": "SEVEN RED HEARTS", "id": 6, "from": "p0 HAND", "to": "p0 TRICK", "at": 0, "player": 0}
    {"t": "set", "what": "p0 sto SCORE", "value": 5, "player": 0}
    {"t": "choice", "player": 0, "index": 3, "action": "move ...", "options": 9}
    {"t": "end", "scores": [...], "ranks": [...]}       ({"t": "called"} before it if cut off)

Every effect record carries `player`, the player on turn when it happened
(the chooser, for the effects of a choice). `replay` plays the game again
from its file and seed, making the recorded choices by their text, and checks
that every record comes out identical.
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from recycle.kernel.protocol import Agent, GameError, play_game

from .game import RecycleState, new_game


def records(state: RecycleState) -> list[dict]:
    """The transcript of a game played with `transcript=True`, as JSON-ready dicts."""
    if state.st.log is None:
        raise ValueError("this game keeps no transcript: create it with new_game(..., transcript=True)")
    table, out = state.table, []
    for entry in state.st.log:
        if isinstance(entry, dict):
            out.append(entry)
        else:
            effect, player = entry
            out.append({**effect.record(table), "player": player})
    return out


def _sha(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def play_and_record(game, seed: int, agents: Sequence[Agent], rng: random.Random,
                    **limits) -> tuple[RecycleState, list[dict]]:
    """Play one game (a file path or a loaded `Game`) with a transcript; -> (final state, records)."""
    state = new_game(game, seed, transcript=True, **limits)
    play_game(state, agents, rng)
    out = records(state)
    out[0]["sha256"] = _sha(state.table.filename)
    out[0]["agents"] = [getattr(a, "name", type(a).__name__) for a in agents]
    return state, out


def write(path: str | Path, recs: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for r in recs:
            fh.write(json.dumps(r, separators=(",", ":")) + "\n")


def read(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@dataclass
class ReplayReport:
    """What `replay` found: `ok`, how many records and choices, and the first difference."""

    ok: bool
    records: int
    choices: int
    difference: str = ""
    warning: str = ""


def _game_file(header: dict, transcript: Path) -> Path:
    """The game file named in the header; relative names are also tried beside the transcript."""
    name = Path(header["file"])
    if name.is_file() or name.is_absolute():
        return name
    beside = transcript.parent / name
    return beside if beside.is_file() else name


def replay(path: str | Path) -> ReplayReport:
    """Re-play a transcript and compare every record with the one written."""
    path = Path(path)
    recorded = read(path)
    if not recorded or recorded[0].get("t") != "game":
        raise ValueError(f"{path}: not a RECYCLE transcript (no game header on line 1)")
    header = recorded[0]
    game_file = _game_file(header, path)
    warning = ""
    if header.get("sha256") and _sha(str(game_file)) != header["sha256"]:
        warning = f"{game_file} changed since the transcript was written"
    state = new_game(game_file, header["seed"], transcript=True,
                     max_choices=header.get("max_choices", 500), strict=header.get("strict", False),
                     deal=header.get("deal"))  # a game dealt from a deal file is dealt so again
    choices = [r for r in recorded if r.get("t") == "choice"]
    for k, rec in enumerate(choices):
        if state.is_terminal():
            return ReplayReport(False, len(recorded), k, f"the game ended before choice {k + 1} "
                                f"({rec['action']!r})", warning)
        try:
            state.apply(rec["action"])
        except GameError as exc:
            return ReplayReport(False, len(recorded), k, f"choice {k + 1} ({rec['action']!r}): {exc}", warning)
    got = records(state)
    keys = ("sha256", "agents")
    for i, (want, have) in enumerate(zip(recorded, got)):
        if i == 0:
            want = {k: v for k, v in want.items() if k not in keys}
            have = {k: v for k, v in have.items() if k not in keys}
            have["file"] = want.get("file")
        if want != have:
            return ReplayReport(False, len(recorded), len(choices),
                                f"line {i + 1}: expected {json.dumps(want)}, got {json.dumps(have)}", warning)
    if len(recorded) != len(got):
        return ReplayReport(False, len(recorded), len(choices),
                            f"{len(recorded)} records written, {len(got)} replayed", warning)
    return ReplayReport(True, len(recorded), len(choices), "", warning)
