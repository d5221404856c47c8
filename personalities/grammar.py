"""The pyparsing grammar of one `.rul` line, and plain-words explanations of its failures.

A file is parsed line by line (one rule per line), so one bad line never hides
the errors of the next ones. The grammar checks the *shape* of a rule:

    rule      = potential - {condition | stray comparison} [excess] [comment] end
    condition = variable - comparison - value

(at most 11 conditions are parsed: the 11th is already an error, and skipping
the excess unparsed bounds the work an absurd line can cause).

`-` (pyparsing's "no backtracking") follows each unambiguous head, so a failure
is reported where the mistake is (`CardVal Q` fails at `Q`: missing comparison)
rather than at the start of the condition. Variable names are taken as any
word and resolved afterwards by the reader, which can then say "did you mean".

Everything is case-insensitive and ASCII-only (`re.ASCII`, so the Kelvin sign
is not a `K`); blanks are spaces and tabs (also CR, FF, VT); tabs are kept, so
columns count characters.
Parsing builds `Token`s with their offsets; nothing is evaluated.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from pyparsing import (
    Group,
    Optional,
    ParseBaseException,
    ParserElement,
    ParseSyntaxException,
    Regex,
    StringEnd,
)

from personalities.syntax import MAX_CONDITIONS
from personalities.variables import VariableError, resolve_variable

BLANKS = " \t\r\f\v"
_NOT_BLANK = r"[^ \t\r\f\v;]"
_ENDS_WORD = r"(?=[ \t\r\f\v;]|$)"  # a token must be followed by a blank, a comment or the end
_FLAGS = re.IGNORECASE | re.ASCII
_FIRST_WORD = re.compile(_NOT_BLANK + "*")
COMPARISON_CHARS = "<>=!"

POTENTIAL_EXPECTED = (
    "potential cards: 3-9, T (or 10), J, Q, K, A, 2, P, or L/H with an optional s, p, t, q, r or *"
)
COMPARISON_EXPECTED = "a comparison: > < = ! >= <= (or == !=)"
VALUE_EXPECTED = "a value: a whole number, or a card letter T J Q K A for card values"
CONDITION_HINT = "a condition is <variable> <comparison> <value>, e.g. 'CardVal < Q'"


class Token(NamedTuple):
    """A piece of a line as written, with its 0-based offset. (Named tuples, not frozen
    dataclasses: a 10,000-line file makes 100,000 of them, and these are 5 times cheaper.)"""

    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


class RawCondition(NamedTuple):
    """A condition as written, before its variable is resolved."""

    variable: Token
    comparison: Token
    value: Token

    @property
    def start(self) -> int:
        return self.variable.start

    @property
    def end(self) -> int:
        return self.value.end


@dataclass(frozen=True, slots=True)
class RawRule:
    """A rule line whose shape is right; names and values are still text."""

    potential: Token
    conditions: tuple[RawCondition, ...]


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong on one line: where (0-based offset, length) and what."""

    start: int
    length: int
    message: str
    expected: str = ""
    hint: str = ""


class StrayComparison(ParseSyntaxException):
    """A comparison where a condition should start: its variable is missing.

    A ParseSyntaxException so that enclosing `-` sequences pass it on unchanged.
    """


def _token(pattern: str, name: str) -> ParserElement:
    element = Regex(pattern, flags=_FLAGS).set_name(name)
    element.set_whitespace_chars(BLANKS, copy_defaults=False)
    return element.add_parse_action(lambda s, loc, toks: Token(toks[0], loc))


def _stray(s: str, loc: int, toks) -> None:
    raise StrayComparison(s, loc, "comparison without a variable", STRAY)


POTENTIAL_PATTERN = r"10|[2-9tjqka]|[lh][sptqr*]?|p"
POTENTIAL = _token(rf"(?:{POTENTIAL_PATTERN}){_ENDS_WORD}", "potential cards")
VARIABLE = _token(r"[^ \t\r\f\v;<>=!]+", "game variable")
COMPARISON = _token(r"(?:>=|<=|==|!=|[<>=!])(?![<>=!])", "comparison")
_VALUE_PATTERN = r"[0-9]+|[tjqka]"
VALUE = _token(rf"(?:{_VALUE_PATTERN}){_ENDS_WORD}", "value")
STRAY = _token(r"[<>=!]+", "condition").add_parse_action(_stray)
COMMENT = _token(r";.*", "comment").suppress()
END = StringEnd().set_name("end of rule")
END.set_whitespace_chars(BLANKS, copy_defaults=False)

CONDITION = (VARIABLE - COMPARISON - VALUE).add_parse_action(
    lambda s, loc, toks: RawCondition(*toks)
)
EXCESS = _token(r"[^;]+", "more conditions").suppress()
RULE = (POTENTIAL - Group((CONDITION | STRAY)[0, MAX_CONDITIONS + 1])
        - Optional(EXCESS) - Optional(COMMENT) - END)
POTENTIAL_ONLY = POTENTIAL - Optional(COMMENT) - END
CONDITION_ONLY = CONDITION - Optional(COMMENT) - END
for _element in (RULE, POTENTIAL_ONLY, CONDITION_ONLY):
    _element.parse_with_tabs().streamline()

