"""`recycle run GAME`: agents play seeded games; a table of each seat's scores and ranks."""
from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.table import Table

from recycle.commands.options import add_bot_options, add_limit_options, bot_options, limits_of
from recycle.games import game_path
from recycle.kernel.cli_support import console, seed_of
from recycle.kernel.deal_file import read_deal
from recycle.kernel.output import mean_or_zero as _mean
from recycle.kernel.output import progress_bar, write_csv, write_json
from recycle.kernel.protocol import play_game
from recycle.kernel.specs import describe


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="agents play a game; a table of each seat's scores and ranks")
    p.add_argument("game", metavar="GAME", help="a .rcy or .gdl file")
    p.add_argument("--players", default="random",
                   help="comma-separated agent specs, shipped personalities or .rul files (climbing games), "
                        "one per seat; fewer are repeated (default random)")
    p.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    p.add_argument("--seed", type=int, default=None, help="random seed (printed when omitted)")
    p.add_argument("--transcript", metavar="DIR", help="write one JSON Lines transcript per game here")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    p.add_argument("--deal", metavar="FILE", help="deal every game from this deal file (lines 'p0: 3c 4d ...')")
    add_bot_options(p)
    add_limit_options(p)
    p.set_defaults(run=run_run)


@dataclass
class Seat:
    agent: str
    scores: list[float] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(r == 1 for r in self.ranks)

    def to_json(self) -> dict:
        return {"agent": self.agent, "games": len(self.ranks), "mean_score": _mean(self.scores),
                "mean_rank": _mean(self.ranks), "wins": self.wins,
                "scores": self.scores, "ranks": self.ranks}


def run_run(args: argparse.Namespace) -> int:
    from recycle.climbing.adapter import make_climbing_bots
    from recycle.interp import new_game
    from recycle.interp.transcript import play_and_record, write
    from recycle.lang import load_game

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    path = game_path(args.game)
    game = load_game(path)
    # Read once; every game is dealt from it (see recycle.interp.deal).
    limits = limits_of(args, read_deal(args.deal) if args.deal else None)
    n = new_game(game, 0, **limits).num_players
    specs = [s for s in args.players.split(",") if s.strip()] or ["random"]
    # Personalities and .rul files play climbing games (recycle.climbing.adapter); agent specs play any game.
    agents, _ = make_climbing_bots(specs, game, n, **bot_options(args))
    seats = [Seat(describe(a)) for a in agents]
    seed = seed_of(args)
    folder = Path(args.transcript) if args.transcript else None
    if folder:
        folder.mkdir(parents=True, exist_ok=True)
    called, choices, started = 0, [], time.perf_counter()
    with progress_bar(console, args.games, "playing") as advance:
        for g in range(args.games):
            game_seed, rng = seed + g, random.Random(f"{seed}/{g}")
            if folder:
                state, recs = play_and_record(game, game_seed, agents, rng, **limits)
                write(folder / f"{Path(path).stem}-{game_seed}.jsonl", recs)
                result = state.results()
            else:
                state = new_game(game, game_seed, **limits)
                result = play_game(state, agents, rng)
            for seat, score, rank in zip(seats, result.scores, result.ranks):
                seat.scores.append(score)
                seat.ranks.append(rank)
            called += state.called
            choices.append(state.choices)
            advance(g + 1)
    elapsed = time.perf_counter() - started
    table = Table(title=f"{Path(path).name}: {args.games} game(s), seed {seed}",
                  caption=f"{_mean(choices):.1f} choices/game, {called} called at the choice limit, "
                          f"{args.games / elapsed:,.1f} games/s")
    for name, justify in (("seat", "right"), ("agent", "left"), ("mean score", "right"),
                          ("mean rank", "right"), ("wins", "right")):
        table.add_column(name, justify=justify)
    for i, s in enumerate(seats):
        table.add_row(str(i), s.agent, f"{_mean(s.scores):.2f}", f"{_mean(s.ranks):.2f}", str(s.wins))
    console.print(table)
    if args.json:
        write_json(args.json, {"game": str(path), "games": args.games, "seed": seed, "called": called,
                               "mean_choices": _mean(choices), "seats": [s.to_json() for s in seats]})
    if args.csv:
        write_csv(args.csv, ["seat", "agent", "games", "mean_score", "mean_rank", "wins"],
                  [[i, s.agent, len(s.ranks), f"{_mean(s.scores):.4f}", f"{_mean(s.ranks):.4f}",
                    s.wins] for i, s in enumerate(seats)])
    return 0
