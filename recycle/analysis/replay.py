"""One game of an analysis played again, move by move (`recycle analyze ... --replay N`).

The game is the analysis's own work unit N (its set and seed come from the
analysis's seed and games per set alone, `experiment.units`), played by the
very code that played it (`PlayUnit`), so its log equals the analysed game's
(tested against the journal); a recording wrapper around the game's state
notes each move's text as it is applied.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.table import Table

from recycle.analysis.experiment import PlayUnit, units
from recycle.analysis.findings import no_real_choice, stretch_leaders
from recycle.analysis.records import GameLog


class _Recording:
    """A game state that notes the text of every move applied to it; everything else is the state's."""

    def __init__(self, state, moves: list[str]) -> None:
        self.__dict__["_state"], self.__dict__["_moves"] = state, moves

    def apply(self, action) -> None:
        self._moves.append(str(action))
        self._state.apply(action)

    def __getattr__(self, name: str):
        return getattr(self._state, name)


@dataclass(frozen=True)
class _RecordingSubject:
    """The analysed subject, its states recorded."""

    subject: Any
    moves: list = field(default_factory=list, compare=False)

    @property
    def name(self) -> str:
        return self.subject.name

    @property
    def players(self) -> int:
        return self.subject.players

    def new_state(self, seed: int):
        return _Recording(self.subject.new_state(seed), self.moves)

    def __getattr__(self, name: str):
        return getattr(self.subject, name)


@dataclass(frozen=True)
class Replay:
    """Game `log.index` of the analysis again: its log and the text of each move."""

    log: GameLog
    moves: tuple[str, ...]


def replay(subject: Any, config, index: int) -> Replay:
    """Play unit `index` of an analysis of `subject` with `config` again (ValueError: no such game)."""
    todo = units(config.games, config.seed)
    if not 0 <= index < len(todo):
        raise ValueError(f"no game {index}: an analysis of {config.games} games per set has games 0 to "
                         f"{len(todo) - 1}")
    recording = _RecordingSubject(subject)
    log = PlayUnit(recording, config.estimator, config.rollouts)(todo[index])
    return Replay(log, tuple(recording.moves))


SET_NAMES = {"random": "all random", "one_ai": "the estimating AI at seat 0", "all_ai": "the estimating AI "
                                                                                         "in every seat"}


def _value(x) -> str:
    return f"{float(x):.2f}"


def replay_table(r: Replay, name: str, games: int) -> Table:
    """Every move of the replayed game: who, the options, the move, the estimates and what changed."""
    g = r.log
    places = "; ".join(f"seat {p}: {', '.join(str(e[p]) for e in g.episodes)}" for p in range(g.players))
    table = Table(title=f"{name}, game {g.index} ({SET_NAMES.get(g.set, g.set)}, game {g.index % games} of "
                        f"{games} in its set), seed {g.seed}",
                  caption=f"places{' by round' if len(g.episodes) > 1 else ''}: {places}; estimate: the mover's "
                          "expected normalised place (1 first, 0 last) for the move played, best option's in "
                          "brackets when higher; leader of a tenth: the one player its estimates, summed, put first")
    for col, just in (("#", "right"), ("seat", "right"), ("options", "right"), ("move", "left"),
                      ("estimate", "right"), ("note", "left")):
        table.add_column(col, justify=just, overflow="fold")
    leads, offset = {}, 0
    for j, play in enumerate(g.plays()):
        if len(g.episodes) > 1:
            leads[offset] = f"round {j + 1}"
        for b, i, new, before in stretch_leaders(play.decisions):
            note = (f"tenth {b + 1} led by seat {new}" if before is None else
                    f"tenth {b + 1}: lead seat {before} -> {new}")
            leads[offset + i] = f"{leads[offset + i]}, {note}" if offset + i in leads else note
        offset += len(play.decisions)
    for i, (d, move) in enumerate(zip(g.decisions, r.moves)):
        notes = [leads[i]] if i in leads else []
        estimate = ""
        if d.view:
            played = d.view[d.player]
            estimate = _value(played) + (f" ({_value(d.lead)})" if d.lead > played else "")
        elif d.values:
            estimate = _value(d.lead)
        if no_real_choice(d):
            notes.append("forced" if d.options == 1 else "options alike")
        table.add_row(str(i + 1), str(d.player), str(d.options), move, estimate, ", ".join(notes))
    return table
