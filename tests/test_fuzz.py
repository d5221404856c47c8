"""Fuzzing in CI, on a fixed budget (about 50 s in all on one core, derandomized: the same
inputs every run). The oracles are `fuzzing.inputs`'s, the same as `bench/fuzz.py` (long runs) uses:

- the `.rul` reader, on grammar-aware generated files, whitespace- and character-mutated
  shipped files, and arbitrary text and bytes: no exception, diagnostics inside the text,
  canonical round trip of every file that loads;
- the RECYCLE reader and interpreter, on mutated corpus and shipped games played by random
  choices: card conservation after every step, checked determinizations, only located
  errors of the game.
"""
from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzing.inputs import generate_rul, mutate_game, mutate_text, recycle_problem, rul_problem

FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], database=None)
SHIPPED_RUL = [Path(str(p)).read_text(encoding="utf-8")
               for p in sorted(resources.files("personalities").iterdir(), key=lambda p: p.name)
               if p.name.endswith(".rul")]


@pytest.mark.slow
@settings(FUZZ, max_examples=2000)
@given(st.randoms(use_true_random=False), st.booleans())
def test_fuzz_rul_reader_on_generated_and_mutated_files(rng, mutate_shipped):
    text = generate_rul(rng)
    if mutate_shipped:
        text = mutate_text(rng.choice(SHIPPED_RUL), rng)
    elif rng.random() < 0.5:
        text = mutate_text(text, rng)
    assert rul_problem(text) is None


@pytest.mark.slow
@settings(FUZZ, max_examples=4000)
@given(st.one_of(st.text(max_size=400), st.binary(max_size=400).map(lambda b: b.decode("utf-8", "replace")),
                 st.binary(max_size=400).map(lambda b: b.decode("latin-1"))))
def test_fuzz_rul_reader_on_arbitrary_text(text):
    assert rul_problem(text) is None


@pytest.fixture(scope="module")
def games(shared_dir) -> list[str]:
    corpus = shared_dir / "recycle-corpus"
    files = sorted(corpus.rglob("*.gdl")) + sorted(corpus.rglob("*.rcy"))
    shipped = sorted(Path(str(p)) for p in resources.files("recycle.games").iterdir() if p.name.endswith(".gdl"))
    return [p.read_text(encoding="utf-8") for p in files + shipped]


@pytest.mark.slow
def test_fuzz_recycle_on_mutated_games(games):
    # A plain loop over seeds (not @given: the corpus comes from a fixture); 1,000 mutants,
    # about half of which read and are played with every check on (bench/fuzz.py runs for hours).
    stats: dict = {}
    for seed in range(1000):
        rng = random.Random(seed)
        text = mutate_game(rng.choice(games), rng, games)
        problem = recycle_problem(text, seed, max_choices=80, stats=stats)
        assert problem is None, f"seed {seed}:\n{text}\n{problem}"
    assert stats["played"] > 240 and stats["determinized"] > 1000, stats  # the fuzzing reaches play


def test_the_oracles_catch_what_they_are_for(monkeypatch):
    # A lost card (the exchange of a mem and a real location allowed again) is caught...
    from recycle.interp.actions import Executor

    swap = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ACE, TWO)))))
      (do ((remember (top (game iloc STOCK)) (top (game mem SEEN))) (swap (game mem SEEN) (game vloc TABLE))))
      (stage player (end (== 1 1)) (choice ((turn pass)))) (scoring max 0))"""
    assert recycle_problem(swap, 0) is None  # refused as a located error of the game
    monkeypatch.setattr(Executor, "_real_and_mem", lambda *args: None)
    assert "card conservation broken" in recycle_problem(swap, 0)
    # ... and so is a canonical text that does not read back.
    from personalities.syntax import Personality

    monkeypatch.setattr(Personality, "__str__", lambda self: "L\n")
    assert rul_problem("H\n").startswith("round trip")
