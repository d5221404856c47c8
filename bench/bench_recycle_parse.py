"""How long the RECYCLE reader takes over the whole corpus (target: under 3 s).

    python bench/bench_recycle_parse.py [--runs N] [--compare] [--smoke]

Prints the median of N runs of reading every corpus file from memory (file
reading excluded). `--compare` also times what the reader deliberately does
not do: a nested pyparsing s-expression grammar over the same text.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from recycle.lang import read_game
from timing import SHARED, add_smoke_option, smoke



def corpus_texts() -> dict[str, str]:
    corpus = SHARED / "recycle-corpus"
    files = sorted(p for p in corpus.glob("*/*") if p.suffix in (".rcy", ".gdl"))
    if not files:
        sys.exit(f"no corpus at {corpus}")
    return {p.name: p.read_text(encoding="utf-8-sig") for p in files}


def time_runs(texts: dict[str, str], read, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for name, text in texts.items():
            read(text, name)
        times.append(time.perf_counter() - start)
    return times


def pyparsing_sexpr():
    """The rejected design: s-expressions nested by pyparsing itself."""
    import pyparsing as pp

    atom = pp.Regex(r"'?[A-Za-z0-9_]+|\.\.|==|!=|>=|<=|//|[<>+*%^:,-]")
    sexpr = pp.Forward()
    sexpr <<= pp.Group(pp.Suppress("(") + pp.ZeroOrMore(sexpr | atom) + pp.Suppress(")"))
    grammar = (sexpr + pp.Regex(r"[\s\S]*")).ignore(pp.Regex(r";;[^\n]*"))
    return lambda text, name: grammar.parse_string(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare", action="store_true")
    add_smoke_option(parser)
    args = smoke(parser.parse_args(), runs=1)
    texts = corpus_texts()
    size = sum(map(len, texts.values()))
    rejected = sum(read_game(t, n)[0] is None for n, t in texts.items())
    times = time_runs(texts, read_game, args.runs)
    print(f"RECYCLE corpus: {len(texts)} files, {size / 1000:.0f} kB, {rejected} rejected")
    print(f"whole-corpus parse: median {statistics.median(times):.3f} s "
          f"(min {min(times):.3f}, max {max(times):.3f}, {args.runs} runs)")
    if args.compare:
        nested = time_runs(texts, pyparsing_sexpr(), max(1, args.runs // 2))
        print(f"nested pyparsing s-expressions alone: median {statistics.median(nested):.3f} s")


if __name__ == "__main__":
    main()
