"""The house rules of the code: layers (import-linter), no package cycles, one meaning per
class name, internal errors reported as bugs, and every benchmark script still runs."""
from __future__ import annotations

import argparse
import ast
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
    """The package a module lives in: each sub-package of a top-level package is a room of its own
    (`president.game`, `president.cli.main`, `recycle.interp`, `tui.anygame`...)."""
    return ".".join(module.split(".")[:2])


def cycles_of(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def strong(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                strong(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            strong(node)
    return found


@pytest.fixture(scope="module")
def imports() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports, wherever the import stands (inside functions too),
    except under `if TYPE_CHECKING:`."""
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def test_no_import_cycle_between_packages(imports):
    edges: dict[str, set[str]] = {}
    for module, imported in imports.items():
        for other in imported:
            if room(module) != room(other):
                edges.setdefault(room(module), set()).add(room(other))
    assert not cycles_of(edges), f"package cycles: {cycles_of(edges)}"


def test_no_import_cycle_between_modules(imports):
    # An import inside a function still ties the two modules: it only hides the cycle from the reader.
    assert not cycles_of(imports), f"module cycles: {cycles_of(imports)}"


def test_cycles_are_found():
    assert cycles_of({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles_of({"a": {"b"}, "b": set()}) == []


#: Class names defined in two modules on purpose: the same idea in two places, so a reader
#: who meets either is not misled. Any other name defined twice is an error (rename the one
#: that is less central to what it is, in the game's own words).
SAME_IDEA_TWICE = {
    # Each game's own physical card: President's (value and suit) and Tides of Time's (its seed number).
    "Card": {"president/game/cards.py", "recycle/games/tides/cards.py"},
    # A RECYCLE action as written (syntax node) and the effect it has when run (journaled for undo).
    "Move": {"recycle/lang/tree.py", "recycle/interp/effects.py"},
    "Remember": {"recycle/lang/tree.py", "recycle/interp/effects.py"},
    "Forget": {"recycle/lang/tree.py", "recycle/interp/effects.py"},
    # A point map as written (syntax node) and its value in the store once evaluated.
    "PointMap": {"recycle/lang/coll.py", "recycle/interp/store.py"},
    # Each game's crosscheck of its native engine against its RECYCLE file: one engine's game
    # of a deal, and the first difference between the two.
    "Played": {"president/cli/commands/crosscheck.py", "recycle/games/tides/crosscheck.py"},
    "Divergence": {"president/cli/commands/crosscheck.py", "recycle/games/tides/crosscheck.py"},
    # A turn at President's table: who and what was played (as text in the crosscheck, as cards on screen).
    "Turn": {"president/cli/commands/crosscheck.py", "tui/president/outcomes.py"},
    # A game: a RECYCLE file as read (the syntax tree's root) and a game declared to the protocol
    # (`recycle.kernel.game.Game`, which RecycleGame implements over the first).
    "Game": {"recycle/lang/tree.py", "recycle/kernel/game.py"},
}


def classes_by_name() -> dict[str, set[str]]:
    """Class name -> the files (relative to the repository) that define it at module level."""
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, set()).add(path.relative_to(REPO).as_posix())
    return found


def test_a_class_name_means_one_thing():
    twice = {name: files for name, files in classes_by_name().items() if len(files) > 1}
    unexpected = {name: sorted(files) for name, files in twice.items() if files != SAME_IDEA_TWICE.get(name)}
    assert not unexpected, ("class names defined more than once (rename the less central one, or list them "
                            f"in SAME_IDEA_TWICE): {unexpected}")
    stale = sorted(set(SAME_IDEA_TWICE) - set(twice))
    assert not stale, f"SAME_IDEA_TWICE lists names no longer defined twice: {stale}"


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


def test_no_fuzz_harness_in_the_installed_packages(imports):
    # The harness (tests/fuzzing) is development code: a user's installation carries none of it.
    assert not [m for m in imports if "fuzz" in m.rsplit(".", 1)[-1]]
