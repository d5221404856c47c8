"""How far can imitating the search master go? Two ceilings measured on its records (docs/imitate.md,
"The label over four searches, and the ceilings").

    python bench/imitate_ceilings.py DIR [--label preferred|majority] [--trees 30] [--seed 1] [--smoke]

DIR holds records relabelled by bench/imitate_relabel.py (each `NAME.jsonl`
with its `NAME.searches.jsonl`: the plays of 4 independent searches of every
playing position, and the added searches' root visits).

The noise ceiling: the master's play is a draw, so no fixed answer per
position can match more than E[max_a p(a | position)] of it. From 4 draws a
position: the chance two draws agree (sum of p^2, unbiased: the 6 pairs),
which is at most E[max p] and at least its square; the majority of 3 draws
scored on the 4th (a fixed answer one could pick, so at most the ceiling);
the largest share of 4 (biased upward: at least the ceiling on average).
The same for the 2-search label (visits of searches 1+2 against 3+4).

The feature ceiling: a flexible learner that sees every `.rul` variable of the
position (the fixed variables, and for each candidate play the variables of
the play: CardVal, NumThisValue, FollowOdds, MatchesUpCard), plus the play's
size, whether it passes and the candidate's place among the legal plays,
predicts the master's play: a random forest of regression trees (numpy, no
other dependency) scores each candidate, the best scored is the prediction.
It learns on the training rounds of `president imitate --holdout 0.2 --seed 1`
and is scored on its held-out rounds, beside Cautious (the best shipped
personality) on the same decisions. `--label majority` scores against the
majority of the 4 independent searches' plays (ties: the first) instead of the
most visited over 4 searches. Intervals: 95%, bootstrap over whole rounds
(noise ceiling), Wilson (held-out rates), a paired sign test against Cautious.
"""
from __future__ import annotations

import argparse
import json
import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from personalities.catalog import shipped
from personalities.matching import Scorer
from personalities.records import Label, RecordedDecision, Situation, Visit, load_all, most_visited
from personalities.resolution import FIXED, OF_PLAY, READERS
from personalities.variables import Variable
from president.authoring.imitation import rate_text, split
from timing import add_smoke_option

FIXED_VARIABLES = [v for v in Variable if READERS[v][0] == FIXED]
PLAY_VARIABLES = [v for v in Variable if READERS[v][0] == OF_PLAY]


# ---- the records and their draws ------------------------------------------------------------
def _play(entry) -> tuple:
    """A play of the side file as (play, jokers)."""
    if entry is None:
        return (None, 0)
    return ((entry[0], entry[1]), entry[2] if len(entry) == 3 else 0)


def _visits(entries) -> tuple[Visit, ...]:
    return tuple(Visit(None if c == 0 else (v, c), n, *rest) for v, c, n, *rest in entries)


def _sum(*groups) -> tuple[Visit, ...]:
    total: dict = {}
    for g in groups:
        for v in g:
            total[(v.play, v.jokers)] = total.get((v.play, v.jokers), 0) + v.visits
    return tuple(Visit(p, n, j) for (p, j), n in total.items())


def _key(where: str) -> tuple[str, int]:
    path, line = where.rsplit(":", 1)
    return Path(path).name, int(line)


def load(folder: Path) -> tuple[list[RecordedDecision], dict]:
    """The relabelled records (labelled by their most visited play) and each playing position's draws."""
    paths = sorted(p for p in folder.glob("*.jsonl") if not p.name.endswith(".searches.jsonl"))
    records = load_all(paths, Label.PREFERRED)
    draws = {}
    for path in paths:
        side = folder / (path.stem + ".searches.jsonl")
        for line in side.read_text(encoding="utf-8").splitlines() if side.exists() else ():
            d = json.loads(line)
            draws[_key(d["where"])] = d
    return records, draws


def majority(plays: list) -> tuple:
    """The play most of `plays` make (ties: the first of them)."""
    counts = Counter(plays)
    top = max(counts.values())
    return next(p for p in plays if counts[p] == top)


def relabelled_by_majority(records: list[RecordedDecision], draws: dict) -> list[RecordedDecision]:
    out = []
    for r in records:
        d = draws.get(_key(r.where))
        if d is None:
            out.append(r)
            continue
        play, jokers = majority([_play(p) for p in d["plays"]])
        out.append(replace(r, play=play, jokers=jokers))
    return out


