"""`president evolve START.rul`: a new personality found by mutation and paired tests, written as a
commented `.rul` file a person can read.

    president evolve Classic.rul --budget-hours 0.05 --out evolved/x.rul

Every generation is saved at once to a JSON Lines journal; `--resume JOURNAL`
continues an interrupted run and gives the same result as an uninterrupted one.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time
from pathlib import Path

from personalities.catalog import find_personality, known_names, shipped, shipped_names, shown_name
from personalities.mutation import Candidate, Mutator
from personalities.reader import parse_personality
from recycle.kernel.arguments import SEED, FloatRange, IntRange, UsageError, new_output_file
from recycle.kernel.diagnostics import DiagnosticError, read_user_file
from recycle.kernel.output import progress_bar
from recycle.kernel.specs import split_specs
from recycle.kernel.suggest import hint
from recycle.tournament.cluster import cluster_argument, refuse_jobs_with_cluster, status_line

from ..bots import make_bots
from ..evolution import SIMPLIFY_ALPHA, Arena, Paired, run_generation, simplify_step
from ..evolved_file import evolved_text
from ..rule_stats import count_firings
from .common import add_table_options, console, err_console, rules_dirs, seed_of, table_settings

GENERATIONS, POPULATION, DEALS = IntRange(1, 10_000), IntRange(1, 64), IntRange(2, 100_000)
ALPHA, HOURS = FloatRange(0.0, 0.5, open_low=True, open_high=True), FloatRange(0.0, 1000.0, open_low=True)
JOBS = IntRange(1, 256)
#: A journal holds a header and one line per generation or simplification step (a few kB each).
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
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
                   help="the evolved personality (default Evolved.rul; its folder is created)")
    p.add_argument("--journal", metavar="FILE", type=new_output_file, help="progress file (default evolve-SEED.jsonl)")
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
    config, done = _config(args)
    settings = table_settings(args, rounds=args.rounds)
    folders = rules_dirs(args)
    field = tuple(config["field"])
    make_bots(list(field), len(field), folders)  # every opponent, before any game
    work = Path(config["journal"]).with_suffix(".candidates")
    work.mkdir(parents=True, exist_ok=True)
    with Arena(settings, field, config["seed"], work, args.jobs or 1, args.cluster, folders) as arena:
        return _evolve(args, config, done, settings, field, folders, arena)


def _evolve(args, config, done, settings, field, folders, arena: Arena) -> int:
    donors = [(rule, f"{name} line {rule.line}") for name in shipped_names() for rule in shipped(name).rules]
    mutator = Mutator(donors)
    current = _start(config["start"], folders) if not done else _candidate(done[-1]["survivor"], config)
    lineage = [r["edit"] for r in done if r["kind"] == "generation" and r["edit"]]
    started = time.monotonic()
    budget = args.budget_hours * 3600 if args.budget_hours else None
    with open(config["journal"], "a", encoding="utf-8") as journal:
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
            _write(journal, {"kind": "generation", "number": gen.number, "survivor": _saved(current),
                             "parent_fitness": gen.parent_fitness, "edit": lineage[-1] if edit else None,
                             "gain": paired.mean if paired else None, "t": paired.t if paired else None})
            generation += 1
        evolved = current
        while not simplified and _within(started, budget, SIMPLIFY_SHARE) and steps < 200:
            current, what = simplify_step(arena, current, steps + 1, args.deals)
            steps += 1
            _write(journal, {"kind": "simplify", "step": steps, "survivor": _saved(current), "what": what})
            console.print(f"simplify {steps}: {what or 'nothing more can go'}")
            simplified = what is None
    start = _start(config["start"], folders)
    current, strength, versus, note = _final_choice(arena, current, _evolved(done, evolved, config), start, args)
    opponents = [field[i % len(field)] for i in range(settings.players - 1)]  # the field's first, in turn
    agents, _ = make_bots([arena.spec(current, "final"), *opponents], settings.players, folders)
    fired = count_firings(agents, settings, 200, config["seed"])
    out = Path(args.out or "Evolved.rul")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(evolved_text(current, config, lineage + ([note] if note else []), strength, versus, fired),
                   encoding="utf-8")
    parse_personality(out.read_text(encoding="utf-8"), filename=str(out))  # what we wrote reads back
    lo, hi = versus.interval()
    console.print(f"wrote {out}: {len(current.personality.rules)} rule(s); {strength.mean:.3f} points/round "
                  f"against the field; {versus.mean:+.3f} ({lo:+.3f} to {hi:+.3f}) against {start.personality.name}")
    return 0


def _final_choice(arena: Arena, simplified: Candidate, evolved: Candidate, start: Candidate, args):
    """Measure the simplified, the evolved and the start personality on the same fresh deals; keep the
    simplified one unless the evolved one is measurably better, and never one that scores below the start.

    Returns (chosen, its points per round against the field, its difference from the start, a note)."""
    final = arena.measure([simplified, evolved, start], 2 * args.deals, ("final",))
    chosen, note = 0, None
    if Paired(tuple(b - a for a, b in zip(final[0], final[1]))).better(SIMPLIFY_ALPHA):
        chosen, note = 1, "final check: the unsimplified personality measured better; simplification undone"
    if statistics.fmean(final[chosen]) < statistics.fmean(final[2]):
        chosen, note = 2, "final check: no evolved version scored above the start on fresh deals; the start is kept"
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
    personality = parse_personality(saved["text"], name=config["name"])
    if len(saved["origins"]) != len(personality.rules):
        raise UsageError("the journal's personality and its rule origins do not match")
    return Candidate(personality, tuple(saved["origins"]))


def _write(journal, record: dict) -> None:
    journal.write(json.dumps(record) + "\n")
    journal.flush()


def _config(args: argparse.Namespace) -> tuple[dict, list[dict]]:
    """The run's configuration (from the arguments, or a resumed journal) and the records done."""
    if args.resume:
        text, problems = read_user_file(args.resume, MAX_JOURNAL_BYTES, "an evolve journal")
        if text is None:  # missing, a folder, a FIFO (never opened), too large, not UTF-8
            raise DiagnosticError(problems)
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            config, *done = [json.loads(line) for line in lines[:100_000]]
        except (json.JSONDecodeError, ValueError) as exc:
            raise UsageError(f"{args.resume}: not an evolve journal ({exc})") from None
        if not isinstance(config, dict) or config.get("kind") != "evolve":
            raise UsageError(f"{args.resume}: not an evolve journal")
        for key in ("generations", "population", "deals", "rounds", "alpha"):
            setattr(args, key, config["options"][key])
        config["journal"] = args.resume  # results go on in the resumed file
        return config, done
    if not args.start:
        raise UsageError("name the personality to start from (START.rul), or --resume a journal")
    field = split_specs(args.against) if args.against else shipped_names()
    seed = seed_of(args)
    name = Path(args.out).stem if args.out else "Evolved"
    config = {"kind": "evolve", "start": args.start, "field": field, "seed": seed, "name": name,
              "journal": args.journal or f"evolve-{seed}.jsonl",
              "options": {k: getattr(args, k) for k in ("generations", "population", "deals", "rounds", "alpha")}}
    if Path(config["journal"]).exists():
        raise UsageError(f"{config['journal']} exists: --resume it, or name another --journal")
    _start(args.start, rules_dirs(args))  # a bad start file is an error now, not after a generation
    Path(config["journal"]).parent.mkdir(parents=True, exist_ok=True)
    Path(config["journal"]).write_text(json.dumps(config) + "\n", encoding="utf-8")
    return config, []
