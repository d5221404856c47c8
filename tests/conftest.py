"""Shared fixtures: where the project's shared test data lives."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PRESIDENT_SHARED_DIR", REPO.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """A file or folder of `../shared` (the public corpus, the specifications' sources).

    The project's own tests never need it: a test that reads it is skipped, with the path it
    looked for, on a clone with nothing beside it; CI, which has `../shared`, fails instead.
    """
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} missing: CI must have ../shared beside the clone")
        pytest.skip(f"needs {path} (the public corpus in ../shared beside the clone)")
    return path


def corpus_file(name: str) -> Path:
    """A game of the public RECYCLE corpus, `rcy/Hearts4.rcy`; the test is skipped without it."""
    return shared_path("recycle-corpus", name)


def game_file(name: str) -> Path:
    """A shipped game by name (`Hearts4`), else a corpus file (`rcy/Hearts4.rcy`, skipped without it)."""
    from recycle.games import game_path

    return corpus_file(name) if "/" in name else Path(game_path(name))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """`../shared` beside the checkout; the tests using it are skipped when it is absent (not in CI)."""
    return shared_path()


@pytest.fixture(autouse=True)
def parsed_personalities_folder(tmp_path_factory, monkeypatch) -> Path:
    """Parsed personalities are kept in a folder of the test session, never the user's cache."""
    from personalities.parsed import CACHE_ENV

    folder = tmp_path_factory.getbasetemp() / "parsed-personalities"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


@pytest.fixture(autouse=True)
def user_rules_folder(tmp_path_factory, monkeypatch) -> Path:
    """A fresh per-user `.rul` folder for every test: never the real one of whoever runs the tests."""
    from personalities.catalog import USER_FOLDER_ENV

    return _test_folder(tmp_path_factory, monkeypatch, USER_FOLDER_ENV, "user-rules")


@pytest.fixture(autouse=True)
def run_state_folder(tmp_path_factory, monkeypatch) -> Path:
    """Journals of runs not told where go to a folder of the test, never the user's state folder."""
    from recycle.kernel.journal_file import STATE_ENV

    return _test_folder(tmp_path_factory, monkeypatch, STATE_ENV, "state")


@pytest.fixture(autouse=True)
def one_core_for_an_analysis(monkeypatch) -> None:
    """An analysis in a test uses one process unless the test gives `-j` (or patches this back): the
    suite's own workers keep both cores busy, and a pool per analysis would only add its start-up."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)


@pytest.fixture(autouse=True)
def user_data_folder(tmp_path_factory, monkeypatch) -> Path:
    """The per-user data folder (the table's saved matches and decisions) of a test: never the user's own."""
    from president.match.saved import DATA_ENV

    return _test_folder(tmp_path_factory, monkeypatch, DATA_ENV, "user-data")


def _test_folder(tmp_path_factory, monkeypatch, env: str, name: str) -> Path:
    """A fresh folder of the test, named in `env` (where the program would use one of the user's)."""
    folder = tmp_path_factory.mktemp(name)
    monkeypatch.setenv(env, str(folder))
    return folder