# ---- the noise ceiling ------------------------------------------------------------------------
def noise_rows(records: list[RecordedDecision], draws: dict, original: dict) -> dict[str, list[tuple]]:
    """Per measure, (round key, value) for every playing position with its draws."""
    rows: dict[str, list[tuple]] = {k: [] for k in ("agree1", "loo", "maxshare", "agree2")}
    for r in records:
        d = draws.get(_key(r.where))
        if d is None:
            continue
        plays = [_play(p) for p in d["plays"]]
        n = len(plays)
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        rows["agree1"].append((r.round_key, sum(plays[i] == plays[j] for i, j in pairs) / len(pairs)))
        loo = [majority(plays[:j] + plays[j + 1:]) == plays[j] for j in range(n)]
        rows["loo"].append((r.round_key, sum(loo) / n))
        rows["maxshare"].append((r.round_key, max(Counter(plays).values()) / n))
        added = [_visits(v) for v in d["visits"]]
        if d["recorded"]:  # searches 1+2 are the recorded visits; 3+4 the first two added
            first = original[_key(r.where)]
            a, b = most_visited(first.visits, first.play, first.jokers), most_visited(_sum(*added[:2]), None)
        else:
            a, b = most_visited(_sum(*added[:2]), None), most_visited(_sum(*added[2:4]), None)
        rows["agree2"].append((r.round_key, float((a.play, a.jokers) == (b.play, b.jokers))))
    return rows


def bootstrap(rows: list[tuple], rng: random.Random, times: int = 1000) -> tuple[float, float, float]:
    """The mean, and a 95% interval resampling whole rounds."""
    by_round: dict = {}
    for key, x in rows:
        by_round.setdefault(key, []).append(x)
    groups = [(sum(xs), len(xs)) for xs in by_round.values()]
    mean = sum(s for s, _ in groups) / sum(n for _, n in groups)
    means = []
    for _ in range(times):
        pick = [groups[rng.randrange(len(groups))] for _ in groups]
        means.append(sum(s for s, _ in pick) / sum(n for _, n in pick))
    means.sort()
    return mean, means[int(0.025 * times)], means[int(0.975 * times) - 1]


# ---- the feature ceiling ----------------------------------------------------------------------
def candidates(r: RecordedDecision) -> list:
    """The plays the learner chooses among: the legal plays, lowest value first, then the pass."""
    v = r.view
    return sorted(v.legal, key=lambda p: (v.order.index(p[0]) if p[0] in v.order else 99, p[1])) \
        + ([None] if v.can_pass else [])


def features(r: RecordedDecision, plays: list) -> list[list[float]]:
    v = r.view
    fixed = [READERS[x][1](v) for x in FIXED_VARIABLES]
    held = sorted({p[0] for p in plays if p is not None}, key=lambda x: v.order.index(x) if x in v.order else 99)
    out = []
    for k, p in enumerate(plays):
        if p is None:
            own = [-1] * len(PLAY_VARIABLES) + [0, 1, -1, -1]
        else:
            own = [READERS[x][1](v, p) for x in PLAY_VARIABLES] + [p[1], 0, held.index(p[0]), k]
        out.append(fixed + own + [len(plays)])
    return out


