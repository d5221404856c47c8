"""The typed builder's actions: do, choice, conditionals and the single actions (a part of
`build_game.GameBuilder`, see `build_expr`)."""
from __future__ import annotations

from recycle.lang import tree as T
from recycle.lang.build_expr import Part, found, head, storage_word
from recycle.lang.errors import did_you_mean
from recycle.lang.lexer import Atom, SList
from recycle.lang.vocab import EXPECTED, HEADS, HEAD_KIND, KEYWORDS, RELATIVE

_CONDITIONAL_HINT = "a conditional action is written (CONDITION ACTION), e.g. ((== A B) (move ...))"


class Actions(Part):
    """Builders of actions, and of the setup's pieces (also actions)."""

    USES = ("int_", "bool_", "str_", "card", "cards", "storage", "point_map", "over", "value", "player",
            "listed")
    PROVIDES = ("action", "conditional", "block", "aggregate", "let", "create_teams", "create_deck")

    def action(self, sx, choice_ok: bool = False) -> T.Node:
        """One item of a do/choice list (also the body of all, any, let, repeat)."""
        if type(sx) is Atom or not sx.items:
            self.fail(sx, f"expected an action, found {found(sx)}", EXPECTED["action"])
        if type(sx.items[0]) is SList:
            return self.conditional(sx)
        word = head(sx)
        method = _ACTIONS.get(word)
        if method is not None:
            return method(self, sx)
        if word == "choice":
            if choice_ok:
                return self.block(sx)
            self.fail(sx, "(choice ...) cannot be nested inside an action list",
                      EXPECTED["action"], "a choice belongs directly in a stage or the game")
        if word == "stage":
            self.fail(sx, "(stage ...) cannot appear inside actions", EXPECTED["action"],
                      "stages nest in stages or in the game")
        if HEAD_KIND.get(word) == "bool":
            self.fail(sx, f"({word} ...) is a condition, not an action", EXPECTED["action"],
                      _CONDITIONAL_HINT)
        if word is not None and word not in KEYWORDS and word not in HEAD_KIND:
            self.fail(sx, f"unknown action ({word} ...)", EXPECTED["action"],
                      did_you_mean(word, HEADS["action"]) or did_you_mean(word, KEYWORDS))
        self.expect(sx, "action")

    def conditional(self, sx: SList) -> T.Node:
        if len(sx.items) != 2:
            self.fail(sx, "a conditional action has one condition and one action",
                      "(CONDITION ACTION)", "several actions go in (do (...)) after the condition")
        cond, act = self.all_of((self.bool_, sx.items[0]), (self.action, sx.items[1]))
        return T.Conditional(cond, act, line=sx.line, column=sx.column)

    def block(self, sx: SList) -> T.Node:
        """`(do (A ...))` or `(choice (A ...))`."""
        word = sx.items[0].text
        rest = sx.items[1:]
        if len(rest) != 1 or type(rest[0]) is not SList or head(rest[0]) is not None:
            where = rest[0] if rest else sx
            hint = "wrap the actions in one more pair of parentheses" if rest else ""
            self.fail(where, f"({word} ...) takes one parenthesised list of actions",
                      f"({word} (ACTION ...))", hint)
        actions = self.each(rest[0].items, self.action)
        cls = T.Do if word == "do" else T.Choice
        return cls(actions, line=sx.line, column=sx.column)

    def aggregate(self, sx: SList) -> T.Node:
        """`(all|any COLLECTION 'V ACTION)`."""
        word = sx.items[0].text
        node, _, var, act = self.over(sx, f"({word} COLLECTION 'V ACTION)", self.action)
        cls = T.AllDo if word == "all" else T.AnyDo
        return cls(node, var, act, line=sx.line, column=sx.column)

    def let(self, sx: SList, choice_ok: bool = False) -> T.Node:
        value, var, body = self.args(sx, 3, "(let VALUE 'V ACTION)")
        node, kind = self.value(value)
        var, act = self.within(var, kind, lambda b: self.action(b, choice_ok), body)
        return T.Let(node, var, act, line=sx.line, column=sx.column)

    # --- single actions -----------------------------------------------------------

    def _move(self, sx: SList) -> T.Node:
        word = sx.items[0].text
        forms = self.args(sx, 2, f"({word} CARD CARD)")
        cards = self.each(forms, self.card)
        if word == "remember" and _visibility(cards[1]) not in (None, "mem"):
            self.fail(forms[1], f"(remember ...) copies a card into a mem location, not into (OWNER "
                                f"{_visibility(cards[1])} NAME), a location of real cards",
                      "(remember CARD (top (OWNER mem NAME)))", "a real card goes to a location with (move CARD CARD)")
        cls = T.Move if word == "move" else T.Remember
        return cls(*cards, line=sx.line, column=sx.column)

    def _forget(self, sx: SList) -> T.Node:
        (form,) = self.args(sx, 1, "(forget CARD)")
        card = self.card(form)
        if _visibility(card) not in (None, "mem"):
            self.fail(form, f"(forget ...) removes a remembered copy from a mem location, not a real card "
                            f"of (OWNER {_visibility(card)} NAME)", "(forget (top (OWNER mem NAME)))",
                      "a real card leaves a location with (move CARD CARD)")
        return T.Forget(card, line=sx.line, column=sx.column)

    def _shuffle(self, sx: SList) -> T.Node:
        rest = sx.items[1:]
        if len(rest) == 3 and type(rest[0]) is Atom and rest[0].text == "faro":
            self.note("faro", sx)
            first, second = self.each(rest[1:], self.cards)
            return T.FaroShuffle(first, second, line=sx.line, column=sx.column)
        (cards,) = self.args(sx, 1, "(shuffle CARDS) or (shuffle faro CARDS CARDS)")
        return T.Shuffle(self.cards(cards), line=sx.line, column=sx.column)

    def _swap(self, sx: SList) -> T.Node:
        self.note("swap", sx)
        a, b = self.args(sx, 2, "(swap CARD CARD) or (swap LOCATION LOCATION)")
        kinds = (self.kind_of(a), self.kind_of(b))
        if "card" in kinds:
            return T.SwapCards(*self.each((a, b), self.card), line=sx.line, column=sx.column)
        if "cards" in kinds:
            return T.SwapLocations(*self.each((a, b), self.cards), line=sx.line, column=sx.column)
        self.fail(sx, "cannot tell whether this swaps cards or locations",
                  "(swap CARD CARD) or (swap LOCATION LOCATION)")

    def _set(self, sx: SList) -> T.Node:
        target, value = self.args(sx, 2, "(set (OWNER sto|str|points NAME) VALUE)")
        word = storage_word(target) if type(target) is SList else None
        pos = {"line": sx.line, "column": sx.column}
        if word == "sto":
            if self.kind_of(value) in ("str", "strs"):
                self.fail(value, f"an integer storage cannot hold {found(value)}", EXPECTED["int"],
                          "names are kept in string storage: (OWNER str NAME)")
            return T.SetInt(*self._pair(target, "int", value, self.int_), **pos)
        if word == "str":
            return T.SetStr(*self._pair(target, "str", value, self.str_), **pos)
        if word == "points":
            return T.SetPoints(*self._pair(target, "points", value, self.point_map), **pos)
        hint = "cards change place with move" if word else ""
        self.fail(target, f"(set ...) needs a storage, found {found(target)}",
                  "(OWNER sto NAME), (OWNER str NAME) or (OWNER points NAME)", hint)

    def _pair(self, target: SList, kind: str, value, build) -> tuple:
        """Storage and value, both checked before giving up."""
        return self.all_of((lambda x: self.storage(x, kind), target), (build, value))

    def _put(self, sx: SList) -> T.Node:
        usage = "(put points 'V (AWARD ...))"
        rest = sx.items[1:]
        if len(rest) != 3:
            self.arity(sx, rest, usage, 3)
        word, var, awards = rest
        self.keyword(word, ("points",), usage)
        if not (type(var) is Atom and var.kind == "var"):
            self.fail(var, f"expected a variable 'NAME, found {found(var)}", usage)
        self.note("put-points", sx)
        return T.PutPoints(T.Var(var.text, "points", line=var.line, column=var.column),
                           self.point_map(awards), line=sx.line, column=sx.column)

    def _update(self, sx: SList) -> T.Node:
        self.note("update", sx)
        target, awards = self.args(sx, 2, "(update (OWNER points NAME) (AWARD ...))")
        if type(target) is not SList or storage_word(target) != "points":
            self.fail(target, f"expected (OWNER points NAME), found {found(target)}",
                      "a point map storage")
        return T.UpdatePoints(*self._pair(target, "points", awards, self.point_map),
                              line=sx.line, column=sx.column)

    def _inc_dec(self, sx: SList) -> T.Node:
        word, rest = sx.items[0].text, sx.items[1:]
        usage = f"({word} (OWNER sto NAME) [AMOUNT])"
        if len(rest) not in (1, 2):
            self.arity(sx, rest, usage, 2)
        target = rest[0]
        if type(target) is not SList or storage_word(target) != "sto":
            self.fail(target, f"({word} ...) needs an integer storage, found {found(target)}", usage)
        if len(rest) == 1:
            self.note("bare-incdec", sx)
            storage = self.storage(target, "int")
            amount = T.IntLit(1, line=sx.line, column=sx.column)
        else:
            storage, amount = self._pair(target, "int", rest[1], self.int_)
        cls = T.Inc if word == "inc" else T.Dec
        return cls(storage, amount, line=sx.line, column=sx.column)

    def _cycle(self, sx: SList) -> T.Node:
        usage = "(cycle next|current WHO)"
        mode, who = self.args(sx, 2, usage)
        mode = self.keyword(mode, ("next", "current"), usage)
        if type(who) is Atom and who.kind == "word" and who.text in RELATIVE:
            target = who.text
        elif type(who) is Atom and who.kind == "var":
            self.note("cycle-var", who)
            target = self.var(who, "player")
        else:
            if head(who) != "owner":
                self.note("cycle-player", who)
            target = self.player(who)
        return T.Cycle(mode, target, line=sx.line, column=sx.column)

    def _turn(self, sx: SList) -> T.Node:
        (word,) = self.args(sx, 1, "(turn pass)")
        self.keyword(word, ("pass",), "(turn pass)")
        return T.TurnPass(line=sx.line, column=sx.column)

    def _repeat(self, sx: SList) -> T.Node:
        times, body = self.args(sx, 2, "(repeat N ACTION) or (repeat all ACTION)")
        if type(times) is Atom and times.kind == "word" and times.text == "all":
            act = self.action(body)
            if not isinstance(act, (T.Move, T.Forget)):
                self.fail(body, "(repeat all ...) repeats a move or a forget",
                          "(repeat all (move CARD CARD))")
            if isinstance(act, T.Forget):
                self.note("repeat-forget", sx)
            return T.RepeatAll(act, line=sx.line, column=sx.column)
        times, act = self.all_of((self.int_, times), (self.action, body))
        return T.Repeat(times, act, line=sx.line, column=sx.column)

    def _create(self, sx: SList) -> T.Node:
        """`(create teams ...)` / `(create deck ...)` (players only in setup)."""
        what = sx.items[1] if len(sx.items) > 1 else sx
        if type(what) is Atom and what.text == "teams":
            return self.create_teams(sx)
        if type(what) is Atom and what.text == "deck":
            return self.create_deck(sx)
        self.fail(what, f"expected teams or deck after create, found {found(what)}",
                  "(create teams ...) or (create deck ...)")

    # Setup pieces, also usable as actions.

    def create_teams(self, sx: SList) -> T.CreateTeams:
        teams = self.each(sx.items[2:], self.team_spec)
        return T.CreateTeams(teams, line=sx.line, column=sx.column)

    def team_spec(self, sx) -> T.TeamSpec:
        if type(sx) is not SList or not sx.items:
            self.fail(sx, f"expected a team (N, N ...), found {found(sx)}", "(0, 2)")
        items = sx.items
        split = next((i for i, x in enumerate(items) if type(x) is SList), len(items))
        if split == 0:
            self.fail(sx, "a team lists its players' numbers first", "(0, 2) or (0 (1, 3))")
        members = tuple(int(n) for n in self.listed(items[:split], "int", "player numbers"))
        if split < len(items):
            self.note("nested-teams", items[split])
        subteams = self.each(items[split:], self.team_spec)
        return T.TeamSpec(members, subteams, line=sx.line, column=sx.column)

    def create_deck(self, sx: SList) -> T.CreateDeck:
        usage = "(create deck [NAME] LOCATION (deck ...))"
        rest = sx.items[2:]
        if len(rest) not in (2, 3):
            self.arity(sx, sx.items[1:], usage, 3)
        name = None
        if len(rest) == 3:
            self.note("deck-name", rest[0])
            name = self.str_(rest[0])
        location, deck = self.all_of((self.cards, rest[-2]), (self.deck, rest[-1]))
        if type(location) is T.Location and location.visibility == "mem":
            self.fail(rest[-2], "a deck's cards are real cards: they cannot be created in a mem location",
                      "(create deck (OWNER iloc|vloc|hloc|oloc NAME) (deck ...))",
                      "mem locations hold remembered copies of real cards")
        return T.CreateDeck(name, location, deck, line=sx.line, column=sx.column)

    def deck(self, sx) -> T.Deck:
        if head(sx) != "deck":
            self.fail(sx, f"expected (deck ...), found {found(sx)}", "(deck (KEY (VALUE, ...)) ...)")
        attributes = self.each(sx.items[1:], self.attribute)
        return T.Deck(attributes, line=sx.line, column=sx.column)

    def attribute(self, sx) -> T.Attribute:
        usage = "(KEY (VALUE, ...) ...)"
        items = sx.items if type(sx) is SList else ()
        if len(items) < 2 or type(items[0]) is not Atom or items[0].kind != "name":
            self.fail(sx, f"expected a card attribute {usage}, found {found(sx)}", usage)
        groups = self.each(items[1:], self.value_group)
        return T.Attribute(items[0].text, groups, line=sx.line, column=sx.column)

    def value_group(self, sx) -> T.ValueGroup:
        usage = "(VALUE, ... [(KEY ...) ...])"
        items = sx.items if type(sx) is SList else ()
        split = next((i for i, x in enumerate(items) if type(x) is SList), len(items))
        if split == 0:
            self.fail(sx, f"expected attribute values {usage}, found {found(sx)}", usage)
        if split == 1 and items[0].kind == "var":
            values = self.var(items[0], "strs")
        else:
            values = self.listed(items[:split], "name", "values")
        attributes = self.each(items[split:], self.attribute)
        return T.ValueGroup(values, attributes, line=sx.line, column=sx.column)


_ACTIONS = {
    "move": Actions._move, "remember": Actions._move, "forget": Actions._forget,
    "shuffle": Actions._shuffle, "swap": Actions._swap, "set": Actions._set,
    "put": Actions._put, "update": Actions._update,
    "inc": Actions._inc_dec, "dec": Actions._inc_dec, "cycle": Actions._cycle,
    "turn": Actions._turn, "repeat": Actions._repeat, "create": Actions._create,
    "do": Actions.block, "all": Actions.aggregate, "any": Actions.aggregate,
    "let": Actions.let,
}


def _visibility(card) -> str | None:
    """The visibility of the location a card expression names (`(top (OWNER vloc NAME))`), or
    None when it names none (a variable, a filter...: checked when the game runs)."""
    if type(card) is T.CardAt and type(card.cards) is T.Location:
        return card.cards.visibility
    return None
