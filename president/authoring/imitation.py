"""`president imitate`: the `.rul` file that plays the recorded play most often (docs/imitate.md).

The records are split by round (a round's decisions all train or all stay held
out, `--holdout` of the rounds held out). On the training decisions:

0. the start: `--start`, or the shipped personality matching most training decisions, so the
   file learned never begins below the best shipped one.
1. beginning: the top rules of the decision list induced from the records
   (`personalities.induction`), above the start's rules, before its closing pass, or alone; or the start alone.
   How many rules, of which least support, is chosen by cross-validation
   (`crossval`: folds of the training rounds, each learned without and scored on):
   induced rules are kept only when they match more left-out decisions than the start alone.
2. local search: the evolution's valid mutations (`personalities.mutation`;
   donors: the start's rules, the induced ones and every shipped
   personality's), a child kept when a sign test on the decisions it decides
   differently says it matches more training decisions than chance would (or
   as many, shorter), until its share of `--budget-hours` is spent (counted in decisions replayed,
   `REPLAYS_PER_SECOND`, never timed) or `PATIENCE` steps
   in a row find nothing.
3. simplification: rules and conditions are removed while all the removals together
   cost fewer than `earn` training decisions (a rule stays only when it earns its place;
   measured against the file before simplifying, so small losses cannot add up).

Steps 2 and 3 are run on every fold too, and kept only when they match more left-out
decisions than step 1's file alone. The held-out decisions are read only to report. Same seed, same file, for any `-j`.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Sequence

from personalities.catalog import shipped, shipped_names
from personalities.evaluator import decide
from personalities.induction import Induced
from personalities.matching import MatchRate, Scorer, recorded
from personalities.mutation import Candidate, Mutator
from personalities.reader import parse_personality
from personalities.records import Label, RecordedDecision, Situation, load_all
from personalities.syntax import Personality
from recycle.tournament.schedule import derive_seed
from recycle.tournament.stats import wilson

from president.authoring.crossval import (FOLDS, RUNG, LearningPlan, Placement, add, best_shipped, closing,
                                          cross_validate, fold_rounds, planned)
from president.authoring.evolution import simplifications

#: Local search stops after this many steps in a row without a better child.
PATIENCE = 60
#: Children tried per local-search step.
POPULATION = 8
#: A mutation is kept when its gain in matched training decisions is this many standard deviations of
#: chance (about a 2.5% one-sided level per child).
Z = 2.0
#: The pace a `--budget-hours` is counted at: decisions replayed (a candidate scored on one training decision)
#: per second of budget. Counted, not timed, so what the search does, and whether it is kept, never depends on
#: the clock (one process replays about 200,000 a second on this project's machine; scoring is not all).
REPLAYS_PER_SECOND = 100_000


@dataclass(frozen=True)
class Split:
    train: tuple[RecordedDecision, ...]
    held_out: tuple[RecordedDecision, ...]


def split(records: Sequence[RecordedDecision], holdout: float, seed: int) -> Split:
    """Whole rounds held out (their decisions are not independent), chosen by the seed."""
    rounds = sorted({r.round_key for r in records})
    random.Random(derive_seed(seed, "imitate", "holdout")).shuffle(rounds)
    out = set(rounds[:round(holdout * len(rounds))])
    return Split(tuple(r for r in records if r.round_key not in out), tuple(r for r in records if r.round_key in out))


# ---- scoring, in this process or in `jobs` processes ---------------------------------------
_WORKER: Scorer | None = None


def _init_worker(paths: tuple[str, ...], holdout: float, seed: int, label: Label, fold: int | None) -> None:
    global _WORKER
    train = split(load_all(paths, label), holdout, seed).train
    _WORKER = Scorer(train if fold is None else fold_rounds(train, FOLDS, seed)[fold][0], seed)  # as the judge's own


def _score_text(text: str) -> int:
    return _WORKER.mask(parse_personality(text))


class Judge:
    """Training matches of many candidates; with `jobs` > 1, worker processes each read the records once.
    `fold`: the scorer holds that fold's learning rounds (`fold_rounds`), not all the training ones."""

    def __init__(self, scorer: Scorer, paths: Sequence[str], holdout: float, seed: int, jobs: int,
                 label: Label = Label.PLAYED, fold: int | None = None) -> None:
        self.scorer, self.jobs = scorer, jobs
        self._pool = None if jobs <= 1 else ProcessPoolExecutor(jobs, initializer=_init_worker,
                                                                 initargs=(tuple(paths), holdout, seed, label, fold))
        self._known: dict[str, int] = {}
        self.replays = 0  # decisions replayed so far (files met again are not replayed): the budget's count

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def matched(self, candidates: Sequence[Candidate]) -> list[int]:
        """Training decisions each candidate matches."""
        return [m.bit_count() for m in self.masks(candidates)]

    def masks(self, candidates: Sequence[Candidate]) -> list[int]:
        """Which training decisions each candidate matches (bit i: decision i)."""
        texts = [c.text for c in candidates]
        todo = [t for t in dict.fromkeys(texts) if t not in self._known]
        if self._pool is None or len(todo) < 2:
            got = [self.scorer.mask(parse_personality(t)) for t in todo]
        else:
            got = list(self._pool.map(_score_text, todo))
        self.replays += len(todo) * len(self.scorer.records)
        self._known.update(zip(todo, got))
        return [self._known[t] for t in texts]


