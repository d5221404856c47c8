"""Long fuzzing runs: generated and mutated inputs for every target, reproducers saved.

    python bench/fuzz.py --minutes 30 [--seed S] [--out DIR] [--targets rul,recycle]

Targets (one function each, `TARGETS`; the time is shared among them in slices):
- `rul`: the `.rul` reader — generated files, whitespace- and byte-mutated shipped
  and generated files; every input must read without an exception, locate its
  diagnostics inside the text, and keep the canonical round trip
  (`fuzzing.inputs.rul_problem`).
- `recycle`: the RECYCLE reader and interpreter — mutated corpus and shipped games,
  played by random choices with card conservation checked after every step and
  checked determinizations (`fuzzing.inputs.recycle_problem`).
- `cli`: odd command lines for every subcommand of `president` and `recycle`
  (`fuzzing.commands`): exit 0-3, no traceback, no hang;
- `journal`, `transcript`, `deal`: mutated tournament journals, transcripts and
  deal files, read as `--resume`, `replay` and `--deal` read them: used, or
  refused with a located error.

Anything new (an exception, a lost or duplicated card, a round-trip failure, an input
running past its time bound: a hang) is saved in `--out` (default `fuzz-findings/`) as
the input plus a `.txt` with the problem, once per kind of problem (`problem_signature`).
Prints, per target, how many inputs were tried and survived. Same seed, same inputs.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import signal
import sys
import time
from importlib import resources
from pathlib import Path

from timing import SHARED, add_smoke_option, smoke

from fuzzing.inputs import (
    generate_rul,
    mutate_game,
    mutate_text,
    problem_signature,
    recycle_problem,
    rul_problem,
)

#: Seconds one input may take before it counts as a hang (a game plays at most 120 choices).
HANG_SECONDS = {"rul": 2.0, "recycle": 20.0, "cli": 60.0, "journal": 10.0, "transcript": 20.0, "deal": 10.0}
SLICE_SECONDS = 20.0


class Hang(BaseException):
    """Raised by the alarm inside an input that ran too long (not an `Exception`: the oracles
    must not take it for the input's own failure)."""


def _alarm(signum, frame):
    raise Hang()


class Findings:
    """Saves the first input of every new kind of problem in `out` (made when first needed)."""

    def __init__(self, out: Path) -> None:
        self.out, self.seen, self.saved = out, set(), []

    def report(self, target: str, text: str, problem: str, suffix: str) -> bool:
        signature = f"{target}: {problem_signature(problem)}"
        if signature in self.seen:
            return False
        self.seen.add(signature)
        self.out.mkdir(parents=True, exist_ok=True)
        name = f"{target}-{hashlib.sha1(text.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"
        (self.out / f"{name}{suffix}").write_bytes(text.encode("utf-8", "surrogatepass"))
        (self.out / f"{name}.txt").write_text(f"{signature}\n\n{problem}\n", encoding="utf-8")
        self.saved.append(self.out / f"{name}{suffix}")
        print(f"new problem ({target}): {signature} -> {self.out / name}{suffix}", flush=True)
        return True


def _bounded(seconds: float, check, *args, **kwargs) -> str | None:
    """`check(*args)`, or a hang problem when it runs past `seconds` (an interval timer)."""
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return check(*args, **kwargs)
    except Hang:
        return f"hang: still running after {seconds:g} s"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _files(folder: Path, pattern: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(folder.rglob(pattern))] if folder.is_dir() else []


def fuzz_rul(rng: random.Random, seconds: float, findings: Findings, counts: dict) -> None:
    """`.rul` reader: generated files, mutated shipped and generated files."""
    shipped = [p.read_text(encoding="utf-8") for p in sorted(Path(str(resources.files("personalities"))).glob("*.rul"))]
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        roll = rng.random()
        if roll < 0.3:
            text = generate_rul(rng)
        elif roll < 0.8:
            text = mutate_text(rng.choice(shipped) if rng.random() < 0.5 else generate_rul(rng), rng)
        else:  # byte-level: any characters, whitespace or not
            text = mutate_text(rng.choice(shipped), rng, tuple(chr(rng.randint(0, 0x10FFFF)) for _ in range(8)))
        problem = _bounded(HANG_SECONDS["rul"], rul_problem, text)
        counts["inputs"] = counts.get("inputs", 0) + 1
        if problem is not None:
            counts["problems"] = counts.get("problems", 0) + 1
            findings.report("rul", text, problem, ".rul")


def fuzz_recycle(rng: random.Random, seconds: float, findings: Findings, counts: dict) -> None:
    """RECYCLE reader + interpreter: mutated corpus and shipped games, played with checks."""
    texts = _files(SHARED / "recycle-corpus", "*.gdl") + _files(SHARED / "recycle-corpus", "*.rcy") \
        + [p.read_text(encoding="utf-8") for p in sorted(Path(str(resources.files("recycle.games"))).glob("*.gdl"))]
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        text = mutate_game(rng.choice(texts), rng, texts)
        problem = _bounded(HANG_SECONDS["recycle"], recycle_problem, text, rng.randrange(2**31), stats=counts)
        counts["inputs"] = counts.get("inputs", 0) + 1
        if problem is not None:
            counts["problems"] = counts.get("problems", 0) + 1
            findings.report("recycle", text, problem, ".gdl")


# ---- the command lines and the files they read back (fuzzing.commands) ------------------------
_WORK: dict[str, object] = {}


def _cli_files() -> tuple[dict[str, str], Path]:
    """The files the command lines name, made once per run (a FIFO, binary, valid journals...)."""
    if not _WORK:
        import atexit
        import shutil
        import tempfile

        from president.cli import main as president
        from fuzzing import commands as fuzzing
        from recycle.cli import main as recycle

        root = Path(tempfile.mkdtemp(prefix="fuzz-cli-"))
        atexit.register(shutil.rmtree, root, True)
        (root / "cwd").mkdir()
        programs = {"president": (president.main, president.build_parser),
                    "recycle": (recycle.main, recycle.build_parser)}
        _WORK.update(files=fuzzing.make_files(root, programs), cwd=root / "cwd", programs=programs)
    return _WORK["files"], _WORK["cwd"]


def fuzz_cli(rng: random.Random, seconds: float, findings: Findings, counts: dict) -> None:
    """Odd command lines for every subcommand of both programs (worker options included)."""
    from fuzzing import commands as fuzzing

    files, cwd = _cli_files()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        program, argv = fuzzing.random_command_line(rng, files, _WORK["programs"], slow=True)
        problem = fuzzing.command_problem(_WORK["programs"], program, argv, cwd, HANG_SECONDS["cli"])
        counts["inputs"] = counts.get("inputs", 0) + 1
        if problem is not None:
            counts["problems"] = counts.get("problems", 0) + 1
            findings.report("cli", "\n".join([program, *argv]), problem, ".argv")


def _fuzz_file(kind: str, mutate, oracle, suffix: str):
    """A target: mutate one of the made files of `kind`, read it as the commands do."""
    def target(rng: random.Random, seconds: float, findings: Findings, counts: dict) -> None:
        files, cwd = _cli_files()
        original = Path(files[kind]).read_text(encoding="utf-8")
        path = cwd.parent / f"mutated{suffix}"
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            text = mutate(rng, original)
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            problem = _bounded(HANG_SECONDS[kind], oracle, path)
            counts["inputs"] = counts.get("inputs", 0) + 1
            if problem is not None:
                counts["problems"] = counts.get("problems", 0) + 1
                findings.report(kind, text, problem, suffix)
    target.__doc__ = f"Mutated {kind} files, read as the commands read them."
    return target


def _file_targets() -> dict:
    from fuzzing import commands as fuzzing

    return {"journal": _fuzz_file("journal", fuzzing.mutate_lines, fuzzing.journal_problem, ".jsonl"),
            "transcript": _fuzz_file("transcript", fuzzing.mutate_lines, fuzzing.transcript_problem, ".jsonl"),
            "deal": _fuzz_file("deal", fuzzing.mutate_deal, fuzzing.deal_problem, ".txt")}


TARGETS = {"rul": fuzz_rul, "recycle": fuzz_recycle, "cli": fuzz_cli, **_file_targets()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="total time, shared by the targets")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="fuzz-findings", help="folder for reproducers (made when needed)")
    parser.add_argument("--targets", default=",".join(TARGETS), help=f"comma-separated: {', '.join(TARGETS)}")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), minutes=0.1)
    names = [t for t in args.targets.split(",") if t]
    unknown = [t for t in names if t not in TARGETS]
    if unknown or not names or not args.minutes > 0:
        sys.exit(f"unknown target(s) {', '.join(unknown)} (known: {', '.join(TARGETS)})" if unknown
                 else "--minutes must be positive and --targets name at least one target")
    total = args.minutes * 60
    slice_seconds = min(SLICE_SECONDS, total / len(names))
    signal.signal(signal.SIGALRM, _alarm)
    rngs = {name: random.Random(f"{args.seed}:{name}") for name in names}
    counts: dict[str, dict] = {name: {} for name in names}
    spent = {name: 0.0 for name in names}
    findings = Findings(Path(args.out))
    start = time.perf_counter()
    while (left := total - (time.perf_counter() - start)) > 0.5:
        for name in names:
            began = time.perf_counter()
            TARGETS[name](rngs[name], min(slice_seconds, max(0.5, left / len(names))), findings, counts[name])
            spent[name] += time.perf_counter() - began
    print(f"fuzzing for {total / 60:.1f} min, seed {args.seed}")
    for name in names:
        c = counts[name]
        details = ", ".join(f"{k} {v:,}" for k, v in sorted(c.items()) if k not in ("inputs", "problems"))
        survived = c.get("inputs", 0) - c.get("problems", 0)
        print(f"{name:8} {c.get('inputs', 0):8,} inputs in {spent[name]:6.0f} s, {survived:,} survived, "
              f"{c.get('problems', 0):,} with problems" + (f" ({details})" if details else ""))
    print(f"{len(findings.saved)} new kind(s) of problem saved" + (f" in {args.out}" if findings.saved else ""))


if __name__ == "__main__":
    main()
