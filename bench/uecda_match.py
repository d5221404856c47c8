"""One UECda match over real sockets: a bot of ours in seat 0, four copies of a simple client in the others.

Prints the standings (points a game, 5 down to 1, ± half the 95% interval) and the time taken.
The four clients are our own `uecda-client` with a simple personality (default), or any outside
UECda client program given with --client (run once per seat, with -h HOST -p PORT -n NAME, the
convention of the competition's default client).

    python bench/uecda_match.py --games 100 --bot "ismcts:iterations=1500,...,cap=0.5"
    python bench/uecda_match.py --client /path/to/default_client
"""
from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import threading
import time

from president.agents.bots import make_bot
from president.cli.commands.uecda import standings_table
from president.agents.levels import SEARCH
from president.game.settings import preset
from president.uecda.client import UecdaClient
from president.uecda.server import UecdaServer
from recycle.cli.console import print_table
from timing import add_smoke_option, smoke


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot", default=SEARCH, help="seat 0 (default: the master level's search player)")
    parser.add_argument("--simple", default="Beginner", help="our simple client's personality")
    parser.add_argument("--client", help="an outside UECda client program to run in seats 1-4 instead")
    parser.add_argument("--label", default="master", help="seat 0's name in the table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0)
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), games=2, bot="Classic", label="Classic")
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = UecdaServer(preset("uecda"), [args.bot] + ["remote"] * 4, args.games, args.seed, make_bot,
                         timeout=args.timeout, log=lambda line: print(line, file=sys.stderr))
    started = time.perf_counter()
    if args.client:
        clients = [subprocess.Popen([args.client, "-h", "127.0.0.1", "-p", str(port), "-n", f"simple{i}"],
                                    stdout=subprocess.DEVNULL) for i in range(4)]
    else:
        clients = [threading.Thread(target=UecdaClient(make_bot(args.simple), name=f"{args.simple}{i}",
                                                       seed=args.seed + i).run,
                                    args=("127.0.0.1", port), daemon=True) for i in range(4)]
        for c in clients:
            c.start()
    result = server.run(listener)
    listener.close()
    for c in clients:
        c.wait(60) if isinstance(c, subprocess.Popen) else c.join(60)
    result.stats[0].name = args.label
    print_table(standings_table(result))
    print(f"{args.games} games in {time.perf_counter() - started:.0f} s; seat 0: {args.bot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
