"""The leak audit: what is done or written for a seat depends only on what that seat can see.

For positions of a game, a *pair*: the true state A and a world B drawn from the seat's own
observation (`A.observation(seat).sample_state(rng)`), so the seat cannot tell them apart
(their observations are equal) while they differ in hidden information (other hands, face-down
or undealt cards, gifts). Every agent is then asked, with the same seed, to decide for the seat
in A and in B; these must be identical in both:

- the decision (`choose`), the explanation (`explain`, as text: timings left out) and the belief
  it reports about the others' hands (`Decision.belief`);
- the options the seat is offered (their texts);
- the text written for the seat (its observation as printed; a game may give more, e.g.
  President adds the round's history as the seat reads it). What the seat learns after its
  move (a card it draws) may differ: that is the game revealing it, so it is not compared.

A cheating agent (`mcts`, it reads the true state) is the control: it must differ on some pair,
or the audit could not see a difference at all. A pair whose two observations differ is the
game's own fault (its `sample_state` gave a world the seat can tell apart) and is reported as such.

Games and agents are known only through the protocol (`recycle.kernel.protocol`): a `AuditSubject`
says how to start a game, make an agent from a spec, and what the whole state is.
`assert_same_for_seat` is the text check, for screens and files written for a seat.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterator, Sequence

from recycle.kernel.protocol import Agent, ExplainingAgent, GameError, GameState, trace_json

#: Bound on the moves of one random game played to find positions (a game that loops is not audited forever).
MAX_MOVES = 5000
#: Random games played to find positions.
MAX_GAMES = 50
#: Draws of a world per position before giving up finding one that differs in hidden information.
TRIES = 4
#: Positions taken from one game before the next (spread over the game), and positions looked at per pair.
PER_GAME, LOOK = 4, 20
#: Keys of an explanation that measure the machine, not the decision (and any `..._per_second`).
VOLATILE = frozenset({"seconds", "elapsed", "time"})


class SeatLeak(AssertionError):
    """Two texts written for one seat, from states it cannot tell apart, differ."""


@dataclass(frozen=True)
class AuditSubject:
    """A game as the audit sees it.

    `new_state(seed)` starts a game; `make_agent(spec)` makes a fresh agent; `whole(state)` is
    everything of a state, hidden cards included (two worlds differ in hidden information when
    it differs); `seat_text(state, seat)` is what is written for the seat (default: its
    observation, printed). The game's observations must compare equal exactly when the seat
    cannot tell the states apart (`__eq__`), as President's, RECYCLE's and Tides' do.
    """

    name: str
    new_state: Callable[[int], GameState]
    make_agent: Callable[[str], Agent]
    whole: Callable[[GameState], Hashable]
    seat_text: Callable[[GameState, int], str] = field(default=lambda state, seat: repr(state.observation(seat)))


@dataclass(frozen=True)
class Pair:
    """Two states the seat cannot tell apart (`b` drawn from `a`'s observation), at position `index`."""

    index: int
    seat: int
    a: GameState
    b: GameState


@dataclass(frozen=True)
class PairDifference:
    """One thing that differs between the two states of a pair: `what` (decision, explanation,
    options, seat text, observation) of `agent` ('' for the game's own)."""

    agent: str
    what: str
    pair: int
    seat: int
    a: str
    b: str

    def __str__(self) -> str:
        who = f"{self.agent}: " if self.agent else ""
        if self.a == self.b:
            return f"pair {self.pair} (seat {self.seat}): {who}{self.what} in both states\n  {self.a}"
        return f"pair {self.pair} (seat {self.seat}): {who}{self.what} differs\n{first_difference(self.a, self.b)}"


@dataclass(frozen=True)
class AuditReport:
    """What one audit of one game found."""

    game: str
    agents: tuple[str, ...]
    controls: tuple[str, ...]  # the cheating agents among them
    pairs: int
    decisions: int  # decisions compared: one per agent, pair and side (choose and explain each count)
    differences: tuple[PairDifference, ...]

    @property
    def leaks(self) -> tuple[PairDifference, ...]:
        """Differences that are not the control's: each is a leak (of an agent, or of the game)."""
        return tuple(d for d in self.differences if d.agent not in self.controls)

    def control_differed(self, agent: str) -> bool:
        return any(d.agent == agent for d in self.differences)

    def summary(self) -> list[str]:
        lines = [f"{self.game}: {self.pairs} pairs, {len(self.agents)} agents, {self.decisions} decisions "
                 f"compared, {len(self.leaks)} difference(s) found"]
        if not self.pairs:
            lines.append("  no pair: nothing was hidden from the mover at the positions looked at")
        for agent in self.controls if self.pairs else ():
            seen = sum(1 for d in self.differences if d.agent == agent)
            lines.append(f"  control {agent}: {'differed on ' + str(seen) if seen else 'NEVER differed'} "
                         f"({'the audit can see a difference' if seen else 'the audit may be blind'})")
        if self.leaks:
            lines.append("first difference: " + str(self.leaks[0]))
        return lines

    def to_json(self) -> dict:
        return {"game": self.game, "agents": list(self.agents), "controls": list(self.controls),
                "pairs": self.pairs, "decisions": self.decisions,
                "differences": [{"agent": d.agent, "what": d.what, "pair": d.pair, "seat": d.seat,
                                 "a": d.a, "b": d.b} for d in self.differences]}


# ---- texts -------------------------------------------------------------------------------------
def first_difference(a: str, b: str) -> str:
    """Where two texts first differ, readably: the line number, both lines, a caret under the column."""
    la, lb = a.splitlines() or [""], b.splitlines() or [""]
    for n in range(max(len(la), len(lb))):
        x = la[n] if n < len(la) else "<no line>"
        y = lb[n] if n < len(lb) else "<no line>"
        if x != y:
            col = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            start = max(0, col - 60)
            return (f"  line {n + 1}, column {col + 1}:\n    A: {x[start:start + 120]}\n"
                    f"    B: {y[start:start + 120]}\n       {' ' * (col - start)}^")
    return "  (no difference)"


def assert_same_for_seat(render_a: str, render_b: str, what: str = "text") -> None:
    """Raise `SeatLeak` naming the first difference when two renderings written for one seat, from
    states it cannot tell apart, differ. For any screen or file: render it from A and from B (e.g.
    the pair of `pairs_of`), and pass both texts here."""
    if render_a != render_b:
        raise SeatLeak(f"{what} differs between two states the seat cannot tell apart\n"
                       f"{first_difference(render_a, render_b)}")


def explanation_text(trace: Any) -> str:
    """An explanation as comparable text: its JSON form, without what measures the machine (time)."""
    return json.dumps(_steady(trace_json(trace)), sort_keys=True, default=str)


def _steady(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in value.items() if k not in VOLATILE and not k.endswith("per_second")}
    if isinstance(value, (list, tuple)):
        return [_steady(v) for v in value]
    return value


# ---- pairs -------------------------------------------------------------------------------------
def positions(subject: AuditSubject, seed: int) -> Iterator[GameState]:
    """Decision positions with two or more options, from random games from `seed` on: each game's
    positions in an order spread from early to late (first, middle, quarters, ...), then the next
    game (at most `MAX_GAMES` games: a game whose every decision is forced has none)."""
    for game_seed in range(seed, seed + MAX_GAMES):
        state, rng, here = subject.new_state(game_seed), random.Random(f"audit/{game_seed}"), []
        for _ in range(MAX_MOVES):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if len(legal) > 1:
                here.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])
        yield from (here[i] for i in _spread(len(here)))


