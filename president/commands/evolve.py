"""`president evolve START.rul`: a new personality found by mutation and paired tests, written as a
commented `.rul` file a person can read.

    president evolve Classic.rul --budget-hours 0.05 --out evolved/x.rul

Every generation is saved at once to a JSON Lines journal; `--resume JOURNAL`
continues an interrupted run and gives the same result as an uninterrupted one.
"""
from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from personalities.catalog import find_personality, known_names, shipped, shipped_names, shown_name, user_folder
from personalities.mutation import Candidate, Mutator
from personalities.reader import parse_personality
from recycle.cli.arguments import SEED, FloatRange, IntRange, UsageError, new_output_file
from recycle.kernel import user_files as uploads
from recycle.kernel.journal_file import (Journal, JournalError, given_options, interrupted_hint,
                                         journal_closed_on_error, resume_command, state_folder, verify)
from recycle.kernel.user_files import FileSet, read_once
from recycle.cli.output import progress_bar
from recycle.kernel.specs import split_specs
from recycle.kernel.suggest import hint
from recycle.tournament.cluster import cluster_argument, refuse_jobs_with_cluster, status_line

from president.agents.bots import make_bots
from president.authoring.evolution import SIMPLIFY_ALPHA, Arena, Paired, run_generation, simplify_step
from president.authoring.evolved_file import evolved_text
from president.match.rule_stats import count_firings
from president.cli.common import (add_table_options, console, err_console, recorded_personalities, rules_dirs, seed_of,
                     table_settings, warn)

