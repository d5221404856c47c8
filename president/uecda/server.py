"""A UECda server: one match of the engine's `uecda` preset, any mix of remote clients and our agents.

The order of messages, for every game (a round of the engine):
1. every remote gets its hand with the state rows, the exchange flag set and
   the number of cards it must give (the lower classes' strongest cards have
   already moved: the engine's forced gifts);
2. the daifugo, then the fugo, send the cards they give;
3. each turn every remote gets its hand and the state ("your turn" set for
   one), the player to move sends a play and hears 9 (accepted) or 8 (refused:
   a pass, or its lowest play if it leads), then every remote gets the field
   and 0 (the game goes on), 1 (this game is over) or 2 (all are over).
A remote that stalls, disconnects or breaks the stream loses its seat to a
stand-in agent, with the reason logged; nothing waits longer than a timeout.
"""
from __future__ import annotations

import json
import random
import socket
from dataclasses import dataclass, field, replace
from typing import Callable, TextIO

from recycle.kernel.protocol import Agent, IllegalAction

from president.game.cards import PASS, Give, Play
from president.game.exchange import legal_gifts
from president.game.settings import Settings
from president.match.simulate import SeatStats
from president.game.state import Phase, PresidentState
from president.uecda import wire
from president.uecda.seats import REMOTE, Remote, Seat, SeatLost, accept_remotes


@dataclass
class ServerResult:
    """Per seat: places, points (the table's own, 5..1 at UECda) and what happened to remotes."""

    games: int
    seats: list[Seat]
    stats: list[SeatStats]
    events: list[str] = field(default_factory=list)


