"""The seats of a UECda table: remote clients over TCP, or our own agents, and what a lost remote becomes.

A remote seat speaks through `Remote`, whose every read is bounded by a
timeout; any failure (a stall, a closed connection, a table that breaks the
stream) raises `SeatLost`, and the server hands the seat to a stand-in agent.
"""
from __future__ import annotations

import socket
import time
from dataclasses import dataclass, field

from recycle.kernel.protocol import Agent

from president.uecda import wire

REMOTE = "remote"  # the seat spec of a network client


class SeatLost(Exception):
    """A remote client can no longer play: the reason is the message."""


@dataclass
class Remote:
    """One connected client: its socket, player number and the name it sent."""

    sock: socket.socket
    number: int
    name: str
    timeout: float

    def send_table(self, table: wire.Table) -> None:
        self._guard(lambda: wire.send_table(self.sock, table), "sending a table")

    def send_int(self, value: int) -> None:
        self._guard(lambda: wire.send_int(self.sock, value), "sending an integer")

    def read_table(self) -> wire.Table:
        return self._guard(lambda: wire.read_table(self.sock), "waiting for a table")

    def _guard(self, step, doing: str):
        self.sock.settimeout(self.timeout)
        try:
            return step()
        except TimeoutError:
            raise SeatLost(f"stalled past {self.timeout:g} s {doing}") from None
        except (OSError, wire.ProtocolError) as exc:
            raise SeatLost(f"connection lost {doing}: {exc}") from None

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


@dataclass
class Seat:
    """A seat of the table: a remote client, an agent, or a remote replaced by an agent."""

    spec: str
    agent: Agent | None = None
    remote: Remote | None = None
    lost: str = ""  # why the remote lost its seat
    events: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        if self.spec != REMOTE:
            return self.spec
        return (self.remote.name if self.remote else "remote") + (" (lost)" if self.lost else "")


def profile_name(table: wire.Table) -> str:
    """The name a client sent in row 1 of its profile (printable ASCII only, at most 15 characters)."""
    chars = []
    for v in table[1]:
        if v == 0:
            break
        chars.append(chr(v) if 32 <= v < 127 else "?")
    return "".join(chars).strip() or "client"


def accept_remotes(listener: socket.socket, count: int, timeout: float, join_timeout: float,
                   log) -> list[Remote]:
    """Accept `count` clients in connection order (player numbers are given by the caller in that
    order); a connection whose profile is not a UECda profile is logged and closed. Raises `SeatLost`
    when not enough join within `join_timeout` seconds."""
    remotes: list[Remote] = []
    deadline = time.monotonic() + join_timeout
    while len(remotes) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SeatLost(f"only {len(remotes)} of {count} client(s) joined within {join_timeout:g} s")
        listener.settimeout(left)
        try:
            sock, address = listener.accept()
        except TimeoutError:
            continue
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        remote = Remote(sock, -1, "client", min(timeout, max(left, 0.1)))
        try:
            profile = remote.read_table()
        except SeatLost as exc:
            log(f"a client from {address[0]} did not join: {exc}")
            remote.close()
            continue
        if profile[0][0] != wire.PROTOCOL_VERSION:
            log(f"a client from {address[0]} sent protocol {profile[0][0]}, not {wire.PROTOCOL_VERSION}: closed")
            remote.close()
            continue
        remote.name, remote.timeout = profile_name(profile), timeout
        remotes.append(remote)
    return remotes
