"""Fuzzing: input makers and the checks every input must pass (shared by the fuzz tests and
`bench/fuzz.py`).

Two targets so far, each an *oracle* (`rul_problem`, `recycle_problem`: None when the
input was handled as promised, else what went wrong) and *makers* (grammar-aware
generators and mutators of real files, byte-level noise):

- `.rul` reader: any text is read without an exception, every diagnostic points
  inside the text, `check_text` agrees with `parse_personality`, and a text without
  errors has a canonical form (`str(p)`) that reads back to an equal personality
  and writes the same text again.
- RECYCLE reader + interpreter: any text is read without an exception; a game that
  reads is set up and played by random choices with card conservation checked after
  every step (`new_game(check=True)`) and a determinization for the player on turn
  every few choices (checked too); the only errors allowed are the game's own,
  located at a line of the file (`filename:line:col:`).

Every maker takes a `random.Random`, so a run is reproducible from its seed.
"""
from __future__ import annotations

import random
import re
import traceback

from recycle.kernel.diagnostics import DiagnosticError, Severity
from recycle.kernel.protocol import GameError

# --- .rul ------------------------------------------------------------------------------

#: Characters some editors or systems treat as line or word breaks: the reader must keep the
#: canonical round trip whatever mix of them a file holds.
ODD_WHITESPACE = ("\r", "\r\n", "\n", "\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\t", " ", "\x1c",
                  "\x1d", "\x1e", "\xa0", "\u3000", "\ufeff", "\x00")
_POTENTIALS = ("L", "Lp", "Lt", "Ls", "Lq", "L*", "H", "Hp", "H*", "P", "3", "9", "10", "T", "J", "Q",
               "K", "A", "2", "lp", "h*")
_COMPARISONS = ("<", ">", "=", "!", "<=", ">=", "==", "!=", "=<", "<>", ">>")
_VALUES = ("0", "1", "2", "3", "9", "15", "Q", "K", "A", "T", "J", "99999999999", "x", "-1")


def _variable_names() -> tuple[str, ...]:
    from personalities.variables import Variable

    names = [v.full for v in Variable] + [v.short for v in Variable]
    return tuple(names + [n[:3] for n in names] + ["Foo", "CardVall", "Tot"])


def generate_rul(rng: random.Random, max_lines: int = 12) -> str:
    """A random `.rul` text from the language's own pieces (mostly well-formed, sometimes not)."""
    names, lines = _variable_names(), []
    if rng.random() < 0.7:
        lines.append(";" + rng.choice(("", " ", "  ")) + rng.choice(("my bot", "a\u2028b", "x\x85y", "f\x0cg", "")))
    for _ in range(rng.randint(0, max_lines)):
        roll = rng.random()
        if roll < 0.1:
            lines.append(rng.choice(("", ";", "; note", "   ", "\t; x")))
            continue
        parts = [rng.choice(_POTENTIALS)]
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3, 10, 11))):
            blank = rng.choice((" ", "", "\t"))
            parts.append(f"{rng.choice(names)}{blank}{rng.choice(_COMPARISONS)}{blank}{rng.choice(_VALUES)}")
        if rng.random() < 0.2:
            parts.append("; comment")
        lines.append(rng.choice((" ", "\t", "  ")).join(parts))
    ending = rng.choice(("\n", "\r\n", "\r"))
    return ending.join(lines) + (ending if rng.random() < 0.8 else "")


