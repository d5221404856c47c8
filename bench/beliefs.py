"""How well each bot's beliefs match the real hands, by stage of the round: the calibration table.

    python bench/beliefs.py [--positions 60] [--table T] [--rounds N] [--write docs/beliefs.md] [--smoke]

Positions are decisions of seat 0 at a five-seat table of Classic copies (with
a choice to make, past the round's first plays, every second one), as in
bench/bench_inference.py. Each bot decides there (explaining, so it reports
its belief) and the belief is scored against the true hands:

- cards placed right: per opponent and value, min(expected count, true count),
  summed, over all the opponents' cards (a belief that is one world scores
  exactly the share of the cards that world puts in the hand holding them);
- likeliest hands right: the same count for the belief's one guess of every hand
  (`HandBelief.likeliest`: each unseen card placed in one hand, the guess that
  gets the most cards right on average by the belief's own chances);
- Brier score per card: for every card seat 0 has not seen, the squared error
  of the chances the belief gives each opponent of holding a card of its value
  against the true shares (0 perfect; cards of one value are interchangeable);

by stage of the round: the share of the pack played when the decision is
taken (early under 30%, mid-round 30-60%, late above 60%). `--write` replaces
the table between the markers of the given page.

`--rounds N` (N > 1) plays matches of N rounds and takes the positions from
the rounds after the first only: those with an exchange before them, as nine
rounds in ten of a classic match. Its rows include the master without the
exchange's evidence (`ModelEvidence.EXCHANGE` off), on the same positions.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import re
import time
from pathlib import Path
from unittest import mock

from president.agents.beliefs import seat_belief
from president.agents.opponents import tell_opponents
from president.agents.bots import make_bot
from president.game.inference import ModelEvidence
from president.agents.levels import SEARCH
from president.game.settings import preset
from president.game.state import Phase, PresidentState
from recycle.kernel.beliefs import brier, guessed_right, placed_right
from recycle.kernel.protocol import decide
from recycle.search.inference import Inference
from timing import add_smoke_option, smoke

#: The master level's search without its wall-clock cap: its iterations, whatever the machine's load.
MASTER = re.sub(r",cap=[0-9.]+", "", SEARCH)
#: (row title, agent spec or None for the inference chain alone, whether it is told the opponents' names,
#: whether its chain weighs the exchange: only `--rounds` above 1 has rows without it)
METHODS = [
    ("Classic: FollowOdds' uniform deal", "Classic", False, True),
    ("PIMC, 30 samples (`pimc:iterations=30,rollout=greedy`)", "pimc:iterations=30,rollout=greedy", False, True),
    ("vote, 20 samples (`vote:samples=20`)", "vote:samples=20", False, True),
    ("ISMCTS without inference (`ismcts:iterations=300,rollout=greedy`)", "ismcts:iterations=300,rollout=greedy",
     False, True),
    ("the inference chain alone, 300 worlds (`president.agents.beliefs.seat_belief`)", None, False, True),
    ("the chain told the names, without the exchange's evidence (before)", None, True, False),
    ("the chain told the table's names (`seat_belief(..., names=)`)", None, True, True),
    (f"the master level's search, uncapped (`{MASTER}`), not told the names", MASTER, False, True),
    ("master told the names, without the exchange's evidence (before)", MASTER, True, False),
    ("**master**: the same, told the table's names (as at a table)", MASTER, True, True),
]
#: The tables the positions are taken at: seat 0 (Classic) decides, the others are these bots.
TABLES = {
    "classic": ("Classic",) * 5,
    "normal": ("Classic", "Classic", "Cautious", "Aggressive", "Gambler"),
    "expert": ("Classic",) + ("Expert",) * 4,
}
STAGES = (("early", 0.0, 0.3), ("mid-round", 0.3, 0.6), ("late", 0.6, 1.01))
BEGIN, END = "<!-- calibration table: bench/beliefs.py -->", "<!-- end of the calibration table -->"
#: The markers of the table of the rounds with an exchange (`--rounds` above 1).
LATER = ("<!-- calibration table of the rounds with an exchange: bench/beliefs.py --rounds -->",
         "<!-- end of the calibration table of the rounds with an exchange -->")


def positions(count: int, seed: int = 77, table: tuple[str, ...] = TABLES["classic"],
              rounds: int = 1) -> list[PresidentState]:
    """Seat 0's decisions with a choice, past the round's first plays, every second one (in matches of
    more than one round, only in the rounds after the first: those with an exchange)."""
    settings = dataclasses.replace(preset("classic"), rounds=rounds)
    first = 1 if rounds > 1 else 0
    found: list[PresidentState] = []
    game = 0
    while len(found) < count:
        state, rng = PresidentState.new_match(settings, seed + game), random.Random(game)
        bots, seen = [make_bot(name) for name in table], 0
        game += 1
        while not state.is_terminal():
            p, legal = state.current_player(), state.legal_actions()
            if p == 0 and state.phase is Phase.PLAY and len(legal) > 1 and len(state.history) > 8 \
                    and state.round_no >= first and not state.hidden_is_determined(0):
                seen += 1
                if seen % 2 == 0:
                    found.append(state.clone())
            state.apply(bots[p].choose(state.observation(p), legal, rng))
    return found[:count]


def stage(state: PresidentState) -> str:
    share = state.played.bit_count() / state.lay.full.bit_count()
    return next(name for name, low, high in STAGES if low <= share < high)


def belief_of(spec: str | None, state: PresidentState, i: int, names: tuple[str, ...] = (), chain: int = 300):
    rng = random.Random(1000 + i)
    if spec is None:
        return seat_belief(state.observation(0).sample_state(rng), 0, rng, worlds=chain,
                           inference=Inference(0.05, pool=chain), names=names)
    agent = make_bot(spec)
    tell_opponents(agent, 0, names)
    return decide(agent, state.observation(0), state.legal_actions(), rng, explain=True).belief


def score(found: list[PresidentState], spec: str | None, names: tuple[str, ...] = (),
          exchange: bool = True, chain: int = 300) -> tuple[dict, float]:
    """Per stage: [cards right, cards, Brier sum, cards scored, positions, cards the likeliest hands put
    right]; CPU ms per position."""
    out = {name: [0.0, 0, 0.0, 0, 0, 0] for name, _, _ in STAGES}
    start = time.process_time()
    for i, state in enumerate(found):
        with mock.patch.object(ModelEvidence, "EXCHANGE", exchange):
            belief = belief_of(spec, state, i, names, chain)
        truth = state.holdings()
        right, total = placed_right(belief, truth)
        b, cards = brier(belief, truth)
        row = out[stage(state)]
        row[0] += right
        row[1] += total
        row[2] += b
        row[3] += cards
        row[4] += 1
        row[5] += guessed_right(belief, truth)[0]
    return out, (time.process_time() - start) / len(found) * 1000


def table(results: list[tuple[str, dict, float]], count: int, command: str = "--table classic") -> str:
    head = ("| bot | " + " | ".join(f"{name}: placed right | likeliest right | Brier" for name, _, _ in STAGES)
            + " | CPU ms |")
    lines = [head, "| --- |" + " ---: | ---: | ---: |" * len(STAGES) + " ---: |"]
    for title, stats, ms in results:
        cells = []
        for name, _, _ in STAGES:
            right, total, b, cards, n, guessed = stats[name]
            cells.append(f"{right / total:.1%} | {guessed / total:.1%} | {b / cards:.3f}" if total else "- | - | -")
        lines.append(f"| {title} | " + " | ".join(cells) + f" | {ms:.0f} |")
    counts = ", ".join(f"{name} {results[0][1][name][4]}" for name, _, _ in STAGES)
    return "\n".join(lines) + f"\n\n{count} positions ({counts}); seed 77; `python bench/beliefs.py {command}`."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--table", choices=TABLES, default="classic", help="the bots at the table")
    parser.add_argument("--rounds", type=int, default=1, help="rounds per match; above 1, positions from the "
                        "rounds after the first only (with an exchange)")
    parser.add_argument("--chain", type=int, default=300, help="worlds of the inference chain's rows (the "
                        "master level's chain: 300)")
    parser.add_argument("--only", default=None, help="only the rows whose title contains this text")
    parser.add_argument("--write", type=Path, default=None, help="a page to write the table into, between "
                        "its markers")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), positions=3)
    table_names = TABLES[args.table]
    found = positions(args.positions, table=table_names, rounds=args.rounds)
    methods = [m for m in METHODS if (args.only is None or args.only in m[0]) and (m[3] or args.rounds > 1)]
    if args.smoke:
        methods = [(t, s.replace("iterations=1500", "iterations=30") if s else s, k, e) for t, s, k, e in methods]
    results = []
    for title, spec, knows, exchange in methods:
        stats, ms = score(found, spec, table_names if knows else (), exchange, args.chain)
        results.append((title, stats, ms))
        mid = stats["mid-round"]
        print(f"{title[:60]:<60} mid-round {mid[0] / max(1, mid[1]):6.1%} (likeliest {mid[5] / max(1, mid[1]):6.1%})"
              f"  {ms:7.0f} CPU ms", flush=True)
    defaults = {"positions": 60, "rounds": 1, "chain": 300}
    options = [f"--table {args.table}"] + [f"--{k} {getattr(args, k)}" for k, v in defaults.items()
                                           if getattr(args, k) != v]
    text = table(results, len(found), " ".join(options))
    print(text)
    if args.write:
        page = args.write.read_text()
        begin, end = LATER if args.rounds > 1 else (BEGIN, END)
        pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
        args.write.write_text(pattern.sub(lambda _: f"{begin}\n{text}\n{end}", page))


if __name__ == "__main__":
    main()
