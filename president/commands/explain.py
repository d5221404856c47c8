"""`president trace`, `decide` and `stats`: why a bot plays what it plays."""
from __future__ import annotations

import argparse
import dataclasses
import json
import random
from collections import Counter

from rich.table import Table

from personalities.evaluator import explain as explain_view
from personalities.player import RulePlayer
from recycle.kernel.protocol import play_game, trace_json

from ..bots import make_bot, make_bots
from ..cards import parse_value, value_text
from ..simulate import match_seed
from ..state import PresidentState
from ..view import hypothetical_view
from .common import add_seed_option, add_table_options, console, rules_dirs, seed_of, table_settings


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("trace", help="play a seeded match and print every decision of one bot as a trace")
    p.add_argument("bot", metavar="BOT")
    p.add_argument("--opponents", default="Classic", help="the other seats' bots (default Classic)")
    p.add_argument("--round", type=int, default=None, help="only this round (1-based)")
    p.add_argument("--rounds", type=int, default=None, help="rounds in the match (default: the preset's)")
    add_common(p)
    p.set_defaults(run=run_trace)

    p = sub.add_parser("decide", help="what would this bot play in a given position, with the trace")
    p.add_argument("bot", metavar="BOT")
    p.add_argument("--hand", required=True, help='my cards, e.g. "3 3 8 8 8 9 T T J" (suits optional)')
    p.add_argument("--upcards", default=None, help='the cards to beat, e.g. "4 4"; none means I lead')
    p.add_argument("--played", default="", help="cards already played this round")
    p.add_argument("--opponents", default=None, help="card counts of the opponents still in, e.g. 10,9,11,7")
    p.add_argument("--rank", type=int, default=6, help="my rank: 1 President .. 5 Loser, 6 none (default)")
    p.add_argument("--higher-players", type=int, default=0, help="players of higher rank still in")
    add_common(p)
    p.set_defaults(run=run_decide)

    p = sub.add_parser("stats", help="how often each rule of a bot fired, and which never did")
    p.add_argument("bot", metavar="BOT")
    p.add_argument("--rounds", type=int, default=100, help="rounds to play (default 100)")
    p.add_argument("--opponents", default="Classic", help="the other seats' bots (default Classic)")
    add_common(p)
    p.set_defaults(run=run_stats)


def add_common(p: argparse.ArgumentParser) -> None:
    add_seed_option(p)
    add_table_options(p)
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    p.add_argument("--json", action="store_true", help="print JSON instead of trees and tables")


def _table(args: argparse.Namespace, bot: str, **fixed):
    settings = table_settings(args, **fixed)
    specs = [bot] + [s for s in args.opponents.split(",") if s.strip()][: settings.players - 1]
    others = specs[1:] or ["Classic"]
    seats = [bot] + [others[i % len(others)] for i in range(settings.players - 1)]
    agents, names = make_bots(seats, settings.players, rules_dirs(args))
    return settings, agents, names


def run_trace(args: argparse.Namespace) -> int:
    settings, agents, names = _table(args, args.bot, rounds=args.rounds)
    seed = seed_of(args)
    state = PresidentState.new_match(settings, match_seed(seed, 0))
    traces = []

    def record(before: PresidentState, player: int, decision) -> None:
        if player == 0 and (args.round is None or before.round_no + 1 == args.round):
            traces.append((before.round_no + 1, decision))

    play_game(state, agents, random.Random(match_seed(seed, 0) ^ 0x5EED), on_decision=record, explain=True)
    if args.json:
        print(json.dumps([{"round": r, "action": str(d.action), "trace": trace_json(d.trace)} for r, d in traces],
                         indent=2))
        return 0
    for r, decision in traces:
        console.rule(f"round {r}")
        console.print(decision.trace if decision.trace is not None else str(decision.action))
    console.print(f"{len(traces)} decision(s) of {names[0]} (seat 0), seed {seed}")
    return 0


def _values(text: str | None) -> list[int]:
    return [parse_value(t) for t in (text or "").replace(",", " ").split()]


def run_decide(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    agent = make_bot(args.bot, rules_dirs(args))
    if not isinstance(agent, RulePlayer):
        raise ValueError("decide explains rule personalities; name a .rul file or a shipped personality")
    opponents = [int(x) for x in args.opponents.split(",")] if args.opponents else None
    view = hypothetical_view(settings, _values(args.hand), _values(args.upcards) or None, _values(args.played),
                             opponents, args.rank, args.higher_players)
    play, trace = explain_view(agent.personality, view, random.Random(seed_of(args)))
    if args.json:
        cards = "pass" if play is None else [value_text(play[0])] * play[1]
        print(json.dumps({"play": cards, "rule_line": trace.fired_line, "trace": trace.to_json()}, indent=2))
    else:
        console.print(trace)
    return 0


def run_stats(args: argparse.Namespace) -> int:
    settings, agents, names = _table(args, args.bot)
    if args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    bot = agents[0]
    if not isinstance(bot, RulePlayer):
        raise ValueError("stats counts rule firings; name a .rul file or a shipped personality")
    seed = seed_of(args)
    fired: Counter = Counter()

    def record(before, player: int, decision) -> None:
        if player == 0 and decision.trace is not None and decision.trace.kind == "play":
            fired[decision.trace.fired_line or decision.trace.note] += 1

    # Whole matches, so that ranks and the exchange happen as they do in play.
    played, match = 0, 0
    while played < args.rounds:
        length = min(settings.rounds or 10, args.rounds - played)
        table = dataclasses.replace(settings, rounds=length, target_score=0)
        state = PresidentState.new_match(table, match_seed(seed, match))
        play_game(state, agents, random.Random(match_seed(seed, match) ^ 0x5EED), on_decision=record, explain=True)
        played, match = played + length, match + 1
    rules = bot.personality.rules
    names[0] = bot.personality.name
    total = sum(fired.values())
    rows = [{"line": rule.line, "rule": rule.source.strip() or str(rule), "fired": fired.get(rule.line, 0)}
            for rule in rules]
    fallbacks = {k: v for k, v in fired.items() if isinstance(k, str)}
    if args.json:
        print(json.dumps({"bot": names[0], "rounds": args.rounds, "decisions": total, "rules": rows,
                          "fallbacks": fallbacks, "never_fired": [r["line"] for r in rows if not r["fired"]]},
                         indent=2))
        return 0
    table = Table(title=f"{names[0]}: {total} decisions in {args.rounds} round(s), seed {seed}")
    table.add_column("line", justify="right")
    table.add_column("rule")
    table.add_column("fired", justify="right")
    table.add_column("share", justify="right")
    for row in rows:
        style = "dim red" if not row["fired"] else ""
        table.add_row(str(row["line"]), row["rule"], str(row["fired"]),
                      f"{100 * row['fired'] / total:.1f}%" if total else "-", style=style)
    for note, count in fallbacks.items():
        table.add_row("", f"[italic]{note}[/]", str(count), f"{100 * count / total:.1f}%" if total else "-")
    console.print(table)
    never = [str(r["line"]) for r in rows if not r["fired"]]
    console.print(f"never fired: line(s) {', '.join(never)}" if never else "every rule fired at least once")
    return 0
