"""The generated Python of every function the fast engine makes, per game, hashed: what a change
to the compilers must leave alone (or change only where it says why).

    python bench/codegen_digest.py --write /tmp/before.json [--dump DIR]
    python bench/codegen_digest.py --check /tmp/before.json [--dump DIR]
    PYTHONPATH=OTHER_COPY python bench/codegen_digest.py --write /tmp/before.json   (another checkout's code)

For the 6 shipped games and every corpus game (`../shared/recycle-corpus`, when present): on the
compiled engine, a generated function asked for every expression node of the game's tree, then
two seeded traced games and two random playouts (statements, explorers, quiet runners, rounds).
Every text `Source.build` compiles is kept; a game's digest is the sha256 of its distinct texts,
sorted.
`--dump DIR` writes each game's texts to DIR/<game>.py, for `diff -r` between two runs;
`--check` prints the games whose digest differs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from pathlib import Path

from recycle.games import game_path
from recycle.interp import new_game, source
from recycle.interp.engine import Engine
from recycle.lang import load_game
from recycle.lang import tree as T

HERE = Path(__file__).resolve().parent.parent

SHIPPED = ["President5", "Hearts4", "Poker5", "BigTwo4", "Daifugo4", "TidesOfTime2"]
CORPUS = Path(os.environ.get("PRESIDENT_SHARED_DIR", HERE.parent / "shared")) / "recycle-corpus"

_built: list[str] = []
_build = source.Source.build


def _recording(self, node):
    _built.append(f"# {type(node).__name__} {getattr(node, 'line', 0)}:{getattr(node, 'column', 0)}\n{self.text()}")
    return _build(self, node)


def games() -> list[tuple[str, Path]]:
    found = [(name, game_path(name)) for name in SHIPPED]
    if CORPUS.is_dir():
        found += sorted((p.relative_to(CORPUS).as_posix(), p) for p in CORPUS.glob("*/*")
                        if p.suffix in (".rcy", ".gdl"))
    return found


def texts(path: Path) -> list[str]:
    """Every generated function's text for one game (see the module's text)."""
    _built.clear()
    try:
        game = load_game(path)
        state = new_game(game, 0, transcript=True, engine=Engine.COMPILED)
        ex = state.rules.ex
        for node in T.walk(game):
            if not isinstance(node, (T.Game,)) and type(node).__name__[0].isupper():
                try:
                    ex.compiler.function(node)
                except Exception:  # noqa: BLE001 — not an expression: nothing to write
                    pass
        for seed in (0, 1):
            s, rng = new_game(game, seed, transcript=True, engine=Engine.COMPILED), random.Random(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
            new_game(game, seed, engine=Engine.COMPILED).random_playout(random.Random(seed))
    except Exception as e:  # noqa: BLE001 — a game that cannot play: what was made so far, and why
        _built.append(f"# stopped: {type(e).__name__}")
    return sorted(set(_built))  # (a function made again for another game of the same rules: once)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", type=Path)
    ap.add_argument("--check", type=Path)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--only", help="games whose name contains this")
    ap.add_argument("--smoke", action="store_true", help="President5 only (checks the script)")
    args = ap.parse_args(argv)
    source.Source.build = _recording
    digests, count = {}, 0
    for name, path in games():
        if args.only and args.only not in name or args.smoke and name != "President5":
            continue
        got = texts(path)
        count += len(got)
        digests[name] = hashlib.sha256("\n\n".join(got).encode()).hexdigest()
        if args.dump:
            out = args.dump / (name.replace("/", "_") + ".py")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text("\n\n".join(got) + "\n", encoding="utf-8")
    print(f"{len(digests)} games, {count} generated functions")
    if args.write:
        args.write.write_text(json.dumps(digests, indent=1, sort_keys=True), encoding="utf-8")
    if args.check:
        before = json.loads(args.check.read_text(encoding="utf-8"))
        differ = [name for name in digests if before.get(name) != digests[name]]
        print(f"{len(differ)} differ" + (": " + ", ".join(differ) if differ else ""))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