def _spread(n: int) -> list[int]:
    """0..n-1 in an order that visits a game early, late and in between before its neighbours."""
    order, seen, parts = [0] if n else [], {0}, 1  # the start first: the most is hidden there
    while len(order) < n:
        for k in range(parts):
            i = (2 * k + 1) * n // (2 * parts)
            if i not in seen:
                seen.add(i)
                order.append(i)
        parts *= 2
    return order[:PER_GAME]


def pairs_of(subject: AuditSubject, count: int, seed: int) -> tuple[list[Pair], list[PairDifference]]:
    """`count` pairs (fewer if `count * LOOK` positions hold no hidden information), and the
    positions where the seat's own sample is a world it can tell apart (the game's fault)."""
    pairs: list[Pair] = []
    faults: list[PairDifference] = []
    for index, a in enumerate(positions(subject, seed)):
        if len(pairs) >= count or index >= count * LOOK:
            break
        seat = a.current_player()
        for attempt in range(TRIES):
            b = a.observation(seat).sample_state(random.Random(f"audit/{seed}/{index}/{attempt}"))
            if a.observation(seat) != b.observation(seat):
                faults.append(PairDifference("", "observation", index, seat, repr(a.observation(seat)),
                                             repr(b.observation(seat))))
                break
            if subject.whole(a) != subject.whole(b):
                pairs.append(Pair(index, seat, a, b))
                break
    return pairs, faults


