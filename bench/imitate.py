"""How human is each bot: every shipped personality's match rate against recorded decisions, and the
files `president imitate` learns from them (docs/imitate.md).

    python bench/imitate.py RECORDS.jsonl [RECORDS.jsonl ...] [--holdout 0.2] [--seed 1] [--learned A.rul ...] [--smoke]

The records files are one set, as `president imitate` reads them: every
shipped personality's rate of playing the recorded play, on all the decisions
and on the held-out rounds `president imitate --holdout H --seed S` keeps
aside, with 95% Wilson intervals; then each `--learned` file on the same
decisions. The shipped personality best on the held-out decisions is marked.
Record files with `president record BOT --rounds N --seed S`.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from personalities.catalog import shipped, shipped_names
from personalities.matching import Scorer
from personalities.reader import load_personality
from personalities.records import load_all, load_records
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


def agreement(spec: str, decisions: int, seed: int) -> tuple[int, int]:
    """How often `spec` makes the same decision twice (two draws of its own randomness) on the positions
    of its seat 0 games: the ceiling of any imitation's match rate on its records."""
    import random

    from president.agents.bots import make_bots
    from president.game.settings import preset
    from president.match.simulate import match_seed
    from president.game.state import PresidentState
    from recycle.kernel.protocol import play_game

    same = asked = match = 0
    while asked < decisions:
        agents, _ = make_bots([spec, "Classic", "Cautious", "Aggressive", "Gambler"], 5)
        inner = agents[0]

        class Twice:
            name = "twice"

            def choose(self, obs, legal, rng):
                nonlocal same, asked
                first = inner.choose(obs, legal, random.Random(rng.random()))
                if len(legal) > 1 and asked < decisions:
                    same += first == inner.choose(obs, legal, random.Random(rng.random()))
                    asked += 1
                return first
        agents[0] = Twice()
        state = PresidentState.new_match(preset("classic").with_overrides({"rounds": "2"}), match_seed(seed, match))
        play_game(state, agents, random.Random(match))
        match += 1
    return same, asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="*", help="records files (with --smoke: two rounds of Expert, recorded)")
    parser.add_argument("--holdout", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learned", nargs="*", default=[], help=".rul files written by president imitate")
    parser.add_argument("--agreement", metavar="BOT", help="instead: how often BOT decides alike twice")
    parser.add_argument("--decisions", type=int, default=100, help="decisions asked twice (--agreement)")
    add_smoke_option(parser)
    args = parser.parse_args()
    if args.agreement:
        same, asked = agreement(args.agreement, 5 if args.smoke else args.decisions, args.seed)
        print(f"{args.agreement} made the same decision twice in {rate_text(same, asked)} of {asked} positions")
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
    everything, kept = Scorer(decisions), Scorer(held)
    rows = [(name, everything.tally(p), kept.tally(p)) for name, p in players]
    best = max((r for r in rows if r[0] in shipped_names()), key=lambda r: r[2].matched)
    print(f"{', '.join(Path(p).name for p in args.records)}: {len(decisions)} decisions of {players_of}, "
          f"{len(held)} held out (--holdout {args.holdout} --seed {args.seed})\n")
    print("| personality | all decisions | held out |\n| --- | --- | --- |")
    for name, all_, out in rows:
        mark = " (best shipped)" if name == best[0] else ""
        print(f"| {name}{mark} | {rate_text(all_.matched, all_.total)} | {rate_text(out.matched, out.total)} |")

if __name__ == "__main__":
    main()
