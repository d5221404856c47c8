"""The coach: a finished round of a saved match reviewed with all hands open.

For each of the person's plays with a choice: what each difficulty level's
bot would have played in their place, and the expected round points of every
choice, by search from what the person had seen (worlds of the inference
chain, the rest of the round played on by Classic at every seat, the same
worlds for every choice). Then the bots' beliefs against the truth, decision
by decision. Only finished rounds are reviewed: the hands of the round being
played stay hidden (see docs/beliefs.md).
"""
from __future__ import annotations

import random
import textwrap
from dataclasses import dataclass

from recycle.kernel.beliefs import placed_right
from recycle.kernel.protocol import decide, play_out, unasked_when_forced

from president.agents.beliefs import chain_sampler
from president.agents.bots import make_bot
from president.agents.levels import LEVELS
from president.match.saved import MatchFileError, MatchRecord, replay, replay_all
from president.game.state import Phase, PresidentState

WIDTH = 80
#: Worlds each choice is played out in (the same worlds for every choice of one decision).
WORLDS = 16
#: Who plays on after a choice, at every seat: the model the chain weighs worlds by.
PLAYOUT = "Classic"


@dataclass(frozen=True)
class Choice:
    """One play worth considering at a decision: its expected round points, and who chose it."""

    action: str
    points: float
    chosen_by: tuple[str, ...]  # "you" and/or level names

    def to_json(self) -> dict:
        return {"play": self.action, "expected_points": round(self.points, 3), "chosen_by": list(self.chosen_by)}


@dataclass(frozen=True)
class MyDecision:
    """One of the person's plays with a choice."""

    number: int  # the action's index in the match
    situation: str  # "lead" or "upcards 8 8"
    hand: str
    played: str
    choices: tuple[Choice, ...]  # best first

    def to_json(self) -> dict:
        return {"action": self.number + 1, "situation": self.situation, "hand": self.hand, "played": self.played,
                "choices": [c.to_json() for c in self.choices]}


@dataclass(frozen=True)
class BeliefCheck:
    """A bot's belief at one of its decisions, scored against the hands then."""

    number: int
    player: int
    right: float  # share of the other hands' cards the belief placed right
    method: str

    def to_json(self) -> dict:
        return {"action": self.number + 1, "player": self.player, "placed_right": round(self.right, 4),
                "method": self.method}


@dataclass(frozen=True)
class RoundReview:
    """A finished round, reviewed."""

    round: int
    names: tuple[str, ...]
    seats: tuple[str, ...]
    hands: tuple[str, ...]  # every hand when the play began
    places: tuple[int, ...]
    decisions: tuple[MyDecision, ...]
    forced: int  # the person's plays with no choice (not reviewed)
    beliefs: tuple[BeliefCheck, ...]
    worlds: int

    def to_json(self) -> dict:
        n = len(self.places)
        return {"round": self.round, "seats": [{"name": name, "bot": bot, "hand_at_start": hand, "place": place,
                                                "points": n - place}
                                               for name, bot, hand, place in zip(self.names, self.seats, self.hands,
                                                                                  self.places)],
                "worlds_per_choice": self.worlds, "decisions": [d.to_json() for d in self.decisions],
                "forced_plays": self.forced, "beliefs": [b.to_json() for b in self.beliefs]}

    def text(self, width: int = WIDTH) -> str:
        n = len(self.places)
        out = [f"Round {self.round}: you finished {_ordinal(self.places[0])} ({n - self.places[0]} points)", "",
               "Hands when the play began (all open):"]
        for name, hand, place in zip(self.names, self.hands, self.places):
            out += textwrap.wrap(f"{name:<5} {_ordinal(place):>4}  {hand}", width, subsequent_indent=" " * 12)
        out += ["", *textwrap.wrap(f"Your plays: expected round points of each choice ({self.worlds} worlds of "
                                   f"what you had seen, {PLAYOUT} playing on at every seat); levels' choices "
                                   "beside yours.", width), ""]
        for d in self.decisions:
            out += textwrap.wrap(f"#{d.number + 1} {d.situation} · hand {d.hand}", width, subsequent_indent="    ")
            best = d.choices[0].points
            for c in d.choices:
                mark = " ◀ best" if c.points >= best - 1e-9 else f" {c.points - best:+.2f}"
                who = ", ".join(c.chosen_by)
                out += textwrap.wrap(f"   {c.action:<10} {c.points:5.2f}{mark:<8} {who}", width,
                                     subsequent_indent=" " * 32)
        if not self.decisions:
            out.append("(no play of yours had a choice)")
        if self.forced:
            out.append(f"({self.forced} forced play{'s' if self.forced > 1 else ''} of yours not shown)")
        out += ["", "Bots' beliefs against the truth: cards placed right at each decision:"]
        for p in sorted({b.player for b in self.beliefs}):
            mine = [b.right for b in self.beliefs if b.player == p]
            head = f"{self.names[p]} ({_short(self.seats[p])}), mean {sum(mine) / len(mine):.0%}:"
            out += textwrap.wrap(head + " " + " ".join(f"{r:.0%}" for r in mine), width, subsequent_indent="   ")
        return "\n".join(out)


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _short(spec: str) -> str:
    return spec.split(":")[0] + (" search" if ":" in spec else "")


