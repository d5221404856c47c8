"""Recording decisions at a President table: any bot's (`president record`), or the person's at the table.

A decision is recorded from the deciding seat's observation only (its climbing
view, `president.game.view.president_view`), so a record holds nothing the seat
could not see. Decisions with a single legal action (a forced pass, the Loser's
forced gift) are not recorded: nobody chose anything there.
"""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from personalities.records import RecordedDecision, Visit, header, record_lines, situation_of
from recycle.kernel.protocol import play_game
from recycle.kernel.specs import AgentSpecError, parse_spec
from recycle.players import SEARCH_PLAYER_NAMES

from president.agents.opponents import make_bots
from president.game.cards import Give
from president.match.saved import data_dir
from president.game.settings import Settings
from president.match.simulate import match_seed
from president.game.state import PresidentState
from president.game.view import president_view


#: Budget parameters `fixed_iterations` replaces: whatever else bounded the search.
_BUDGET_KEYS = ("iterations", "samples", "time", "calls", "nodes", "cap")


def fixed_iterations(spec: str, iterations: int) -> str:
    """`spec` with its search budget fixed at `iterations` and no wall-clock cap, so a record means the same
    on any machine however busy (a capped search stops early under load). Only a search player's spec
    (`name:key=value,...`) has a budget; the spec's check (`check_agents_for`) then refuses a bot without one."""
    name, params = parse_spec(spec)
    if not params and name.lower() not in SEARCH_PLAYER_NAMES:  # a bare `ismcts` is a search player too
        raise AgentSpecError(f"--iterations: {spec!r} is not a search player's spec (write e.g. "
                             "ismcts:rollout=Classic)")
    kept = [f"{k}={v}" for k, v in params.items() if k not in _BUDGET_KEYS]
    return f"{name}:" + ",".join([f"iterations={iterations}", *kept])


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


def searched(agent) -> bool:
    """Is `agent` a search player whose `choose` is its `explain`'s action (so its visits can be read)?"""
    from recycle.search.common import SearchAgent

    return isinstance(agent, SearchAgent) and type(agent).choose is SearchAgent.choose


def root_visits(legal_actions: Sequence[Any], decisions: Sequence[Any]) -> tuple[Visit, ...]:
    """The root visits of each play over the searches' decisions (their traces' candidates), summed.
    A search that visited nothing (the exact endgame solver decided) counts one visit for its play."""
    by_text = {str(a): a for a in legal_actions}
    total: dict[Any, int] = {a: 0 for a in legal_actions}
    for decision in decisions:
        seen = [(by_text[c.action], c.visits) for c in getattr(decision.trace, "candidates", ())
                if c.action in by_text]
        if not any(n for _, n in seen):
            seen = [(decision.action, 1)]
        for action, n in seen:
            total[action] += n
    return tuple(Visit(None if a.count == 0 else (a.value, a.count), n, a.jokers) for a, n in total.items() if n)


class RecordingAgent:
    """An agent that decides as `inner` does and appends each real decision to `sink`.

    With `searches` > 1 and a search player inside, every playing decision is searched that many times:
    the first search decides (with the game's random stream, so the game goes as it would unrecorded)
    and the record keeps the root visits of all of them, summed (`extra`: the other searches' stream)."""

    def __init__(self, inner, sink: Callable[[RecordedDecision], None], searches: int = 1,
                 extra: random.Random | None = None) -> None:
        self.inner, self.sink = inner, sink
        self.name = getattr(inner, "name", "bot")
        self.searches = searches if searched(inner) else 0
        self.extra = extra or random.Random(0)

    @property
    def draws_nothing_when_forced(self) -> bool:
        return getattr(self.inner, "draws_nothing_when_forced", False)

    def choose(self, observation, legal_actions, rng: random.Random):
        if not self.searches or len(legal_actions) < 2 or isinstance(legal_actions[0], Give):
            action, visits = self.inner.choose(observation, legal_actions, rng), ()
        else:
            decisions = [self.inner.explain(observation, legal_actions, rng, believe=False)]
            decisions += [self.inner.explain(observation, legal_actions, random.Random(self.extra.getrandbits(64)),
                                             believe=False) for _ in range(self.searches - 1)]
            action, visits = decisions[0].action, root_visits(legal_actions, decisions)
        record = record_of(observation, legal_actions, action)
        if record is not None:
            self.sink(replace(record, visits=visits, searches=self.searches if visits else 0))
        return action


def record_matches(bot: str, opponents: Sequence[str], settings: Settings, rounds: int, seed: int,
                   rules_dirs: tuple[Path, ...] = (), progress: Callable[[int], None] | None = None,
                   searches: int = 1) -> Iterator[RecordedDecision]:
    """`bot`'s decisions in seat 0 over `rounds` rounds: matches of the table's rounds (the last cut short),
    each dealt from (`seed`, match number), the opponents in the other seats. A search player's records
    keep its root visits over `searches` searches of each position (`RecordingAgent`)."""
    played, match = 0, 0
    while played < rounds:
        length = min(settings.rounds or rounds, rounds - played)
        table = settings.with_overrides({"rounds": str(length), "target_score": "0"})
        agents, _ = make_bots([bot, *opponents], table.players, rules_dirs)
        got: list[RecordedDecision] = []
        agents[0] = RecordingAgent(agents[0], got.append, searches,
                                   random.Random(f"president-record/{seed}/{match}/searches"))
        state = PresidentState.new_match(table, match_seed(seed, match))
        play_game(state, agents, random.Random(f"president-record/{seed}/{match}"))
        for record in got:
            yield _renumbered(record, played)
        played += length
        match += 1
        if progress:
            progress(played)


def _renumbered(record: RecordedDecision, before: int) -> RecordedDecision:
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
