"""What `recycle run` imports to play agent specs at a shipped game: neither pyparsing (the
RECYCLE lexer cuts tokens with `re`) nor the `.rul` rule engine (loaded for personalities only).
Together they were over a third of the command's start-up."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_CODE = """
import io, sys, contextlib
from recycle.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["run", "President5", "--games", "1", "--players", "random,osla"])
print(sorted(m for m in sys.modules if m == "pyparsing" or m == "personalities.player"))
"""


def test_recycle_run_with_agent_specs_loads_no_parser_nor_rule_engine():
    out = subprocess.run([sys.executable, "-c", _CODE], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    assert out.strip().splitlines()[-1] == "[]"
