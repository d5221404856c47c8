"""A command line run in a fresh process, with its compiled part turned off or not (`*_PURE` variables)."""
from __future__ import annotations

import os
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
