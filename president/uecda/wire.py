"""The UECda wire format: 8x15 tables of big-endian unsigned 32-bit integers, and single integers.

A table is 480 bytes, an integer 4; both sides always read exactly the size
they expect (`read_exact`, bounded by the socket's timeout). Cards sit at
[row][column]: rows 0-3 are spades, hearts, diamonds, clubs; columns 1-13 are
the values 3, 4, ..., K, A, 2. In a hand the joker is [4][1] = 2; in a play a
joker is the value 2 at the cell of the card it stands for (a lone joker: any
one cell), a real card 1. Rows 5 and 6 carry the state (`state_rows`).
"""
from __future__ import annotations

import socket
import struct
from dataclasses import dataclass

from president.game.cards import JOKER, PASS, SUITS, Card, Play
from president.game.layout import Layout
from president.game.suited import LONE_JOKER, suited_play

ROWS, COLUMNS = 8, 15
TABLE_BYTES = ROWS * COLUMNS * 4
PROTOCOL_VERSION = 20070
DEFAULT_PORT = 42485
#: Table rows in the order the protocol gives suits, as letters of `president.game.cards.SUITS`.
ROW_SUITS = "shdc"
ACCEPTED, REJECTED = 9, 8  # the server's answer to a play
GOES_ON, GAME_OVER, ALL_OVER = 0, 1, 2  # the integer after each turn's field table
_FORMAT = ">" + "I" * (ROWS * COLUMNS)

Table = list  # ROWS lists of COLUMNS ints


class ProtocolError(Exception):
    """A peer sent something the protocol does not allow, or the connection broke."""


@dataclass(frozen=True)
class Malformed:
    """A move table that is no play at all, with the reason (the server logs it and answers 8)."""

    reason: str


def empty() -> Table:
    return [[0] * COLUMNS for _ in range(ROWS)]


def pack(table: Table) -> bytes:
    return struct.pack(_FORMAT, *(v & 0xFFFFFFFF for row in table for v in row))


def unpack(data: bytes) -> Table:
    if len(data) != TABLE_BYTES:
        raise ProtocolError(f"a table is {TABLE_BYTES} bytes, not {len(data)}")
    flat = struct.unpack(_FORMAT, data)
    return [list(flat[r * COLUMNS:(r + 1) * COLUMNS]) for r in range(ROWS)]


def read_exact(sock: socket.socket, size: int) -> bytes:
    """Exactly `size` bytes; `ProtocolError` if the peer closes first (a timeout raises `TimeoutError`)."""
    chunks, got = [], 0
    while got < size:
        chunk = sock.recv(size - got)
        if not chunk:
            raise ProtocolError(f"the connection closed after {got} of {size} bytes")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_table(sock: socket.socket) -> Table:
    return unpack(read_exact(sock, TABLE_BYTES))


def read_int(sock: socket.socket) -> int:
    return struct.unpack(">I", read_exact(sock, 4))[0]


def send_table(sock: socket.socket, table: Table) -> None:
    sock.sendall(pack(table))  # one write: clients read a table with one read


def send_int(sock: socket.socket, value: int) -> None:
    sock.sendall(struct.pack(">I", value & 0xFFFFFFFF))


def cell(card: Card) -> tuple[int, int]:
    """The [row][column] of a card."""
    return ROW_SUITS.index(card.suit), card.value - 2


def card_at(row: int, column: int) -> Card:
    return Card(column + 2, ROW_SUITS[row])


def hand_table(lay: Layout, mask: int) -> Table:
    """A hand: 1 at each card, the joker as [4][1] = 2."""
    table = empty()
    for card in lay.card_list(mask):
        if card.value == JOKER:
            table[4][1] = 2
        else:
            r, c = cell(card)
            table[r][c] = 1
    return table


def hand_mask(lay: Layout, table: Table) -> int:
    """The mask of the cards a hand table shows (anything but 0 counts as held)."""
    mask = 0
    for r in range(4):
        for c in range(1, 14):
            if table[r][c]:
                mask |= lay.bit(card_at(r, c))
    if table[4][1] and lay.jokers:
        mask |= lay.bit(Card(JOKER, ""))
    return mask


