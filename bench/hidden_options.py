"""How often a determinization offers the chooser its real options, per game (issue 33 part 3).

    .venv/bin/python bench/hidden_options.py [--games 3] [--worlds 4] [--corpus] [FILTER ...]

For seeded random games of the shipped games (and the CardStock corpus with `--corpus`), at
every choice where the chooser cannot see some card, draws `--worlds` determinizations for the
chooser and prints, per game with a choice that reads faces: the worlds drawn, how many matched
the real option texts at the first deal, the mean deals needed, and how many still differed
after `MAX_REDEALS` deals (those worlds offer other options; docs/recycle-language.md, "Options
and hidden cards"). Also the time a determinization takes at such choices.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from timing import SHARED, add_smoke_option, smoke

from recycle.interp import new_game
from recycle.interp.game import MAX_REDEALS
from recycle.lang import load_game

SHIPPED = Path(__file__).resolve().parents[1] / "recycle" / "games"
MAX_CHOICES_LOOKED = 300
#: Corpus files that cannot play (tests/test_recycle_interp_corpus.py, KNOWN_DEFECTS).
UNPLAYABLE = {"gdl/CrazyEights4.gdl", "gdl/StealingBundles5.gdl"}


def deals_needed(state, player: int, rng: random.Random) -> int:
    """Deals until a world offers `player` the real option texts (MAX_REDEALS + 1: none did)."""
    told, slots = state.option_texts(), state.hidden_cards(player)
    for n in range(1, MAX_REDEALS + 1):
        if state._dealt(player, slots, rng).option_texts() == told:
            return n
    return MAX_REDEALS + 1


def measure(path: Path, games: int, worlds: int) -> tuple[int, int, int, int, float] | None:
    """(worlds, matched at once, deals in all, never matched, seconds per determinize) at face-reading choices."""
    game = load_game(path)
    drawn = first = deals = failed = 0
    seconds = 0.0
    for seed in range(games):
        state, rng = new_game(game, seed), random.Random(seed)
        for _ in range(MAX_CHOICES_LOOKED):
            if state.is_terminal():
                break
            p, legal = state.current_player(), state.legal_actions()
            if len(legal) > 1 and state.rules.faces(state.pending[0]) and state.hidden_cards(p):
                for _ in range(worlds):
                    n = deals_needed(state, p, random.Random(rng.random()))
                    drawn, first, deals, failed = drawn + 1, first + (n == 1), deals + min(n, MAX_REDEALS), \
                        failed + (n > MAX_REDEALS)
                    start = time.perf_counter()
                    state.determinize(p, random.Random(rng.random()))
                    seconds += time.perf_counter() - start
            state.apply(legal[rng.randrange(len(legal))])
    return (drawn, first, deals, failed, seconds / drawn) if drawn else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("filters", nargs="*", help="only games whose path holds one of these")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=4)
    ap.add_argument("--corpus", action="store_true", help="also the CardStock corpus (../shared/recycle-corpus)")
    add_smoke_option(ap)
    args = smoke(ap.parse_args(argv), games=1, worlds=1, filters=["TidesOfTime2"])
    files = sorted(SHIPPED.glob("*.gdl"))
    corpus = SHARED / "recycle-corpus"
    if args.corpus:
        files += [p for p in sorted(corpus.glob("*/*")) if p.suffix in (".gdl", ".rcy")
                  and p.relative_to(corpus).as_posix() not in UNPLAYABLE]
    print(f"{'game':<44} {'worlds':>6} {'at once':>7} {'deals':>6} {'unmatched':>9} {'ms/world':>8}")
    totals = [0, 0, 0, 0]
    for path in files:
        if args.filters and not any(f in str(path) for f in args.filters):
            continue
        got = measure(path, args.games, args.worlds)
        if got is None:
            continue
        drawn, first, deals, failed, seconds = got
        totals = [a + b for a, b in zip(totals, got[:4])]
        name = path.relative_to(corpus).as_posix() if corpus in path.parents else path.name
        print(f"{name:<44} {drawn:>6} {first:>7} {deals / drawn:>6.2f} {failed:>9} {1000 * seconds:>8.2f}", flush=True)
    drawn, first, deals, failed = totals
    if drawn:
        print(f"{'all':<44} {drawn:>6} {first:>7} {deals / drawn:>6.2f} {failed:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
