"""Golden games: the RECYCLE interpreter plays every seeded game exactly as it always did.

The interpreter is compiled for speed (`recycle/interp/codegen.py`, `runners.py`,
`explorers.py`); none of that may change a game. For seeded random games of our
shipped games and of every playable corpus file, a trace of everything a user
or a search player can see — each choice's options, observations, a
determinization's options, the results and the transcript (`recycle_engines.trace`,
on the compiled engine) — must hash to the digest recorded in
`tests/data/recycle_golden.json` (written by the interpreter before it was compiled).
A digest that differs is explained by the first line where the compiled engine's trace
differs from the reference engine's; when both agree, the meaning itself changed.

If a change to the interpreter is *meant* to change how games play, look at
the first differing game, then rewrite the digests:

    python tests/test_recycle_speed_golden.py --write
"""
from __future__ import annotations

import functools
import hashlib
import json
import sys
from pathlib import Path

import pytest
from conftest import SHARED
from recycle_engines import first_difference, new_compiled_game
from recycle_engines import trace as trace_lines
from test_recycle_interp_corpus import KNOWN_DEFECTS

from recycle.interp import RecycleRuntimeError
from recycle.interp.engine import Engine
from recycle.lang import load_game, parse_game

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "data" / "recycle_golden.json"
GAMES_DIR = HERE.parent / "recycle" / "games"
CORPUS = SHARED / "recycle-corpus"
OURS = [f"{name}#{seed}" for name in ("President5", "Poker5", "BigTwo4", "Hearts4") for seed in range(4)]
#: Corpus files that cannot play.
UNPLAYABLE = set(KNOWN_DEFECTS)


def corpus_names() -> list[str]:
    if not CORPUS.is_dir():
        return []
    return sorted(f"{p.relative_to(CORPUS).as_posix()}#0" for p in CORPUS.glob("*/*")
                  if p.suffix in (".rcy", ".gdl") and p.relative_to(CORPUS).as_posix() not in UNPLAYABLE)


def game_path(name: str) -> Path:
    return GAMES_DIR / f"{name}.gdl" if "/" not in name else CORPUS / name


def trace(path: Path, seed: int) -> tuple[int, list[float], str]:
    """(choices, scores, sha256 of the trace) of one seeded random game, on the compiled engine."""
    lines = trace_lines(load_game(path), seed)
    scores = next((list(line.scores) for line in lines if line.what == "results"), [])  # none after an error
    return lines[-1].step, scores, hashlib.sha256("\n".join(line.value for line in lines).encode()).hexdigest()


def explained(key: str) -> str:
    """Why a digest differs: the first line where the compiled engine leaves the reference."""
    name, seed = key.rsplit("#", 1)
    game = load_game(game_path(name))
    reference, fast = trace_lines(game, int(seed), Engine.REFERENCE), trace_lines(game, int(seed))
    difference = first_difference(reference, fast, ("reference", "compiled"))
    if difference is not None:
        return f"the compiled engine leaves the reference at {difference}"
    return (f"both engines agree (the meaning itself changed): {len(fast)} lines, the last after "
            f"{fast[-1].step} choice(s): {fast[-1].what}: {fast[-1].value[:200]}")


@functools.cache
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))["games"]


def check(key: str) -> None:
    name, seed = key.rsplit("#", 1)
    want = golden().get(key)
    assert want is not None, f"no golden digest for {key}: run python {Path(__file__).name} --write"
    choices, scores, digest = trace(game_path(name), int(seed))
    if (choices, scores) != (want["choices"], want["scores"]):
        pytest.fail(f"{key} plays differently ({choices} choices, scores {scores}; recorded {want['choices']}, "
                    f"{want['scores']}): {explained(key)}")
    if digest != want["sha256"]:
        pytest.fail(f"{key}: same length and scores, but options or records differ: {explained(key)}")


@pytest.mark.parametrize("key", OURS)
def test_our_games_play_as_before(key):
    check(key)


@pytest.mark.parametrize("key", corpus_names() or ["<corpus missing>"])
def test_corpus_games_play_as_before(shared_dir, key):
    check(key)


# --- the compiled source at Python's limits ---------------------------------------------------

def _nested(action: str) -> int:
    """The final `(game sto N)` of a one-player game running `action` once."""
    text = ("(game (setup (create players 1) (create deck (game iloc STOCK) (deck (RANK (A, B)))))"
            f" (do ({action})) (scoring max (game sto N)))")
    return new_compiled_game(parse_game(text, "deep.rcy")).st.ints[("g", 0, "N")]


def test_deep_blocks_loops_and_conditions_play_as_written():
    # Deeper than Python compiles in one function (nested blocks, loops, parentheses): split into calls.
    assert _nested("(do (" * 45 + "(inc (game sto N) 1)" + "))" * 45) == 1
    assert _nested("(repeat 2 " * 14 + "(inc (game sto N) 1)" + ")" * 14) == 2 ** 14
    condition = "(and (== 1 1) " * 70 + "(== 2 2)" + ")" * 70
    assert _nested(f"({condition} (inc (game sto N) 3))") == 3
    total = "(+ 1 " * 70 + "1" + ")" * 70
    assert _nested(f"(set (game sto N) {total})") == 71


def test_errors_inside_compiled_source_name_the_games_line():
    with pytest.raises(RecycleRuntimeError, match=r"deep\.rcy:1:\d+: nothing to move") as caught:
        _nested("(do (" * 30 + "(move (top (game vloc EMPTY)) (top (game vloc PILE)))" + "))" * 30)
    assert caught.value.column > 0


def write() -> None:
    games = {key: dict(zip(("choices", "scores", "sha256"), trace(game_path(key.rsplit("#", 1)[0]),
                                                                int(key.rsplit("#", 1)[1]))))
             for key in OURS + corpus_names()}
    rows = ",\n".join(f"  {json.dumps(key)}: {json.dumps(games[key])}" for key in sorted(games))
    GOLDEN.write_text('{"about": "digests of seeded random games, see tests/test_recycle_speed_golden.py",\n'
                      f' "games": {{\n{rows}\n }}\n}}\n', encoding="utf-8")
    print(f"{len(games)} games written to {GOLDEN}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    write()
