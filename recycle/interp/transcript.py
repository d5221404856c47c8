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
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from recycle.kernel.diagnostics import Diagnostic, DiagnosticError, not_a_regular_file
from recycle.kernel.protocol import Agent, GameError, play_game
from recycle.kernel.schema import Bool, Int, ListOf, MapOf, Maybe, Obj, Str, json_lines

from recycle.interp.compat import COMPAT_MODES
from recycle.interp.game import RecycleState
from recycle.interp.setup import new_game


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
    if not_a_regular_file(path):  # a FIFO would block
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except (OSError, ValueError):
        return None


def play_and_record(game, seed: int, agents: Sequence[Agent], rng: random.Random,
                    **limits) -> tuple[RecycleState, list[dict]]:
    """Play one game (a file path or a loaded `Game`) with a transcript; -> (final state, records)."""
    state = new_game(game, seed, transcript=True, **limits)
    play_game(state, agents, rng)
    return state, finished_records(state, [getattr(a, "name", type(a).__name__) for a in agents])


def finished_records(state: RecycleState, agents: Sequence[str]) -> list[dict]:
    """The transcript of a game played with `transcript=True`, its header naming the file's
    digest (so `replay` can warn when the file changed) and the seats' agents."""
    out = records(state)
    out[0]["sha256"] = _sha(state.table.filename)
    out[0]["agents"] = list(agents)
    return out


def write(path: str | Path, recs: list[dict], game: str | None = None) -> None:
    """The transcript file. `game` replaces the header's file name: `recycle run` stores a shipped
    game's name, or the file's path relative to the transcript (`relative_to`), so that the game is
    found again after a checkout or a virtual environment moves."""
    if game is not None and recs and recs[0].get("t") == "game":
        recs = [{**recs[0], "file": game}, *recs[1:]]
    with open(path, "w", encoding="utf-8") as fh:
        for r in recs:
            fh.write(json.dumps(r, separators=(",", ":")) + "\n")


def relative_to(game_file: str, folder: Path) -> str:
    """The game file's path relative to `folder` (absolute when there is none, as across drives)."""
    try:
        return os.path.relpath(Path(game_file).absolute(), folder.absolute())
    except ValueError:
        return str(Path(game_file).absolute())


#: A transcript is one game: a few thousand records of a few hundred bytes.
MAX_TRANSCRIPT_BYTES = 64_000_000
KIND = "a RECYCLE transcript"
HEADER = Obj({"t": Str(10, ("game",)), "file": Str(4096), "seed": Int(-(2**63), 2**64),
              "players": Int(1, 1000), "max_choices": Int(1, 10**6), "strict": Bool(),
              "deal": Maybe(MapOf(ListOf(Str(1000), 0, 10_000), 1000)), "sha256": Maybe(Str(64)),
              "agents": ListOf(Str(4096), 0, 1000), "compat": Str(20, COMPAT_MODES)},
             optional=frozenset({"players", "max_choices", "strict", "deal", "sha256", "agents", "compat"}))
RECORD = Obj({"t": Str(20)})
CHOICE = Obj({"action": Str(100_000)})


def _recorded_action(state: RecycleState, rec: dict):
    """The option a choice record names: by its index when that option reads as recorded
    (`compat="cardstock"` offers equal options, one per physical card), else by its text."""
    options, i = state.legal_actions(), rec.get("index")
    if type(i) is int and 0 <= i < len(options) and options[i].text == rec["action"]:
        return options[i]
    return rec["action"]


def read(path: str | Path) -> list[dict]:
    """Every record of a transcript; each line must be an object with a "t" (a located error if not),
    the header's and the choices' fields of the types `replay` uses."""
    out = []
    for line, data in json_lines(path, MAX_TRANSCRIPT_BYTES, KIND):
        # The first record is the game header ("t": "game"): HEADER says so.
        record = line.check(data, HEADER if not out else RECORD, hint="a transcript line is one JSON record")
        if record["t"] == "choice":
            line.check(record, CHOICE)
        out.append(record)
    return out


@dataclass
class ReplayReport:
    """What `replay` found: `ok`, how many records and choices, and the first difference."""

    ok: bool
    records: int
    choices: int
    difference: str = ""
    warning: str = ""


def _game_file(header: dict, transcript: Path, find_game: Callable[[str], str] | None) -> Path:
    """The game file named in the header: a path relative to the transcript's folder (what
    `recycle run` stores), a path as given (older transcripts), or a shipped game's name
    (looked up with `find_game`, `recycle.games.game_path`)."""
    name = Path(header["file"])
    if name.is_absolute():
        return name
    beside = transcript.parent / name
    if beside.is_file():
        return beside
    if name.is_file():
        return name
    if find_game is not None and not name.suffix and len(name.parts) == 1:
        return Path(find_game(str(name)))
    return beside


def replay(path: str | Path, find_game: Callable[[str], str] | None = None,
           engine: str | None = None) -> ReplayReport:
    """Re-play a transcript and compare every record with the one written (`find_game`: how a
    shipped game's name in the header becomes a path; `engine`: see `new_game`)."""
    path = Path(path)
    recorded = read(path)
    if not recorded:
        raise DiagnosticError([Diagnostic(str(path), 1, 1, "not a RECYCLE transcript: the file has no records")])
    header = recorded[0]
    game_file = _game_file(header, path, find_game)
    warning = ""
    if header.get("sha256") and _sha(str(game_file)) != header["sha256"]:
        warning = f"{game_file} changed since the transcript was written"
    state = new_game(game_file, header["seed"], transcript=True,
                     max_choices=header.get("max_choices", 500), strict=header.get("strict", False),
                     deal=header.get("deal"),  # a game dealt from a deal file is dealt so again
                     compat=header.get("compat"), engine=engine)
    choices = [r for r in recorded if r.get("t") == "choice"]
    for k, rec in enumerate(choices):
        if state.is_terminal():
            return ReplayReport(False, len(recorded), k, f"the game ended before choice {k + 1} "
                                f"({rec['action']!r})", warning)
        try:
            state.apply(_recorded_action(state, rec))
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
