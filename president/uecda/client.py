"""A UECda client: one of our agents plays on any UECda server.

The client keeps what it has seen of the game (the cards played, who passed
in this trick, who went out) and, when asked to move, builds an engine state
of the `uecda` preset in which its own hand is exact and the unseen cards are
dealt to the others by their counts (`position`). Its agent sees only that
state's observation, so what it may not know stays hidden; a search agent
re-deals the unseen cards itself.
"""
from __future__ import annotations

import random
import socket
from dataclasses import dataclass, field, replace

from recycle.kernel.protocol import Agent

from president.game.cards import JOKER, Give, Play
from president.game.layout import layout
from president.game.settings import Settings, preset
from president.game.state import Phase, PresidentState
from president.uecda import wire


@dataclass
class Seen:
    """What this client has seen of the current game (player numbers as the server gives them)."""

    played: int = 0  # cards played this game
    upcards: Play | None = None  # None on an empty field
    last: int = -1  # who played them
    passed: set[int] = field(default_factory=set)  # who sat out this trick
    out: list[int] = field(default_factory=list)  # who emptied their hand, in order


def position(settings: Settings, me: int, hand: int, rows: wire.TableState, seen: Seen,
             rng: random.Random) -> PresidentState:
    """An engine state of one game in which I (`me`) am to play holding `hand`."""
    settings = replace(settings, rounds=1, target_score=0)
    state = PresidentState.new_match(settings, rng.getrandbits(63))
    lay, n = state.lay, settings.players
    seat_of = {player: s for s, player in enumerate(rows.seats)} if sorted(rows.seats) == list(range(n)) \
        else {p: p for p in range(n)}
    sizes = [0] * n
    for player in range(n):
        sizes[seat_of[player]] = rows.counts[player]
    mine = seat_of[me]
    sizes[mine] = hand.bit_count()
    played = seen.played & ~hand
    unseen = [b for b in range(lay.full.bit_length()) if (lay.full & ~hand & ~played) >> b & 1]
    rng.shuffle(unseen)
    wanted = sum(sizes) - sizes[mine]
    while len(unseen) > wanted:  # cards we missed seeing played
        played |= 1 << unseen.pop()
    masks = [0] * n
    masks[mine] = hand
    for s in range(n):
        if s != mine:
            for b in unseen[:sizes[s]]:
                masks[s] |= 1 << b
            del unseen[:sizes[s]]
            sizes[s] = masks[s].bit_count()
    state.masks, state.counts, state.sizes = masks, [lay.counts(m) for m in masks], sizes
    state.played, state.played_counts = played, lay.counts(played)
    state.phase, state.current, state.pending, state.history = Phase.PLAY, mine, [], []
    # the fresh match's own facts are not this game's: its opening (who holds the 3 of diamonds),
    # gifts and bounds would tell a search player's dealer of cards no one holds here
    state.gifts, state.bounds, state.known_public = [], [], []
    state.upcards = seen.upcards
    state.last_player = seat_of.get(seen.last, -1) if seen.upcards is not None else -1
    state.declined = sum(1 << seat_of[p] for p in seen.passed if p in seat_of)
    state.reversed = rows.revolution
    state.lock = seen.upcards.suits if rows.lock and seen.upcards is not None else 0
    out = [seat_of[p] for p in seen.out if p in seat_of] + [s for s in range(n) if not sizes[s] and s != mine]
    out = list(dict.fromkeys(out))
    state.out = sum(1 << s for s in out)
    state.places = [0] * n
    for place, s in enumerate(out, start=1):
        state.places[s] = place
    state.best_free, state.worst_free = len(out) + 1, n
    state.first_leader = mine
    return state