def play_table(play: Play) -> Table:
    """A move (or a field): 1 at each real card, 2 where a joker stands; a lone joker at [0][14]."""
    table = empty()
    if play.is_pass:
        return table
    if play.value == JOKER:
        table[0][14] = 2
        return table
    for value, suit, wild in play.cells():
        r, c = cell(Card(value, suit))
        table[r][c] = 2 if wild else 1
    return table


def read_play(table: Table, field: bool = False) -> Play | Malformed:
    """The play a move table names in rows 0-3 (`PASS` if none), or why it names none. Whether the
    player holds it and may play it now is the engine's question.

    A `field` is what a server accepted: servers built on the competition's code accept a joker just
    below the 3 or above the 2 of a sequence (column 0 or 14). It reads as a sequence from the value
    2 or up to 16, which compares as it should (nothing answers it on its side of the order)."""
    cells = []
    for r in range(4):  # rows 4-7 carry no cards of a play (a field table has the state there)
        for c in range(COLUMNS):
            v = table[r][c]
            if not v:
                continue
            if v not in (1, 2):
                return Malformed(f"{v} at [{r}][{c}]: a cell holds 0, 1 (a card) or 2 (a joker)")
            cells.append((c, r, v == 2))
    if not cells:
        return PASS
    if len(cells) == 1 and cells[0][2]:
        return LONE_JOKER
    if any(c in (0, 14) and not (field and wild and len(cells) >= 3) for c, _, wild in cells):
        return Malformed("a card in column 0 or 14: values are columns 1-13")
    if sum(w for _, _, w in cells) > 1:
        return Malformed("two jokers: the pack has one")
    columns = {c for c, _, _ in cells}
    if len(columns) == 1:
        suits = sum(1 << SUITS.index(ROW_SUITS[r]) for _, r, _ in cells)
        wild = sum(1 << SUITS.index(ROW_SUITS[r]) for _, r, w in cells if w)
        return suited_play(cells[0][0] + 2, len(cells), wild.bit_count(), suits, False, wild)
    rows = {r for _, r, _ in cells}
    ordered = sorted(columns)
    if len(rows) != 1 or len(cells) < 3 or ordered != list(range(ordered[0], ordered[0] + len(cells))):
        return Malformed("neither cards of one value nor three or more consecutive cards of one suit")
    low = ordered[0]
    wild = sum(1 << (c - low) for c, _, w in cells if w)
    suit = 1 << SUITS.index(ROW_SUITS[cells[0][1]])
    return suited_play(low + 2, len(cells), wild.bit_count(), suit, True, wild)


def cards_of_table(lay: Layout, table: Table) -> int:
    """The real cards of a move or field table, as a mask (jokers as the pack's joker)."""
    mask = 0
    for r in range(4):
        for c in range(COLUMNS):
            v = table[r][c]
            if v == 1 and 1 <= c <= 13:
                mask |= lay.bit(card_at(r, c))
            elif v == 2 and lay.jokers:
                mask |= lay.bit(Card(JOKER, ""))
    return mask


@dataclass(frozen=True)
class TableState:
    """What rows 5 and 6 say (player numbers are seats at our server)."""

    exchange: bool = False
    to_give: int = 0
    your_turn: bool = False
    turn: int = 0
    field_empty: bool = True
    revolution: bool = False
    lock: bool = False
    counts: tuple[int, ...] = (0, 0, 0, 0, 0)
    classes: tuple[int, ...] = (0, 1, 2, 3, 4)
    seats: tuple[int, ...] = (0, 1, 2, 3, 4)

    def write(self, table: Table) -> Table:
        row5 = table[5]
        row5[0], row5[1], row5[2], row5[3] = int(self.exchange), self.to_give, int(self.your_turn), self.turn
        row5[4], row5[5], row5[6], row5[7] = int(self.field_empty), 0, int(self.revolution), int(self.lock)
        table[6][0:5] = list(self.counts)
        table[6][5:10] = list(self.classes)
        table[6][10:15] = list(self.seats)
        return table

    @classmethod
    def read(cls, table: Table) -> "TableState":
        r5, r6 = table[5], table[6]
        return cls(bool(r5[0]), r5[1], r5[2] == 1, r5[3], bool(r5[4]), bool(r5[6]), bool(r5[7]),
                   tuple(r6[0:5]), tuple(r6[5:10]), tuple(r6[10:15]))
