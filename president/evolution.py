"""Evolving a personality: mutate, measure on shared deals, keep only what is proven better.

Each generation draws fresh deals (from the seed and the generation number)
and plays the parent and every child on the same deals, with the same
opponents from the field and the same game seeds, each deal once with the
personality in every seat. A child's fitness is its mean points per round on
a deal; the comparison with the parent is paired deal by deal. A child
replaces the parent only if a one-sided paired t-test says it is better at
level `alpha / children` (Bonferroni: the chance that any child of a
generation wins by luck is at most `alpha`). So what evolution keeps is not
a lucky draw.

At the end, `simplify_step` removes, one at a time, every rule and condition
whose removal does not make the personality measurably worse (the same paired
test, the other way round, at the more watchful level `SIMPLIFY_ALPHA`), so
the result stays short.

Determinism: everything random is drawn from `(seed, generation, ...)`, and
results are gathered by index, so the same seed gives the same personality
for any `-j`, on a cluster, and after `--resume`.
"""
from __future__ import annotations

import functools
import math
import random
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from personalities.mutation import Candidate, Mutator
from recycle.kernel import user_files as uploads
from recycle.kernel.user_files import FileSet
from recycle.tournament.cluster import ClusterSpec, open_pool
from recycle.tournament.schedule import derive_seed
from recycle.tournament.stats import t_quantile

from president.match.tournament import PresidentMatch
from president.game.settings import Settings

#: Simplification keeps a rule when a one-sided paired test at this level finds its removal worse:
#: a higher level than selection's, so a rule that matters is not dropped for want of deals.
SIMPLIFY_ALPHA = 0.25


@dataclass(frozen=True)
class Trial:
    """One match to play: every seat's bot spec, and which seat is measured."""

    index: int
    specs: tuple[str, ...]
    seat: int
    deal_seed: int
    game_seed: int
    files: FileSet = FileSet()  # what the seats' bots read: the run's recorded files and the candidate's


@dataclass(frozen=True)
class TrialResult:
    index: int
    points: float  # the measured seat's mean points per round


def play_trial(play: PresidentMatch, trial: Trial) -> TrialResult:
    with uploads.serving(trial.files):  # read once, used throughout: never the disk as it is now
        rounds = play(trial.specs, trial.deal_seed, trial.game_seed)
    return TrialResult(trial.index, statistics.fmean(points[trial.seat] for _, points in rounds))


@dataclass(frozen=True)
class Paired:
    """A paired comparison of B against A over deals: B's mean points/round minus A's, per deal."""

    diffs: tuple[float, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.diffs)

    @property
    def t(self) -> float:
        """The paired t statistic (infinite where every deal agrees and the mean is not 0)."""
        sd = statistics.stdev(self.diffs) if len(self.diffs) > 1 else 0.0
        if sd == 0.0:
            return 0.0 if self.mean == 0 else math.copysign(math.inf, self.mean)
        return self.mean / (sd / math.sqrt(len(self.diffs)))

    def better(self, alpha: float) -> bool:
        """Is B better than A, by a one-sided paired t-test at level `alpha`?"""
        return len(self.diffs) > 1 and self.t > t_quantile(1 - alpha, len(self.diffs) - 1)

    def interval(self) -> tuple[float, float]:
        """95% interval of the mean difference."""
        if len(self.diffs) < 2:
            return (self.mean, self.mean)
        half = t_quantile(0.975, len(self.diffs) - 1) * statistics.stdev(self.diffs) / math.sqrt(len(self.diffs))
        return self.mean - half, self.mean + half