# The fast path of `parse_rule`: the same tokens as the grammar above, as plain regular expressions.
_B = f"[{BLANKS}]*"


def _condition_pattern(group: str) -> str:
    """A condition with blanks before it; `group` "(" captures its three tokens, "(?:" does not."""
    return (f"{_B}{group}{VARIABLE.re.pattern}){_B}{group}{COMPARISON.re.pattern}){_B}"
            f"{group}{VALUE.re.pattern})")


_FAST_POTENTIAL = re.compile(POTENTIAL_PATTERN, _FLAGS)
_FAST_CONDITION = re.compile(_condition_pattern("("), _FLAGS)
_FAST_RULE = re.compile(f"{_B}({POTENTIAL.re.pattern})((?:{_condition_pattern('(?:')}){{0,{MAX_CONDITIONS}}})"
                        f"{_B}(?:;.*)?\\Z", _FLAGS)


def other_conditions(line: str, failure: Problem) -> list[RawCondition | Problem]:
    """After the grammar failed on `line` at `failure`: the line's other conditions, read one by
    one so that their own mistakes are reported too (docs/rul-language.md: every error), as a `RawCondition`
    each, and a `Problem` for the first piece of each stretch that is not a condition (the
    words after it, up to the next well-formed condition, are skipped: no cascade of errors).
    Bounded: every step moves past at least one word."""
    out: list[RawCondition | Problem] = []
    head = first_word(line)  # the potential cards; if not, maybe already a condition (`CardVal < 3`)
    pos, skipping = (head.end if _FAST_POTENTIAL.fullmatch(head.text) else head.start), False
    while True:
        pos = len(line) - len(line[pos:].lstrip(BLANKS))
        if pos >= len(line) or line[pos] == ";":
            return out
        match = _FAST_CONDITION.match(line, pos)
        if match is not None:
            if not match.start(1) <= failure.start < match.end():  # (else: the failure itself)
                out.append(RawCondition(*(Token(match.group(k), match.start(k)) for k in (1, 2, 3))))
            pos, skipping = match.end(), False
            continue
        if not skipping and not failure.start >= pos:
            try:
                CONDITION.parse_string(line[pos:])
            except ParseBaseException as exc:
                piece = explain(exc, line[pos:])
                out.append(Problem(pos + piece.start, piece.length, piece.message, piece.expected, piece.hint))
        skipping = True  # up to the next well-formed condition
        word = _WORD.match(line, pos)
        pos = pos + 1 if word is None else word.end()


def is_rule_line(line: str) -> bool:
    """False for blank lines and whole-line comments."""
    head = line.lstrip(BLANKS)
    return bool(head) and not head.startswith(";")


def first_word(line: str) -> Token:
    """The first blank-separated word of a line (a rule's potential cards)."""
    match = _FIRST_WORD.search(line, len(line) - len(line.lstrip(BLANKS)))
    return Token(match.group(), match.start())


def parse_rule(line: str) -> RawRule:
    """The shape of one rule line; raises pyparsing's ParseBaseException (see `explain`).

    A well-formed line (the great majority) is read by one regular expression that accepts
    exactly what the grammar accepts with at most `MAX_CONDITIONS` conditions, giving the same
    tokens 20 times faster; any other line goes through the grammar, which explains it."""
    whole = _FAST_RULE.match(line)
    if whole is not None:
        potential = Token(whole.group(1), whole.start(1))
        conditions = tuple([
            RawCondition(Token(m[1], m.start(1)), Token(m[2], m.start(2)), Token(m[3], m.start(3)))
            for m in _FAST_CONDITION.finditer(line, whole.end(1), whole.end(2))])
        return RawRule(potential, conditions)
    result = RULE.parse_string(line, parse_all=True)
    return RawRule(result[0], tuple(result[1]))


def parse_potential_text(text: str) -> Token:
    return POTENTIAL_ONLY.parse_string(text, parse_all=True)[0]


def parse_condition_text(text: str) -> RawCondition:
    return CONDITION_ONLY.parse_string(text, parse_all=True)[0]


# --- explaining failures ------------------------------------------------------

_WORD = re.compile(r"[<>=!]+|[^ \t\r\f\v;<>=!]+")
_CMP_RUN = re.compile(r"[<>=!]+")
_COMPARISON_FIXES = {"=>": ">=", "=<": "<=", "<>": "!", "><": "!", "===": "=", "!==": "!"}