GENERATIONS, POPULATION, DEALS = IntRange(1, 10_000), IntRange(1, 64), IntRange(2, 100_000)
ALPHA, HOURS = FloatRange(0.0, 0.5, open_low=True, open_high=True), FloatRange(0.0, 1000.0, open_low=True)
JOBS = IntRange(1, 256)
#: A journal holds a header and one line per generation or simplification step (a few kB each).
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
KIND = "an evolve journal"
EXIT_INTERRUPTED = 130
#: Shares of --budget-hours: generations stop after the first, simplification after the second.
EVOLVE_SHARE, SIMPLIFY_SHARE = 0.6, 0.85


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("evolve", help="evolve a personality: mutations kept only when a paired test proves them better",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("start", nargs="?", metavar="START.rul", help="the personality to start from (a file or a name)")
    p.add_argument("--against", metavar="BOTS", help="the field of opponents, comma-separated "
                                                     "(default: every shipped personality)")
    p.add_argument("--generations", type=GENERATIONS, default=20, help="generations (default 20)")
    p.add_argument("--population", type=POPULATION, default=4, help="children tried per generation (default 4)")
    p.add_argument("--deals", type=DEALS, default=20,
                   help="deals per generation, each played once per seat (default 20)")
    p.add_argument("--rounds", type=IntRange(1, 100), default=4, help="rounds per match (default 4)")
    p.add_argument("--alpha", type=ALPHA, default=0.05,
                   help="chance per generation that a child no better than its parent is kept (default 0.05)")
    p.add_argument("--budget-hours", type=HOURS, help="stop in time: generations end at 60%% of it, "
                                                      "simplification at 85%%")
    p.add_argument("--seed", type=SEED, default=None, help="random seed (printed when omitted)")
    p.add_argument("-j", "--jobs", type=JOBS, default=None, help="processes playing games (default 1)")
    p.add_argument("--cluster", metavar="ADDRESS", type=cluster_argument,
                   help="play on a Dask cluster: tcp://HOST:8786, or local[:N] (needs the cluster extra)")
    p.add_argument("--out", metavar="FILE.rul", type=new_output_file,
                   help="the evolved personality (default: Evolved.rul, or Evolved-N.rul if taken, in your "
                        "personalities folder, so it plays by name; its folder is created)")
    p.add_argument("--journal", metavar="FILE", type=new_output_file,
                   help="progress file (default: OUT-evolve-SEED.jsonl beside --out, or evolve-SEED.jsonl in the "
                        "per-user state folder; numbered if taken; the path is printed)")
    p.add_argument("--resume", metavar="FILE", help="continue the run saved in this journal")
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")
    add_table_options(p)
    p.set_defaults(run=run)


def _start(spec: str, folders) -> Candidate:
    personality = None
    if spec.lower().endswith(".rul") and not Path(spec).is_file() and Path(spec).stem in shipped_names():
        personality = shipped(Path(spec).stem)  # `evolve Classic.rul` from any folder: the shipped file
    personality = personality or find_personality(spec, folders)
    if personality is None:
        raise UsageError(f"no personality {spec!r}{hint(spec, known_names(folders))}: name a .rul file or a shipped "
                         "personality")
    name = shown_name(spec, folders)
    if name != spec:  # the user's edited copy: its rules' origins and the report say so
        personality = dataclasses.replace(personality, name=name)
    return Candidate.of(personality, personality.name)


def run(args: argparse.Namespace) -> int:
    refuse_jobs_with_cluster(args)
    journal, config, done, recorded = _open(args)
    with journal, tempfile.TemporaryDirectory(prefix="evolve-candidates-") as work:
        settings = table_settings(args, rounds=args.rounds)
        folders = rules_dirs(args)
        field = tuple(config["field"])
        with Arena(settings, field, config["seed"], Path(work), args.jobs or 1, args.cluster, folders,
                   recorded) as arena:
            try:
                return _evolve(args, journal, config, done, settings, field, folders, arena)
            except KeyboardInterrupt:
                generations = sum(r["kind"] == "generation" for r in done)
                steps = sum(r["kind"] == "simplify" for r in done)
                _show_done(done)
                err_console.print(interrupted_hint(f"{generations} generation(s) and {steps} simplification "
                                                   "step(s) done", "president evolve", journal.path,
                                                   *given_options(args, "cluster", "budget_hours")),
                                  highlight=False, soft_wrap=True)
                return EXIT_INTERRUPTED


def _show_done(done: list[dict]) -> None:
    """What an interrupted run keeps: every generation's outcome and the personality it has reached."""
    for r in done:
        if r["kind"] == "generation":
            console.print(f"{r['edit']}: kept ({r['gain']:+.3f} points/round)" if r["edit"]  # "generation N: ..."
                          else f"generation {r['number']}: parent kept", highlight=False)
        else:
            console.print(f"simplify {r['step']}: {r['what'] or 'nothing more can go'}", highlight=False)
    if done:
        console.print(f"the personality reached so far ({len(done)} step(s)):\n{done[-1]['survivor']['text']}",
                      highlight=False)


def _evolve(args, journal: Journal, config, done: list[dict], settings, field, folders, arena: Arena) -> int:
    """Generations, then simplification, each journaled (and appended to `done`) as it ends."""
    donors = [(rule, f"{name} line {rule.line}") for name in shipped_names() for rule in shipped(name).rules]
    mutator = Mutator(donors)
    start = _candidate(config["start_saved"], config)
    current = start if not done else _candidate(done[-1]["survivor"], config)
    lineage = [r["edit"] for r in done if r["kind"] == "generation" and r["edit"]]
    started = time.monotonic()
    budget = args.budget_hours * 3600 if args.budget_hours else None
    generation = sum(r["kind"] == "generation" for r in done)
    simplified = any(r["kind"] == "simplify" and r["what"] is None for r in done)
    steps = sum(r["kind"] == "simplify" for r in done)
    while generation < args.generations and not steps and _within(started, budget, EVOLVE_SHARE):
        total = (args.population + 1) * args.deals * settings.players
        with progress_bar(err_console, total, f"generation {generation + 1}/{args.generations}", "matches",
                          status=status_line if args.cluster else None) as advance:
            gen = run_generation(arena, mutator, current, generation + 1, args.population, args.deals,
                                 args.alpha, advance)
        edit = gen.children[gen.kept][1] if gen.kept is not None else None
        paired = gen.children[gen.kept][2] if gen.kept is not None else None
        _say(gen, edit, paired)
        current = gen.survivor
        if edit:
            lineage.append(f"generation {gen.number}: {edit}")
        _write(journal, done, {"kind": "generation", "number": gen.number, "survivor": _saved(current),
                               "parent_fitness": gen.parent_fitness, "edit": lineage[-1] if edit else None,
                               "gain": paired.mean if paired else None, "t": paired.t if paired else None})
        generation += 1
    evolved = current
    while not simplified and _within(started, budget, SIMPLIFY_SHARE) and steps < 200:
        current, what = simplify_step(arena, current, steps + 1, args.deals)
        steps += 1
        _write(journal, done, {"kind": "simplify", "step": steps, "survivor": _saved(current), "what": what})
        console.print(f"simplify {steps}: {what or 'nothing more can go'}")
        simplified = what is None
    current, strength, versus, note = _final_choice(arena, current, _evolved(done, evolved, config), start, args)
    opponents = [field[i % len(field)] for i in range(settings.players - 1)]  # the field's first, in turn
    spec = arena.spec(current, "final")
    with uploads.serving(arena.files_with(spec, current)):  # the field as recorded when the run started
        agents, _ = make_bots([spec, *opponents], settings.players, folders)
    fired = count_firings(agents, settings, 200, config["seed"])
    out = Path(config["out"])  # the run's own --out, resumed or not
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(evolved_text(current, config, lineage + ([note] if note else []), strength, versus, fired),
                   encoding="utf-8")
    parse_personality(out.read_text(encoding="utf-8"), filename=str(out))  # what we wrote reads back
    lo, hi = versus.interval()
    console.print(f"wrote {out}: {len(current.personality.rules)} rule(s); {strength.mean:.3f} points/round "
                  f"against the field; {versus.mean:+.3f} ({lo:+.3f} to {hi:+.3f}) against {start.personality.name}")
    if note:
        console.print(note, highlight=False)
    return 0


def _final_choice(arena: Arena, simplified: Candidate, evolved: Candidate, start: Candidate, args):
    """Measure the simplified, the evolved and the start personality on the same fresh deals (seeded, never
    used by a generation); keep the simplified one unless the evolved one is measurably better; and keep
    either only if a paired test on those deals shows it better than the start (the lower end of the
    95% interval of the difference above 0): otherwise the start, unchanged.

    Returns (chosen, its points per round against the field, its difference from the start, a note)."""
    final = arena.measure([simplified, evolved, start], 2 * args.deals, ("final",))
    chosen, note = 0, None
    if Paired(tuple(b - a for a, b in zip(final[0], final[1]))).better(SIMPLIFY_ALPHA):
        chosen, note = 1, "final check: the unsimplified personality measured better; simplification undone"
    gain = Paired(tuple(b - a for a, b in zip(final[2], final[chosen])))
    if (simplified, evolved)[chosen].text == start.text:
        chosen, note = 2, "final check: evolution changed nothing; the start is written unchanged"
    elif gain.interval()[0] <= 0:
        lo, hi = gain.interval()
        chosen = 2
        note = (f"final check: the evolved personality was not shown better than the start on "
                f"{len(gain.diffs)} fresh deals ({gain.mean:+.3f} points/round, 95% interval {lo:+.3f} to "
                f"{hi:+.3f}); the start is written unchanged")
    result = (simplified, evolved, start)[chosen]
    return result, Paired(tuple(final[chosen])), Paired(tuple(b - a for a, b in zip(final[2], final[chosen]))), note


def _evolved(done: list[dict], evolved: Candidate, config: dict) -> Candidate:
    """The personality before simplification (from the journal when a resumed run was simplifying)."""
    generations = [r for r in done if r["kind"] == "generation"]
    if any(r["kind"] == "simplify" for r in done) and generations:
        return _candidate(generations[-1]["survivor"], config)
    return evolved


def _within(started: float, budget: float | None, share: float) -> bool:
    return budget is None or time.monotonic() - started < share * budget


def _say(gen, edit, paired) -> None:
    if edit:
        console.print(f"generation {gen.number}: kept {edit} ({paired.mean:+.3f} points/round, t = {paired.t:.2f})")
    else:
        console.print(f"generation {gen.number}: no child proved better; parent kept "
                      f"({gen.parent_fitness:.3f} points/round)")


def _saved(candidate: Candidate) -> dict:
    return {"text": candidate.text, "origins": list(candidate.origins)}


def _candidate(saved: dict, config: dict) -> Candidate:
    personality = parse_personality(saved["text"], name=saved.get("name", config["name"]))
    if len(saved["origins"]) != len(personality.rules):
        raise UsageError("the journal's personality and its rule origins do not match")
    return Candidate(personality, tuple(saved["origins"]))


def _write(journal: Journal, done: list[dict], record: dict) -> None:
    journal.append(record)
    done.append(record)


@contextmanager
def _as_journal_error(path) -> Iterator[None]:
    """A header of the wrong shape (its chain intact: forged, or of another version) is refused, not a bug."""
    try:
        yield
    except (KeyError, TypeError, AttributeError) as exc:
        raise JournalError(f"{path}: not an evolve journal this program can continue (no {exc})") from None


def _free_name(folder: Path, stem: str) -> Path:
    """`stem.rul` in `folder`, or `stem-2.rul`, ...: never over a personality already there."""
    k = 1
    while (folder / (f"{stem}.rul" if k == 1 else f"{stem}-{k}.rul")).exists():
        k += 1
    return folder / (f"{stem}.rul" if k == 1 else f"{stem}-{k}.rul")


def _open(args: argparse.Namespace) -> tuple[Journal, dict, list[dict], FileSet]:
    """The run's journal (created, or resumed and locked), its configuration, the records done and the
    user files it reads (recorded at the start: edits made since change nothing, and are named)."""
    if args.resume:
        journal, config = Journal.resume(args.resume, MAX_JOURNAL_BYTES, KIND, warn,
                                         expect=lambda header: header.get("kind") == "evolve")
        with journal_closed_on_error(journal), _as_journal_error(journal.path):
            done = [data for _, data in verify(journal.path, MAX_JOURNAL_BYTES, KIND)][1:]
            for key in ("generations", "population", "deals", "rounds", "alpha"):
                setattr(args, key, config["options"][key])
            args.preset, args.overrides = config["table"]["preset"], config["table"]["overrides"]
            args.rules_dir = config["table"].get("rules_dir")
            if args.out and Path(args.out).resolve() != Path(config["out"]).resolve():
                raise UsageError(f"--out: this run writes {config['out']} (recorded in its journal); "
                                 "leave --out out when resuming")
            recorded = recorded_personalities(str(journal.path), config["files"])
        return journal, config, done, recorded
    if not args.start:
        raise UsageError("name the personality to start from (START.rul), or --resume a journal")
    field = split_specs(args.against) if args.against else shipped_names()
    seed = seed_of(args)
    out = Path(args.out) if args.out else _free_name(user_folder(), "Evolved")
    with read_once(None) as recorded:  # the start and the field, read once for the whole run
        start = _start(args.start, rules_dirs(args))  # a bad start file is an error now, not after a generation
        make_bots(list(field), len(field), rules_dirs(args))  # every opponent, before any game
    config = {"kind": "evolve", "start": args.start, "field": field, "seed": seed, "name": out.stem,
              "out": str(out), "start_saved": {**_saved(start), "name": start.personality.name},
              "table": {"preset": args.preset, "overrides": args.overrides, "rules_dir": args.rules_dir},
              "options": {k: getattr(args, k) for k in ("generations", "population", "deals", "rounds", "alpha")},
              "files": recorded().to_json()}
    if args.journal:
        journal = Journal.create(args.journal, config)
    else:  # beside --out when given, else in the per-user state folder; never over an earlier run's
        folder = out.parent if args.out else state_folder()
        journal = Journal.create_new(folder, f"{out.stem}-evolve-{seed}" if args.out else f"evolve-{seed}", config)
    err_console.print(f"journal: {journal.path} (continue an interrupted run with: "
                      f"{resume_command('president evolve', journal.path)})", highlight=False, soft_wrap=True)
    return journal, config, [], recorded()
