"""The house rules of the code: layers (import-linter), no package cycles, internal
errors reported as bugs, and every benchmark script still runs."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

from recycle.cli.console import EXIT_INTERNAL, EXIT_USAGE, run_main

from conftest import REPO

PACKAGES = ("president", "personalities", "recycle", "tui")


def test_import_contracts_are_kept():
    # The contracts in pyproject.toml: the kernel imports nothing of ours, personalities
    # know no game, the engine never imports President/the UI/commands, and so on.
    os.chdir(REPO)
    assert lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def room(module: str) -> str:
    """The package a module lives in: `recycle`'s sub-packages are rooms of their own, and
    so is the command layer on top (`president.cli.main` and `president.cli.commands`, which start the UI)."""
    parts = module.split(".")
    if parts[0] == "president" and len(parts) > 1 and parts[1] in ("cli", "commands"):
        return "president.cli.commands"
    return ".".join(parts[:2]) if parts[0] == "recycle" and len(parts) > 1 else parts[0]


def test_no_import_cycle_between_packages():
    graph = grimp.build_graph(*PACKAGES)
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if room(module) != room(imported):
                edges.setdefault(room(module), set()).add(room(imported))
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(edges.get(node, ())):
            if nxt in path:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif len(path) < len(edges) + 1:
                visit(nxt, path + [nxt])

    for start in sorted(edges):
        visit(start, [start])
    assert not cycles, f"package cycles: {cycles[:5]}"


def test_a_bug_of_ours_is_one_line_and_a_saved_traceback(capsys):
    parser = argparse.ArgumentParser(prog="recycle")
    parser.set_defaults(run=lambda args: [][1])  # an IndexError no user input explains
    assert run_main(parser, [], (ValueError,)) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "internal error" in err and "please report" in err and "Traceback" not in err
    saved = Path(err.split("traceback is in ")[1].split()[0])
    try:
        assert "IndexError" in saved.read_text()
    finally:
        saved.unlink()


def test_a_users_mistake_stays_a_one_line_error(capsys):
    parser = argparse.ArgumentParser(prog="recycle")

    def bad(args):
        raise ValueError("--games must be at least 1")

    parser.set_defaults(run=bad)
    assert run_main(parser, [], (ValueError,)) == EXIT_USAGE
    assert capsys.readouterr().err.strip() == "error: --games must be at least 1"


BENCH = sorted(p for p in (REPO / "bench").glob("*.py") if p.name != "timing.py")


@pytest.mark.slow
@pytest.mark.parametrize("script", BENCH, ids=[p.stem for p in BENCH])
def test_benchmark_script_runs_in_smoke_mode(script, shared_dir):
    # Benchmarks are not timed here; this only keeps them from rotting.
    done = subprocess.run([sys.executable, str(script), "--smoke"], capture_output=True, text=True,
                          timeout=120, cwd=REPO, env={**os.environ, "PRESIDENT_SHARED_DIR": str(shared_dir)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert any(ch.isdigit() for ch in done.stdout), "a benchmark prints figures"