def explain(exc: ParseBaseException, line: str) -> Problem:
    """What a grammar failure on `line` means, located on the offending text."""
    loc = len(line) - len(line[exc.loc:].lstrip(BLANKS))  # skip to the offending text
    at_end = loc >= len(line) or line[loc] == ";"
    word = "" if at_end else _WORD.match(line, loc).group()
    after = len(line[:loc].rstrip(BLANKS))  # just after the previous token
    previous = _WORD.findall(line[:after])[-1:] or [""]
    if isinstance(exc, StrayComparison):
        return Problem(loc, len(word), "comparison without a variable",
                       "a game variable before the comparison", CONDITION_HINT)
    if _failed(exc, POTENTIAL):
        return _explain_potential(line, loc)
    if _failed(exc, COMPARISON):
        return _explain_comparison(loc, word, at_end, after, previous[0])
    if _failed(exc, VARIABLE):  # only a lone condition (`Condition.parse`) can lack one
        return Problem(loc, max(1, len(word)), "missing game variable", "a game variable",
                       CONDITION_HINT)
    if _failed(exc, VALUE):
        return _explain_value(line, loc, word, at_end, after, previous[0])
    return Problem(loc, max(1, len(word)), f"unexpected '{word}'", "the end of the rule")


def _failed(exc: ParseBaseException, element: ParserElement) -> bool:
    # pyparsing rewrites `parser_element` on the way up (MatchFirst); the message stays
    return exc.msg == element.errmsg


def _glued(head_pattern: str, text: str) -> str | None:
    """The head of `text` when it is `head_pattern` glued to a condition (`LCardVal<Q`)."""
    match = re.match(rf"({head_pattern})([^ \t\r\f\v;<>=!]+)[<>=!]", text, _FLAGS)
    return match[1] if match and _names_variable(match[2]) else None


def _explain_comparison(loc: int, word: str, at_end: bool, after: int, previous: str) -> Problem:
    if at_end:
        return Problem(after, 1, f"missing comparison after '{previous}'",
                       COMPARISON_EXPECTED, CONDITION_HINT)
    if _CMP_RUN.fullmatch(word):
        fix = _COMPARISON_FIXES.get(word)
        hint = f"did you mean '{fix}'?" if fix else ""
        return Problem(loc, len(word), f"unknown comparison '{word}'", COMPARISON_EXPECTED, hint)
    return Problem(loc, len(word), f"missing comparison between '{previous}' and '{word}'",
                   COMPARISON_EXPECTED, CONDITION_HINT)


def _explain_value(line: str, loc: int, word: str, at_end: bool, after: int, previous: str) -> Problem:
    if at_end:
        return Problem(after, 1, f"missing value after '{previous}'", VALUE_EXPECTED)
    value = _glued(_VALUE_PATTERN, line[loc:])
    if value or re.fullmatch(_VALUE_PATTERN, word, _FLAGS):  # a good value, then no blank
        value = value or word
        return Problem(loc + len(value), 1, f"missing blank after the value '{value}'",
                       "a blank between conditions")
    if _CMP_RUN.fullmatch(word):
        hint = "a condition has one comparison"
    elif word.startswith("-") or re.fullmatch(r"[0-9]*[.,][0-9]*", word):
        hint = "values are whole numbers, 0 or more"
    else:
        hint = "card values are one letter (T J Q K A) or a number (3-15)"
    return Problem(loc, len(word), f"bad value '{word}'", VALUE_EXPECTED, hint)


def _explain_potential(line: str, loc: int) -> Problem:
    found = first_word(line[loc:]).text
    if not found:
        return Problem(loc, 1, "missing potential cards", POTENTIAL_EXPECTED)
    glued = _glued(POTENTIAL_PATTERN, found)
    if glued:
        return Problem(loc + len(glued), 1, f"missing blank after the potential cards '{glued}'",
                       "a blank between the potential cards and the conditions")
    moved = re.fullmatch(r"(10|[2-9tjqkap])([sptqr*])", found, _FLAGS)
    if moved:
        card, mod = moved.groups()
        return Problem(loc + len(card), 1,
                       f"modifier '{mod}' on '{card}': modifiers go only on L and H",
                       "no modifier after a card value or P",
                       f"write '{card}' alone, or 'L{mod}' / 'H{mod}'")
    unknown_mod = re.fullmatch(r"([lh])([^<>=!])", found, _FLAGS)
    if unknown_mod:
        return Problem(loc + 1, 1, f"unknown modifier '{unknown_mod[2]}' on '{unknown_mod[1]}'",
                       "a modifier: s, p, t, q, r or *")
    head = _WORD.match(line, loc).group()
    rest = line[loc + len(head):].lstrip(BLANKS)
    if _names_variable(head) and rest[:1] and rest[0] in COMPARISON_CHARS:
        return Problem(loc, len(head), "missing potential cards: a rule starts with the cards to play",
                       POTENTIAL_EXPECTED, f"e.g. 'L {line.strip(BLANKS)}'")
    return Problem(loc, len(found), f"unknown potential cards '{found}'", POTENTIAL_EXPECTED,
                   _number_hint(found))


def _names_variable(word: str) -> bool:
    try:
        resolve_variable(word)
    except VariableError:
        return False
    return True


def _number_hint(word: str) -> str:
    """For a number that is not a potential card (`11`, `1`), how to write it."""
    if not (word.isascii() and word.isdigit() and len(word) <= 3):
        return ""
    letters = {11: "J", 12: "Q", 13: "K", 14: "A", 15: "2"}
    if int(word) in letters:
        return f"write '{letters[int(word)]}' for {int(word)}"
    return "card values are 3 to 10, J, Q, K, A and 2"
