"""CardStock's three experiment sets, as work units for the tournament's worker pool.

A *subject* is the game under analysis, behind a few duck-typed methods
(picklable, so workers rebuild it): `name`, `players`, `new_state(seed)`,
`episode(state)` (which episode a decision belongs to), `places(state)`
(per episode, each player's place, 1 the best), `rounds(state)` (None when the
game has no rounds) and `describe(state, player)` (state size, share of cards
hidden from `player`). `RecycleSubject` serves every RECYCLE game;
`president.match.analysis.PresidentSubject` serves native President.

A work unit is one game of one set, seeded from (master seed, set, index)
alone, so the same seed gives the same logs whichever process plays which
unit, and `-j` or `--cluster` changes nothing but the time. The pool plays
them in `schedule`'s order, which keeps every process busy to the end, and
reports how long each took (`Played`), from which `eta` predicts the rest.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recycle.kernel.protocol import GameError, decide

from recycle.analysis.estimator import DEFAULT_ROLLOUTS, estimates, make_estimator
from recycle.analysis.records import ALL_AI, ONE_AI, RANDOM, SETS, DecisionRecord, GameLog

#: A game's decisions are bounded by its own rules (RECYCLE's choice limit); this is the last resort.
MAX_DECISIONS = 200_000


def unit_seed(seed: int, set_name: str, index: int) -> int:
    """The seed of one game of one set, the same in every process."""
    return random.Random(f"analysis/{seed}/{set_name}/{index}").getrandbits(63)


@dataclass(frozen=True)
class Unit:
    """One game to play: its global index, its set, and its seed."""

    index: int
    set: str
    seed: int


def units(games: int, seed: int, sets: Sequence[str] = SETS) -> list[Unit]:
    """Every game of every set: set k's game i has index k * games + i."""
    return [Unit(k * games + i, s, unit_seed(seed, s, i)) for k, s in enumerate(sets) for i in range(games)]


_LOADED: dict[tuple, Any] = {}


@dataclass(frozen=True)
class RecycleSubject:
    """A RECYCLE game file under analysis (the game is read once per process).

    With `text` (the file's content, see `with_text`) a worker parses that
    instead of opening `path`: what a machine without the file needs.
    """

    path: str
    max_choices: int = 500
    compat: str | None = None
    text: str | None = None
    engine: str | None = None  # "reference" or "fast" (None: fast); the numbers do not depend on it

    def with_text(self) -> "RecycleSubject":
        """The same subject carrying its file's content, for workers that cannot read the file."""
        from dataclasses import replace

        return replace(self, text=Path(self.path).read_text(encoding="utf-8"))

    def _game(self):
        from recycle.lang import load_game
        from recycle.lang.reader import parse_game

        key = (self.path, None if self.text is None else hash(self.text))
        if key not in _LOADED:
            while len(_LOADED) >= 16:  # a folder run reads many games: keep the last few
                del _LOADED[next(iter(_LOADED))]
            _LOADED[key] = load_game(self.path) if self.text is None else parse_game(self.text, self.path)
        return _LOADED[key]

    @property
    def name(self) -> str:
        return Path(self.path).stem

    @property
    def players(self) -> int:
        return self.new_state(0).num_players

    def new_state(self, seed: int):
        from recycle.interp import new_game

        extra = {"compat": self.compat} if self.compat else {}
        return new_game(self._game(), seed, max_choices=self.max_choices, engine=self.engine, **extra)

    def episode(self, state) -> int:
        return 0

    def places(self, state) -> tuple[tuple[int, ...], ...]:
        return (state.results().ranks,)

    def rounds(self, state) -> int | None:
        return None

    def called(self, state) -> bool:
        return bool(state.called)

    def describe(self, state, player: int) -> tuple[int, float]:
        """Cards in play plus storages and non-empty locations; the share of cards `player` cannot see."""
        st = state.st
        cards = sum(len(c) for k, c in st.locs.items() if k[2] != "mem")
        locations = sum(1 for k, c in st.locs.items() if c and k[2] != "mem")
        size = cards + locations + len(st.ints) + len(st.strs)
        return size, (len(state.hidden_cards(player)) / cards if cards else 0.0)