class Arena:
    """Where candidates are measured: the table, the field of opponents, and one pool of workers for
    the whole run (`close()` it; or use the arena in a `with` block)."""

    def __init__(self, settings: Settings, field: tuple[str, ...], seed: int, folder: Path, jobs: int = 1,
                 cluster: ClusterSpec | None = None, rules_dirs: tuple[Path, ...] = (),
                 files: FileSet = FileSet()) -> None:
        """`folder`: where candidates are written for the workers; `files`: the user files the field's
        bots read when the run started (`uploads.read_once`), the only ones any game reads."""
        self.settings, self.field, self.seed, self.folder = settings, tuple(field), seed, folder
        self.jobs, self.cluster, self.rules_dirs, self.files = jobs, cluster, rules_dirs, files
        self.play = PresidentMatch(settings, rules_dirs)
        self._pool = None

    def __enter__(self) -> "Arena":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close(now=True)
            self._pool = None

    def spec(self, candidate: Candidate, label: str) -> str:
        path = self.folder / f"{label}.rul"
        path.write_text(candidate.text, encoding="utf-8")
        return str(path)

    def files_with(self, spec: str, candidate: Candidate) -> FileSet:
        """The run's recorded files and a candidate's file: all a table with the candidate reads."""
        return FileSet(tuple(sorted({*self.files.texts, (spec, candidate.text)})), self.files.folders)

    def measure(self, candidates: Sequence[Candidate], deals: int, purpose: tuple,
                progress: Callable[[int], None] | None = None) -> list[list[float]]:
        """Per candidate, per deal: mean points per round over every seat, on shared deals and opponents."""
        players = self.settings.players
        specs = [self.spec(c, "-".join(map(str, (*purpose, k)))) for k, c in enumerate(candidates)]
        own = [self.files_with(spec, c) for spec, c in zip(specs, candidates)]
        trials = []
        for d in range(deals):
            rng = random.Random(derive_seed(self.seed, "evolve", *purpose, "deal", d))
            opponents = [rng.choice(self.field) for _ in range(players - 1)]
            deal_seed, game_seed = rng.getrandbits(63), rng.getrandbits(63)
            for k, spec in enumerate(specs):
                for seat in range(players):
                    table = tuple(opponents[:seat]) + (spec,) + tuple(opponents[seat:])
                    trials.append(Trial(len(trials), table, seat, deal_seed, game_seed, own[k]))
        every = FileSet(tuple(sorted({t for f in own for t in f.texts})), self.files.folders)
        with uploads.serving(every):  # every bot builds from the recorded files, before any game
            for spec in sorted({*specs, *self.field}):
                self.play.bot(spec)
        points = self._run(trials, every, progress)
        per = len(specs) * players
        return [[statistics.fmean(points[d * per + k * players: d * per + (k + 1) * players])
                 for d in range(deals)] for k in range(len(specs))]

    def _run(self, trials: list[Trial], files: FileSet, progress: Callable[[int], None] | None) -> list[float]:
        run = functools.partial(play_trial, self.play)
        if self._pool is None:
            self._pool = open_pool(self.jobs, run, self.cluster, files, tag="trial", units=len(trials))
        elif self.cluster is not None:  # this round's candidate files go to the workers
            self._pool.use(run, files, len(trials))
        pool, results = self._pool, {}
        waiting = iter(trials)
        upcoming = next(waiting, None)
        try:
            while upcoming is not None or pool.busy:
                while upcoming is not None and pool.has_room():
                    pool.submit(upcoming)
                    upcoming = next(waiting, None)
                for result in pool.finished():
                    results[result.index] = result.points
                pool.check()
                if progress:
                    progress(len(results))
        except BaseException:
            self.close()
            raise
        return [results[i] for i in range(len(trials))]


@dataclass(frozen=True)
class Generation:
    """What one generation did: the children's edits and paired results, and which one was kept."""

    number: int
    parent: Candidate
    parent_fitness: float
    children: tuple[tuple[Candidate, str, Paired], ...]
    kept: int | None  # index into children, or None: the parent stays

    @property
    def survivor(self) -> Candidate:
        return self.parent if self.kept is None else self.children[self.kept][0]


def run_generation(arena: Arena, mutator: Mutator, parent: Candidate, number: int, population: int,
                   deals: int, alpha: float, progress=None) -> Generation:
    rng = random.Random(derive_seed(arena.seed, "evolve", "mutate", number))
    children = [mutator.mutate(parent, rng, f"generation {number}") for _ in range(population)]
    fitness = arena.measure([parent] + [c for c, _ in children], deals, ("gen", number), progress)
    paired = [Paired(tuple(b - a for a, b in zip(fitness[0], f))) for f in fitness[1:]]
    level = alpha / max(1, population)
    winners = [k for k, p in enumerate(paired) if p.better(level) and children[k][0].text != parent.text]
    kept = max(winners, key=lambda k: (paired[k].mean, -k)) if winners else None
    return Generation(number, parent, statistics.fmean(fitness[0]),
                      tuple((c, edit, p) for (c, edit), p in zip(children, paired)), kept)


def simplifications(candidate: Candidate) -> list[tuple[Candidate, str]]:
    """Every personality one rule or one condition shorter (a personality keeps one rule)."""
    rules, origins = list(candidate.personality.rules), list(candidate.origins)
    out = []
    for i, rule in enumerate(rules):
        if len(rules) > 1:
            out.append((candidate.with_rules(rules[:i] + rules[i + 1:], origins[:i] + origins[i + 1:]),
                        f"removed rule {i + 1} ({rule})"))
        for j, condition in enumerate(rule.conditions):
            shorter = rules[:i] + [type(rule)(rule.potential, rule.conditions[:j] + rule.conditions[j + 1:])] \
                + rules[i + 1:]
            out.append((candidate.with_rules(shorter, origins), f"removed {condition} from rule {i + 1}"))
    return out


def simplify_step(arena: Arena, current: Candidate, step: int, deals: int, alpha: float = SIMPLIFY_ALPHA,
                  progress=None) -> tuple[Candidate, str | None]:
    """The best shorter personality that is not measurably worse than `current`, or `current`.

    "Not measurably worse": a one-sided paired t-test at `alpha` does not find
    `current` better. Among those, the one that did best on the shared deals.
    """
    options = simplifications(current)
    if not options:
        return current, None
    fitness = arena.measure([current] + [c for c, _ in options], deals, ("simplify", step), progress)
    fine = [(Paired(tuple(b - a for a, b in zip(fitness[0], f))), k) for k, f in enumerate(fitness[1:])]
    fine = [(p, k) for p, k in fine if not Paired(tuple(-d for d in p.diffs)).better(alpha)]
    if not fine:
        return current, None
    _, k = max(fine, key=lambda pk: (pk[0].mean, -pk[1]))
    return options[k]