def level_bots() -> dict[str, list[str]]:
    """Each level's bot (its first opponent) -> the levels that seat it, in the levels' order."""
    out: dict[str, list[str]] = {}
    for level in LEVELS.values():
        out.setdefault(level.opponents[0], []).append(level.name)
    return out


def review_round(record: MatchRecord, round_no: int, rng: random.Random, worlds: int | None = None,
                 levels: bool = True, level_specs: dict[str, list[str]] | None = None) -> RoundReview:
    """Review round `round_no` (1-based) of `record`; a `MatchFileError` if it is not finished.
    `level_specs` (bot spec -> the levels it stands for) replaces the levels' own bots."""
    final = replay_all(record)
    if final.round_no < round_no:
        raise MatchFileError(f"round {round_no} is not finished in this match (finished: {final.round_no}): "
                             "only finished rounds are reviewed")
    places = tuple(final.round_log[round_no - 1])
    worlds = WORLDS if worlds is None else worlds
    specs = level_specs or level_bots()
    bots = {spec: (make_bot(spec), names) for spec, names in specs.items()} if levels else {}
    playout = make_bot(PLAYOUT)
    hands: tuple[str, ...] = ()
    mine: list[tuple[int, PresidentState]] = []
    checks: list[BeliefCheck] = []
    forced = 0
    for i, state, player, _ in replay(record):
        if state.round_no + 1 != round_no:
            if state.round_no + 1 > round_no:
                break
            continue
        if not hands and state.phase is Phase.PLAY:
            hands = tuple(" ".join(str(c) for c in state.hand(p)) or "-" for p in range(state.num_players))
        if i in record.beliefs:
            b = record.beliefs[i]
            right, total = placed_right(b, state.holdings())
            checks.append(BeliefCheck(i, player, right / total if total else 1.0, b.method))
        if player == 0 and state.phase is Phase.PLAY:
            if len(state.legal_actions()) > 1:
                mine.append((i, state.clone()))
            else:
                forced += 1
    decisions = tuple(_review_decision(i, state, record.actions[i][1], bots, playout, rng, worlds)
                      for i, state in mine)
    return RoundReview(round_no, record.names, record.seats, hands, places, decisions, forced, tuple(checks), worlds)


def _review_decision(i: int, state: PresidentState, played: str, bots: dict, playout, rng: random.Random,
                     worlds: int) -> MyDecision:
    legal = state.legal_actions()
    by: dict[str, list[str]] = {played: ["you"]}
    if not bots:  # no levels asked: every legal play is a choice to weigh
        for action in legal:
            by.setdefault(str(action), [])
    for bot, names in bots.values():
        action = decide(bot, state.observation(0), legal, random.Random(rng.getrandbits(64))).action
        by.setdefault(str(action), []).extend(names)
    points = expected_points(state, [state.parse_action(a) for a in by], playout, rng, worlds)
    choices = sorted((Choice(a, points[k], tuple(who)) for k, (a, who) in enumerate(by.items())),
                     key=lambda c: -c.points)
    situation = "lead" if state.upcards is None else f"upcards {state.upcards}"
    return MyDecision(i, situation, " ".join(str(c) for c in state.hand(0)), played, tuple(choices))


def expected_points(state: PresidentState, actions: list, playout, rng: random.Random, worlds: int) -> list[float]:
    """Seat 0's expected round points after each action: the same `worlds` worlds of its information
    (the inference chain) for every action, the round played on by `playout` at every seat."""
    root = state.observation(0).sample_state(rng).truncated()
    draw = chain_sampler(root, 0)
    n = state.num_players
    totals = [0.0] * len(actions)
    agents = [playout.choose] * n
    unasked = unasked_when_forced([playout]) * n
    for _ in range(worlds):
        world = draw(rng)
        seed = rng.getrandbits(64)
        for k, action in enumerate(actions):
            game = world.clone()
            game.apply(action)
            play_out(game, agents, random.Random(seed), unasked)
            totals[k] += n - game.round_log[-1][0]
    return [t / worlds for t in totals]