def size(candidate: Candidate) -> int:
    """Rules and conditions: a smaller file of equal match is preferred."""
    return sum(1 + len(r.conditions) for r in candidate.personality.rules)


@dataclass
class Search:
    """The state of one imitation search, and what it did (for the file's comments and the report)."""

    judge: Judge
    start: Candidate
    seed: int
    replays: int  # the budget: the judge's count of decisions replayed at which the local search stops
    lineage: list[str]
    note: Callable[[str], None] = lambda text: None
    induced: list = field(default_factory=list)

    @property
    def earn(self) -> int:
        """Training decisions a rule, a condition or an edit must win to be kept: chance fits fewer."""
        return max(2, len(self.judge.scorer.records) // 500)

    def run(self, begun: Candidate) -> tuple[int, Candidate]:
        """Local search from `begun`, then simplification."""
        best = (self.judge.matched([begun])[0], begun)
        return self.simplify(self.climb(best))

    def donors(self) -> list:
        """Rules a mutation may copy in: the start's, the induced ones, every shipped personality's."""
        out = [(r, "the start") for r in self.start.personality.rules]
        out += [(r, "the induced rules") for r in self.induced]
        for name in shipped_names():
            out += [(r, name) for r in shipped(name).rules]
        return out

    def climb(self, best: tuple[int, Candidate]) -> tuple[int, Candidate]:
        mutator = Mutator(self.donors())
        idle = step = 0
        while idle < PATIENCE and self.judge.replays < self.replays:
            rng = random.Random(derive_seed(self.seed, "imitate", "step", step))
            children = [mutator.mutate(best[1], rng, f"step {step}") for _ in range(POPULATION)]
            masks = self.judge.masks([c for c, _ in children])
            parent = self.judge.masks([best[1]])[0]
            kept = None
            for mask, (child, edit) in zip(masks, children):
                score, bar = mask.bit_count(), best if kept is None else (kept[0], kept[1])
                if (score > bar[0] and self.proven(mask, parent)) or (score == bar[0] and size(child) < size(bar[1])):
                    kept = (score, child, edit)
            step += 1
            if kept is None:
                idle += 1
                continue
            idle = 0
            self.lineage.append(f"step {step - 1}: {kept[2]} ({kept[0]} matched)")
            self.note(self.lineage[-1])
            best = (kept[0], kept[1])
        return best

    def proven(self, child: int, parent: int) -> bool:
        """Does the child match more decisions than the parent by more than chance would? A sign test on
        the decisions they decide differently (McNemar's): the net gain must reach `earn` and `Z`
        standard deviations of a fair coin's over those decisions."""
        gained, lost = (child & ~parent).bit_count(), (parent & ~child).bit_count()
        return gained - lost >= max(self.earn, Z * math.sqrt(gained + lost))

    def simplify(self, best: tuple[int, Candidate]) -> tuple[int, Candidate]:
        before = best[0]
        while self.judge.replays < 2 * self.replays:  # as much again as the climb's budget (and every step
            # removes a rule or a condition): a file of many rules (ladders) has many removals to score
            options = simplifications(best[1])
            if not options:
                break
            scores = self.judge.matched([c for c, _ in options])
            k = max(range(len(options)), key=lambda i: (scores[i], -i))
            if before - scores[k] >= self.earn:
                break
            self.lineage.append(f"simplified: {options[k][1]} ({scores[k]} matched)")
            best = (scores[k], options[k][0])
        return best


@dataclass(frozen=True)
class Imitation:
    """What `imitate` found: the file, the split it was found on, its lineage, and its cross-validated match
    on the training decisions (each fold's file scored on the fold it did not learn from)."""

    found: Candidate
    records: Split
    lineage: list[str]
    cross_validated: MatchRate
    start: Personality


def imitate(paths: Sequence[str], start: Personality | None, start_name: str, seed: int, holdout: float,
            budget_seconds: float, jobs: int = 1, note: Callable[[str], None] = lambda text: None,
            label: Label = Label.PLAYED) -> Imitation:
    """The file that plays the recorded play (`label`'s) most often on decisions it did not learn from.
    `start` None: the shipped personality matching most training decisions."""
    records = split(load_all(paths, label), holdout, seed)
    if not records.train:
        raise ImitateError("no training decisions: record more rounds, or lower --holdout")
    lineage: list[str] = []
    if start is None:
        start_name, start, score = best_shipped(records.train, seed)
        lineage.append(f"started from {start_name}, the shipped personality matching most training decisions "
                       f"({score} of {len(records.train)})")
    allowance = round(budget_seconds * REPLAYS_PER_SECOND)
    share = allowance // (FOLDS + 1)  # the search once per fold (to validate it), and once on all
    used = 0
    first = Candidate.of(start, start_name)
    cv = cross_validate(records.train, first, seed)
    plan = cv.best()
    lineage.append(f"cross-validated on {len(cv.folds)} folds of the training rounds: the start alone matched "
                   f"{cv.start_score} of {cv.decisions} playing decisions left out of learning; began with "
                   f"{plan.words()}" + (f": {cv.score(plan)} matched" if plan.kept else ""))
    note(lineage[-1])
    planned_cv = searched_cv = None
    for fold, (learn, aside) in enumerate(cv.folds):  # does the local search help, on decisions it did not see?
        judge, begun = Scorer(aside, seed), planned(first, learn, plan, seed)
        scorer = Judge(Scorer(learn, seed), paths, holdout, seed, jobs, label, fold)
        try:
            inner = Search(scorer, first, seed, share, [], induced=induced_rules(begun, first, plan))
            planned_cv = add(planned_cv, judge.tally(begun.personality))
            searched_cv = add(searched_cv, judge.tally(inner.run(begun)[1].personality))
            used += min(scorer.replays, share)
        finally:
            scorer.close()
    begun = planned(first, records.train, plan, seed, _origin)
    if searched_cv.matched <= planned_cv.matched:
        lineage.append(f"no local search: mutations and simplification matched {searched_cv.matched} left-out "
                       f"decisions, not more than {planned_cv.matched} without")
        note(lineage[-1])
        return Imitation(begun, records, lineage, planned_cv, start)
    lineage.append(f"local search kept: with it {searched_cv.matched} left-out decisions matched, "
                   f"{planned_cv.matched} without")
    note(lineage[-1])
    judge = Judge(Scorer(records.train, seed), paths, holdout, seed, jobs, label)
    try:
        search = Search(judge, first, seed, max(allowance - used, share), lineage, note,
                        induced_rules(begun, first, plan))
        _, result = search.run(begun)
    finally:
        judge.close()
    return Imitation(result, records, lineage, searched_cv, start)


def induced_rules(learned: Candidate, start: Candidate, plan: LearningPlan) -> list:
    """The rules of `learned` (`planned`'s file) that were induced: those above the start's (`plan.kept` is
    only at most how many; fewer may have been found)."""
    rules = learned.personality.rules
    if plan.alone:
        return list(rules)
    k = 0 if plan.placement is Placement.ABOVE else closing(start)
    return list(rules[k:k + len(rules) - len(start.personality.rules)])


def _origin(rule: Induced) -> str:
    return (f"{rule.words()}, induced from the records (where it came in, it fired on {rule.fired} decisions, "
            f"{rule.correct} right)")


class ImitateError(ValueError):
    """Records that cannot be imitated (none to train on)."""


# ---- reporting ---------------------------------------------------------------------------------
def rate_text(matched: int, total: int) -> str:
    if not total:
        return "-"
    lo, hi = wilson(matched, total)
    return f"{100 * matched / total:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


def playing(tally: MatchRate) -> tuple[int, int]:
    """(matched, decisions) on the playing decisions, leading and following: what rules decide (a `.rul`
    file has no exchange rules, so every file gives the same gift)."""
    mine = [(m, n) for s, m, n in tally.by_situation if s is not Situation.EXCHANGE]
    return sum(m for m, _ in mine), sum(n for _, n in mine)


def tally_json(tally: MatchRate) -> dict:
    def one(m: int, n: int) -> dict:
        lo, hi = wilson(m, n) if n else (math.nan, math.nan)
        return {"matched": m, "decisions": n, "rate": m / n if n else None,
                "interval": [lo, hi] if n else None}
    return {"all": one(tally.matched, tally.total), "playing": one(*playing(tally)),
            **{s.value: one(m, n) for s, m, n in tally.by_situation}}


def firings(personality: Personality, records: Sequence[RecordedDecision], seed: int) -> dict[int, tuple[int, int]]:
    """Per rule line: (decisions it decided, of which it played the recorded play)."""
    fired: Counter = Counter()
    right: Counter = Counter()
    rng = random.Random(seed)
    for r in records:
        if r.situation is Situation.EXCHANGE:
            continue
        play, rule, _, _ = decide(personality, r.view, rng)
        line = rule.line if rule is not None else 0
        fired[line] += 1
        right[line] += (play == recorded(r))
    return {line: (fired[line], right[line]) for line in fired}


def imitated_text(candidate: Candidate, about: dict, lineage: Sequence[str], train: MatchRate, cv: MatchRate,
                  held: MatchRate, fired: dict[int, tuple[int, int]]) -> str:
    """The commented file: what it imitates and how well, each rule's origin and how often it matched."""
    lines = [f"; Plays like {about['player']} (president imitate from {about['start']}, seed {about['seed']}): "
             f"plays {about.get('label', Label.PLAYED).words} in {rate_text(held.matched, held.total)} of {held.total} held-out "
             "decisions.",
             ";",
             f"; Records: {', '.join(about['records'])}; {train.total} training decisions "
             f"({rate_text(train.matched, train.total)} matched; cross-validated "
             f"{rate_text(cv.matched, cv.total)}), {held.total} held out.",
             *([f"; Label: the preferred play, the most visited over every search of a position the records "
                 "keep (president record --searches K)."] if about.get('label') is Label.PREFERRED else []),
             "; Search (induced rules kept only when they matched more decisions left out of learning; a step kept "
             "only when it matched more training decisions than chance would, or as many with a shorter file):"]
    lines += [f";   {step}" for step in lineage]
    played = parse_personality(candidate.text)  # its line numbers are those `fired` counted
    blocks: list[tuple[str, list]] = []  # (origin, rules): a ladder's rungs are one block, under one comment
    for rule, counted, origin in zip(candidate.personality.rules, played.rules, candidate.origins):
        if origin == RUNG and blocks:
            blocks[-1][1].append((rule, counted))
        else:
            blocks.append((origin, [(rule, counted)]))
    for origin, rules in blocks:
        n = sum(fired.get(counted.line, (0, 0))[0] for _, counted in rules)
        right = sum(fired.get(counted.line, (0, 0))[1] for _, counted in rules)
        lines += ["", f"; {origin}. In training it decided {n} decisions and played the recorded play in "
                      f"{right}.", *(str(rule) for rule, _ in rules)]
    return "\n".join(lines) + "\n"