# ---- the audit ---------------------------------------------------------------------------------
def is_cheating(agent: Agent) -> bool:
    """A labelled cheating baseline (it reads the true state)."""
    return bool(getattr(agent, "cheating", False))


def compare_game(subject: AuditSubject, pair: Pair) -> list[PairDifference]:
    """What the game itself gives the seat in both states: its options (when it moves), and its text."""
    out = []
    opts = [[str(o) for o in s.legal_actions()] if s.current_player() == pair.seat else [] for s in (pair.a, pair.b)]
    if opts[0] != opts[1]:
        out.append(PairDifference("", "options", pair.index, pair.seat, "\n".join(opts[0]), "\n".join(opts[1])))
    texts = [subject.seat_text(s, pair.seat) for s in (pair.a, pair.b)]
    if texts[0] != texts[1]:
        out.append(PairDifference("", "seat text", pair.index, pair.seat, texts[0], texts[1]))
    return out


def compare_agent(subject: AuditSubject, spec: str, pair: Pair, seed: int) -> tuple[list[PairDifference], int]:
    """(differences, decisions compared) of one agent on one pair: fresh agents, the same seed on both sides."""
    got: dict[str, list[str]] = {"decision": [], "explanation": [], "belief": []}
    decisions = 0
    for state in (pair.a, pair.b):
        agent = subject.make_agent(spec)
        got["decision"].append(_asked(lambda: str(agent.choose(state.observation(pair.seat), state.legal_actions(),
                                                               random.Random(seed)))))
        decisions += 1
        explainer = subject.make_agent(spec)
        if isinstance(explainer, ExplainingAgent):
            answer = _asked(lambda: explainer.explain(state.observation(pair.seat), state.legal_actions(),
                                                      random.Random(seed)))
            failed = isinstance(answer, str)
            got["explanation"].append(answer if failed else _explained(answer))
            got["belief"].append(answer if failed else belief_text(answer.belief))
            decisions += 1
    out = [PairDifference(spec, what, pair.index, pair.seat, texts[0], texts[1])
           for what, texts in got.items() if len(texts) == 2 and texts[0] != texts[1]]
    errors = [t for texts in got.values() for t in texts if t.startswith(FAILED)]
    if errors and not out:  # failing alike in both states is still a failure to report
        out.append(PairDifference(spec, "error", pair.index, pair.seat, errors[0], errors[-1]))
    return out, decisions


#: How a game error raised while an agent decides is written in its place.
FAILED = "error: "


def _asked(question: Callable[[], Any]) -> Any:
    """The answer, or the game error the agent ran into (a world whose options are not the real ones)."""
    try:
        return question()
    except GameError as exc:
        return f"{FAILED}{type(exc).__name__}: {exc}"


def belief_text(belief: Any) -> str:
    """An agent's belief about the others (`recycle.kernel.beliefs`) as compared: its JSON, or "" for none.
    A belief about the others tells what the believer holds; it must tell nothing the seat cannot see."""
    return "" if belief is None else json.dumps(belief.to_json(), sort_keys=True)


def _explained(decision) -> str:
    return f"{decision.action}\n{explanation_text(decision.trace)}"


def audit(subject: AuditSubject, specs: Sequence[str], pairs: int = 6, seed: int = 0,
          on_pair: Callable[[int, int], None] | None = None) -> AuditReport:
    """Every agent of `specs` on `pairs` pairs of `subject`'s states; `on_pair(done, total)` after each pair.

    An agent's differences on a pair after the first of the same kind are still counted: the
    report keeps them all, in order (the first is shown)."""
    controls = tuple(s for s in specs if is_cheating(subject.make_agent(s)))
    found, faults = pairs_of(subject, pairs, seed)
    differences: list[PairDifference] = list(faults)
    decisions = 0
    for done, pair in enumerate(found, 1):
        differences += compare_game(subject, pair)
        for spec in specs:
            diffs, n = compare_agent(subject, spec, pair, seed + pair.index)
            differences += diffs
            decisions += n
        if on_pair is not None:
            on_pair(done, len(found))
    return AuditReport(subject.name, tuple(specs), controls, len(found), decisions, tuple(differences))
