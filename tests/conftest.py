"""Shared fixtures: where the project's shared test data lives."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PRESIDENT_SHARED_DIR", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """`../shared` beside the checkout; skipped (visibly) only outside CI when absent."""
    if not SHARED.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"shared folder missing at {SHARED}: CI must have ../shared beside the clone")
        pytest.skip(f"shared folder not found at {SHARED}")
    return SHARED


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

    folder = tmp_path_factory.mktemp("user-rules")
    monkeypatch.setenv(USER_FOLDER_ENV, str(folder))
    return folder


@pytest.fixture(autouse=True)
def run_state_folder(tmp_path_factory, monkeypatch) -> Path:
    """Journals of runs not told where go to a folder of the test, never the user's state folder."""
    from recycle.kernel.journal_file import STATE_ENV

    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv(STATE_ENV, str(folder))
    return folder