class Forest:
    """Regression trees on bootstrap samples, `tries` features tried a split; leaves of at least `leaf` rows."""

    def __init__(self, trees: int, leaf: int, tries: int, rng: np.random.Generator, depth: int = 64) -> None:
        self.trees, self.leaf, self.tries, self.rng, self.depth = trees, leaf, tries, rng, depth
        self.grown: list[tuple] = []

    def fit(self, x: np.ndarray, y: np.ndarray) -> "Forest":
        for _ in range(self.trees):
            rows = self.rng.integers(0, len(y), len(y)) if self.trees > 1 else np.arange(len(y))
            self.grown.append(self._grow(x[rows], y[rows]))
        return self

    def _grow(self, x: np.ndarray, y: np.ndarray) -> tuple:
        feature, threshold, left, right, value = [], [], [], [], []
        stack = [(np.arange(len(y)), -1, False, 0)]
        while stack:
            rows, parent, is_right, depth = stack.pop()
            node = len(value)
            feature.append(-1), threshold.append(0.0), left.append(-1), right.append(-1)
            value.append(float(y[rows].mean()))
            if parent >= 0:
                (right if is_right else left)[parent] = node
            split = self._split(x[rows], y[rows]) if depth < self.depth else None
            if split is None:
                continue
            f, t = split
            feature[node], threshold[node] = f, t
            go_left = x[rows, f] <= t
            stack.append((rows[~go_left], node, True, depth + 1))
            stack.append((rows[go_left], node, False, depth + 1))
        return np.array(feature), np.array(threshold), np.array(left), np.array(right), np.array(value)

    def _split(self, x: np.ndarray, y: np.ndarray):
        n = len(y)
        if n < 2 * self.leaf or y.min() == y.max():
            return None
        best, found = y.sum() ** 2 / n + 1e-9, None
        tried = self.rng.permutation(x.shape[1])[:self.tries] if self.tries < x.shape[1] else range(x.shape[1])
        for f in tried:
            order = np.argsort(x[:, f], kind="stable")
            xs, ys = x[order, f], np.cumsum(y[order])
            at = np.arange(self.leaf, n - self.leaf + 1)  # rows on the left
            at = at[xs[at - 1] < xs[at]] if len(at) else at
            if not len(at):
                continue
            total = ys[-1]
            score = ys[at - 1] ** 2 / at + (total - ys[at - 1]) ** 2 / (n - at)
            k = int(np.argmax(score))
            if score[k] > best:
                best, found = score[k], (int(f), float((xs[at[k] - 1] + xs[at[k]]) / 2))
        return found

    def predict(self, x: np.ndarray) -> np.ndarray:
        return sum(self.tree_values(tree, x) for tree in self.grown) / len(self.grown)

    @staticmethod
    def tree_values(tree: tuple, x: np.ndarray) -> np.ndarray:
        feature, threshold, left, right, value = tree
        if True:
            node = np.zeros(len(x), dtype=int)
            active = feature[node] >= 0
            while active.any():
                idx = np.nonzero(active)[0]
                f = feature[node[idx]]
                go = x[idx, f] <= threshold[node[idx]]
                node[idx] = np.where(go, left[node[idx]], right[node[idx]])
                active = feature[node] >= 0
            return value[node]


class Boosted:
    """Gradient-boosted trees for a choice among candidates (the conditional logit: a decision's candidates
    compete through a softmax of their scores); each tree fits the gradient, shrunk by `rate`."""

    def __init__(self, rounds: int, depth: int, leaf: int, rate: float, rng: np.random.Generator) -> None:
        self.rounds, self.rate = rounds, rate
        self.tree = Forest(1, leaf, 10**6, rng, depth)
        self.grown: list[tuple] = []

    def fit(self, x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> "Boosted":
        score = np.zeros(len(y))
        for _ in range(self.rounds):
            e = np.exp(score - score.max())
            p = e / np.bincount(groups, e)[groups]
            tree = self.tree._grow(x, y - p)
            self.grown.append(tree)
            score += self.rate * Forest.tree_values(tree, x)
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        return self.rate * sum(Forest.tree_values(tree, x) for tree in self.grown)


def table(records: list[RecordedDecision]) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, int]]]:
    """Candidate rows, whether each is the label, and per decision (first row, rows, label row or -1)."""
    rows, ys, spans = [], [], []
    for r in records:
        plays = candidates(r)
        label = plays.index(r.play) if (r.play in plays and not r.jokers) else -1
        spans.append((len(rows), len(plays), label))
        rows += features(r, plays)
        ys += [float(k == label) for k in range(len(plays))]
    return np.array(rows, dtype=float), np.array(ys), spans


def matched(model: Forest, records: list[RecordedDecision]) -> list[bool]:
    x, _, spans = table(records)
    score = model.predict(x)
    return [label >= 0 and int(np.argmax(score[first:first + n])) == label for first, n, label in spans]


def learners(trees: int, leaf: int, boosted: bool) -> list[tuple[str, object]]:
    """(name, fit(x, y, groups, rng) -> model) of every learner tried."""
    def forest(n, size):
        return lambda x, y, g, rng: Forest(n, size, max(1, int(math.sqrt(x.shape[1]))) if n > 1 else x.shape[1],
                                           rng).fit(x, y)
    out = [(f"one tree, leaves of {leaf}+", forest(1, leaf)),
           (f"forest of {trees}, leaves of {leaf}+", forest(trees, leaf)),
           (f"forest of {trees}, leaves of {4 * leaf}+", forest(trees, 4 * leaf))]
    if boosted:
        out += [(f"boosted: {r} trees of depth {d}, rate {rate}",
                 lambda x, y, g, rng, r=r, d=d, rate=rate: Boosted(r, d, leaf, rate, rng).fit(x, y, g))
                for r, d, rate in ((200, 5, 0.05), (300, 7, 0.03))]
    return out


def _groups(spans: list[tuple[int, int, int]]) -> np.ndarray:
    return np.repeat(np.arange(len(spans)), [n for _, n, _ in spans])