class UecdaClient:
    """Plays a whole UECda session with `agent`; `timeout` bounds every wait for the server."""

    def __init__(self, agent: Agent, settings: Settings | None = None, *, name: str = "president",
                 seed: int = 0, timeout: float = 600.0, log=lambda line: None) -> None:
        self.agent, self.settings = agent, settings or preset("uecda")
        self.name, self.timeout, self.log = name, timeout, log
        self.rng = random.Random(seed)
        self.lay = layout(self.settings.decks, self.settings.jokers)
        self.games = 0
        self.refused = 0

    def run(self, host: str, port: int) -> int:
        """Join, play until the server says all games are over; the number of games played."""
        sock = socket.create_connection((host, port), timeout=self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.settimeout(self.timeout)
        try:
            profile = wire.empty()
            profile[0][0] = wire.PROTOCOL_VERSION
            for i, ch in enumerate(self.name.encode("ascii", "replace")[:15]):
                profile[1][i] = ch
            wire.send_table(sock, profile)
            me = wire.read_int(sock)
            self.log(f"joined as player {me}")
            while self._game(sock, me):
                pass
        finally:
            sock.close()
        return self.games

    def _game(self, sock: socket.socket, me: int) -> bool:
        """One game; False once the server says all games are over."""
        start = wire.read_table(sock)
        rows = wire.TableState.read(start)
        if 0 < rows.to_give < 100:
            wire.send_table(sock, self._gift(me, wire.hand_mask(self.lay, start), rows))
        seen = Seen()
        while True:
            table = wire.read_table(sock)
            rows = wire.TableState.read(table)
            if rows.field_empty:  # a new trick (after an 8-cut, or everyone passed)
                seen.upcards, seen.last, seen.passed = None, -1, set()
            if rows.your_turn:
                play = self._choose(me, wire.hand_mask(self.lay, table), rows, seen)
                wire.send_table(sock, wire.play_table(play))
                # A pass is never refused, but servers built on the competition's answer it 8
                # like a refused play (their 9 means cards were accepted): only a refused play counts.
                if wire.read_int(sock) != wire.ACCEPTED and not play.is_pass:
                    self.refused += 1
                    self.log(f"the server refused {play}")
            self._see(seen, wire.read_table(sock))
            flag = wire.read_int(sock)
            if flag != wire.GOES_ON:
                self.games += 1
                return flag == wire.GAME_OVER

    def _see(self, seen: Seen, table: wire.Table) -> None:
        rows = wire.TableState.read(table)
        mover = rows.turn
        shown = wire.read_play(table, field=True)
        if isinstance(shown, wire.Malformed):
            self.log(f"a field table names no play ({shown.reason}): taken as the end of the trick")
        if isinstance(shown, wire.Malformed) or shown.is_pass:  # the trick is over
            seen.upcards, seen.last, seen.passed = None, -1, set()
        elif shown == seen.upcards and mover != seen.last:
            seen.passed.add(mover)  # the same field again: the mover passed
        else:
            seen.played |= wire.cards_of_table(self.lay, table)
            seen.upcards, seen.last = shown, mover
        for player, count in enumerate(rows.counts):
            if count == 0 and player not in seen.out:
                seen.out.append(player)

    def _choose(self, me: int, hand: int, rows: wire.TableState, seen: Seen) -> Play:
        state = position(self.settings, me, hand, rows, seen, self.rng)
        legal = state.legal_actions()
        return self.agent.choose(state.observation(state.current), legal, self.rng)

    def _gift(self, me: int, hand: int, rows: wire.TableState) -> wire.Table:
        """The cards to give in the exchange, chosen by the agent as a `Give` of values."""
        state = position(self.settings, me, hand, replace(rows, counts=tuple(
            hand.bit_count() if p == me else c for p, c in enumerate(rows.counts))), Seen(), self.rng)
        receiver = rows.classes.index(4 - rows.classes[me]) if (4 - rows.classes[me]) in rows.classes else me
        state.phase, state.pending = Phase.EXCHANGE, [(state.current, receiver, rows.to_give)]
        give = self.agent.choose(state.observation(state.current), state.legal_actions(), self.rng)
        chosen, mask = 0, hand
        for value in (give.values if isinstance(give, Give) else ()):
            bit = self.lay.take(mask & ~chosen, value, 1)
            chosen |= bit
        table = wire.empty()
        for card in self.lay.card_list(chosen):
            if card.value == JOKER:
                table[0][14] = 2  # never given by a sane agent; kept legal on the wire
            else:
                r, c = wire.cell(card)
                table[r][c] = 1
        return table
