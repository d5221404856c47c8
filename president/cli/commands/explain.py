"""`president trace`, `decide` and `stats`: why a bot plays what it plays."""
from __future__ import annotations

import argparse
import random
from collections import Counter

from rich.table import Table

from personalities.evaluator import explain as explain_view
from personalities.player import RulePlayer
from recycle.kernel.beliefs import uniform_belief
from recycle.cli.arguments import GAMES, ROUNDS, IntRange, output_file
from recycle.kernel.errors import UsageError
from recycle.cli.output import progress_bar, write_json
from recycle.kernel.protocol import decide, play_game, trace_json
from recycle.kernel.specs import fill_seats, split_specs

from president.agents.bots import make_bot

from president.agents.opponents import make_bots
from president.game.cards import parse_value, value_text
from president.game.position import hypothetical_state
from president.match.rule_stats import count_firings
from president.match.simulate import match_seed
from president.game.state import PresidentState
from president.game.view import hypothetical_view
from president.cli.common import (add_seed_option, add_table_options, console, err_console, print_table, rules_dirs, seed_of,
                     table_settings)

OPPONENTS_HELP = ("the other seats' bots, comma-separated (a comma before key= continues a spec's parameters); "
                  "fewer are repeated in rotation (default Classic)")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("trace", help="play a seeded match and print every decision of one bot as a trace")
    p.add_argument("bot", metavar="BOT")
    p.add_argument("--opponents", default="Classic", metavar="SPECS", help=OPPONENTS_HELP)
    p.add_argument("--round", type=ROUNDS, default=None, help="only this round (1-based)")
    p.add_argument("--rounds", type=ROUNDS, default=None,
                   help=f"rounds in the match ({ROUNDS.text}, default: the preset's)")
    add_common(p)
    p.set_defaults(run=run_trace)

    p = sub.add_parser("decide", help="what would this bot play in a given position, with the trace")
    p.add_argument("bot", metavar="BOT")
    p.add_argument("--hand", required=True, help='my cards, e.g. "3 3 8 8 8 9 T T J" (suits optional)')
    p.add_argument("--upcards", default=None, help='the cards to beat, e.g. "4 4"; none means I lead')
    p.add_argument("--played", default="", help="cards already played this round")
    p.add_argument("--opponents", default=None, help="card counts of the opponents still in, e.g. 10,9,11,7")
    p.add_argument("--rank", type=IntRange(1, 6), default=6,
                   help="my rank: 1 President .. 5 Loser, 6 none (default)")
    p.add_argument("--higher-players", type=IntRange(0, 63), default=0, help="players of higher rank still in")
    add_common(p)
    p.set_defaults(run=run_decide)

    p = sub.add_parser("stats", help="how often each rule of a bot fired, and which never did")
    p.add_argument("bot", metavar="BOT")
    p.add_argument("--rounds", type=GAMES, default=100, help=f"rounds to play ({GAMES.text}, default 100)")
    p.add_argument("--opponents", default="Classic", metavar="SPECS", help=OPPONENTS_HELP)
    add_common(p)
    p.set_defaults(run=run_stats)


def add_common(p: argparse.ArgumentParser) -> None:
    add_seed_option(p)
    add_table_options(p)
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    p.add_argument("--json", metavar="FILE", type=output_file,
                   help="write JSON to FILE ('-': standard output) instead of printing trees and tables")


def _table(args: argparse.Namespace, bot: str, **fixed):
    settings = table_settings(args, **fixed)
    seats = [bot] + fill_seats(split_specs(args.opponents) or ["Classic"], settings.players - 1, "opponents")
    agents, names = make_bots(seats, settings.players, rules_dirs(args))
    return settings, agents, names


def run_trace(args: argparse.Namespace) -> int:
    settings, agents, names = _table(args, args.bot, rounds=args.rounds)
    seed = seed_of(args)
    state = PresidentState.new_match(settings, match_seed(seed, 0))
    traces = []

    rounds = [0]  # rounds the match had (the last round any decision was in)

    def record(before: PresidentState, player: int, decision) -> None:
        rounds[0] = max(rounds[0], before.round_no + 1)
        if player == 0 and (args.round is None or before.round_no + 1 == args.round):
            traces.append((before.round_no + 1, decision))

    play_game(state, agents, random.Random(match_seed(seed, 0) ^ 0x5EED), on_decision=record, explain=True)
    if args.round is not None and args.round > rounds[0]:
        raise UsageError(f"--round {args.round}: the match had {rounds[0]} round(s)")
    if args.json:
        write_json(args.json, [{"round": r, "action": str(d.action), "trace": trace_json(d.trace),
                                "beliefs": beliefs_json(d.belief)} for r, d in traces])
        return 0
    for r, decision in traces:
        console.rule(f"round {r}")
        console.print(decision.trace if decision.trace is not None else str(decision.action))
        print_belief(decision.belief)
    console.print(f"{len(traces)} decision(s) of {names[0]} (seat 0), seed {seed}")
    return 0


