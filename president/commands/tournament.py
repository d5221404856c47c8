"""`president tournament`: how strong is a bot, with confidence.

Bots play duplicate deals (every deal replayed with the seating rotated), in
worker processes, every finished match journaled to a JSON Lines file that
`--resume` continues; the table gives rates and means with 95% intervals,
head-to-head shares, OpenSkill ratings, and optionally an SPRT verdict. The
machinery is game-agnostic (`recycle.tournament`); this module adds the
President match, the match of a RECYCLE climbing game (`--game`, rule
personalities through `recycle.climbing.adapter`) and the command line.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
from pathlib import Path
from typing import Any

from recycle.cli.arguments import (GAMES, ROUNDS, SEED, FloatRange, IntRange, UsageError, check_stdout_once,
                                      is_stdout, output_file)
from recycle.kernel.schema import ListOf, Maybe, Obj, Str
from recycle.kernel.specs import AgentSpecError, split_specs
from recycle.players import PRESIDENT, check_agents_for
from recycle.cli.output import progress_bar, write_csv, write_json
from recycle.cli.console import add_wide_option, print_table
from recycle.kernel.journal_file import given_options, interrupted_hint, state_folder
from recycle.tournament import (INTERRUPTED, SPRT, Journal, JournalError, Schedule, SprtPair, Tally,
                                config_differences, read_header, records, run_tournament)
from recycle.tournament.journal import read_full_header
from recycle.tournament import report
from recycle.tournament.cluster import cluster_argument, refuse_jobs_with_cluster, status_line
from personalities.catalog import shown_name

from president.game.settings import Settings
from recycle.climbing.match import RecycleMatch

from president.match.tournament import PresidentMatch
from president.match.simulate import match_seed
from president.cli.common import (add_table_options, console, err_console, read_once, recorded_personalities, rules_dirs,
                     seed_of, table_settings, warn)
from president.game.observation import ordinal, place_title

EXIT_INTERRUPTED = 130
OUTPUTS = ("json", "csv", "plot")  # written again by a resumed run, so its hint repeats them
#: Options that make up the configuration; omitted ones are taken from a resumed file.
CONFIG_OPTIONS = ("bots", "matches", "rounds", "seed", "preset", "overrides", "rules_dir", "sprt",
                  "sprt_p0", "sprt_p1", "sprt_alpha", "sprt_beta", "recycle_game", "climbing", "fallback")
JOBS = IntRange(1, 256)
SHARE = FloatRange(0.0, 1.0, open_low=True, open_high=True)  # --sprt-p0, --sprt-p1
ERROR_RATE = FloatRange(0.0, 0.5, open_low=True, open_high=True)  # --sprt-alpha, --sprt-beta
#: What a resumed file's configuration must be: the options' own types and ranges.
CONFIG_SHAPE = Obj({"bots": ListOf(Str(4096), 0, 1000), "matches": Maybe(GAMES.shape), "rounds": Maybe(ROUNDS.shape),
                    "seed": Maybe(SEED.shape), "preset": Maybe(Str(100)), "overrides": Maybe(ListOf(Str(1000), 0, 100)),
                    "rules_dir": Maybe(Str(4096)), "sprt": Maybe(ListOf(Str(4096), 2, 2)),
                    "sprt_p0": Maybe(SHARE.shape), "sprt_p1": Maybe(SHARE.shape),
                    "sprt_alpha": Maybe(ERROR_RATE.shape), "sprt_beta": Maybe(ERROR_RATE.shape),
                    "recycle_game": Maybe(Str(4096)), "climbing": Maybe(Str(4096)), "fallback": Maybe(Str(4096)),
                    "correction": Maybe(Str(20))},
                   optional=frozenset(CONFIG_OPTIONS + ("correction",)))
#: `--correction`: what the duplicate figures change (recycle/tournament/stats.py); stored in the
#: configuration only when not "none", so results files from before the option resume unchanged.
CORRECTIONS = ("none", "duplicate")
DEFAULTS = {"matches": 10, "preset": "classic", "overrides": [], "sprt_p0": 0.45, "sprt_p1": 0.55,
            "sprt_alpha": 0.05, "sprt_beta": 0.05, "correction": "none"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tournament", help="duplicate-deal tournament: strength with confidence intervals",
                       description="Bots play duplicate deals (each deal replayed with the seating rotated, so "
                                   "every bot plays every hand from every seat). Prints rates and means with 95% "
                                   "intervals, head-to-head shares and OpenSkill ratings. Every finished match is "
                                   "saved at once; --resume continues an interrupted tournament.")
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="random, a shipped personality, a .rul file or an agent spec (name:key=value,...); "
                        "one argument may also list several, comma-separated as for simulate --players")
    p.add_argument("--matches", type=GAMES, help=f"deals to play ({GAMES.text}, default 10); each is played once "
                                                 "per seat rotation, so MATCHES x players matches in all")
    p.add_argument("--rounds", type=ROUNDS, help=f"rounds per match ({ROUNDS.text}, default: the preset's)")
    p.add_argument("--seed", type=SEED, help="random seed (printed when omitted)")
    p.add_argument("-j", "--jobs", type=JOBS, default=None,
                   help="processes playing games (default: all cores): this one and JOBS - 1 workers")
    p.add_argument("--cluster", metavar="ADDRESS", type=cluster_argument,
                   help="play on a Dask cluster instead: a scheduler's tcp://HOST:8786, or local[:N] for N "
                        "worker processes here (pip install 'president-rul[cluster]')")
    add_table_options(p)
    add_wide_option(p)
    p.set_defaults(preset=None, overrides=None)  # None = not given, so --resume can fill it in
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    p.add_argument("--game", dest="recycle_game", metavar="GAME",
                   help="play a RECYCLE climbing game instead (a shipped name such as President5, or a .gdl/.rcy "
                        "file): one game per match; --preset, --set and --rounds do not apply")
    p.add_argument("--climbing", metavar="META", help='with --game: the climbing metadata, e.g. "hand=HAND '
                                                      'table=SEQUENCE order=PRECEDENCE" (default: the game\'s own)')
    p.add_argument("--fallback", metavar="SPEC", help="with --game: the agent taking a personality's decisions "
                                                      "that are not plays or passes (default random)")
    p.add_argument("--sprt", nargs=2, metavar=("A", "B"),
                   help="stop as soon as a sequential test decides whether A finishes above B more often")
    p.add_argument("--sprt-p0", type=SHARE, help="H0: A finishes above B in this share of shared rounds (0.45)")
    p.add_argument("--sprt-p1", type=SHARE, help="H1: the share when A is better (0.55)")
    p.add_argument("--sprt-alpha", type=ERROR_RATE, help="chance of wrongly accepting H1 (0.05)")
    p.add_argument("--sprt-beta", type=ERROR_RATE, help="chance of wrongly accepting H0 (0.05)")
    p.add_argument("--correction", choices=CORRECTIONS, default=None,
                   help="duplicate: points intervals and the SPRT read the deals' own spread (duplicate deals "
                        "cancel the cards' luck), so fewer deals decide; the plain figures stay in --json")
    p.add_argument("--out", metavar="FILE", type=output_file,
                   help="results file, one line per match (default: tournament-SEED.jsonl in the per-user "
                        "state folder, numbered if taken; the path is printed)")
    p.add_argument("--resume", metavar="FILE", help="continue the tournament saved in FILE; options left out "
                                                     "are taken from it, options given must match it")
    p.add_argument("--json", metavar="FILE", type=output_file,
                   help="also write the results as JSON ('-': standard output, instead of the tables)")
    p.add_argument("--csv", metavar="FILE", type=output_file,
                   help="also write the per-bot table as CSV ('-': standard output, instead of the tables)")
    p.add_argument("--plot", metavar="FILE.png", type=output_file,
                   help="draw each bot's finishing-position distribution")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    refuse_jobs_with_cluster(args)
    stored = None
    check_stdout_once(args, "json", "csv")
    if is_stdout(args.plot):
        raise UsageError("--plot draws a picture into a file: name one (FILE.png)")
    args.bots = [spec for text in args.bots for spec in split_specs(text)]
    recorded_files = None
    if args.resume:
        if args.out:
            raise UsageError("--out and --resume exclude each other: results go on in the resumed file")
        stored = read_header(args.resume, CONFIG_SHAPE)
        recorded_files = recorded_personalities(args.resume, read_full_header(args.resume).get("files"))
        for key in CONFIG_OPTIONS + ("correction",):  # what the command line leaves out comes from the file
            if getattr(args, key) in (None, []) and key in stored:
                setattr(args, key, stored[key])
    for key, value in DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if len(args.bots) < 2:
        raise AgentSpecError("name at least two bots (or --resume a results file)")
    if args.plot and importlib.util.find_spec("matplotlib") is None:  # say so now, not after the games
        raise UsageError("--plot needs matplotlib: pip install 'president-rul[plot]'")
    settings = table_settings(args, rounds=args.rounds)
    folders = rules_dirs(args)
    check_agents_for(args.bots, Path(args.recycle_game).stem if args.recycle_game else PRESIDENT)
    # Read once, used throughout: what the game and the bots read now is recorded in the journal and is
    # all that workers (processes or a cluster) and a resumed run ever read; edits made meanwhile change nothing.
    with read_once(recorded_files) as recorded:
        play = (RecycleMatch.of(args.recycle_game, args.climbing, args.fallback, folders) if args.recycle_game
                else PresidentMatch(settings, folders))
        labels, fingerprints = _check_bots(args.bots, play.bot, folders)  # every bot, before any game starts
    sprt = _sprt_pair(args, labels)
    args.seed = seed_of(args)
    config = _config(args, settings, labels, fingerprints)
    if stored is not None:
        differences = config_differences(stored, config)
        if differences:
            raise JournalError(f"{args.resume} was started with a different configuration:\n  "
                               + "\n  ".join(differences))

    n = play.players
    schedule = Schedule(len(args.bots), n, args.matches, args.seed, lambda d: match_seed(args.seed, d))
    tally = Tally(labels, n, sprt)
    if stored is not None:  # locked, every line's digest checked, a line cut short by a kill dropped
        journal = Journal.reopen(args.resume, warn)
        replay = records(args.resume, schedule)
    elif args.out:
        journal, replay = Journal.create(args.out, config, recorded().to_json()), ()
    else:  # not asked where: the per-user state folder, under a name no earlier run took
        journal, replay = Journal.create_new(state_folder(), f"tournament-{args.seed}", config,
                                             recorded().to_json()), ()
    path = journal.path
    jobs = min(args.jobs or os.cpu_count() or 1, schedule.total_games)
    what = _rounds_text(settings) if args.recycle_game is None else Path(play.game).name
    where = f"on the Dask cluster {args.cluster}" if args.cluster else f"{jobs} process(es)"
    err_console.print(f"{len(labels)} bots, {args.matches} deals x {n} seat rotations = {schedule.total_games} "
                      f"matches of {what}, seed {args.seed}, {where}; "
                      f"results in {path}", highlight=False)
    with journal, progress_bar(console, schedule.total_games, "tournament", "games",
                               status=status_line if args.cluster else None) as advance:
        outcome = run_tournament(schedule, args.bots, play, tally, journal,
                                 jobs, replay, advance, cluster=args.cluster, files=recorded())
    summary = tally.summary()
    if not (is_stdout(args.json) or is_stdout(args.csv)):
        _show(summary, n, args.seed, outcome.status, schedule.total_games, args.wide, args.correction == "duplicate")
    data = {"config": config, "status": outcome.status, **summary}
    if args.json:
        write_json(args.json, data)
    if args.csv:
        write_csv(args.csv, *report.csv_rows(summary))
    if args.plot:
        report.plot_places(args.plot, summary, [f"{ordinal(k)} {place_title(k, n)}" for k in range(1, n + 1)],
                           f"finishing places, {summary['rounds']:,} rounds")
    if outcome.status == INTERRUPTED:
        err_console.print(interrupted_hint(f"{summary['games']} of {schedule.total_games} matches counted",
                                           "president tournament", path, *given_options(args, *OUTPUTS)),
                          highlight=False, soft_wrap=True)
        return EXIT_INTERRUPTED
    return 0


def _check_bots(specs: list[str], make, folders: tuple[Path, ...] = ()) -> tuple[list[str], list[str | None]]:
    """Build every bot once with `make` (clear errors, exit 2 or 3); unique labels and rule fingerprints."""
    labels: list[str] = []
    fingerprints: list[str | None] = []
    for spec in specs:
        agent = make(spec)
        personality = getattr(agent, "personality", None)
        # The rules' canonical text: resuming after a .rul file changed is a configuration change.
        fingerprints.append(hashlib.sha256(str(personality).encode()).hexdigest()[:16] if personality else None)
        name = shown_name(spec, folders)  # the user's edited copy is never labelled as the shipped one
        label, k = name, 1
        while label in labels:
            k += 1
            label = f"{name}#{k}"
        labels.append(label)
    return labels, fingerprints


def _sprt_pair(args: argparse.Namespace, labels: list[str]) -> SprtPair | None:
    if not args.sprt:
        return None
    index = {label.lower(): i for i, label in enumerate(labels)}
    found = []
    for name in args.sprt:
        if name.lower() not in index:
            raise AgentSpecError(f"--sprt {name!r} is not one of the bots: {', '.join(labels)}")
        found.append(index[name.lower()])
    if found[0] == found[1]:
        raise AgentSpecError("--sprt needs two different bots")
    try:
        test = SPRT(args.sprt_p0, args.sprt_p1, args.sprt_alpha, args.sprt_beta)
    except ValueError as exc:  # p0 >= p1: each is in range, the pair is not
        raise UsageError(f"--sprt-p0/--sprt-p1/--sprt-alpha/--sprt-beta: {exc}") from None
    return SprtPair(found[0], found[1], test, duplicate=args.correction == "duplicate")


def _config(args: argparse.Namespace, settings: Settings, labels: list[str],
            fingerprints: list[str | None]) -> dict[str, Any]:
    """Everything that decides the results (not -j, not output files)."""
    return {"game": args.recycle_game or "president", **{key: getattr(args, key) for key in CONFIG_OPTIONS},
            **({"correction": args.correction} if args.correction != "none" else {}),
            "bot_labels": labels, "bot_rules": fingerprints,
            "settings": settings.describe() if args.recycle_game is None else None}


def _rounds_text(settings: Settings) -> str:
    parts = [f"{settings.rounds} rounds"] if settings.rounds else []
    if settings.target_score:
        parts.append(f"to {settings.target_score} points")
    return " or ".join(parts) or "rounds"


def _show(summary: dict[str, Any], n: int, seed: int, status: str, total: int, wide: bool,
          duplicate: bool = False) -> None:
    title = (f"{summary['games']:,} of {total:,} matches, {summary['rounds']:,} rounds, seed {seed}"
             + ("" if status == "complete" else f" ({status})"))
    print_table(report.bot_table(summary, title, place_title(1, n), place_title(n, n), wide), wide)
    if summary["head_to_head"]:
        print_table(report.head_to_head_table(summary, wide), wide)
        ranking = report.ranking_table(summary)
        if ranking is not None:
            print_table(ranking, wide)
    if duplicate:
        print_table(report.duplicate_table(summary), wide)
    text = report.sprt_text(summary)
    if text:
        console.print(text, highlight=False)
