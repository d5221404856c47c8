"""Where the estimator's time goes, piece by piece, without a profiler.

    .venv/bin/python bench/rollout_parts.py [GAME] [--sample K] [--smoke]

Plays K all-AI games of GAME (a shipped game's name, or a corpus file such as
Agram4; default BigTwo4) with CardStock's estimator and times, with
`time.perf_counter` around each, the pieces of its rollouts: the
determinization (`determinizer`'s draw), the playout (`played_out`) and in it
the generated round function, the machine's `advance` (the end of the game
after the rounds), `loop_here`; the scores (`results`); and per decision the
root's determinization (`sample_root`) and the sampler. Prints each piece's
seconds, calls, microseconds per call and share of the estimator's time.

cProfile is no help here: its cost per call inflates the small functions
(a deal, a score) several times over and sees the round function, one big
generated function, at its true cost. The wrappers here cost about 0.3 us a
call. Only this checkout's code is timed; run it with `PYTHONPATH=DIR` for
another checkout's.
"""
from __future__ import annotations

import argparse
import sys
import time

from analysis_speed import subject_of
from timing import add_smoke_option, smoke

from recycle.analysis import PlayUnit, estimator, units
from recycle.interp import flow, game, rounds

#: The pieces, in the order printed (a piece's name, then what it is part of).
PIECES = ("explain", "draw", "played_out", "round function", "advance", "loop_here", "results",
          "sample_root", "sampler")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="BigTwo4", help="a game (default BigTwo4)")
    ap.add_argument("--sample", type=int, default=3, help="all-AI games played (default 3)")
    add_smoke_option(ap)
    args = smoke(ap.parse_args(argv), sample=1, game="Agram4")
    seconds: dict[str, float] = dict.fromkeys(PIECES, 0.0)
    calls: dict[str, int] = dict.fromkeys(PIECES, 0)
    clock = time.perf_counter

    def timed(name, f):
        def run(*a, **k):
            t = clock()
            try:
                return f(*a, **k)
            finally:
                seconds[name] += clock() - t
                calls[name] += 1
        return run

    play = PlayUnit(subject_of(args.game, None))
    play(units(1, 1)[0])  # read and compiled before the timing (a random game: its round functions draw
    # otherwise than a rollout's, whose are made, and wrapped, below)
    determinizer, source = game.RecycleState.determinizer, rounds.round_source
    game.RecycleState.determinizer = lambda s, player: timed("draw", determinizer(s, player))
    game.RecycleState.played_out = timed("played_out", game.RecycleState.played_out)
    game.RecycleState.results = timed("results", game.RecycleState.results)
    game.loop_here = timed("loop_here", game.loop_here)
    flow.Machine.advance = timed("advance", flow.Machine.advance)
    rounds.round_source = lambda *a, **k: timed("round function", source(*a, **k))
    for name in ("sample_root", "sampler"):
        setattr(estimator, name, timed(name, getattr(estimator, name)))
    estimator.CardStockEstimator.explain = timed("explain", estimator.CardStockEstimator.explain)
    t = clock()
    for unit in [u for u in units(args.sample, 1) if u.set == "all_ai"]:
        play(unit)
    total = clock() - t
    whole = seconds["explain"] or 1.0
    print(f"{args.game}: {args.sample} all-AI game(s), {total:.2f} s; the estimator {whole:.2f} s")
    for name in PIECES:
        per = seconds[name] / max(1, calls[name]) * 1e6
        print(f"  {name:15s} {seconds[name]:7.3f} s {calls[name]:8d} calls {per:8.1f} us/call "
              f"{100 * seconds[name] / whole:5.1f}% of the estimator")
    outside = whole - seconds["round function"]
    print(f"  outside the round function: {outside:.3f} s, {100 * outside / whole:.1f}% "
          "(the wrappers included, ~0.3 us a call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
