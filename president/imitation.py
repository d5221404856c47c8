"""`president imitate`: the `.rul` file that plays the recorded play most often (docs/imitate.md).

The records are split by round (a round's decisions all train or all stay held
out, `--holdout` of the rounds held out). On the training decisions:

1. beginning: the start personality, the decision list induced from the
   records (`personalities.induction`), or that list with the start's rules
   below it as a last resort; and the least support of an induced rule. The
   choice is made on a quarter of the training rounds kept aside, the rules
   induced from the rest: the one matching most decisions it did not learn from.
2. local search: the evolution's valid mutations (`personalities.mutation`;
   donors: the start's rules, the induced ones and every shipped
   personality's), a child kept when a sign test on the decisions it decides
   differently says it matches more training decisions than chance would (or
   as many, shorter), until `--budget-hours` is spent or `PATIENCE` steps
   in a row find nothing.
3. simplification: rules and conditions are removed while all the removals together
   cost fewer than `earn` training decisions (a rule stays only when it earns its place;
   measured against the file before simplifying, so small losses cannot add up).

The held-out decisions are read only to report. Same seed, same file, for any `-j`.
"""
from __future__ import annotations

import math
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Sequence

from personalities.catalog import shipped, shipped_names
from personalities.evaluator import decide
from personalities.induction import Features, induce
from personalities.matching import Scorer, Tally, recorded
from personalities.mutation import Candidate, Mutator
from personalities.reader import parse_personality
from personalities.records import RecordedDecision, Situation, load_all
from personalities.syntax import Personality
from recycle.tournament.schedule import derive_seed
from recycle.tournament.stats import wilson

from president.authoring.evolution import simplifications

#: Local search stops after this many steps in a row without a better child.
PATIENCE = 60
#: Children tried per local-search step.
POPULATION = 8
#: A mutation is kept when its gain in matched training decisions is this many standard deviations of
#: chance (about a 2.5% one-sided level per child).
Z = 2.0
#: Least supports of an induced rule tried (decisions it must play right), chosen by inner validation.
SUPPORTS = (3, 6, 12, 24, 48)


@dataclass(frozen=True)
class Split:
    train: tuple[RecordedDecision, ...]
    held_out: tuple[RecordedDecision, ...]


def split(records: Sequence[RecordedDecision], holdout: float, seed: int) -> Split:
    """Whole rounds held out (their decisions are not independent), chosen by the seed."""
    rounds = sorted({(r.where.rsplit(":", 1)[0], r.round) for r in records})
    random.Random(derive_seed(seed, "imitate", "holdout")).shuffle(rounds)
    out = set(rounds[:round(holdout * len(rounds))])
    return Split(tuple(r for r in records if (r.where.rsplit(":", 1)[0], r.round) not in out),
                 tuple(r for r in records if (r.where.rsplit(":", 1)[0], r.round) in out))


# ---- scoring, in this process or in `jobs` processes ---------------------------------------
_WORKER: Scorer | None = None


def _init_worker(paths: tuple[str, ...], holdout: float, seed: int) -> None:
    global _WORKER
    _WORKER = Scorer(split(load_all(paths), holdout, seed).train)


def _score_text(text: str) -> int:
    return _WORKER.mask(parse_personality(text))


