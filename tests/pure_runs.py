"""Commands run in fresh processes by tests: with their compiled part turned off or not (`*_PURE` variables),
and interrupted as at a terminal."""
from __future__ import annotations

import os
import signal
import subprocess
import sys


def run_module(module: str, pure_variable: str, pure: bool, *args: str) -> subprocess.CompletedProcess:
    """`python -m MODULE ARGS` with `pure_variable` set to 1 (pure) or unset. Run from / so that the package
    found is the installed one, as in this process (not a source tree in the cwd)."""
    env = dict(os.environ)
    env.pop(pure_variable, None)
    if pure:
        env[pure_variable] = "1"
    return subprocess.run([sys.executable, "-m", module, *args], env=env, capture_output=True, cwd="/",
                          text=True, check=True)


def as_at_a_terminal() -> None:
    """`preexec_fn` for a command that a test interrupts as Ctrl-C would: SIGINT is delivered and handled as at
    a terminal (a child inherits an ignored or blocked signal from the process that starts it, and a test
    runner's worker need not have it as a terminal has)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
