"""Reading `.rul` files: text -> `Personality`, or every error in the file.

    >>> p = parse_personality("; Cautious\\nlp CardVal < Q\\nL*\\n", name="Cautious")
    >>> [str(r) for r in p.rules]
    ['Lp CardVal < Q', 'L*']

Each line is parsed on its own (grammar.py) and its names and values checked
here, so all errors of a file are reported together, as `Diagnostic`s from
`recycle.kernel.diagnostics`. Warnings (rules that can never fire, conditions that can
never be true) do not stop a file from loading; they are in
`Personality.warnings`. Input is bounded: files over 1 MB and lines over 10,000
characters are rejected before parsing, and reading stops after 5,000 rules.
Nothing in a file is evaluated.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from pyparsing import ParseBaseException

from recycle.kernel.diagnostics import Diagnostic, DiagnosticError, Severity, read_user_file
from recycle.kernel.suggest import nearest_names

from personalities import grammar
from personalities.grammar import Problem, RawCondition, Token
from personalities.syntax import (
    MAX_CONDITIONS,
    MAX_FILE_BYTES,
    MAX_VALUE,
    Condition,
    Comparison,
    Modifier,
    Personality,
    Potential,
    PotentialKind,
    Rule,
)
from personalities.view import TWO, card_value
from personalities.variables import (
    AmbiguousVariable,
    Variable,
    VariableError,
    resolve_variable,
    shortest_prefixes,
    span_text,
)

MAX_LINE_CHARS = 10_000
MAX_RULES = 5_000  # bounds the time an absurd file can take (about 60 us a rule)
#: Lines end at LF, CRLF or a lone CR (old Mac files). Other separators (U+2028, NEL, form
#: feed...) are characters of the line, as in the editors: a description keeps them verbatim.
#: Unknown names longer than this are compared by their start only (the hint search is quadratic).
MAX_NAME_CHARS = 40
#: Distinct unknown variable names per file that get a "did you mean" hint (see `_Hints`).
MAX_HINTED = 200
_LINE_BREAK = re.compile("\r\n|\r|\n")
_CARD_VARIABLES = ", ".join(v.full for v in Variable if v.is_card_value)
_DEFAULT_TABLE = "ranges are those of the default table (5 players, 52 cards)"


class RulError(DiagnosticError, ValueError):
    """A `.rul` text that cannot drive a player; `.diagnostics` has every error and warning."""


# --- public entry points -------------------------------------------------------

def parse_personality(text: str, name: str | None = None, filename: str = "<string>") -> Personality:
    """The personality in `text`; raises `RulError` with all diagnostics if any error."""
    personality, diagnostics = _read(text, name, filename)
    if personality is None:
        raise RulError(diagnostics)
    return personality


def load_personality(path: str | Path) -> Personality:
    """The personality in a `.rul` file, named after the file stem (case kept)."""
    text, diagnostics = _read_file(path)
    if text is None:
        raise RulError(diagnostics)
    return parse_personality(text, Path(path).stem, str(path))


def check_text(text: str, filename: str = "<string>") -> list[Diagnostic]:
    """Every error and warning in `text`, in line order; never raises."""
    return _read(text, None, filename)[1]


def check_file(path: str | Path) -> list[Diagnostic]:
    """Every error and warning in the file at `path`; never raises."""
    text, diagnostics = _read_file(path)
    return diagnostics if text is None else check_text(text, str(path))


def parse_potential(text: str) -> Potential:
    """One potential (`Lp`, `10`, `P`); raises `RulError`."""
    return _fragment(grammar.parse_potential_text, text, "<potential>", lambda tok: (_potential(tok), []))


def parse_condition(text: str) -> Condition:
    """One condition (`CardVal < Q`); raises `RulError`."""
    return _fragment(grammar.parse_condition_text, text, "<condition>", _condition)


# --- reading ----------------------------------------------------------------------

def _read(text: str, name: str | None, filename: str) -> tuple[Personality | None, list[Diagnostic]]:
    """The personality (None if any error) and every diagnostic, in line order."""
    if name is None:
        name = "" if filename.startswith("<") else Path(filename).stem
    if len(text) > MAX_FILE_BYTES:
        return None, [_too_large(filename, len(text), "characters")]
    rules: list[Rule] = []
    diagnostics: list[Diagnostic] = []
    description = ""
    rule_lines = 0
    hints = _Hints()
    for number, line in enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), 1):
        if len(line) > MAX_LINE_CHARS:
            diagnostics.append(Diagnostic(
                filename, number, MAX_LINE_CHARS + 1,
                f"line too long ({len(line)} characters; the limit is {MAX_LINE_CHARS})"))
        elif grammar.is_rule_line(line):
            rule_lines += 1
            if rule_lines > MAX_RULES:
                diagnostics.append(Diagnostic(
                    filename, number, 1, f"too many rules: at most {MAX_RULES:,}",
                    source_line=line, hint="the rest of the file is not read"))
                break
            rule, problems = _rule(line, number, hints)
            diagnostics += [_diagnostic(p, filename, number, line, sev) for p, sev in problems]
            if rule is not None:
                rules.append(rule)
        elif not description and line.strip():
            description = line.strip().lstrip(";").strip()
    diagnostics += (_diagnostic(p, filename, r.line, r.source, Severity.WARNING)
                    for r, p in _shadowed(rules))
    if not rules and not diagnostics:
        diagnostics.append(Diagnostic(filename, 1, 1, "the file has no rules: this personality always passes",
                                      hint="a rule is <potential cards> [<condition> ...], e.g. 'Lp CardVal < Q'",
                                      severity=Severity.WARNING))
    diagnostics.sort(key=lambda d: (d.line, d.column))
    if any(d.severity is Severity.ERROR for d in diagnostics):
        return None, diagnostics
    warnings = tuple(diagnostics)
    return Personality(name, tuple(rules), description, filename, warnings), diagnostics


def _read_file(path: str | Path) -> tuple[str | None, list[Diagnostic]]:
    return read_user_file(path, MAX_FILE_BYTES, "a .rul file")


def _too_large(filename: str, size: int, unit: str) -> Diagnostic:
    return Diagnostic(filename, 1, 1,
                      f"file too large ({size} {unit}; the limit is {MAX_FILE_BYTES:,} bytes)",
                      hint="a .rul file is a few kilobytes")


def _diagnostic(problem: Problem, filename: str, line: int, source: str,
                severity: Severity) -> Diagnostic:
    return Diagnostic(filename, line, problem.start + 1, problem.message, source,
                      max(1, problem.length), problem.expected, problem.hint, severity)


def _fragment(parse: Callable, text: str, filename: str, convert: Callable) -> Any:
    """Parse a lone potential or condition with the same checks as in a file."""
    line = text.removesuffix("\n").removesuffix("\r")
    try:
        result, problems = convert(parse(line))
    except ParseBaseException as exc:
        result, problems = None, [grammar.explain(exc, line)]
    if problems:
        raise RulError([_diagnostic(p, filename, 1, line, Severity.ERROR) for p in problems])
    return result


# --- one rule line ----------------------------------------------------------------

def _rule(line: str, number: int, hints: _Hints) -> tuple[Rule | None, list[tuple[Problem, Severity]]]:
    """The rule on a line, or None, with its problems (errors and warnings)."""
    try:
        raw = grammar.parse_rule(line)
    except ParseBaseException as exc:
        failure = grammar.explain(exc, line)
        problems = [failure]  # and the mistakes of the line's other conditions (every error)
        for other in grammar.other_conditions(line, failure):
            problems += [other] if isinstance(other, Problem) else _condition(other, hints)[1]
        problems.sort(key=lambda p: p.start)
        return None, [(p, Severity.ERROR) for p in problems]
    problems: list[Problem] = []
    if len(raw.conditions) > MAX_CONDITIONS:
        extra = raw.conditions[MAX_CONDITIONS]
        problems.append(Problem(extra.start, extra.end - extra.start,
                                f"too many conditions: at most {MAX_CONDITIONS} conditions per rule",
                                "the end of the rule", "split the rule into several rules"))
    potential = _potential(raw.potential)
    conditions = []
    for raw_condition in raw.conditions:
        condition, condition_problems = _condition(raw_condition, hints)
        problems += condition_problems
        conditions.append(condition)
    if problems:
        return None, [(p, Severity.ERROR) for p in problems]
    warnings = [_never_true(potential, c, raw_c) for c, raw_c in zip(conditions, raw.conditions)]
    rule = Rule(potential, tuple(conditions), number, line)
    return rule, [(w, Severity.WARNING) for w in warnings if w]


_KINDS = {"L": PotentialKind.LOWEST, "H": PotentialKind.HIGHEST}


def _potential(token: Token) -> Potential:
    """A potential from text the grammar has already checked."""
    text = token.text.upper()
    if text == "P":
        return Potential(PotentialKind.PASS)
    if text[0] in _KINDS:
        return Potential(_KINDS[text[0]], modifier=Modifier(text[1:].lower() or "s"))
    return Potential(PotentialKind.VALUE, card_value(text))


def _condition(raw: RawCondition, hints: _Hints | None = None) -> tuple[Condition | None, list[Problem]]:
    """A condition, or None and what is wrong with its variable or value."""
    name, value = raw.variable, raw.value
    text = value.text.upper()
    too_large = [Problem(value.start, len(text), f"number too large: '{value.text}'",
                         f"a whole number up to {MAX_VALUE}")] if len(text) > len(str(MAX_VALUE)) else []
    try:
        variable = resolve_variable(name.text)
    except AmbiguousVariable as exc:
        names = " or ".join(v.full for v in exc.candidates)
        prefixes = ", ".join(f"'{p}'" for p in shortest_prefixes(exc.candidates, name.text))
        return None, [Problem(name.start, len(name.text), f"ambiguous variable '{name.text}': {names}",
                              "a game variable", f"write more letters: {prefixes}")] + too_large
    except VariableError:
        close = (hints or _Hints()).nearest(name.text)
        hint = f"did you mean {' or '.join(close)}?" if close else ""
        return None, [Problem(name.start, len(name.text), f"unknown variable '{name.text}'",
                              "a game variable (full name, short name or unique prefix)", hint)] + too_large
    if text.isdigit():
        if too_large:
            return None, too_large
        number = int(text)
        number = TWO if number == 2 and variable.is_card_value else number
    elif variable.is_card_value:
        number = card_value(text)
    else:
        return None, [Problem(value.start, len(text),
                              f"card letter '{value.text}' compared with {variable.full}, not a card value",
                              "a whole number", f"card letters go only with {_CARD_VARIABLES}")]
    comparison = Comparison.from_symbol(raw.comparison.text)
    return Condition(variable, comparison, number, raw.start + 1), []


class _Hints:
    """"Did you mean" for unknown variables, within a budget per file: the search costs about
    0.1 ms a name, so a file of thousands of unknown names gets hints for its first
    `MAX_HINTED` distinct ones only (a file repeats its typos: each is searched once)."""

    def __init__(self) -> None:
        self.left, self.known = MAX_HINTED, {}

    def nearest(self, name: str) -> tuple[str, ...]:
        key = name.lower()[:MAX_NAME_CHARS]
        got = self.known.get(key)
        if got is None:
            if self.left <= 0:
                return ()
            self.left -= 1
            got = self.known[key] = tuple(nearest_names(key, [v.full for v in Variable]))
        return got


# --- warnings -----------------------------------------------------------------------

def _never_true(potential: Potential, condition: Condition, raw: RawCondition) -> Problem | None:
    """A warning if no value of the variable (default table) satisfies the condition."""
    values, context = _possible_values(condition.variable, potential)
    if condition.comparison.can_hold(values, condition.value):
        return None
    hint = _DEFAULT_TABLE
    if condition.variable.is_card_value and condition.value == TWO:
        hint = f"for {condition.variable.full}, 2 means a two (15); " + hint
    return Problem(raw.start, raw.end - raw.start,
                   f"condition can never be true: {condition.variable.full} is "
                   f"{span_text(values)}{context}", "", hint)


def _possible_values(variable: Variable, potential: Potential) -> tuple[frozenset[int], str]:
    """The values a variable can take when `potential` is tested, and why if narrowed."""
    if variable.depends_on_play and potential.kind is PotentialKind.PASS:
        return frozenset({0}), " for P"
    if variable is Variable.CARD_VAL and potential.kind is PotentialKind.VALUE:
        return frozenset({potential.value}), f" for {potential}"
    if variable is Variable.CARD_VAL:
        return frozenset(range(3, TWO)), " for L and H (never a two)"
    if variable is Variable.NUM_THIS_VALUE and potential.modifier and potential.modifier.count:
        return frozenset({potential.modifier.count}), f" for {potential}"
    return variable.possible_values, ""


def _shadowed(rules: list[Rule]):
    """(rule, warning) for each rule after an unconditional rule with the same potential."""
    winners: dict[Potential, Rule] = {}
    for rule in rules:
        winner = winners.get(rule.potential)
        if winner is not None:
            word = grammar.first_word(rule.source)
            yield rule, Problem(
                word.start, len(word.text),
                f"rule can never fire: line {winner.line} ('{winner}') always wins before it",
                "", f"move this rule above line {winner.line}, or give line {winner.line} conditions")
        elif not rule.conditions:
            winners[rule.potential] = rule
