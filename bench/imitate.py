"""How human is each bot: every shipped personality's match rate against recorded decisions, and the
files `president imitate` learns from them (docs/imitate.md).

    python bench/imitate.py RECORDS.jsonl [RECORDS.jsonl ...] [--holdout 0.2] [--seed 1] [--learned A.rul ...] [--smoke]

The records files are one set, as `president imitate` reads them: every
shipped personality's rate of playing the recorded play (`played`) and, for a
search player's records with visits, its preferred play (`preferred`, the
most visited over the recorded searches), on the held-out rounds
`president imitate --holdout H --seed S` keeps aside and on all the
decisions, with 95% Wilson intervals; then each `--learned` file on the same
decisions. The shipped personality best on the held-out decisions is named.
Record files with `president record BOT --rounds N --seed S`.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from personalities.catalog import shipped, shipped_names
from personalities.matching import Scorer
from personalities.reader import load_personality
from personalities.records import Label, label_shown, labelled, load_all, load_records
from president.authoring.imitation import rate_text, split
from timing import add_smoke_option


def _recorded_expert(rounds: int) -> str:
    """A records file of `rounds` rounds of Expert (seed 1), in a temporary folder."""
    import tempfile

    from president.match.recording import record_matches, write_records
    from president.game.settings import preset

    path = Path(tempfile.mkdtemp(prefix="imitate-bench-")) / "expert.jsonl"
    write_records(path, "Expert", record_matches("Expert", ["Classic"], preset("classic"), rounds, 1))
    return str(path)


def agreement(spec: str, decisions: int, seed: int, searches: int = 1) -> tuple[int, int]:
    """How often `spec` makes the same decision twice (two draws of its own randomness) on the positions
    of its seat 0 games: the ceiling of any imitation's match rate on its records. With `searches` > 1
    (a search player), a decision is the preferred play over that many searches (`--label preferred` of
    records made with `president record --searches K`): how often two such labels agree."""
    import random

    from personalities.records import most_visited
    from president.agents.opponents import make_bots
    from president.game.cards import Give
    from president.match.recording import root_visits, searched
    from president.game.settings import preset
    from president.match.simulate import match_seed
    from president.game.state import PresidentState
    from recycle.kernel.protocol import play_game

    def decide(inner, obs, legal, rng):
        if searches == 1 or not searched(inner) or isinstance(legal[0], Give):
            return inner.choose(obs, legal, rng)
        found = [inner.explain(obs, legal, random.Random(rng.random()), believe=False) for _ in range(searches)]
        first = found[0].action
        best = most_visited(root_visits(legal, found), None if first.count == 0 else (first.value, first.count),
                            first.jokers)
        return best.play, best.jokers

    same = asked = match = 0
    while asked < decisions:
        agents, _ = make_bots([spec, "Classic", "Cautious", "Aggressive", "Gambler"], 5)
        inner = agents[0]

        class Twice:
            name = "twice"

            def choose(self, obs, legal, rng):
                nonlocal same, asked
                first = decide(inner, obs, legal, random.Random(rng.random()))
                if len(legal) > 1 and asked < decisions:
                    same += first == decide(inner, obs, legal, random.Random(rng.random()))
                    asked += 1
                if isinstance(first, tuple):  # a preferred play: play it as the table would
                    play, jokers = first
                    return next(a for a in legal if (a.value, a.count, a.jokers) == (*(play or (0, 0)), jokers)
                                or (play is None and a.count == 0))
                return first
        agents[0] = Twice()
        state = PresidentState.new_match(preset("classic").with_overrides({"rounds": "2"}), match_seed(seed, match))
        play_game(state, agents, random.Random(match))
        match += 1
    return same, asked


def induction(paths: list[str], label: Label, holdout: float, seed: int, start: str, depths: list[int],
              supports: list[int]) -> None:
    """Richer induced rules: the decision list induced from the training rounds with at most `depth`
    conditions a rule and the least support, alone and above START's rules, matched on the training and
    the held-out decisions (no mutation, no simplification: what the induction alone earns)."""
    import time

    from personalities.induction import Features, induce
    from personalities.mutation import Candidate
    from president.authoring.crossval import rules_of

    records = split(load_all(paths, label), holdout, seed)
    features, train, held = Features(records.train), Scorer(records.train), Scorer(records.held_out)
    first = Candidate.of(shipped(start), start)
    print(f"label {label.value}: {len(records.train)} training, {len(records.held_out)} held-out decisions; "
          f"{start}: {rate_text(train.matched(first.personality), len(records.train))} training, "
          f"{rate_text(held.matched(first.personality), len(records.held_out))} held out\n")
    print(f"| conditions | support | rules | alone: training | alone: held out | above {start}: training "
          f"| above {start}: held out | seconds |\n" + "| --- " * 8 + "|")
    for depth in depths:
        for support in supports:
            began = time.process_time()
            rules = rules_of(induce(features, max_rules=80, max_conditions=depth, min_support=support))
            alone = first.with_rules(rules, [""] * len(rules)).personality
            above = first.with_rules([*rules, *first.personality.rules],
                                     [""] * (len(rules) + len(first.personality.rules))).personality
            cells = [rate_text(s.matched(p), len(s.records)) for p in (alone, above) for s in (train, held)]
            print(f"| {depth} | {support} | {len(rules)} | {' | '.join(cells)} | {time.process_time() - began:.0f} |",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="*", help="records files (with --smoke: two rounds of Expert, recorded)")
    parser.add_argument("--holdout", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learned", nargs="*", default=[], help=".rul files written by president imitate")
    parser.add_argument("--agreement", metavar="BOT", help="instead: how often BOT decides alike twice")
    parser.add_argument("--decisions", type=int, default=100, help="decisions asked twice (--agreement)")
    parser.add_argument("--searches", type=int, default=1,
                        help="with --agreement: a decision is the preferred play over this many searches")
    parser.add_argument("--induction", action="store_true",
                        help="instead: the induced decision lists by depth and support (richer rules)")
    parser.add_argument("--label", choices=[x.value for x in Label], default="preferred", help="with --induction")
    parser.add_argument("--start", default="Expert", help="with --induction: the rules below the induced ones")
    parser.add_argument("--depths", default="1,2,3,5", help="with --induction: conditions a rule, at most")
    parser.add_argument("--supports", default="6,12,24,48,96", help="with --induction: least supports")
    add_smoke_option(parser)
    args = parser.parse_args()
    if args.induction:
        if args.smoke and not args.records:
            args.records = [_recorded_expert(2)]
        induction(args.records, Label(args.label), args.holdout, args.seed, args.start,
                  [int(x) for x in args.depths.split(",")], [int(x) for x in args.supports.split(",")])
        return
    if args.agreement:
        same, asked = agreement(args.agreement, 5 if args.smoke else args.decisions, args.seed, args.searches)
        what = "decision" if args.searches == 1 else f"preferred play over {args.searches} searches"
        print(f"{args.agreement} made the same {what} twice in {rate_text(same, asked)} of {asked} positions")
        return
    if args.smoke and not args.records:
        args.records = [_recorded_expert(2)]
    if not args.records:
        parser.error("name records files (president record BOT --rounds N --seed S --out F.jsonl)")
    players = [(name, shipped(name)) for name in shipped_names()]
    players += [(Path(f).name, load_personality(f)) for f in args.learned]
    players_of = ", ".join(dict.fromkeys(load_records(path)[0]["player"] for path in args.records))
    decisions = load_all(args.records)
    held = split(decisions, args.holdout, args.seed).held_out
    labels = [label_shown(decisions, label) for label in Label]
    labels = list(dict.fromkeys(labels))  # records without visits: one label only
    print(f"{', '.join(Path(p).name for p in args.records)}: {len(decisions)} decisions of {players_of}, "
          f"{len(held)} held out (--holdout {args.holdout} --seed {args.seed})\n")
    if Label.PREFERRED in labels:
        same = sum(r.preferred().play == r.play and r.preferred().jokers == r.jokers for r in held)
        print(f"the play made is the preferred play in {rate_text(same, len(held))} of the held-out decisions\n")
    columns = [(label, Scorer(labelled(held, label)), Scorer(labelled(decisions, label))) for label in labels]
    rows = [(name, [(kept.tally(p), everything.tally(p)) for _, kept, everything in columns]) for name, p in players]
    print("| personality | " + " | ".join(f"{label.value}: held out | {label.value}: all" for label in labels)
          + " |\n" + "| --- " * (1 + 2 * len(labels)) + "|")
    for name, cells in rows:
        print(f"| {name} | " + " | ".join(f"{rate_text(out.matched, out.total)} | {rate_text(all_.matched, all_.total)}"
                                          for out, all_ in cells) + " |")
    for k, label in enumerate(labels if held else []):
        best = max((r for r in rows if r[0] in shipped_names()), key=lambda r: r[1][k][0].matched)
        print(f"\nbest shipped personality on the held-out decisions ({label.value}): {best[0]}", end="")
    print()


if __name__ == "__main__":
    main()
