"""Recording decisions at a President table: any bot's (`president record`), or the person's at the table.

A decision is recorded from the deciding seat's observation only (its climbing
view, `president.game.view.president_view`), so a record holds nothing the seat
could not see. Decisions with a single legal action (a forced pass, the Loser's
forced gift) are not recorded: nobody chose anything there.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from personalities.records import RecordedDecision, header, record_lines, situation_of
from recycle.kernel.protocol import play_game

from president.agents.bots import make_bots
from president.game.cards import Give
from president.match.saved import data_dir
from president.game.settings import Settings
from president.match.simulate import match_seed
from president.game.state import PresidentState
from president.game.view import president_view


def record_of(observation, legal_actions: Sequence[Any], action: Any) -> RecordedDecision | None:
    """The record of `action` chosen from `observation`, or None when there was no choice."""
    if len(legal_actions) < 2:
        return None
    view = president_view(observation, legal_actions)
    round_no, seat = observation.round_no + 1, observation.player
    if isinstance(action, Give):
        return RecordedDecision(situation_of(view), view, gift=tuple(sorted(action.values)), round=round_no,
                                seat=seat)
    play = None if action.count == 0 else (action.value, action.count)
    return RecordedDecision(situation_of(view), view, play, jokers=action.jokers, round=round_no, seat=seat)


class RecordingAgent:
    """An agent that decides as `inner` does and appends each real decision to `sink`."""

    def __init__(self, inner, sink: Callable[[RecordedDecision], None]) -> None:
        self.inner, self.sink = inner, sink
        self.name = getattr(inner, "name", "bot")

    @property
    def draws_nothing_when_forced(self) -> bool:
        return getattr(self.inner, "draws_nothing_when_forced", False)

    def choose(self, observation, legal_actions, rng: random.Random):
        action = self.inner.choose(observation, legal_actions, rng)
        record = record_of(observation, legal_actions, action)
        if record is not None:
            self.sink(record)
        return action


def record_matches(bot: str, opponents: Sequence[str], settings: Settings, rounds: int, seed: int,
                   rules_dirs: tuple[Path, ...] = (), progress: Callable[[int], None] | None = None
                   ) -> Iterator[RecordedDecision]:
    """`bot`'s decisions in seat 0 over `rounds` rounds: matches of the table's rounds (the last cut short),
    each dealt from (`seed`, match number), the opponents in the other seats."""
    played, match = 0, 0
    while played < rounds:
        length = min(settings.rounds or rounds, rounds - played)
        table = settings.with_overrides({"rounds": str(length), "target_score": "0"})
        agents, _ = make_bots([bot, *opponents], table.players, rules_dirs)
        got: list[RecordedDecision] = []
        agents[0] = RecordingAgent(agents[0], got.append)
        state = PresidentState.new_match(table, match_seed(seed, match))
        play_game(state, agents, random.Random(f"president-record/{seed}/{match}"))
        for record in got:
            yield _renumbered(record, played)
        played += length
        match += 1
        if progress:
            progress(played)


def _renumbered(record: RecordedDecision, before: int) -> RecordedDecision:
    from dataclasses import replace

    return replace(record, round=record.round + before)


def write_records(path: str | Path, who: str, decisions: Iterator[RecordedDecision], **about) -> int:
    """Write a records file; the number of decisions written."""
    count = 0
    with open(path, "w", encoding="utf-8") as fh:
        for k, line in enumerate(record_lines(header(who, **about), decisions)):
            fh.write(line)
            count = k
    return count


def decisions_folder() -> Path:
    """Where the table saves the person's decisions, one records file per match; not created here."""
    return data_dir() / "decisions"


class DecisionLog:
    """The person's decisions of one match, appended to a records file as they are made (a match cut
    short keeps what was played). The file is created at the first decision."""

    def __init__(self, folder: Path, name: str, **about) -> None:
        self.path = folder / name
        self.about = about
        self.count = 0

    def add(self, record: RecordedDecision) -> None:
        """Append one decision; raises OSError when the file cannot be written."""
        new = self.count == 0
        if new:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        lines = list(record_lines(header("person", **self.about), [record]))
        with open(self.path, "w" if new else "a", encoding="utf-8") as fh:
            fh.writelines(lines if new else lines[1:])
        self.count += 1