def beliefs_json(belief) -> list[dict]:
    """A decision's `beliefs` for JSON: one entry per opponent (none when the bot gives no belief)."""
    return belief.to_json() if belief is not None else []


def print_belief(belief) -> None:
    """The bot's belief under its trace: expected cards of each value, a column per opponent, then each
    opponent's likeliest hand."""
    if belief is not None:
        console.print(f"belief: {belief.method}", style="dim", markup=False, highlight=False)
        console.print("\n".join(belief.grid() + belief.guess_lines()), markup=False, highlight=False)


def _values(text: str | None) -> list[int]:
    return [parse_value(t) for t in (text or "").replace(",", " ").split()]


def _check_cards(settings, *texts: str | None) -> None:
    """A card named with its suit (`3c`) may appear at most once per pack across hand, upcards and played."""
    seen = Counter(t.lower() for text in texts for t in (text or "").replace(",", " ").split()
                   if len(t) >= 2 and t[-1].lower() in "cdhs" and t.lower() != "jk")
    for card, count in seen.items():
        if count > settings.decks:
            packs = f"{settings.decks} pack{'s' if settings.decks > 1 else ''}"
            raise UsageError(f"{card} is named {count} times, but the table has {packs}: each card once per pack "
                             f"(leave suits out to name values only)")


def _counts(text: str) -> list[int]:
    """`--opponents 10,9,11,7`: card counts."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"--opponents takes card counts like 10,9,11,7, not {text!r}") from None


def run_decide(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    agent = make_bot(args.bot, rules_dirs(args))
    _check_cards(settings, args.hand, args.upcards, args.played)
    opponents = _counts(args.opponents) if args.opponents else None
    played = _values(args.played)
    view = hypothetical_view(settings, _values(args.hand), _values(args.upcards) or None, played,
                             opponents, args.rank, args.higher_players)
    rng = random.Random(seed_of(args))
    if isinstance(agent, RulePlayer):  # the rule trace reads the view itself: lines, conditions, verdicts
        play, trace = explain_view(agent.personality, view, rng)
        # its belief: FollowOdds' uniform deal of the unseen cards (any dealing of the position gives it)
        belief = uniform_belief(hypothetical_state(settings, view, played, random.Random(0)), 0)
        if args.json:
            write_json(args.json, {"play": _cards(play), "rule_line": trace.fired_line, "trace": trace.to_json(),
                                   "beliefs": beliefs_json(belief)})
        else:
            console.print(trace)
            print_belief(belief)
        return 0
    # Any other agent (search players, random) plays from a real state of that position.
    state = hypothetical_state(settings, view, played, random.Random(rng.getrandbits(64)))
    decision = decide(agent, state.observation(0), state.legal_actions(), rng, explain=True)
    action = decision.action
    if args.json:
        write_json(args.json, {"play": _cards((action.value, action.count) if action.count else None),
                               "agent": getattr(agent, "name", args.bot), "trace": trace_json(decision.trace),
                               "beliefs": beliefs_json(decision.belief)})
    elif hasattr(decision.trace, "__rich__"):  # search players: visits, mean and exact values
        console.print(decision.trace)
        print_belief(decision.belief)
    else:
        facts = decision.trace if isinstance(decision.trace, dict) else {}
        console.print(f"{getattr(agent, 'name', args.bot)} plays {action}"
                      + "".join(f"; {k}: {v}" for k, v in facts.items() if k != "agent"), markup=False)
    return 0


def _cards(play: tuple[int, int] | None):
    """A play as JSON: the list of its card values, or "pass"."""
    return "pass" if play is None else [value_text(play[0])] * play[1]


def run_stats(args: argparse.Namespace) -> int:
    settings, agents, names = _table(args, args.bot)
    bot = agents[0]
    if not isinstance(bot, RulePlayer):
        raise UsageError("stats counts rule firings; name a .rul file or a shipped personality")
    seed = seed_of(args)
    with progress_bar(err_console, args.rounds, "playing", "rounds") as advance:
        fired = count_firings(agents, settings, args.rounds, seed, advance=advance)
    rules = bot.personality.rules
    if names[0] == args.bot:  # a file's path is shown by its personality's name; the user's copy stays marked
        names[0] = bot.personality.name
    total = sum(fired.values())
    rows = [{"line": rule.line, "rule": rule.source.strip() or str(rule), "fired": fired.get(rule.line, 0)}
            for rule in rules]
    fallbacks = {k: v for k, v in fired.items() if isinstance(k, str)}
    if args.json:
        write_json(args.json, {"bot": names[0], "rounds": args.rounds, "decisions": total, "rules": rows,
                          "fallbacks": fallbacks, "never_fired": [r["line"] for r in rows if not r["fired"]]})
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
    print_table(table)
    never = [str(r["line"]) for r in rows if not r["fired"]]
    console.print(f"never fired: line(s) {', '.join(never)}" if never else "every rule fired at least once")
    return 0
