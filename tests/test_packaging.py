"""The installed package is the whole package: every subpackage and data file is listed."""
from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOP = ("president", "personalities", "recycle", "tui")


def _config() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_subpackage_is_installed_and_nothing_else():
    # setuptools finds the packages by the patterns in pyproject.toml: every folder of the four
    # packages, and none of the development code (tests/fuzzing, bench) beside them.
    from setuptools import find_packages

    include = _config()["tool"]["setuptools"]["packages"]["find"]["include"]
    installed = set(find_packages(str(REPO), include=include))
    found = {".".join(init.parent.relative_to(REPO).parts)
             for top in TOP for init in (REPO / top).rglob("__init__.py")
             if "__pycache__" not in init.parts}
    assert installed == found, f"missing: {sorted(found - installed)}; not ours: {sorted(installed - found)}"


def test_data_files_are_package_data():
    data = _config()["tool"]["setuptools"]["package-data"]
    for package, patterns in data.items():
        folder = REPO / package.replace(".", "/")
        assert folder.is_dir(), package
    suffixes = {Path(p).suffix for patterns in data.values() for p in patterns}
    for suffix in (".rul", ".tcss"):
        assert suffix in suffixes
        for file in (REPO).rglob(f"*{suffix}"):
            if file.parts[len(REPO.parts)] in TOP:
                owner = ".".join(file.parent.relative_to(REPO).parts)
                assert any(Path(p).suffix == suffix for p in data.get(owner, [])), f"{file} is not package data"


def test_console_scripts_exist():
    scripts = _config()["project"]["scripts"]
    assert set(scripts) == {"president", "recycle"}
    for target in scripts.values():
        module, _, function = target.partition(":")
        path = REPO / (module.replace(".", "/") + ".py")
        assert path.is_file() and f"def {function}(" in path.read_text(encoding="utf-8"), target
