"""`president crosscheck`: native President and RECYCLE President5, dealt alike, played alike?

For each of N deals drawn from the seed, the same five personalities play the
deal twice: on the native engine and on our RECYCLE President
(`recycle/games/President5.gdl`, dealt through `recycle.interp.arrange`). The
plays must be the same turn by turn, as (player, value, count) or a pass, and
so must the finishing order. Where President5 differs from `classic` (its
header), the native table is set to match: one round, hence no card exchange;
its other differences (one option per suit combination, skipped players
counting as passes, out players taking no turn) change how the rules are
written, not the plays. `--preset`/`--set` change the native table, so a
deliberately different table shows the check failing.

Both games' players draw `Random` from generators seeded alike, and a rule
player draws only when it evaluates a Random condition: the same decisions
draw the same numbers, so personalities that use Random (Gambler) are checked
too. A RECYCLE play is read from the cards that left the player's hand, not
from the adapter, so a wrong option chosen by the adapter shows as a divergence.
The first divergence is reported with both rule traces (the two games are
played again with traces on, which draws exactly what untraced play draws).
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.markup import escape

from recycle.cli.arguments import GAMES, SEED, UsageError, is_stdout, output_file
from recycle.cli.console import EXIT_FAILED, err_console, fail
from recycle.kernel.specs import split_specs
from recycle.kernel.protocol import GameError, play_game, trace_json
from recycle.cli.output import progress_bar, write_json

from president.agents.bots import make_bots
from president.game.cards import PASS, Card, play_of
from president.game.deals import Deal, random_deal
from president.game.settings import Settings
from president.game.state import PresidentState
from president.cli.common import add_table_options, console, rules_dirs, table_settings

GAME = "President5"
#: How President5's header differences from `classic` are matched on the native table.
MATCHING = {"rounds": 1}


def default_bots() -> list[str]:
    """Five different shipped personalities: the first five by name."""
    from personalities.catalog import shipped_names

    return shipped_names()[:5]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("crosscheck", help="native President and RECYCLE President5 on the same deals: same plays?",
                       description="Play N deals on the native engine and on RECYCLE President5 with the same "
                                   "personalities; report the first turn where the plays or the finishing order "
                                   "differ, with both rule traces. Exit 1 on a divergence.")
    p.add_argument("--deals", type=GAMES, default=100, help=f"how many deals ({GAMES.text}, default 100)")
    p.add_argument("--seed", type=SEED, default=0, help="the deals and the players' generators derive from it "
                                                        "(default 0)")
    p.add_argument("--bots", default=None, metavar="A,B,C,D,E",
                   help="the five seats' personalities (default: the first five shipped ones)")
    add_table_options(p)
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    p.add_argument("--json", metavar="FILE", type=output_file, help="also write the outcome as JSON ('-': "
                                                                     "standard output, instead of the summary)")
    p.set_defaults(run=run)


# ---- one engine's game ------------------------------------------------------------------

@dataclass(frozen=True)
class Turn:
    """A decision as it shows on the table: who, and the play (`7 7`, `pass`)."""

    player: int
    play: str

    def __str__(self) -> str:
        return f"p{self.player} {self.play}"


@dataclass
class Played:
    """One engine's game of a deal: every decision's play, the places, the traces asked for."""

    turns: list[Turn] = field(default_factory=list)
    places: tuple[int, ...] = ()
    traces: dict[int, Any] = field(default_factory=dict)

    def order(self) -> str:
        """Seats from President to Loser."""
        return " ".join(f"p{p}" for p in sorted(range(len(self.places)), key=self.places.__getitem__))


def _rng(seed: int, index: int) -> random.Random:
    return random.Random(f"crosscheck/{seed}/{index}/players")


class Crosscheck:
    """What a run fixes: the native table, the RECYCLE game, and both engines' players."""

    def __init__(self, settings: Settings, bots: list[str], seed: int, rules_dirs=(), game: str = GAME) -> None:
        from recycle.climbing.adapter import make_climbing_bots
        from recycle.games import game_path
        from recycle.climbing.metadata import read_meta
        from recycle.lang import load_game

        self.game = load_game(game_path(game))  # another President game file: for tests that must fail
        if settings.players != 5:
            raise UsageError(f"{GAME} is a 5-player game: the native table cannot have {settings.players}")
        if len(bots) != 5:
            raise UsageError(f"--bots names the five seats' personalities, not {len(bots)}")
        from personalities.catalog import find_personality, known_names
        from recycle.kernel.suggest import hint

        for spec in bots:  # another agent's choice depends on how each engine lists its options
            if find_personality(spec, tuple(rules_dirs)) is None:
                raise UsageError(f"{spec!r}{hint(spec, known_names(tuple(rules_dirs)))} is not a personality: "
                                 "crosscheck compares rule personalities")
        self.settings, self.bots, self.seed = settings, bots, seed
        self.native_agents, _ = make_bots(bots, 5, rules_dirs)
        self.recycle_agents, _ = make_climbing_bots(bots, self.game, 5, rules_dirs=rules_dirs)
        self.hand = read_meta(self.game).hand  # where a RECYCLE player's cards are

    def deal(self, index: int) -> Deal:
        return random_deal(self.settings, random.Random(f"crosscheck/{self.seed}/{index}/deal"))

    def native(self, deal: Deal, index: int, trace_at: int | None = None) -> Played:
        out = Played()
        state = PresidentState.new_match(self.settings, index, deal=deal.hands)

        def record(before, player: int, decision) -> None:
            if len(out.turns) == trace_at:
                out.traces[trace_at] = decision.trace
            action = decision.action
            out.turns.append(Turn(player, "pass" if action == PASS else str(play_of(action.value, action.count))))

        results = play_game(state, self.native_agents, _rng(self.seed, index), on_decision=record,
                            explain=trace_at is not None)
        out.places = results.ranks
        return out

    def recycle(self, deal: Deal, index: int, trace_at: int | None = None) -> Played:
        from recycle.interp import new_game

        out = Played()
        state = new_game(self.game, index, deal=deal.places())
        pending: list = []  # (player, its hand before the decision): the play is what left the hand

        def settle() -> None:
            if pending:
                player, before = pending.pop()
                out.turns.append(Turn(player, self._left(state, before, self._hand(state, player))))

        def record(before, player: int, decision) -> None:
            settle()
            if len(out.turns) == trace_at:
                out.traces[trace_at] = decision.trace
            pending.append((player, list(self._hand(before, player))))

        results = play_game(state, self.recycle_agents, _rng(self.seed, index), on_decision=record,
                            explain=trace_at is not None)
        settle()
        out.places = results.ranks
        return out

    def _hand(self, state, player: int) -> list[int]:
        return next((cards for key, cards in state.st.locs.items()
                     if key[0] == "p" and key[1] == player and key[3] == self.hand), [])

    @staticmethod
    def _left(state, before: list[int], after: list[int]) -> str:
        """The play, from the cards that left the hand (by their RANK): `7 7`, or `pass`."""
        from recycle.interp.arrange import short_name

        gone = list((Counter(before) - Counter(after)).elements())
        if not gone:
            return "pass"
        names = [short_name(state.table.attrs[c]) for c in gone]
        values = {Card.parse(n).value for n in names if n}
        if all(names) and len(values) == 1:
            return str(play_of(values.pop(), len(gone)))
        # Not one value: shown card by card, so it cannot equal a native play.
        return ", ".join(state.table.text[c] for c in gone)

    def check(self, index: int) -> "tuple[Divergence | None, int]":
        """(the divergence of deal `index` or None, how many turns were compared)."""
        deal = self.deal(index)
        native, recycle = self.native(deal, index), self.recycle(deal, index)
        if native.turns == recycle.turns and native.places == recycle.places:
            return None, len(native.turns)
        turn = next((k for k, (a, b) in enumerate(zip(native.turns, recycle.turns)) if a != b),
                    min(len(native.turns), len(recycle.turns)))
        if turn < max(len(native.turns), len(recycle.turns)):  # a decision differs: replay both, traced
            native = self.native(deal, index, trace_at=turn)
            recycle = self.recycle(deal, index, trace_at=turn)
        return Divergence(index, deal, turn, native, recycle), turn


