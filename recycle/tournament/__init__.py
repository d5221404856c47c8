"""Tournaments for any game of the protocol: how strong is a bot, with confidence.

- `schedule`: duplicate deals, seat rotations, balanced draws (deterministic from the seed);
- `runner`: the JSON Lines journal, resume, Ctrl-C and SPRT stops;
- `workers`: where games are played (this process, or a pool of spawned workers);
- `journal`: the results file format;
- `tally`: incremental per-bot figures, head-to-head, OpenSkill ratings, the SPRT;
- `stats`: Wilson and t intervals on clustered data, the SPRT arithmetic;
- `report`: tables, CSV rows and the finishing-position plot.

A game plugs in with one picklable *play-match* callable (see `runner.PlayMatch`).
"""
from recycle.tournament.journal import GameRecord, Journal, JournalError, config_differences, read_header, records, repair
from recycle.tournament.runner import COMPLETE, DECIDED, INTERRUPTED, RunOutcome, run_tournament
from recycle.tournament.schedule import Game, Schedule, derive_seed
from recycle.tournament.stats import SPRT, ClusterSum, t_quantile, wilson
from recycle.tournament.tally import SprtPair, Tally
from recycle.tournament.workers import PlayMatch, WorkerError

__all__ = [
    "COMPLETE", "DECIDED", "INTERRUPTED", "SPRT", "ClusterSum", "Game", "GameRecord", "Journal", "JournalError",
    "PlayMatch", "RunOutcome", "Schedule", "SprtPair", "Tally", "config_differences", "derive_seed", "read_header",
    "records", "repair", "run_tournament", "t_quantile", "wilson", "WorkerError",
]
