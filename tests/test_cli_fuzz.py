"""Fuzzing the command lines and the files they read back (bounded for CI: about 30 s on 2 cores).

The inputs and oracles are `fuzzing.commands`'s (`bench/fuzz.py` runs
the same ones for as long as asked); here hypothesis draws the generators'
random streams, derandomized so CI is repeatable. `FUZZ_EXAMPLES=N` asks for
N random cases per test instead.

- every subcommand of `president` and `recycle` with odd argument lists: it
  ends within its deadline with exit 0-3 and no traceback;
- mutated tournament journals, transcripts and deal files: each is used or
  refused with a located error, never a Python exception.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president.cli.main import build_parser as president_parser
from president.cli import main as president
from fuzzing import commands as fuzzing
from recycle.cli.main import build_parser as recycle_parser
from recycle.cli import main as recycle

LONG = int(os.environ.get("FUZZ_EXAMPLES", "0"))
PROGRAMS = {"president": (president, president_parser), "recycle": (recycle, recycle_parser)}
CI = dict(deadline=None, derandomize=not LONG, suppress_health_check=list(HealthCheck), database=None)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    return fuzzing.make_files(tmp_path_factory.mktemp("fuzz-files"), PROGRAMS)


@pytest.mark.slow
def test_odd_command_lines_end_cleanly(files, tmp_path_factory):
    work = tmp_path_factory.mktemp("fuzz-cwd")

    @given(st.randoms(use_true_random=False))
    @settings(max_examples=LONG or 150, **CI)
    def check(rng):
        program, argv = fuzzing.random_command_line(rng, files, PROGRAMS)
        problem = fuzzing.command_problem(PROGRAMS, program, argv, work, seconds=60 if LONG else 30)
        assert problem is None, f"{program} {argv!r}: {problem}"

    check()


def test_every_subcommand_has_help_and_rejects_an_unknown_option(tmp_path):
    for program, name in fuzzing.commands(PROGRAMS):
        for argv, code in (([name, "--help"], 0), ([name, "--no-such-option"], 2)):
            assert fuzzing.command_problem(PROGRAMS, program, argv, tmp_path) is None, argv
            assert fuzzing.call(PROGRAMS[program][0], argv)[0] == code, argv
    for program in PROGRAMS:
        assert fuzzing.command_problem(PROGRAMS, program, ["--help"], tmp_path) is None


@pytest.mark.parametrize("kind, examples", [("journal", 150), ("transcript", 40)])
def test_mutated_files_are_used_or_refused(files, tmp_path, kind, examples):
    original = Path(files[kind]).read_text()
    path = tmp_path / f"{kind}.jsonl"
    oracle = {"journal": fuzzing.journal_problem, "transcript": fuzzing.transcript_problem}[kind]

    @given(st.randoms(use_true_random=False))
    @settings(max_examples=LONG or examples, **CI)
    def check(rng):
        text = fuzzing.mutate_lines(rng, original)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        problem = oracle(path)
        assert problem is None, f"{text[:500]!r}: {problem}"

    check()


def test_mutated_journals_through_the_command(files, tmp_path):
    original = Path(files["journal"]).read_text()
    path = tmp_path / "t.jsonl"

    @given(st.randoms(use_true_random=False))
    @settings(max_examples=LONG or 12, **CI)
    def check(rng):
        path.write_text(fuzzing.mutate_lines(rng, original), encoding="utf-8", errors="surrogatepass")
        problem = fuzzing.command_problem(PROGRAMS, "president", ["tournament", "--resume", str(path), "-j1", "--json", "-"],
                                          tmp_path)
        assert problem is None, problem

    check()


def test_mutated_deal_files_are_used_or_refused(tmp_path):
    from president.game.deals import random_deal
    from president.game.settings import preset

    original = random_deal(preset("classic"), random.Random(3)).text("a deal")
    path = tmp_path / "deal.txt"

    @given(st.randoms(use_true_random=False))
    @settings(max_examples=LONG or 60, **CI)
    def check(rng):
        text = fuzzing.mutate_deal(rng, original)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        problem = fuzzing.deal_problem(path)
        assert problem is None, f"{text!r}: {problem}"

    check()