@dataclass(frozen=True)
class PlayUnit:
    """Plays one unit into its `GameLog` (the pool's picklable work: `run(unit)`)."""

    subject: Any
    estimator: str = "cardstock"
    rollouts: int = DEFAULT_ROLLOUTS

    def __call__(self, unit: Unit) -> GameLog:
        subject = self.subject
        state = subject.new_state(unit.seed)
        n = state.num_players
        rng = random.Random(unit.seed ^ 0x5EED)
        ai = {ONE_AI: {0}, ALL_AI: set(range(n))}.get(unit.set, set())
        agent = make_estimator(self.estimator, self.rollouts) if ai else None
        measure = unit.set == RANDOM
        decisions: list[DecisionRecord] = []
        texts: set[str] = set()
        while not state.is_terminal():
            if len(decisions) >= MAX_DECISIONS:
                raise GameError(f"{subject.name}: no end after {MAX_DECISIONS:,} decisions")
            player, legal = state.current_player(), state.legal_actions()
            episode = subject.episode(state)
            if player in ai:
                decision = decide(agent, state.observation(player), legal, rng, explain=True)
                est = estimates(decision, legal)
                action = decision.action
                record = DecisionRecord(player, len(legal), episode, est and est.values, est and est.view)
            else:
                action = legal[int(rng.random() * len(legal))]
                size, hidden = subject.describe(state, player) if measure else (None, None)
                record = DecisionRecord(player, len(legal), episode, size=size, hidden=hidden)
            if measure:
                texts.update(map(str, legal))
            decisions.append(record)
            state.apply(action)
        results = state.results()
        called = getattr(subject, "called", None)  # RECYCLE games may be called at the choice limit
        return GameLog(unit.index, unit.set, unit.seed, n, tuple(decisions), tuple(subject.places(state)),
                       results.ranks, results.scores, len(texts), bool(called and called(state)),
                       subject.rounds(state))


#: The sets from the costliest game to the cheapest: an all-AI game estimates every seat's
#: decisions and takes 100 to 300 times a random game (Agram4, BigTwo4).
BY_COST = (ALL_AI, ONE_AI, RANDOM)


def schedule(todo: Iterable[Unit]) -> list[Unit]:
    """The order the units are played in (the logs, seeded by unit, do not depend on it).

    First one game of each set, the cheapest first: within seconds every kind of game
    has been timed once, and the ETA rests on what each kind costs (`eta`). Then the
    rest, the costliest set first: the last games to finish are then the short ones,
    so no process sits idle at the end while another plays a long all-AI game (played
    in index order, a run's last third was all-AI games, and its end waited on them).
    """
    todo = list(todo)
    first: dict[str, Unit] = {}
    for u in todo:
        first.setdefault(u.set, u)
    head = [first[s] for s in reversed(BY_COST) if s in first]
    chosen = {u.index for u in head}
    rest = sorted((u for u in todo if u.index not in chosen),
                  key=lambda u: (BY_COST.index(u.set) if u.set in BY_COST else len(BY_COST), u.index))
    return head + rest


@dataclass(frozen=True)
class Played:
    """A unit's log and the seconds it took in the process that played it (for the ETA only:
    never journaled, no figure depends on it)."""

    log: GameLog
    seconds: float

    @property
    def index(self) -> int:
        return self.log.index


@dataclass(frozen=True)
class Timed:
    """`run`, timed where it runs (a worker's wall clock, so a loaded machine shows in it)."""

    run: Callable[[Unit], GameLog]

    def __call__(self, unit: Unit) -> Played:
        start = time.perf_counter()
        log = self.run(unit)
        return Played(log, time.perf_counter() - start)


def run_units(run: Callable[[Unit], GameLog], todo: Iterable[Unit], jobs: int = 1,
              on_log: Callable[[GameLog], None] | None = None, cluster=None,
              on_played: Callable[[GameLog, float], None] | None = None) -> list[GameLog]:
    """Play every unit, on `jobs` processes of the tournament's pool or on a Dask `cluster`
    (a `ClusterSpec`), in `schedule`'s order; results in index order.

    `on_log` sees each log as it finishes (journal, progress bar); `on_played` sees it with
    the seconds it took (the ETA). On a cluster every task is one game: a game with
    estimating AIs takes seconds, beside which Dask's milliseconds per task are nothing,
    and blocks of many such games left one worker playing a block long after the others
    had finished theirs.
    """
    from recycle.tournament.cluster import open_pool

    pending = schedule(todo)
    workers = open_pool(jobs if len(pending) > 1 else 1, Timed(run), cluster if pending else None,
                        tag="analysed game", units=len(pending), block=1)
    logs: list[GameLog] = []
    clean = False
    try:
        queue = iter(pending)
        upcoming = next(queue, None)
        while True:
            while upcoming is not None and workers.has_room():
                workers.submit(upcoming)
                upcoming = next(queue, None)
            if not workers.busy:
                break
            for played in workers.finished():
                log = played.log
                logs.append(log)
                if on_log:
                    on_log(log)
                if on_played:
                    on_played(log, played.seconds)
            workers.check()
        clean = True
    finally:
        workers.close(now=not clean)
    return sorted(logs, key=lambda g: g.index)
