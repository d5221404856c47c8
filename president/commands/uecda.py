"""`president uecda-server` and `president uecda-client`: our bots at UECda tables (docs/uecda.md)."""
from __future__ import annotations

import argparse
import socket
import sys

from rich.table import Table

from recycle.cli.arguments import GAMES, FloatRange, IntRange, RunError, UsageError, output_file
from recycle.kernel.specs import split_specs
from recycle.kernel.tables import add_name_column

from president.agents.bots import make_bot
from president.game.observation import ordinal
from president.cli.common import add_seed_option, err_console, print_table, rules_dirs, seed_of

PORT = IntRange(0, 65535)
SECONDS = FloatRange(0.0, 86_400.0, open_low=True)


def add_parser(sub: argparse._SubParsersAction) -> None:
    from president.uecda.wire import DEFAULT_PORT

    s = sub.add_parser("uecda-server", help="host a UECda match: remote clients and our bots at one table",
                       description="A server speaking the UECda protocol (the computer Daifugo competition's): "
                                   "remote clients join in connection order, our bots fill the other seats; "
                                   "prints the standings with 95%% intervals.")
    s.add_argument("--port", type=PORT, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0: any free)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--games", type=GAMES, default=100, help=f"games to play ({GAMES.text}, default 100)")
    s.add_argument("--seats", default="remote", metavar="SPEC,...",
                   help="five seats: 'remote' for a network client, else a bot (Classic, ismcts:..., a .rul "
                        "file); fewer are repeated in rotation (default: five remote clients)")
    s.add_argument("--timeout", type=SECONDS, default=10.0,
                   help="seconds a client may take to move before it loses its seat (default 10)")
    s.add_argument("--join-timeout", type=SECONDS, default=120.0,
                   help="seconds to wait for every remote client to join (default 120)")
    s.add_argument("--stand-in", default="Classic", help="the bot that takes a lost client's seat (default Classic)")
    s.add_argument("--record", type=output_file, metavar="FILE",
                   help="write the game record, one JSON line a game ('-': standard output)")
    s.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    add_seed_option(s)
    s.set_defaults(run=run_server)
    c = sub.add_parser("uecda-client", help="one of our bots plays on a UECda server",
                       description="Join a UECda server (the computer Daifugo competition's protocol) and play "
                                   "every game with BOT, until the server ends the session.")
    c.add_argument("bot", metavar="BOT", help="Classic, a .rul file, ismcts:..., random")
    c.add_argument("--host", default="127.0.0.1", help="the server (default 127.0.0.1)")
    c.add_argument("--port", type=PORT, default=DEFAULT_PORT, help=f"the server's port (default {DEFAULT_PORT})")
    c.add_argument("--name", default=None, help="the name sent to the server (15 characters; default: BOT)")
    c.add_argument("--timeout", type=SECONDS, default=600.0,
                   help="seconds to wait for the server at any step before giving up (default 600)")
    c.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    add_seed_option(c)
    c.set_defaults(run=run_client)


def _say(line: str) -> None:
    err_console.print(line, markup=False, highlight=False, soft_wrap=True)


def run_server(args: argparse.Namespace) -> int:
    from president.game.settings import preset
    from president.uecda.seats import REMOTE, SeatLost
    from president.uecda.server import UecdaServer

    settings = preset("uecda")
    specs = split_specs(args.seats) or [REMOTE]
    seats = [specs[i % len(specs)] for i in range(settings.players)]
    dirs = rules_dirs(args)
    for spec in dict.fromkeys(seats):
        if spec != REMOTE:
            make_bot(spec, dirs)  # a bad bot name fails now, before anyone connects
    make_bot(args.stand_in, dirs)
    record = None
    if args.record:
        record = sys.stdout if args.record == "-" else open(args.record, "w", encoding="utf-8")
    try:
        listener = socket.create_server((args.host, args.port), reuse_port=False)
    except OSError as exc:
        raise RunError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    try:
        _say(f"uecda-server: listening on {args.host}:{listener.getsockname()[1]} for "
             f"{seats.count(REMOTE)} client(s); {args.games} game(s)")
        server = UecdaServer(settings, seats, args.games, seed_of(args), lambda spec: make_bot(spec, dirs),
                             timeout=args.timeout, join_timeout=args.join_timeout, stand_in=args.stand_in,
                             log=_say, record=record)
        try:
            result = server.run(listener)
        except SeatLost as exc:
            raise RunError(f"uecda-server: {exc}") from None
    finally:
        listener.close()
        if record is not None and record is not sys.stdout:
            record.close()
    if args.record != "-":
        print_table(standings_table(result))
    return 0


def standings_table(result) -> Table:
    """Each seat's points a game (± half the 95% interval), place shares and mean place."""
    n = len(result.stats)
    table = Table(title=f"UECda standings: {result.games} game(s)",
                  caption="points a game (5 for the daifugo down to 1) ± half its 95% interval")
    table.add_column("player", justify="right")
    add_name_column(table, "seat", [s.name for s in result.stats])
    table.add_column("points a game", justify="right")
    for k in (1, n):
        table.add_column(ordinal(k), justify="right")
    table.add_column("mean place", justify="right")
    for i, s in enumerate(result.stats):
        ci = s.points_ci95()
        points = f"{s.mean_points:.2f}" + ("" if ci != ci else f" ±{ci:.2f}")
        shares = [f"{100 * s.places[k - 1] / s.rounds:.0f}%" if s.rounds else "-" for k in (1, n)]
        table.add_row(str(i), s.name, points, *shares, f"{s.mean_place:.2f}")
    return table


def run_client(args: argparse.Namespace) -> int:
    from president.uecda.client import UecdaClient
    from president.uecda.wire import ProtocolError

    agent = make_bot(args.bot, rules_dirs(args))
    name = args.name if args.name is not None else args.bot
    if not name.isascii() or len(name) > 15:
        raise UsageError(f"--name is at most 15 ASCII characters, not {name!r}")
    client = UecdaClient(agent, name=name, seed=seed_of(args), timeout=args.timeout, log=_say)
    try:
        games = client.run(args.host, args.port)
    except (OSError, ProtocolError) as exc:
        raise RunError(f"uecda-client: {exc} (after {client.games} game(s))") from None
    _say(f"uecda-client: {games} game(s) played; {client.refused} play(s) refused")
    return 0