@dataclass
class Divergence:
    """The first difference between the two games of one deal."""

    index: int
    deal: Deal
    turn: int  # index of the first differing turn (== turns played when only the places differ)
    native: Played
    recycle: Played

    def _at(self, game: Played) -> Turn | None:
        return game.turns[self.turn] if self.turn < len(game.turns) else None

    def to_json(self) -> dict:
        def side(game: Played) -> dict:
            trace = game.traces.get(self.turn)
            at = self._at(game)
            return {"turn": None if at is None else str(at), "places": list(game.places), "order": game.order(),
                    "trace": trace_json(trace)}

        return {"deal_index": self.index, "deal": self.deal.to_json(), "turn": self.turn + 1,
                "plays_so_far": [str(t) for t in self.native.turns[:self.turn]],
                "native": side(self.native), "recycle": side(self.recycle)}

    def print(self) -> None:
        console.print(f"[bold red]deal {self.index}: the engines differ[/] "
                      + (f"at turn {self.turn + 1}" if self._at(self.native) or self._at(self.recycle)
                         else f"in the finishing order after the same {self.turn} plays"))
        console.print("the deal (save it as a deal file to replay it with --deal):")
        console.print(escape(self.deal.text().rstrip()), highlight=False)
        so_far = self.native.turns[:self.turn]
        console.print(f"plays so far, the same in both ({len(so_far)}): "
                      + (" · ".join(map(str, so_far)) or "none"), highlight=False)
        for name, game in (("native", self.native), ("RECYCLE", self.recycle)):
            at = self._at(game)
            console.print(f"[bold]{name:8}[/] {at if at else '(the game is over)'}   finishing order {game.order()}")
        for name, game in (("native", self.native), ("RECYCLE", self.recycle)):
            trace = game.traces.get(self.turn)
            if trace is not None:
                console.print(f"[bold]{name} trace[/]")
                console.print(trace)


