"""The README and the pages of docs/ as a newcomer reads them: every relative link leads to a
file (and heading) of the repository, no example needs a file from outside it, the README stays
a short guide whose `.rul` example reads clean, and its quick start keeps CI's test line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from president.cli.main import main as president

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to '-'."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, re.MULTILINE)}


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(REPO).as_posix() for p in PAGES])
def test_every_relative_link_leads_to_a_file_and_heading_of_the_repository(page):
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_file() or REPO not in file.parents:
            broken.append(f"{target}: no such file in the repository")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading '{anchor}' in {file.name}")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(REPO).as_posix() for p in PAGES])
def test_no_example_names_a_file_outside_the_repository(page):
    assert "../shared/" not in page.read_text(encoding="utf-8")


def readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_a_short_guide():
    assert len(readme().splitlines()) <= 250


def test_the_quick_start_keeps_the_two_lines_ci_runs():
    first_sh = next(body for lang, body in FENCE.findall(readme()) if lang == "sh").splitlines()
    assert first_sh == [
        "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/president play",
        'python3 -m venv .venv && .venv/bin/pip install -q ".[test]" && .venv/bin/pytest -q -n 2',
    ]


def test_the_readmes_personality_is_complete_and_reads_clean(tmp_path, capsys):
    (example,) = [body for lang, body in FENCE.findall(readme()) if lang == "rul"]
    assert example == (REPO / "personalities" / "Classic.rul").read_text(encoding="utf-8")
    (tmp_path / "Example.rul").write_text(example, encoding="utf-8")
    assert president(["check", str(tmp_path / "Example.rul")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