class UecdaServer:
    """One match over a listening socket. `make_agent(spec)` builds our agents (and the stand-in)."""

    def __init__(self, settings: Settings, specs: list[str], games: int, seed: int,
                 make_agent: Callable[[str], Agent], *, timeout: float = 10.0, join_timeout: float = 60.0,
                 stand_in: str = "Classic", log: Callable[[str], None] = lambda line: None,
                 record: TextIO | None = None) -> None:
        self.settings = replace(settings, rounds=games, target_score=0)
        self.seats = [Seat(spec, None if spec == REMOTE else make_agent(spec)) for spec in specs]
        self.games, self.seed, self.make_agent = games, seed, make_agent
        self.timeout, self.join_timeout, self.stand_in = timeout, join_timeout, stand_in
        self._log, self.record = log, record
        self.events: list[str] = []
        self._game_events: list[str] = []
        self.rng = random.Random(seed ^ 0x0EC0A)

    # ---- the match ------------------------------------------------------
    def run(self, listener: socket.socket) -> ServerResult:
        wanted = [i for i, s in enumerate(self.seats) if s.spec == REMOTE]
        for number, remote in zip(wanted, accept_remotes(listener, len(wanted), self.timeout,
                                                          self.join_timeout, self.log)):
            remote.number = number
            self.seats[number].remote = remote
            self.log(f"player {number}: {remote.name} joined")
            self._send(number, lambda r: r.send_int(number))
        state = PresidentState.new_match(self.settings, self.seed)
        n = state.num_players
        stats = [SeatStats(s.name, [0] * n) for s in self.seats]
        while not state.is_terminal():
            game = state.round_no
            moves: list[list] = []
            self._deal(state)
            while state.phase is Phase.EXCHANGE:
                self._exchange(state)
            hands = [" ".join(map(str, state.hand(p))) for p in range(n)]
            while state.round_no == game and not state.is_terminal():
                moves.append(self._turn(state))
            places = state.round_log[-1]
            for p, place in enumerate(places):
                points = n - place + self.settings.last_place_points
                stats[p].places[place - 1] += 1
                stats[p].points += points
                stats[p].points_sq += points * points
            if self.record:
                self.record.write(json.dumps({"game": game + 1, "hands": hands, "moves": moves,
                                              "places": list(places), "events": self._game_events}) + "\n")
                self.record.flush()
            self._game_events = []
        for seat, s in zip(self.seats, stats):
            s.name = seat.name
            if seat.remote and not seat.lost:
                seat.remote.close()
        return ServerResult(self.games, self.seats, stats, self.events)

    def log(self, line: str) -> None:
        self.events.append(line)
        self._game_events = self._game_events + [line]
        self._log(line)

    # ---- messages -------------------------------------------------------
    def _send(self, p: int, step) -> bool:
        """Run `step(remote)` for seat p if a remote still holds it; a failure loses the seat."""
        seat = self.seats[p]
        if seat.remote is None or seat.lost:
            return False
        try:
            step(seat.remote)
            return True
        except SeatLost as exc:
            self._lose(p, str(exc))
            return False

    def _lose(self, p: int, reason: str) -> None:
        seat = self.seats[p]
        seat.lost = reason
        seat.remote.close()
        seat.agent = self.make_agent(self.stand_in)
        self.log(f"player {p} ({seat.remote.name}) lost its seat: {reason}; {self.stand_in} plays it on")

    def _rows(self, state: PresidentState, p: int, **extra) -> wire.TableState:
        n = state.num_players
        prev = state.prev_places
        classes = (0,) * n if prev is None else tuple(place - 1 for place in prev)  # the first game: all 0
        rows = wire.TableState(turn=state.current, field_empty=state.upcards is None,
                               revolution=state.reversed, lock=bool(state.lock), counts=tuple(state.sizes),
                               classes=classes, seats=tuple(range(n)))
        return replace(rows, **extra)

    def _deal(self, state: PresidentState) -> None:
        # As the competition's server: 2 - class (2, 1, 0, -1, -2 as unsigned) after the first game, else 0.
        first = state.prev_places is None
        for p in range(state.num_players):
            rows = self._rows(state, p, exchange=True, turn=6, to_give=0 if first else 3 - state.prev_places[p])
            self._send(p, lambda r: r.send_table(rows.write(wire.hand_table(state.lay, state.masks[p]))))

    def _exchange(self, state: PresidentState) -> None:
        giver, _, count = state.pending[0]
        gift = None
        if self._send(giver, lambda r: None):
            try:
                table = self.seats[giver].remote.read_table()
                gift = self._read_gift(state, giver, count, table)
            except SeatLost as exc:
                self._lose(giver, str(exc))
        if gift is None and not self.seats[giver].lost and self.seats[giver].remote is not None:
            gift = legal_gifts(state)[0]
        if gift is None:
            gift = self._ask(state, giver)
        state.apply(gift)

    def _read_gift(self, state: PresidentState, giver: int, count: int, table: wire.Table) -> Give | None:
        mask = wire.cards_of_table(state.lay, table)
        if mask & ~state.masks[giver] or mask.bit_count() != count:
            self.log(f"player {giver} gave cards it does not hold or not {count}: its lowest go instead")
            return None
        return Give(tuple(sorted(c.value for c in state.lay.card_list(mask))))

    def _ask(self, state: PresidentState, p: int):
        return self.seats[p].agent.choose(state.observation(p), state.legal_actions(), self.rng)

    def _turn(self, state: PresidentState) -> list:
        p = state.current
        for q in range(state.num_players):
            rows = self._rows(state, q, your_turn=q == p)
            self._send(q, lambda r: r.send_table(rows.write(wire.hand_table(state.lay, state.masks[q]))))
        play = None
        if self._send(p, lambda r: None):
            try:
                play = self._read_move(state, p)
            except SeatLost as exc:
                self._lose(p, str(exc))
        if play is None:
            play = self._ask(state, p)
        game, before = state.round_no, state.upcards
        state.apply(play)
        # The field shows the play, or after a pass what it passed on (even if that pass ended the trick:
        # the next hand table says the field is empty), as the competition's server sends it.
        field = wire.play_table(before if play.is_pass else play)
        rows = self._rows(state, p, turn=p)
        flag = wire.ALL_OVER if state.is_terminal() else wire.GAME_OVER if state.round_no != game else wire.GOES_ON
        for q in range(state.num_players):
            self._send(q, lambda r: (r.send_table(rows.write(field)), r.send_int(flag)))
        return [p, str(play)]

    def _read_move(self, state: PresidentState, p: int) -> Play:
        remote: Remote = self.seats[p].remote
        play = wire.read_play(remote.read_table())
        if isinstance(play, wire.Malformed) or not state.is_legal(play):
            reason = play.reason if isinstance(play, wire.Malformed) else _why_not(state, play)
            play = PASS if state.upcards is not None else state.legal_actions()[0]
            self.log(f"player {p} ({remote.name}): refused, {reason}; it plays {play}")
            remote.send_int(wire.REJECTED)
            return play
        remote.send_int(wire.ACCEPTED)
        return play


def _why_not(state: PresidentState, play: Play) -> str:
    """The rule an illegal play breaks, in the engine's words."""
    try:
        state.check_play(play)
    except IllegalAction as exc:
        return f"{play}: {exc}"
    return f"{play} is not legal now"