# ---- the command ------------------------------------------------------------------------

def crosscheck(check: Crosscheck, deals: int, progress=lambda done: None) -> tuple[list[Divergence], int]:
    """(every divergence, turns compared) over deals 0..deals-1."""
    found, turns = [], 0
    for i in range(deals):
        try:
            divergence, compared = check.check(i)
        except GameError as exc:  # an engine failed: say on which deal
            raise GameError(f"deal {i}: {exc}") from exc
        turns += compared
        if divergence is not None:
            found.append(divergence)
        progress(i + 1)
    return found, turns


def run(args: argparse.Namespace) -> int:
    bots = split_specs(args.bots) if args.bots else default_bots()
    settings = table_settings(args, **MATCHING)
    check = Crosscheck(settings, bots, args.seed, rules_dirs(args))
    started = time.perf_counter()
    try:
        with progress_bar(console, args.deals, "crosschecking", "deals") as advance:
            found, turns = crosscheck(check, args.deals, advance)
    except GameError as exc:
        return fail(str(exc), EXIT_FAILED)
    seconds = time.perf_counter() - started
    if found and not is_stdout(args.json):
        found[0].print()
    colour = "red" if found else "green"
    (err_console if is_stdout(args.json) else console).print(f"[bold {colour}]{args.deals} deal(s), seed {args.seed}: {len(found)} divergence(s)[/] "
                  f"· {turns:,} plays compared · bots {', '.join(bots)} · {seconds:.1f} s")
    if args.json:
        write_json(args.json, {"game": GAME, "deals": args.deals, "seed": args.seed, "bots": bots,
                               "native_settings": settings.describe(), "divergences": len(found),
                               "diverging_deals": [d.index for d in found], "plays_compared": turns,
                               "seconds": round(seconds, 3),
                               "first": found[0].to_json() if found else None})
    return EXIT_FAILED if found else 0
