"""The RECYCLE reader: one test per construct family (typed nodes, all three
dialects), a catalogue of malformed files with exact positions, and a fuzz
property: any text gives a `Game` or a `GameSyntaxError`, never a traceback."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recycle.kernel.diagnostics import DiagnosticError, Severity
from recycle.lang import (MAX_CHARS, MAX_DEPTH, GameSyntaxError, check_file, check_text, load_game,
                          parse_game)
from recycle.lang import lexer
from recycle.lang import tree as T
from recycle.lang.reader import INTERNAL

SETUP = ("(setup (create players 2) (create teams (0) (1))"
         " (create deck (game iloc STOCK) (deck (RANK (A, TWO)))))")
SCORING = "(scoring max ((current player) sto SCORE))"
HAND = "((current player) iloc HAND)"
STOCK = T.Location(T.GameOwner(), "iloc", T.Name("STOCK"))
MY_HAND = T.Location(T.PlayerRef("current"), "iloc", T.Name("HAND"))
PM_A, PM_B = "'PM", "(game points PM)"  # a point map in dialect A / B


def game(*flow: str, declare: str = "", setup: str = SETUP, scoring: str = SCORING) -> T.Game:
    return parse_game(f"(game {declare}\n{setup}\n" + "\n".join(flow) + f"\n{scoring})")


def action(text: str, **kw) -> T.Node:
    """The node of one action, read inside (do (...)) of a minimal game."""
    return game(f"(do ({text}))", **kw).flow[0].actions[0]


def int_expr(text: str, **kw) -> T.Node:
    return action(f"(set (game sto X) {text})", **kw).value


def cond(text: str, **kw) -> T.Node:
    return action(f"({text} (turn pass))", **kw).condition


def card(text: str, **kw) -> T.Node:
    return action(f"(move {text} (top (game vloc SOMEWHERE)))", **kw).card


def cards(text: str, **kw) -> T.Node:
    return action(f"(shuffle {text})", **kw).cards


def dialect_of(text: str) -> frozenset[str]:
    return game(f"(do ({text}))", declare=POINT_VAR).dialect


# Point maps the expression tests use: 'PM (dialect A) and (game points PM) (B).
POINT_VAR = "(declare 0 'UNUSED)"
POINTS = "(do ((put points 'PM (((RANK (A)) 1))) (set (game points PM) (((RANK : A) 1)))))"


def expr_in_game(wrapper: str, text: str):
    """Build `text` inside `wrapper` (with {} for it) after both point maps exist."""
    g = game(POINTS, f"(do ({wrapper.format(text)}))")
    return g, g.flow[1].actions[0]


# --- structure --------------------------------------------------------------------

def test_setup_dialect_a_teams_and_nested_deck():
    g = parse_game("""(game (declare 4 'NUMP)
      (setup (create players 'NUMP) (create teams (0, 2) (1, 3))
             (create deck (game iloc STOCK) (deck (RANK (A, TWO))
                 (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK (SUIT (CLUBS)))))))
      (scoring min ((current player) sto SCORE)))""")
    assert g.declarations == (T.Declare(T.Var("NUMP", "int"), T.IntLit(4)),)
    s = g.setup
    assert s.players == T.Var("NUMP", "int")
    assert s.teams == T.CreateTeams((T.TeamSpec((0, 2)), T.TeamSpec((1, 3))))
    (deck,) = s.decks
    assert deck.name is None and deck.location == STOCK
    suit = lambda *v: (T.Attribute("SUIT", (T.ValueGroup(v),)),)  # noqa: E731
    assert deck.deck.attributes == (
        T.Attribute("RANK", (T.ValueGroup(("A", "TWO")),)),
        T.Attribute("COLOR", (T.ValueGroup(("RED",), suit("HEARTS", "DIAMONDS")),
                              T.ValueGroup(("BLACK",), suit("CLUBS")))))
    assert g.scoring == T.Scoring("min", T.IntStorage(T.PlayerRef("current"), T.Name("SCORE")))
    assert g.dialect == frozenset()


def test_setup_dialect_b_optional_teams_deck_names_repeat_nested_teams():
    s = game(setup="""(setup (create players 3) (create teams (0 (1, 2)))
        (create deck DRAW (game iloc STOCK) (deck (RANK (A))))
        (repeat 2 (create deck (game iloc STOCK) (deck (RANK (K))))))""").setup
    assert s.teams == T.CreateTeams((T.TeamSpec((0,), (T.TeamSpec((1, 2)),)),))
    assert s.decks[0].name == T.Name("DRAW")
    assert isinstance(s.decks[1], T.Repeat) and s.decks[1].times == T.IntLit(2)
    assert isinstance(s.decks[1].action, T.CreateDeck)
    g = game(setup="(setup (create players 2))")
    assert g.setup.teams is None and g.setup.decks == () and g.dialect == {"B"}


@pytest.mark.parametrize("mode, dialect", [("(end (== 1 1))", set()), ("simultaneous", {"C"}),
                                           ("once", {"C"})])
def test_stage_modes(mode, dialect):
    g = game(f"(stage team {mode} (stage player (end (> 1 0)) (do ((turn pass)))))")
    (stage,) = g.flow
    assert stage.cycle == "team" and stage.mode == mode.split()[0].strip("(")
    assert (stage.end is not None) == (stage.mode == "end")
    inner = stage.body[0]
    assert isinstance(inner, T.Stage) and inner.cycle == "player"
    assert inner.end == T.Compare(">", T.IntLit(1), T.IntLit(0), "int")
    assert dialect <= g.dialect


def test_blocks_do_choice_conditional_all_any_let():
    g = game("(do ((all player 'P (move (top ('P iloc HAND)) (top (game vloc PILE))))))",
             f"(choice (((> (size {HAND}) 0) (any {HAND} 'C (move 'C (top (game vloc PILE)))))"
             " (turn pass)))",
             f"(let (size {HAND}) 'N (choice (((> 'N 2) (turn pass)))))")
    do, choice, let = g.flow
    all_do = do.actions[0]
    assert isinstance(all_do, T.AllDo) and all_do.collection == T.Players()
    assert all_do.var == T.Var("P", "player")
    assert all_do.action.card.cards.owner == T.Var("P", "player")
    conditional, passing = choice.options
    assert isinstance(conditional, T.Conditional) and isinstance(passing, T.TurnPass)
    assert isinstance(conditional.action, T.AnyDo) and conditional.action.var == T.Var("C", "card")
    assert let.value == T.Size(MY_HAND) and let.var == T.Var("N", "int")
    assert isinstance(let.action, T.Choice)


# --- actions ----------------------------------------------------------------------

@pytest.mark.parametrize("text, node, dialect", [
    ("(move (top (game iloc STOCK)) (bottom (game vloc PILE)))",
     T.Move(T.CardAt("top", STOCK), T.CardAt("bottom", T.Location(T.GameOwner(), "vloc", T.Name("PILE")))),
     set()),
    (f"(remember (top {HAND}) (top (game mem LEAD)))",
     T.Remember(T.CardAt("top", MY_HAND), T.CardAt("top", T.Location(T.GameOwner(), "mem", T.Name("LEAD")))),
     set()),
    ("(forget (top (game mem LEAD)))", T.Forget(T.CardAt("top", T.Location(T.GameOwner(), "mem", T.Name("LEAD")))),
     set()),
    ("(shuffle (game iloc STOCK))", T.Shuffle(STOCK), set()),
    (f"(shuffle faro (game iloc STOCK) {HAND})", T.FaroShuffle(STOCK, MY_HAND), {"B"}),
    (f"(swap (top (game iloc STOCK)) (top {HAND}))",
     T.SwapCards(T.CardAt("top", STOCK), T.CardAt("top", MY_HAND)), {"C"}),
    (f"(swap (game iloc STOCK) {HAND})", T.SwapLocations(STOCK, MY_HAND), {"C"}),
])
def test_card_actions(text, node, dialect):
    assert action(text) == node
    assert dialect <= dialect_of(text)


def test_storage_actions_in_each_dialect():
    sto = T.IntStorage(T.GameOwner(), T.Name("X"))
    assert action("(set (game sto X) 3)") == T.SetInt(sto, T.IntLit(3))
    assert action("(inc (game sto X) 2)") == T.Inc(sto, T.IntLit(2))
    assert action("(dec (game sto X))") == T.Dec(sto, T.IntLit(1))  # C: no amount means 1
    assert "C" in dialect_of("(inc (game sto X))")
    s = action("(set ((current player) str MOVE) BET)")
    assert s == T.SetStr(T.StrStorage(T.PlayerRef("current"), T.Name("MOVE")), T.Name("BET"))
    s = action("(set ((next team) points TRUMP) (((SUIT : HEARTS) 5)))")
    assert isinstance(s, T.SetPoints) and s.storage.owner == T.TeamRef("next")
    put = action("(put points 'PM (((RANK (ACE)) 14)))")
    assert put.var == T.Var("PM", "points")
    assert put.points.awards == (T.Award((T.AwardCondition(T.Name("RANK"), T.Name("ACE")),), T.IntLit(14)),)
    upd = action("(update (game points PM) (((RANK : K) (SUIT : CLUBS) 20)))")
    assert isinstance(upd, T.UpdatePoints) and len(upd.points.awards[0].conditions) == 2
    assert dialect_of("(put points 'PM (((RANK (ACE)) 14)))") == {"A"}
    assert dialect_of("(set ((current player) str MOVE) BET)") == {"B"}
    assert "C" in dialect_of("(update (game points PM) (((RANK : K) 20)))")


@pytest.mark.parametrize("text, who, dialect", [
    ("(cycle next current)", "current", set()),
    ("(cycle current previous)", "previous", set()),
    (f"(cycle next (owner (top {HAND})))", T.OwnerOf(T.CardAt("top", MY_HAND)), set()),
    ("(all player 'P (cycle current 'P))", T.Var("P", "player"), {"B"}),
    ("(cycle next (next player))", T.PlayerRef("next"), {"C"}),
    ("(cycle next (2 player))", T.PlayerAt(T.IntLit(2)), {"C"}),
])
def test_cycle_turn_repeat(text, who, dialect):
    node = action(text)
    node = node.action if isinstance(node, T.AllDo) else node
    assert isinstance(node, T.Cycle) and node.who == who
    assert dialect <= dialect_of(text)
    assert action("(turn pass)") == T.TurnPass()
    assert action("(repeat 3 (turn pass))") == T.Repeat(T.IntLit(3), T.TurnPass())
    ra = action(f"(repeat all (move (top {HAND}) (top (game vloc PILE))))")
    assert isinstance(ra, T.RepeatAll) and isinstance(ra.action, T.Move)
    assert "B" in dialect_of("(repeat all (forget (top (game mem M))))")


# --- expressions --------------------------------------------------------------------

A, B = T.IntLit(7), T.IntLit(3)


@pytest.mark.parametrize("text, node, dialect", [
    ("(mod 7 3)", T.Arithmetic("%", (A, B)), "A"),
    ("(% 7 3)", T.Arithmetic("%", (A, B)), "B"),
    ("(// 7 3)", T.Arithmetic("//", (A, B)), ""),
    ("(^ 7 3)", T.Arithmetic("^", (A, B)), "B"),
    ("(+ 7 3 7)", T.Arithmetic("+", (A, B, A)), "C"),
    ("(* 7 3)", T.Arithmetic("*", (A, B)), ""),
    ("(tri 7)", T.Tri(A), "B"),
    ("(fib 3)", T.Fib(B), "B"),
    ("(random 7)", T.Random(None, A), "B"),
    ("(random 3..7)", T.Random(B, A), "B"),
    (f"(size {HAND})", T.Size(MY_HAND), ""),
    ("(size (range 3..7))", T.Size(T.Range(B, A)), ""),
    (f"(sum {HAND} using {PM_B})", T.Sum(MY_HAND, T.PointStorage(T.GameOwner(), T.Name("PM"))), ""),
    (f"(sum {HAND} using {PM_A})", T.Sum(MY_HAND, T.Var("PM", "points")), "A"),
    (f"(score (top {HAND}) using {PM_B})",
     T.Score(T.CardAt("top", MY_HAND), T.PointStorage(T.GameOwner(), T.Name("PM"))), ""),
    (f"(scoremax {HAND} using {PM_B})", T.ScoreMax(MY_HAND, T.PointStorage(T.GameOwner(), T.Name("PM"))), "C"),
    (f"(scoremin {HAND} using {PM_B})", T.ScoreMin(MY_HAND, T.PointStorage(T.GameOwner(), T.Name("PM"))), "C"),
    ("(pid (next player))", T.Pid(T.PlayerRef("next")), "C"),
    ("(tid (team (current player)))", T.Tid(T.TeamOf(T.PlayerRef("current"))), "C"),
    ("(all player 'P ('P sto BID))",
     T.AllSum(T.Players(), T.Var("P", "player"), T.IntStorage(T.Var("P", "player"), T.Name("BID"))), "C"),
])
def test_integers(text, node, dialect):
    """`dialect`: the letter of a marker first seen in `text` (line 4)."""
    g, act = expr_in_game("(set (game sto X) {})", text)
    assert act.value == node
    if dialect:
        assert any(f.dialect == dialect and f.line == 4 for f in g.features), g.features


def test_conditions_and_comparison_kinds():
    c = cond(f"(and (== 1 1) (!= (cardatt SUIT (top {HAND})) HEARTS) (not (< 1 2)))")
    eq, ne, neg = c.operands
    assert eq.kind == "int" and ne.kind == "str" and isinstance(neg, T.Not)
    assert ne.left == T.CardAtt(T.Name("SUIT"), T.CardAt("top", MY_HAND)) and ne.right == T.Name("HEARTS")
    assert cond("(or (>= 2 1) (<= 1 2))").operands[1].op == "<="
    assert cond(f"(== (top {HAND}) (bottom {HAND}))").kind == "card"
    assert cond("(== (owner (top (game iloc STOCK))) (current player))").kind == "player"
    assert cond("(!= (team (current player)) (0 team))").right == T.TeamAt(T.IntLit(0))
    assert cond("(== ((current player) str MOVE) (game str LEAD))").kind == "str"
    q = cond("(all player 'P (any ('P iloc HAND) 'C (== (cardatt RANK 'C) ACE)))")
    assert isinstance(q, T.AllTrue) and isinstance(q.condition, T.AnyTrue)
    assert q.condition.var == T.Var("C", "card")


@pytest.mark.parametrize("pm", [PM_A, PM_B])
def test_cards(pm):
    top = T.CardAt("top", MY_HAND)
    assert card(f"(top {HAND})") == top
    assert card(f"(2 {HAND})") == T.CardAt(T.IntLit(2), MY_HAND)
    _, act = expr_in_game("(forget {})", f"(actual (max {HAND} using {pm}))")
    assert isinstance(act.card, T.Actual) and isinstance(act.card.card, T.MaxCard)
    _, act = expr_in_game("(forget {})", f"(min {HAND} using {pm})")
    assert isinstance(act.card, T.MinCard) and act.card.cards == MY_HAND


def test_locations_and_card_collections():
    loc = cards("((previous player) oloc 3)")
    assert loc == T.Location(T.PlayerRef("previous"), "oloc", T.IntLit(3))
    assert cards("(game vloc new)").name == T.NewName()
    assert cards("(game vloc ROW 2)").index == T.IntLit(2)
    assert cards("((team (0 player)) hloc STASH)").owner == T.TeamOf(T.PlayerAt(T.IntLit(0)))
    u = cards(f"(union {HAND} (all player 'P ('P vloc TRICK)))")
    assert isinstance(u, T.Union) and isinstance(u.parts[1], T.AllCollections)
    assert isinstance(cards(f"(intersect {HAND} (game iloc STOCK))"), T.Intersect)
    assert isinstance(cards(f"(disjunction {HAND} (game iloc STOCK))"), T.Disjunction)
    f = cards(f"(filter {HAND} 'C (== (cardatt SUIT 'C) HEARTS))")
    assert isinstance(f, T.Filter) and f.kind == "cards" and f.var == T.Var("C", "card")
    assert cards(f"(top 2 {HAND})") == T.TopCards("top", T.IntLit(2), MY_HAND)
    _, act = expr_in_game("(shuffle {})", f"(sort {HAND} using {PM_B})")
    assert isinstance(act.cards, T.Sort)
    _, act = expr_in_game("(shuffle {})", f"(run bottom 3 {HAND} using {PM_B})")
    assert act.cards == T.Run("bottom", T.IntLit(3), MY_HAND, T.PointStorage(T.GameOwner(), T.Name("PM")))
    g = game(f"(do ((shuffle (top 2 {HAND})) (shuffle ((previous player) oloc 3))))")
    assert {"B"} == g.dialect


def test_collections_of_card_collections():
    p = cards(f"(top (partition SUIT {HAND}))")
    assert p == T.CollectionAt("top", T.Partition(T.Name("SUIT"), (MY_HAND,)))
    assert cards(f"(bottom (partition {HAND} RANK))").collections.key == T.Name("RANK")  # key last: B
    assert card(f"(top (top (partition SUIT {HAND})))") == T.CardAt("top", p)
    assert cards(f"(1 (subsets {HAND}))").collections == T.Subsets(MY_HAND)
    s = cards(f"(top (subsets {HAND} > 2))").collections
    assert (s.compare, s.size) == (">", T.IntLit(2))
    _, act = expr_in_game("(shuffle (top {}))", f"(runs largest 3 {HAND} using {PM_B})")
    assert act.cards.collections.mode == "largest"
    _, act = expr_in_game("(shuffle (top {}))", f"(tuples 2 {HAND} using {PM_A})")
    assert act.cards.collections == T.Tuples(T.IntLit(2), MY_HAND, T.Var("PM", "points"))
    ix = cards("(top (indexed game vloc ROW))").collections
    assert ix == T.IndexedLocations(T.GameOwner(), "vloc", T.Name("ROW"))
    # a variable bound to an element of runs is a card collection, so (top 'R) is a card
    any_do = action(f"(any (runs all 3 {HAND} using (game points PM)) 'R (forget (top 'R)))")
    assert any_do.var.kind == "cards" and any_do.action.card == T.CardAt("top", T.Var("R", "cards"))


def test_other_collections_and_element_kinds():
    def coll(text):
        node = action(f"(all {text} 'E (turn pass))")
        return node.collection, node.var.kind
    assert coll("player") == (T.Players(), "player")
    assert coll("team") == (T.Teams(), "team")
    assert coll("(other player)") == (T.OtherPlayers(), "player")
    assert coll("(other team)") == (T.OtherTeams(), "team")
    assert coll("(range 1..4)") == (T.Range(T.IntLit(1), T.IntLit(4)), "int")
    assert coll("(HEARTS, SPADES)") == (T.StringList(("HEARTS", "SPADES")), "str")
    assert coll("(current team)") == (T.TeamMembers(T.TeamRef("current")), "player")
    f, kind = coll("(filter player 'P (> ('P sto SCORE) 3))")
    assert kind == "player" and f.kind == "players"
    assert coll(HAND) == (MY_HAND, "card")


@pytest.mark.parametrize("award, condition", [
    ("((RANK (ACE)) 14)", T.AwardCondition(T.Name("RANK"), T.Name("ACE"))),
    ("((RANK : ACE) 14)", T.AwardCondition(T.Name("RANK"), T.Name("ACE"))),
    ("((SUIT (cardatt SUIT (top (game mem LEAD)))) 14)",
     T.AwardCondition(T.Name("SUIT"), T.CardAtt(T.Name("SUIT"), T.CardAt("top", T.Location(
         T.GameOwner(), "mem", T.Name("LEAD")))))),
])
def test_point_map_awards(award, condition):
    s = action(f"(set (game points PM) ({award} ((RANK : K) (SUIT : CLUBS) (^ 2 3))))")
    first, second = s.points.awards
    assert first == T.Award((condition,), T.IntLit(14))
    assert len(second.conditions) == 2 and second.points == T.Arithmetic("^", (T.IntLit(2), T.IntLit(3)))


def test_declare_and_let_bind_any_kind():
    g = game(f"(do ((let (filter {HAND} 'C (== (cardatt RANK 'C) ACE)) 'ACES (shuffle 'ACES))))",
             declare="(declare (HEARTS, SPADES) 'SUITS) (declare (== 1 1) 'YES) (declare KING 'TOP)"
                     " (declare (// 36 2) 'HALF)")
    assert [d.var.kind for d in g.declarations] == ["strs", "bool", "str", "int"]
    let = g.flow[0].actions[0]
    assert let.var == T.Var("ACES", "cards") and let.action == T.Shuffle(T.Var("ACES", "cards"))


# --- dialects, lexing, positions ------------------------------------------------------

def test_dialect_guess_and_range_end():
    a = game("(do ((put points 'PM (((RANK (A)) 1))) (all (range 0..2) 'I (turn pass))))")
    assert a.dialect == {"A"} and a.flow[0].actions[1].collection.inclusive is False
    b = game("(do ((set (game str S) X) (all (range 0..2) 'I (turn pass))))")
    assert b.dialect == {"B"} and b.flow[0].actions[1].collection.inclusive is True
    c = game("(stage player once (do ((inc (game sto X)) (all (range 0..2) 'I (turn pass)))))")
    assert c.dialect == {"C"} and c.flow[0].body[0].actions[1].collection.inclusive is True
    core = game("(do ((all (range 0..2) 'I (turn pass))))")
    assert core.dialect == frozenset() and core.flow[0].actions[0].collection.inclusive
    assert [(f.dialect, f.name, f.line) for f in c.features][-2:] == [
        ("C", "(stage ... once ...)", 3), ("C", "(inc S) / (dec S) without amount", 3)]


def test_lexing_comments_bom_crlf_tabs_and_trailing_text():
    text = "\ufeff;; title\r\n(game ;; here\r\n\t(setup (create players 2))\r\n (scoring max 1)) )junk {"
    g = parse_game(text)
    assert g.setup.line == 3 and g.setup.column == 2  # a tab is one column
    (warning,) = g.warnings
    assert warning.severity is Severity.WARNING and (warning.line, warning.column) == (4, 19)
    assert "ignored" in warning.message and "B" in g.dialect


def test_nodes_carry_positions():
    g = parse_game("(game\n (setup (create players 2))\n (do (\n   (move (top (game iloc S))\n"
                   "         (top (game vloc P)))))\n (scoring max 0))")
    move = g.flow[0].actions[0]
    assert (move.line, move.column) == (4, 4)
    assert (move.to.line, move.to.column) == (5, 10)
    assert (move.to.cards.owner.line, move.to.cards.owner.column) == (5, 16)
    assert (g.scoring.score.line, g.scoring.score.column) == (6, 15)


def test_check_file_and_load_game(tmp_path):
    good = tmp_path / "Good2.rcy"
    good.write_text("(game (setup (create players 2)) (scoring max 0)))", encoding="utf-8")
    assert isinstance(load_game(good), T.Game)
    assert [d.severity for d in check_file(good)] == [Severity.WARNING]
    located = lambda ds: [(d.line, d.column, d.message) for d in ds]  # noqa: E731
    assert located(check_text(good.read_text())) == located(check_file(good))
    bad = tmp_path / "Bad.gdl"
    bad.write_bytes(b"(game (setup (create players 2))\n (scoring max \xff))")
    (d,) = check_file(bad)
    assert (d.line, d.column) == (2, 15) and "not UTF-8 text: byte 0xff" in d.message
    with pytest.raises(GameSyntaxError):
        load_game(bad)
    assert check_file(tmp_path / "missing.rcy")[0].message.startswith("cannot read file: ")
    with pytest.raises(GameSyntaxError, match="cannot read file"):
        load_game(tmp_path)


# --- errors -----------------------------------------------------------------------------

BASE = """\
(game
 (declare 2 'NUMP)
 (setup
  (create players 'NUMP)
  (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)))))
 (do ((shuffle (game iloc STOCK))))
 (stage player
  (end (== (size (game iloc STOCK)) 0))
  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (scoring max (size ((current player) iloc HAND))))
"""
DO = "(do ((shuffle (game iloc STOCK))))"
EQ = "(== (size (game iloc STOCK)) 0)"

MALFORMED = [  # (what, old, new, line, column, words in message, words in hint)
    ("misspelt form", "(stage player", "(stgae player", 7, 2, "unknown form (stgae", "did you mean stage?"),
    ("misspelt action", "(move (top", "(mvoe (top", 9, 12, "unknown action (mvoe", "did you mean move?"),
    ("missing ')'", DO, DO[:-1], 6, 2, "unbalanced parenthesis", "line 7 starts at its indentation"),
    ("extra ')'", DO, DO + ")", 6, 36, "ends without (scoring", "extra ')'"),
    ("unclosed file", BASE, "(game (setup (create players 2)", 1, 7, "never closed", "end of the file"),
    ("lone ';'", " (do", " ; note\n (do", 6, 2, "single ';'", "';;'"),
    ("lower-case name", "iloc HAND))))))", "iloc Hand))))))", 9, 70, "upper-case", "write HAND"),
    ("unknown variable", "players 'NUMP", "players 'NUMB", 4, 19, "unknown variable 'NUMB", "'NUMP"),
    ("do without list", DO, "(do (shuffle (game iloc STOCK)))", 6, 6, "one parenthesised list", "one more pair"),
    ("wrong kind", EQ, "(== (game iloc STOCK) 0)", 8, 12, "not a card collection", ""),
    ("kind mismatch", EQ, "(== (size (game iloc STOCK)) HEARTS)", 8, 37, "cannot compare an integer with a name", ""),
    ("no scoring", " (scoring max (size ((current player) iloc HAND))))", ")", 10, 1, "ends without (scoring", ""),
    ("scoring goal", "scoring max", "scoring most", 10, 11, "expected max or min", ""),
    ("missing comma", "(A, TWO, THREE)", "(A TWO, THREE)", 5, 49, "missing ','", ""),
    ("'=' for '=='", "(== (size", "(= (size", 8, 9, "unexpected character '='", "'=='"),
    ("missing argument", " (top ((current player) iloc HAND))))))", "))))", 9, 41, "missing argument to (move", ""),
    ("stage cycle", "(stage player", "(stage plyer", 7, 9, "expected player or team", "did you mean player?"),
    ("end condition", "(end (==", "(nd (==", 8, 3, "expected (end CONDITION)", "did you mean end?"),
    ("name in integer storage", "(shuffle (game iloc STOCK))", "(set (game sto X) HEARTS)", 6, 25,
     "integer storage cannot hold", "(OWNER str NAME)"),
    ("condition as action", "(shuffle (game iloc STOCK))", "(== 1 1)", 6, 7, "is a condition, not an action",
     "(CONDITION ACTION)"),
    ("nested choice", DO, "(do ((choice ((turn pass)))))", 6, 7, "(choice ...) cannot be nested", ""),
    ("declare after setup", DO, "(declare 3 'X)", 6, 2, "(declare ...) must come before (setup ...)", ""),
    ("curly quote", "players 'NUMP", "players \u2018NUMP", 4, 19, "plain quote", "write 'NUMP"),
    ("bad variable", "players 'NUMP", "players 'Nump", 4, 19, "bad variable name", "write 'NUMP"),
    ("empty file", BASE, "", 1, 1, "no (game ...) form", ""),
    ("not a game", "(game\n", "(gmae\n", 1, 1, "expected (game ...)", "did you mean game?"),
]


@pytest.mark.parametrize("what, old, new, line, column, message, hint", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_files_fail_at_the_mistake(what, old, new, line, column, message, hint):
    assert old in BASE
    with pytest.raises(GameSyntaxError) as caught:
        parse_game(BASE.replace(old, new, 1), "Broken.gdl")
    err = caught.value
    assert isinstance(err, DiagnosticError)
    first = err.errors[0]
    assert (first.line, first.column) == (line, column), first.render()
    assert message in first.message and hint in first.hint, first.render()
    assert len(err.errors) == 1, err.render()  # one slip, one error: no cascades
    assert first.render().startswith(f"Broken.gdl:{line}:{column}: error: ")


def test_every_error_is_reported():
    text = BASE.replace("(shuffle", "(shufle").replace("(stage player", "(stgae player").replace(
        "(size ((current", "(sise ((current")
    with pytest.raises(GameSyntaxError) as caught:
        parse_game(text)
    assert [(d.line, d.column) for d in caught.value.errors] == [(6, 7), (7, 2), (10, 15)]
    assert [d.hint for d in caught.value.errors] == [
        "did you mean shuffle?", "did you mean stage?", "did you mean size?"]


def test_size_and_depth_limits():
    with pytest.raises(GameSyntaxError, match="file too large"):
        parse_game(" " * (MAX_CHARS + 1))
    with pytest.raises(GameSyntaxError, match="nested too deeply") as caught:
        parse_game("(" * (MAX_DEPTH + 50))
    assert caught.value.errors[0].column == MAX_DEPTH + 1


# --- fuzzing ----------------------------------------------------------------------------

RICH = BASE.replace(DO, """(do (
   (set (game points PM) (((RANK : A) 1) ((RANK (TWO)) (SUIT : HEARTS) 2)))
   (put points 'Q (((RANK (A)) 1)))
   (all player 'P ((> (size ('P iloc HAND)) 0) (inc ('P sto SCORE))))
   (let (filter (game iloc STOCK) 'C (!= (cardatt RANK 'C) A)) 'REST
        (repeat all (move (top 'REST) (top (game vloc PILE 2)))))
   (cycle next (owner (max (union (all player 'P ('P vloc T))) using (game points PM))))))""")
TOKENS = ["(", ")", "(", ")", "'P", "'Q", "A", "HAND", "0", "2", "..", ",", ":", ";; c\n", ";", "\n",
          "==", "+", "%", "=", "game", "setup", "stage", "player", "team", "end", "do", "choice", "all",
          "any", "let", "move", "top", "size", "sto", "str", "points", "vloc", "iloc", "using", "range",
          "filter", "partition", "subsets", "runs", "union", "create", "deck", "teams", "players",
          "scoring", "max", "once", "swap", "cycle", "next", "current", "owner", "repeat", "\u2018"]


def assert_reads_or_reports(text: str) -> None:
    try:
        game = parse_game(text, "fuzz.rcy")
    except GameSyntaxError as err:
        assert err.errors, "a rejection carries at least one error"
        for d in err.diagnostics:
            assert INTERNAL not in d.message, d.render()
            assert d.line >= 1 and d.column >= 1
            d.render()
    else:
        assert isinstance(game, T.Game)


@st.composite
def mutated(draw, base: str = RICH) -> str:
    text = base
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["delete", "insert", "move"]))
        if how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)):]
        elif how == "insert":
            text = text[:at] + draw(st.sampled_from(TOKENS)) + " " + text[at:]
        else:
            end = draw(st.integers(at, min(len(text), at + 40)))
            piece, text = text[at:end], text[:at] + text[end:]
            to = draw(st.integers(0, len(text)))
            text = text[:to] + piece + text[to:]
    return text


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.one_of(st.text(max_size=300),
                 st.lists(st.sampled_from(TOKENS), max_size=120).map(" ".join),
                 mutated()))
def test_fuzz_any_text_gives_a_game_or_a_located_error(text):
    assert_reads_or_reports(text)


def _pyparsing_tokens(text: str) -> list[tuple[int, int]]:
    """The tokens as the reader cut them before it used `re`: pyparsing's `Regex` of the same
    token, skipping the same whitespace, tabs kept."""
    import pyparsing as pp

    token = pp.Regex(lexer.TOKEN)
    token.set_whitespace_chars(" \t\r\n\f\v", copy_defaults=False)
    token.parse_with_tabs()
    return [(start, end) for _, start, end in token.scan_string(text)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=200),
                 st.text(alphabet=" \t\r\n\f\v\u00a0();:.,=!<>/+-*%^'\u2018\u2019aAz9_moveloc", max_size=60),
                 mutated()))
def test_tokens_are_those_pyparsing_cut(text):
    assert list(lexer._tokens(text)) == _pyparsing_tokens(text)


def test_trailing_whitespace_is_no_token():
    assert list(lexer._tokens("(a) \t\r\n ")) == [(0, 1), (1, 2), (2, 3)]


def test_rich_sample_reads():
    g = parse_game(RICH)
    assert g.dialect == {"A", "B", "C"}
