"""The game's structure from s-expressions (game, declare, setup, stages, scoring), and the
`GameBuilder` holding every part of the builder (see `build_expr`)."""
from __future__ import annotations

from recycle.kernel.diagnostics import locate
from recycle.lang import tree as T
from recycle.lang.build_actions import Actions
from recycle.lang.build_collections import Collections
from recycle.lang.build_expr import Core, Part, found, head
from recycle.lang.build_terms import Terms
from recycle.lang.build_values import ValueForms
from recycle.lang.errors import Reject, SourceFile, did_you_mean
from recycle.lang.lexer import Atom, SList
from recycle.lang.vocab import EXPECTED, HEAD_KIND, HEADS, KEYWORDS

_SETUP_USAGE = ("(create players N), (create teams ...), (create deck ...) "
                "or (repeat N (create deck ...))")
GAME_USAGE = "(game (setup ...) ... (scoring ...))"


class Structure(Part):
    """Builders of the game, its declarations, setup, stages and scoring."""

    USES = ("int_", "bool_", "value", "block", "aggregate", "let", "create_teams", "create_deck")
    PROVIDES = ("game",)

    def game(self, sx, trailing: int) -> T.Game | None:
        """The whole game; None when errors were reported (they are in `src`)."""
        if head(sx) != "game":
            word = head(sx)
            hint = did_you_mean(word, ["game"]) if word else "a RECYCLE file is one (game ...) form"
            self.fail(sx, f"expected (game ...), found {found(sx)}", GAME_USAGE, hint)
        if "put" in self.src.text:
            self._hoist_point_variables(sx)
        items = sx.items[1:]
        declarations, flow, setup, scoring = [], [], None, None
        i = 0
        while i < len(items) and head(items[i]) == "declare":
            self._attempt(declarations, self.declare, items[i])
            i += 1
        if i < len(items) and head(items[i]) == "setup":
            setup = self._attempt(None, self.setup, items[i])
            i += 1
        else:
            self._missing(sx, items[i] if i < len(items) else None, "(setup ...)", trailing,
                          "the setup comes first in a game, after any declarations")
        for n, item in enumerate(items[i:], start=i):
            word = head(item)
            if word == "scoring" and n == len(items) - 1:
                scoring = self._attempt(None, self.scoring, item)
            elif word in ("scoring", "declare", "setup"):
                self._misplaced(item, word)
            else:
                self._attempt(flow, self.flow, item)
        if scoring is None and not (items and head(items[-1]) == "scoring"):
            self._missing(sx, None, "(scoring max|min INTEGER)", trailing,
                          "the scoring rule ends the game")
        if trailing >= 0:
            self.note("trailing-text", sx)
            self.src.warn(trailing, "text after the end of (game ...) is ignored",
                          hint=self._closing_hint(sx))
        if self.src.has_errors:
            return None
        features = tuple(sorted(self.features.values(), key=lambda f: (f.line, f.column)))
        return T.Game(tuple(declarations), setup, tuple(flow), scoring,
                      frozenset(f.dialect for f in features), features,
                      tuple(self.src.diagnostics), self.src.filename,
                      line=sx.line, column=sx.column)

    def _attempt(self, into: list | None, build, sx):
        """Build one item, reporting rather than stopping on errors."""
        try:
            node = build(sx)
        except Reject:
            return None
        if into is not None:
            into.append(node)
        return node

    def _closing_hint(self, sx: SList) -> str:
        line, column, _ = locate(self.src.text, sx.end)
        return f"the ')' at line {line}, column {column} closes (game opened at line {sx.line}"

    def _missing(self, sx: SList, where, what: str, trailing: int, hint: str) -> None:
        if where is None:  # at the game's closing parenthesis
            if trailing >= 0:
                hint = (self._closing_hint(sx) + " but the file goes on; "
                        "is there an extra ')' before it?")
            self.src.report(sx.end, f"(game ...) ends without {what}", expected=what, hint=hint)
        else:
            self.src.report(where.offset, f"expected {what}, found {found(where)}",
                            length=where.width, expected=what, hint=hint)

    def _misplaced(self, sx: SList, word: str) -> None:
        place = {"scoring": "must be the last form of (game ...)",
                 "declare": "must come before (setup ...)",
                 "setup": "must come once, after the declarations"}[word]
        self.src.report(sx.offset, f"({word} ...) {place}", length=len(word) + 1,
                        expected="(game DECLARE* (setup ...) STAGE-OR-ACTION* (scoring ...))")

    def _hoist_point_variables(self, sx: SList) -> None:
        """Dialect A's `(put points 'V ...)` makes 'V usable anywhere in the game."""
        stack = [sx]
        while stack:
            form = stack.pop()
            items = form.items
            if (len(items) >= 3 and head(form) == "put" and type(items[2]) is Atom
                    and items[2].kind == "var"):
                self.scope.setdefault(items[2].text, ("points", items[2].line))
            stack.extend(x for x in items if type(x) is SList)

    # --- declarations and setup -------------------------------------------------------

    def declare(self, sx: SList) -> T.Declare:
        value, var = self.args(sx, 2, "(declare VALUE 'V)")
        if not (type(var) is Atom and var.kind == "var"):
            self.fail(var, f"expected a variable 'NAME, found {found(var)}", "(declare VALUE 'V)")
        node, kind = self.value(value)
        self.scope[var.text] = (kind, var.line)
        return T.Declare(T.Var(var.text, kind, line=var.line, column=var.column), node,
                         line=sx.line, column=sx.column)

    def setup(self, sx: SList) -> T.Setup:
        players = teams = None
        decks, failed = [], False
        for item in sx.items[1:]:
            try:
                word = head(item)
                what = item.items[1] if word == "create" and len(item.items) > 1 else None
                what = what.text if type(what) is Atom else None
                if what == "players":
                    if players is not None:
                        self.fail(item, "players are created twice", "one (create players N)")
                    (n,) = self.args(item, 2, "(create players N)")[1:]
                    players = self.int_(n)
                elif what == "teams":
                    if teams is not None:
                        self.fail(item, "teams are created twice", "at most one (create teams ...)")
                    teams = self.create_teams(item)
                elif what == "deck":
                    decks.append(self.create_deck(item))
                elif word == "repeat":
                    decks.append(self._repeat_deck(item))
                else:
                    hint = did_you_mean(word, ["create", "repeat"]) if word else ""
                    self.fail(item, f"expected a setup form, found {found(item)}", _SETUP_USAGE, hint)
            except Reject:
                failed = True
        if players is None and not failed:
            self.fail(sx, "the setup does not create the players", "(create players N) in (setup ...)")
        if failed:
            raise Reject
        if teams is None:
            self.note("no-teams", sx)
        return T.Setup(players, teams, tuple(decks), line=sx.line, column=sx.column)

    def _repeat_deck(self, sx: SList) -> T.Node:
        times, body = self.args(sx, 2, "(repeat N (create deck ...))")
        if head(body) != "create":
            self.fail(body, f"expected (create deck ...), found {found(body)}",
                      "(repeat N (create deck ...))")
        self.note("repeat-deck", sx)
        times, deck = self.all_of((self.int_, times), (self.create_deck, body))
        return T.Repeat(times, deck, line=sx.line, column=sx.column)

    def scoring(self, sx: SList) -> T.Scoring:
        goal, score = self.args(sx, 2, "(scoring max|min INTEGER)")
        goal = self.keyword(goal, ("max", "min"), "(scoring max|min INTEGER)")
        return T.Scoring(goal, self.int_(score), line=sx.line, column=sx.column)

    # --- stages and the flow ------------------------------------------------------------

    def flow(self, sx) -> T.Node:
        """A top-level or stage-level item: stage, do, choice, all, any or let."""
        word = head(sx)
        if word == "stage":
            return self.stage(sx)
        if word in ("do", "choice"):
            return self.block(sx)
        if word in ("all", "any"):
            return self.aggregate(sx)
        if word == "let":
            return self.let(sx, choice_ok=True)
        if word in HEADS["action"] or (type(sx) is SList and sx.items and type(sx.items[0]) is SList):
            self.fail(sx, "an action here must be inside (do (...)) or (choice (...))", EXPECTED["flow"],
                      f"write (do ({found(sx)}))" if word else "write (do ((CONDITION ACTION)))")
        if word is not None and word not in KEYWORDS and word not in HEAD_KIND:
            self.fail(sx, f"unknown form ({word} ...)", EXPECTED["flow"],
                      did_you_mean(word, HEADS["game"]) or did_you_mean(word, KEYWORDS))
        self.fail(sx, f"expected a stage or an action block, found {found(sx)}", EXPECTED["flow"])

    def stage(self, sx: SList) -> T.Stage:
        usage = "(stage player|team (end CONDITION) ...)"
        items = sx.items
        if len(items) < 3:
            self.arity(sx, items[1:], usage, 2)
        cycle, mode = self.keyword(items[1], ("player", "team"), usage), items[2]
        end, failed = None, False
        if type(mode) is Atom and mode.text in ("simultaneous", "once"):
            self.note(mode.text, mode)
            mode_word = mode.text
        else:
            mode_word = "end"
            try:
                if head(mode) != "end":
                    self.fail(mode, f"expected (end CONDITION), simultaneous or once, found {found(mode)}",
                              usage, did_you_mean(head(mode) or "", ["end"]))
                (cond,) = self.args(mode, 1, "(end CONDITION)")
                end = self.bool_(cond)
            except Reject:
                failed = True
        body = self.each(items[3:], self.flow)
        if failed:
            raise Reject
        return T.Stage(cycle, mode_word, end, body, line=sx.line, column=sx.column)


class GameBuilder:
    """Builds a `Game` from the first form of a file: the parts of the builder, one per syntax
    family, sharing one `Core`, each given the others' builders through one table."""

    PARTS = (Terms, Collections, ValueForms, Actions)

    def __init__(self, src: SourceFile, inclusive_ranges: bool = True) -> None:
        self.core = Core(src, inclusive_ranges)
        parts = [part(self.core) for part in self.PARTS] + [Structure(self.core)]
        builders: dict = {}
        for part in parts:
            for name in part.PROVIDES:
                assert name not in builders, f"{name} is built by two parts"
                builders[name] = getattr(part, name)
        for part in parts:
            part.connect(builders)
        self.game = parts[-1].game

    @property
    def saw_range(self) -> bool:
        """Whether a (range ...) was read (dialect A's exclude their upper end, see `reader`)."""
        return self.core.saw_range