class Judge:
    """Training matches of many candidates; with `jobs` > 1, worker processes each read the records once."""

    def __init__(self, scorer: Scorer, paths: Sequence[str], holdout: float, seed: int, jobs: int) -> None:
        self.scorer, self.jobs = scorer, jobs
        self._pool = None if jobs <= 1 else ProcessPoolExecutor(jobs, initializer=_init_worker,
                                                                 initargs=(tuple(paths), holdout, seed))
        self._known: dict[str, int] = {}

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
    deadline: float
    lineage: list[str]
    note: Callable[[str], None] = lambda text: None
    induced: list = field(default_factory=list)

    @property
    def earn(self) -> int:
        """Training decisions a rule, a condition or an edit must win to be kept: chance fits fewer."""
        return max(2, len(self.judge.scorer.records) // 500)

    def _lists(self, rules: list, origins: list) -> dict[str, Candidate]:
        """The start, the induced decision list, and that list above the start's rules (a last resort)."""
        start = self.start
        return {"the start personality": start,
                "the induced rules": start.with_rules(rules, origins),
                "the induced rules above the start's": start.with_rules([*rules, *start.personality.rules],
                                                                        [*origins, *start.origins])}

    def choose(self) -> tuple[str, int]:
        """Which list to begin with, and the least support of an induced rule: the choice that matches most
        decisions it was not induced from (the training rounds split again, a quarter kept aside)."""
        inner = split(self.judge.scorer.records, 0.25, derive_seed(self.seed, "imitate", "inner"))
        if not inner.held_out or not inner.train:  # too few rounds to keep any aside
            self.lineage.append(f"began with the induced rules above the start's (too few rounds to choose: "
                                f"rules supported by {SUPPORTS[0]} decisions or more)")
            return "the induced rules above the start's", SUPPORTS[0]
        features, judge = Features(inner.train), Scorer(inner.held_out, self.seed)
        scores: dict[tuple[str, int], int] = {}
        for support in SUPPORTS:
            rules = [r.rule for r in induce(features, min_support=support)]
            for label, candidate in self._lists(rules, [""] * len(rules)).items():
                scores.setdefault((label, 0 if candidate is self.start else support),
                                  judge.matched(candidate.personality))
        (label, support), score = max(scores.items(), key=lambda kv: (kv[1], kv[0][1]))
        self.lineage.append(f"began with {label}" + (f" (rules supported by {support} decisions or more)"
                                                     if support else "")
                            + f": on a quarter of the training rounds kept aside it matched {score} of "
                              f"{len(inner.held_out)}")
        return label, support or SUPPORTS[-1]

    def run(self) -> tuple[int, Candidate]:
        label, support = self.choose()
        found = induce(self.judge.scorer.records, min_support=support)
        self.induced = [r.rule for r in found]
        origins = [f"induced from the records (where it came in, it fired on {r.fired} decisions, {r.correct} "
                   "right)" for r in found]
        chosen = self._lists(self.induced, origins)[label]
        best = (self.judge.matched([chosen])[0], chosen)
        self.note(f"{self.lineage[-1]}; {best[0]} training decisions matched")
        best = self.climb(best)
        return self.simplify(best)

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
        while idle < PATIENCE and time.monotonic() < self.deadline:
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
        while time.monotonic() < self.deadline + 600:  # simplification may outlast the budget, bounded
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


def imitate(paths: Sequence[str], start: Personality, start_name: str, seed: int, holdout: float,
            budget_seconds: float, jobs: int = 1, note: Callable[[str], None] = lambda text: None
            ) -> tuple[Candidate, Split, list[str]]:
    """The best candidate found, the split it was found on, and its lineage."""
    records = split(load_all(paths), holdout, seed)
    if not records.train:
        raise ImitateError("no training decisions: record more rounds, or lower --holdout")
    judge = Judge(Scorer(records.train, seed), paths, holdout, seed, jobs)
    try:
        search = Search(judge, Candidate.of(start, start_name), seed, time.monotonic() + budget_seconds, [], note)
        _, found = search.run()
    finally:
        judge.close()
    return found, records, search.lineage


class ImitateError(ValueError):
    """Records that cannot be imitated (none to train on)."""


# ---- reporting ---------------------------------------------------------------------------------
def rate_text(matched: int, total: int) -> str:
    if not total:
        return "-"
    lo, hi = wilson(matched, total)
    return f"{100 * matched / total:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


def tally_json(tally: Tally) -> dict:
    def one(m: int, n: int) -> dict:
        lo, hi = wilson(m, n) if n else (math.nan, math.nan)
        return {"matched": m, "decisions": n, "rate": m / n if n else None,
                "interval": [lo, hi] if n else None}
    return {"all": one(tally.matched, tally.total),
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


def imitated_text(candidate: Candidate, about: dict, lineage: Sequence[str], train: Tally, held: Tally,
                  fired: dict[int, tuple[int, int]]) -> str:
    """The commented file: what it imitates and how well, each rule's origin and how often it matched."""
    lines = [f"; Plays like {about['player']} (president imitate from {about['start']}, seed {about['seed']}): "
             f"plays the recorded play in {rate_text(held.matched, held.total)} of {held.total} held-out "
             "decisions.",
             ";",
             f"; Records: {', '.join(about['records'])}; {train.total} training decisions "
             f"({rate_text(train.matched, train.total)} matched), {held.total} held out.",
             "; Search (a step kept only when it matched more training decisions than chance would, or as many "
             "with a shorter file):"]
    lines += [f";   {step}" for step in lineage]
    played = parse_personality(candidate.text)  # its line numbers are those `fired` counted
    for rule, counted, origin in zip(candidate.personality.rules, played.rules, candidate.origins):
        n, right = fired.get(counted.line, (0, 0))
        lines += ["", f"; {origin}. In training it decided {n} decisions and played the recorded play in "
                      f"{right}.", str(rule)]
    return "\n".join(lines) + "\n"