def mutate_text(text: str, rng: random.Random, pieces: tuple[str, ...] = ODD_WHITESPACE) -> str:
    """`text` changed in one to three places: a piece (by default an odd whitespace) inserted
    or put in place of a character, a span deleted or repeated, a line duplicated, a random
    character (any code point) inserted."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(text))
        roll = rng.random()
        if roll < 0.35:
            text = text[:at] + rng.choice(pieces) + text[at:]
        elif roll < 0.55 and text:
            text = text[:at] + rng.choice(pieces) + text[at + 1:]
        elif roll < 0.7:
            text = text[:at] + text[at + rng.randint(1, 8):]
        elif roll < 0.8:
            end = min(len(text), at + rng.randint(1, 12))
            text = text[:end] + text[at:end] + text[end:]
        elif roll < 0.9:
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        else:
            text = text[:at] + chr(rng.choice((rng.randint(0, 127), rng.randint(128, 0x10FFFF)))) + text[at:]
    return text


def _located(diagnostics, lines: list[str]) -> str | None:
    for d in diagnostics:
        if not (1 <= d.line <= max(1, len(lines)) and 1 <= d.column <= len(lines[d.line - 1]) + 1
                if lines else d.line == 1):
            return f"diagnostic outside the text: line {d.line} column {d.column}: {d.message}"
    return None


def rul_problem(text: str) -> str | None:
    """None if the `.rul` reader handles `text` as promised, else what went wrong."""
    from personalities.reader import RulError, check_text, parse_personality

    try:
        diagnostics = check_text(text, "fuzz.rul")
        try:
            p = parse_personality(text, "fuzz", "fuzz.rul")
        except RulError as exc:
            if not exc.errors:
                return "RulError without an error"
            if exc.diagnostics != diagnostics:
                return "check_text and parse_personality disagree"
            return _located(diagnostics, re.split("\r\n|\r|\n", text.removeprefix("\ufeff")))
        if any(d.severity is Severity.ERROR for d in diagnostics):
            return "check_text reports an error but the personality loads"
        canonical = str(p)
        again = parse_personality(canonical, "fuzz", "fuzz.rul")
        if again != p:
            return f"round trip: {canonical!r} reads back as {again!r}, not {p!r}"
        if str(again) != canonical:
            return f"round trip: the canonical text {canonical!r} is written again as {str(again)!r}"
        return _located(diagnostics, re.split("\r\n|\r|\n", text.removeprefix("\ufeff")))
    except Exception as exc:  # noqa: BLE001 — the oracle reports anything escaping the reader
        return _exception(exc)


# --- RECYCLE ---------------------------------------------------------------------------

_TOKEN = re.compile(r";;[^\n]*|[()]|[^\s()]+|\s+")
#: Words a mutation may put in place of another: the language's own, odd names and numbers.
RECYCLE_WORDS = ("vloc", "iloc", "hloc", "oloc", "mem", "top", "bottom", "game", "player", "team", "any", "all",
                 "move", "remember", "forget", "shuffle", "swap", "repeat", "tuples", "subsets", "^", "*", "+",
                 "-", "//", "%", "fib", "tri", "range", "size", "sum", "max", "min", "using", "points", "sto",
                 "0", "1", "-1", "2", "52", "64", "200", "2000", "100000000", "99999999999999999999", "new",
                 "'C", "'P", "'X", "STOCK", "HAND", "TRICK", "LEAD", "(current player)", "(next player)")


def _forms(tokens: list[str]) -> list[tuple[int, int]]:
    """(start, end) token spans of every parenthesised form (bounded by the text's size)."""
    spans, stack = [], []
    for i, tok in enumerate(tokens):
        if tok == "(":
            stack.append(i)
        elif tok == ")" and stack:
            spans.append((stack.pop(), i + 1))
    return spans


_WORD_KINDS = ({"vloc", "iloc", "hloc", "oloc", "mem"}, {"top", "bottom"}, {"max", "min"}, {"all", "any"},
               {"+", "-", "*", "//", "%", "mod", "^"}, {"==", "!=", "<", ">", "<=", ">="}, {"move", "remember"},
               {"player", "team"}, {"and", "or"})


def _word_kind(word: str) -> object:
    """A class of interchangeable words: numbers, variables, upper-case names, or a set above."""
    if word.lstrip("-").isdigit():
        return "int"
    if word.startswith("'"):
        return "var"
    if word.isupper():
        return "name"
    return next((i for i, kind in enumerate(_WORD_KINDS) if word in kind), word)


def _alike(tokens: list[str], spans: list[tuple[int, int]], rng: random.Random) -> list[tuple[int, int]]:
    """Two forms to exchange, mostly with the same head word (two moves, two conditions...)."""
    first = rng.choice(spans)
    head = tokens[first[0] + 1] if first[0] + 1 < len(tokens) else ""
    same = [sp for sp in spans if sp != first and tokens[sp[0] + 1:sp[0] + 2] == [head]]
    return [first, rng.choice(same if same and rng.random() < 0.8 else [sp for sp in spans if sp != first])]


def mutate_game(text: str, rng: random.Random, donors: list[str] = ()) -> str:
    """A RECYCLE text changed the way a person editing it might break it: a word replaced
    (by the language's words, odd numbers, the game's own words), a form deleted, repeated,
    swapped with another or with one of a donor game, or a few characters of noise."""
    tokens = _TOKEN.findall(text)
    words = [i for i, t in enumerate(tokens) if t not in "()" and not t.isspace() and not t.startswith(";;")]
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        spans, roll = _forms(tokens), rng.random()
        if roll < 0.6 and words:
            i = rng.choice(words)
            pool = RECYCLE_WORDS + tuple(tokens[j] for j in words)
            if rng.random() < 0.8:  # a word of the same kind: more mutants read, and are played
                kind = _word_kind(tokens[i])
                pool = [w for w in pool if _word_kind(w) == kind] or pool
            tokens[i] = rng.choice(pool)
        elif roll < 0.6 and spans:
            a, b = rng.choice(spans)
            tokens[a:b] = []
        elif roll < 0.72 and spans:
            a, b = rng.choice(spans)
            tokens[b:b] = [" "] + tokens[a:b]
        elif roll < 0.84 and len(spans) > 1:
            (a, b), (c, d) = sorted(_alike(tokens, spans, rng))
            if b <= c:  # two disjoint forms: exchanged
                tokens[a:d] = tokens[c:d] + tokens[b:c] + tokens[a:b]
        elif roll < 0.94 and spans and donors:
            donor = _TOKEN.findall(rng.choice(donors))
            donor_spans = _forms(donor)
            if donor_spans:
                a, b = rng.choice(spans)
                c, d = rng.choice(donor_spans)
                tokens[a:b] = donor[c:d]
        else:
            return mutate_text("".join(tokens), rng, ("(", ")", " ", "'", "0", "9", "\n", ";;", "..", ":"))
        words = [i for i, t in enumerate(tokens) if t not in "()" and not t.isspace() and not t.startswith(";;")]
    return "".join(tokens)


_LOCATED = re.compile(r"^fuzz\.gdl:\d+:\d+: ")


def recycle_problem(text: str, seed: int, *, max_choices: int = 120, max_steps: int = 20_000,
                    determinize_every: int = 5, stats: dict | None = None) -> str | None:
    """None if the RECYCLE reader and interpreter handle `text` as promised (read it or give
    located diagnostics; play it, with card conservation checked after every step and a
    checked determinization every `determinize_every` choices, to its end or to an error
    of the game located at a line of it), else what went wrong. `stats` counts what happened."""
    from recycle.interp import new_game
    from recycle.lang import read_game

    stats = {} if stats is None else stats
    rng = random.Random(seed)
    try:
        game, diagnostics = read_game(text, "fuzz.gdl")
        if game is None:
            stats["unread"] = stats.get("unread", 0) + 1
            if not any(d.severity is Severity.ERROR for d in diagnostics):
                return "not read, but no error says why"
            return None
        stats["read"] = stats.get("read", 0) + 1
        try:
            state = new_game(game, seed, max_choices=max_choices, max_steps=max_steps, check=True)
            while not state.is_terminal():
                options = state.legal_actions()
                if state.choices % determinize_every == 0:
                    stats["determinized"] = stats.get("determinized", 0) + 1
                    state.determinize(state.current_player(), rng).legal_actions()
                state.apply(rng.choice(options))
            state.results()
            stats["played"] = stats.get("played", 0) + 1
        except GameError as exc:
            stats["game errors"] = stats.get("game errors", 0) + 1
            if not _LOCATED.match(str(exc)):
                return f"a game error not located at a line of the game: {exc}"
        return None
    except DiagnosticError as exc:
        return f"the reader raised instead of returning diagnostics: {exc}"
    except Exception as exc:  # noqa: BLE001 — the oracle reports anything escaping the interpreter
        return _exception(exc)


def _exception(exc: BaseException) -> str:
    """An exception as a problem: its own line, then the traceback of its root cause (an
    `InternalError` wraps the Python failure: where that was raised is what matters)."""
    root = exc
    while root.__cause__ is not None:
        root = root.__cause__
    return f"exception: {type(exc).__name__}: {exc}\n" + "".join(traceback.format_exception(root, limit=-8))


def problem_signature(problem: str) -> str:
    """What makes a problem the same as another: its first line, or for an exception its type
    and the last frame (where it was raised), without numbers that change from input to input."""
    lines = [line for line in problem.splitlines() if line.strip()]
    if problem.startswith("exception:"):
        frames = [line.strip() for line in lines if line.strip().startswith("File ")]
        return (frames[-1] if frames else "") + " | " + lines[-1].split(":")[0]
    return re.sub(r"\d+", "N", lines[0])[:120] if lines else ""
