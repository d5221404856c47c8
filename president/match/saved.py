"""A match played at the table, as saved for review: how it started, every action, the bots' beliefs.

Saved as JSON in the per-user data folder (`matches_dir()`: platformdirs'
`user_data_dir("president-rul")/"matches"`, or `$PRESIDENT_DATA_DIR/matches`),
one file per match, rewritten at the end of every round. The match is
replayed from its settings, seed, first deal and actions (`replay`), so the
file holds no hand: every hand at every moment follows from the replay.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from recycle.kernel.errors import UsageError
from recycle.kernel.beliefs import Belief, HandBelief
from recycle.kernel.protocol import GameError

from president.game.cards import Card, parse_action
from president.game.settings import Settings, SettingsError
from president.match.simulate import match_seed
from president.game.state import PresidentState

FORMAT = "president-match/1"
#: Where tests (and anyone) put the data folder instead of the per-user one.
DATA_ENV = "PRESIDENT_DATA_DIR"


class MatchFileError(UsageError):
    """A saved match that cannot be read or replayed: the message names the file and why."""


def data_dir() -> Path:
    """The per-user data folder (`$PRESIDENT_DATA_DIR` when set)."""
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV])
    from platformdirs import user_data_dir

    return Path(user_data_dir("president-rul"))


def matches_dir() -> Path:
    return data_dir() / "matches"


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to replay a match at the table and review it."""

    settings: Settings
    seed: int
    deal: tuple[tuple[str, ...], ...] | None  # the first round's hands, when given (`--deal`)
    seats: tuple[str, ...]  # "human", then each bot's spec
    names: tuple[str, ...]
    actions: tuple[tuple[int, str], ...]  # (player, action as text), in order
    beliefs: dict[int, Belief] = field(default_factory=dict)  # action index -> the bot's belief then
    opened_rounds: tuple[int, ...] = ()  # rounds in which the person opened the hands

    def to_json(self) -> dict:
        return {"format": FORMAT, "settings": self.settings.describe(), "seed": self.seed,
                "deal": [list(hand) for hand in self.deal] if self.deal else None, "seats": list(self.seats),
                "names": list(self.names), "actions": [[p, a] for p, a in self.actions],
                "beliefs": {str(i): {"observer": b.observer, "method": b.method, "worlds": b.worlds,
                                     "hands": [h.to_json() for h in b.hands]} for i, b in self.beliefs.items()},
                "opened_rounds": list(self.opened_rounds)}

    @classmethod
    def from_json(cls, data: Any, where: str) -> "MatchRecord":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MatchFileError(f"{where}: not a saved match of this version (format {FORMAT})")
        try:
            settings = Settings().with_overrides(data["settings"])
            deal = tuple(tuple(str(c) for c in hand) for hand in data["deal"]) if data["deal"] else None
            beliefs = {int(i): _belief(b) for i, b in data["beliefs"].items()}
            return cls(settings, int(data["seed"]), deal, tuple(map(str, data["seats"])),
                       tuple(map(str, data["names"])), tuple((int(p), str(a)) for p, a in data["actions"]),
                       beliefs, tuple(int(r) for r in data["opened_rounds"]))
        except (KeyError, TypeError, ValueError, AttributeError, SettingsError) as exc:
            raise MatchFileError(f"{where}: a field is missing or malformed ({type(exc).__name__}: {exc})") from None

    def start(self) -> PresidentState:
        deal = [[Card.parse(c) for c in hand] for hand in self.deal] if self.deal else None
        return PresidentState.new_match(self.settings, match_seed(self.seed, 0), deal=deal)


def _belief(data: dict) -> Belief:
    hands = tuple(HandBelief(int(h["player"]), int(h["cards"]),
                             tuple((str(k), float(v)) for k, v in h["expected"].items()),
                             tuple((str(k), int(v)) for k, v in h.get("likeliest", {}).items()))
                  for h in data["hands"])
    return Belief(int(data["observer"]), str(data["method"]), int(data["worlds"]), hands)


def replay(record: MatchRecord, where: str = "the match") -> Iterator[tuple[int, PresidentState, int, Any]]:
    """(action index, the state before it, player, action) for every action of the match, in order.
    The state is the live one: copy it to keep it."""
    state = record.start()
    for i, (player, text) in enumerate(record.actions):
        try:
            action = parse_action(text)
            if state.current_player() != player:
                raise GameError(f"it is player {state.current_player()}'s turn, not {player}'s")
            yield i, state, player, action
            state.apply(action)
        except GameError as exc:
            raise MatchFileError(f"{where}: action {i + 1} ({text!r} by player {player}) does not replay: {exc}") \
                from None


def replay_all(record: MatchRecord, where: str = "the match") -> PresidentState:
    """The state after the record's last action (`replay` applies each action once it is asked for the next)."""
    state = None
    for _, state, _, _ in replay(record, where):
        pass
    return record.start() if state is None else state


def save(record: MatchRecord, path: Path) -> None:
    """Write the record whole (a temporary file renamed over the old one: never half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(record.to_json()))
    part.replace(path)


#: A saved match bigger than this is not one of ours.
MAX_BYTES = 20_000_000


def load(path: Path) -> MatchRecord:
    if not path.is_file():
        raise MatchFileError(f"{path}: no such saved match")
    if path.stat().st_size > MAX_BYTES:
        raise MatchFileError(f"{path}: too big for a saved match")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MatchFileError(f"{path}: not readable as a saved match ({exc})") from None
    return MatchRecord.from_json(data, str(path))


def saved_matches() -> list[Path]:
    """The saved matches, oldest first (by name: a timestamp)."""
    folder = matches_dir()
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def find(name: str | None) -> Path:
    """A saved match by path, by file name in the matches folder, or (None) the latest one."""
    if name is None:
        found = saved_matches()
        if not found:
            raise MatchFileError(f"no saved match in {matches_dir()}: play one with president play")
        return found[-1]
    path = Path(name)
    if path.is_file():
        return path
    for candidate in (matches_dir() / name, matches_dir() / f"{name}.json"):
        if candidate.is_file():
            return candidate
    raise MatchFileError(f"{name}: no such saved match (here or in {matches_dir()})")