def feature_ceiling(records: list[RecordedDecision], holdout: float, seed: int, trees: int, leaf: int,
                    folds: int, boosted: bool) -> None:
    """Each learner's match on decisions it did not learn from, beside Cautious's on the same decisions:
    the held-out rounds of `president imitate --holdout H --seed S` (learning on its training rounds), or
    with `folds`, every round once, learning on the other folds (more decisions scored, tighter intervals)."""
    from president.authoring.crossval import fold_rounds

    playing = [r for r in records if r.situation is not Situation.EXCHANGE]
    if folds:
        parts = fold_rounds(playing, folds, seed)
        where = f"{folds}-fold cross-validation over all {len(playing)} playing decisions"
    else:
        held = split(playing, holdout, seed)
        parts = [(held.train, held.held_out)]
        where = f"{len(held.train)} training, {len(held.held_out)} held-out playing decisions (--holdout {holdout})"
    scored = [r for _, aside in parts for r in aside]
    cautious = Scorer(scored, seed).mask(shipped("Cautious"))
    n = len(scored)
    print(f"{where}; Cautious: {rate_text(cautious.bit_count(), n)}\n")
    print("| learner | matched | won / lost against Cautious | z |\n| --- | --- | --- | --- |")
    for name, fit in learners(trees, leaf, boosted):
        got: list[bool] = []
        rng = np.random.default_rng(seed)
        for learn, aside in parts:
            x, y, spans = table(list(learn))
            got += matched(fit(x, y, _groups(spans), rng), list(aside))
        won = sum(g and not cautious >> i & 1 for i, g in enumerate(got))
        lost = sum(not g and cautious >> i & 1 for i, g in enumerate(got))
        z = (won - lost) / math.sqrt(won + lost) if won + lost else 0.0
        print(f"| {name} | {rate_text(sum(got), n)} | {won} / {lost} | {z:+.1f} |", flush=True)


def _smoke_folder() -> tuple[Path, Path]:
    """Two rounds of a quick search player, recorded and relabelled in a temporary folder."""
    import tempfile

    from imitate_relabel import recorded_for_smoke, relabel_file

    folder = Path(tempfile.mkdtemp(prefix="ceilings-smoke-"))
    for seed in (3, 4):
        relabel_file(recorded_for_smoke(folder, 1, seed), folder / "relabelled")
    return folder / "relabelled", folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", help="relabelled records (bench/imitate_relabel.py --out-dir)")
    parser.add_argument("--original", type=Path, help="the records as recorded (default: DIR/..)")
    parser.add_argument("--label", choices=("preferred", "majority"), default="preferred")
    parser.add_argument("--holdout", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trees", type=int, default=30)
    parser.add_argument("--leaf", type=int, default=5)
    parser.add_argument("--folds", type=int, default=0, help="cross-validate over all rounds instead of --holdout")
    parser.add_argument("--no-boost", action="store_true", help="forests only (quick)")
    parser.add_argument("--no-noise", action="store_true", help="only the feature ceiling")
    add_smoke_option(parser)
    args = parser.parse_args()
    if args.smoke:
        args.folder, args.original = _smoke_folder()
        args.trees, args.no_boost, args.holdout = 3, True, 0.5
    if args.folder is None:
        parser.error("name the folder of relabelled records")
    records, draws = load(args.folder)
    if args.label == "majority":
        records = relabelled_by_majority(records, draws)
    original = {_key(r.where): r for r in load_all(sorted((args.original or args.folder.parent).glob("*.jsonl")))}
    print(f"{args.folder}: {len(records)} decisions, {len(draws)} playing positions with 4 independent draws; "
          f"label: {args.label}\n")
    if draws and not args.no_noise:
        rows = noise_rows(records, draws, original)
        rng = random.Random(args.seed)
        words = {"agree1": "two single searches agree (sum p^2: at most the ceiling)",
                 "loo": "majority of 3 searches predicts the 4th (at most the ceiling)",
                 "maxshare": "largest share of 4 searches (at least the ceiling, on average)",
                 "agree2": "two 2-search labels agree (sum q^2 of the 2-search label)"}
        print("| measure | mean (95% interval) | positions |\n| --- | --- | --- |")
        for k, text in words.items():
            mean, lo, hi = bootstrap(rows[k], rng)
            print(f"| {text} | {100 * mean:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) | {len(rows[k])} |")
        a1 = bootstrap(rows["agree1"], rng)[0]
        print(f"\nsingle search: ceiling between {100 * a1:.1f}% and sqrt = {100 * math.sqrt(a1):.1f}%\n")
    feature_ceiling(records, args.holdout, args.seed, args.trees, args.leaf, args.folds, not args.no_boost)


if __name__ == "__main__":
    main()
