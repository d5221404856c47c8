"""Valid RECYCLE programs, generated from a small grammar (hypothesis strategies).

A generated game: 2 or 3 players; a deck of up to 4 ranks x 2 suits; a point map; a deal into
hands of a drawn visibility (iloc: the owner's, hloc: nobody's, vloc: everyone's); one or two
stages whose rounds end by a counter (so every game ends), each a few plain actions, one
choice and a few more actions; options that play a card from the hand (all of it, or a
filter of it by a face), draw from the stock, remember and forget cards in memory, write
storage, queue the next player or pass; and a score read from storage, cards won and points.

The grammar covers what the speed layers rewrite (moves between fixed locations, `any` over a
hand, filters, storage, cycles, deals, `(top (filter ...))`, sums of points); a game may still
fail as it plays (an empty stock, no option), and then both engines must fail alike.
"""
from __future__ import annotations

from hypothesis import strategies as st

RANKS = ("ONE", "TWO", "THREE", "FOUR")
SUITS = ("RED", "BLUE")
#: Visibilities of a hand: the owner's, nobody's, everyone's.
HANDS = ("iloc", "hloc", "vloc")

ME = "(current player)"


def _counter(i: int) -> str:
    return f"(game sto {('ROUNDS', 'LAPS')[i]})"


@st.composite
def conditions(draw, hand: str) -> str:
    """An integer or card test about the current player's hand, the pile or storage."""
    kind = draw(st.sampled_from(("size", "storage", "top", "and", "memory")))
    op = draw(st.sampled_from(("==", "!=", "<", ">", ">=", "<=")))
    n = draw(st.integers(0, 3))
    if kind == "size":
        return f"({op} (size ({ME} {hand} HAND)) {n})"
    if kind == "storage":
        return f"({op} ({ME} sto SCORE) {n})"
    if kind == "memory":
        return f"({op} (size (game mem SEEN)) {n})"
    if kind == "top":
        return (f"(and (> (size (game vloc PILE)) 0) (== (cardatt SUIT (top (game vloc PILE))) "
                f"{draw(st.sampled_from(SUITS))}))")
    return f"(and ({op} (size (game iloc STOCK)) {n}) (> (size ({ME} {hand} HAND)) 0))"


@st.composite
def card_tests(draw, var: str) -> str:
    """A test of card `var`'s faces (for a filter)."""
    if draw(st.booleans()):
        return f"(== (cardatt SUIT '{var}) {draw(st.sampled_from(SUITS))})"
    return f"(!= (cardatt RANK '{var}) {draw(st.sampled_from(RANKS))})"


@st.composite
def on_card(draw) -> str:
    """What an option does with the card 'C it plays."""
    to = draw(st.sampled_from(("(top (game vloc PILE))", f"(top ({ME} vloc WON))", "(bottom (game vloc PILE))")))
    actions = [f"(move 'C {to})"]
    if draw(st.booleans()):
        actions.insert(0, "(remember 'C (top (game mem SEEN)))")
    if draw(st.booleans()):
        actions.append(f"(inc ({ME} sto SCORE) (score 'C using 'PTS))")
    return actions[0] if len(actions) == 1 else f"(do ({' '.join(actions)}))"


@st.composite
def options(draw, hand: str) -> str:
    """One option of a choice."""
    kind = draw(st.sampled_from(("play", "play", "filtered", "draw", "forget", "storage", "cycle", "pass",
                                 "guarded", "first")))
    mine = f"({ME} {hand} HAND)"
    if kind == "play":
        return f"(any {mine} 'C {draw(on_card())})"
    if kind == "filtered":
        return f"(any (filter {mine} 'X {draw(card_tests('X'))}) 'C {draw(on_card())})"
    if kind == "first":  # the top card that passes a test, as `finding` reads it
        test = draw(card_tests("X"))
        return (f"((> (size (filter {mine} 'X {test})) 0) "
                f"(move (top (filter {mine} 'X {test})) (top (game vloc PILE))))")
    if kind == "draw":
        return f"((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top {mine})))"
    if kind == "forget":
        return "((> (size (game mem SEEN)) 0) (forget (top (game mem SEEN))))"
    if kind == "storage":
        word = draw(st.sampled_from(("inc", "dec", "set")))
        return f"({word} ({ME} sto SCORE) {draw(st.integers(0, 3))})"
    if kind == "cycle":
        return f"(cycle next {draw(st.sampled_from(('(next player)', '(previous player)', '(current player)')))})"
    if kind == "pass":
        return "(turn pass)"
    return f"({draw(conditions(hand))} (any {mine} 'C {draw(on_card())}))"


@st.composite
def plain_actions(draw, hand: str) -> str:
    """An action run by the flow, outside any choice."""
    kind = draw(st.sampled_from(("inc", "all", "conditional", "collect", "let")))
    if kind == "inc":
        return f"(inc ({ME} sto TURNS) 1)"
    if kind == "all":
        return "(all player 'P (inc ('P sto SEEN) (size (game mem SEEN))))"
    if kind == "conditional":
        return (f"({draw(conditions(hand))} (do ((inc (game sto EVENTS) 1) "
                f"(cycle next (next player)))))")
    if kind == "let":
        return "(let (size (game vloc PILE)) 'N (set (game sto PILED) 'N))"
    return ("((> (size (game vloc PILE)) 2) (repeat all (move (top (game vloc PILE)) "
            f"(top ({ME} vloc WON)))))")


@st.composite
def stages(draw, i: int, hand: str) -> str:
    """A stage: its rounds counted (so it ends), plain actions, one choice, plain actions."""
    rounds = draw(st.integers(1, 8))
    before = draw(st.lists(plain_actions(hand), max_size=2))
    after = draw(st.lists(plain_actions(hand), max_size=2))
    choice = draw(st.lists(options(hand), min_size=1, max_size=4))
    if draw(st.booleans()):  # an option always there: fewer games that fail with none
        choice.append("(turn pass)")
    end = f"(>= {_counter(i)} {rounds})"
    if draw(st.booleans()):
        end = f"(or {end} (all player 'P (== (size ('P {hand} HAND)) 0)))"
    body = [f"(do ((inc {_counter(i)} 1) {' '.join(before)}))", f"(choice ({' '.join(choice)}))"] \
        + [f"(do ({action}))" for action in after]
    return f"(stage player (end {end}) {' '.join(body)})"


@st.composite
def scorings(draw, hand: str) -> str:
    goal = draw(st.sampled_from(("max", "min")))
    expr = draw(st.sampled_from((
        f"({ME} sto SCORE)", f"(size ({ME} vloc WON))", f"(sum ({ME} vloc WON) using 'PTS)",
        f"(+ ({ME} sto SCORE) (sum ({ME} {hand} HAND) using 'PTS))",
        f"(- (size ({ME} {hand} HAND)) ({ME} sto TURNS))")))
    return f"(scoring {goal} {expr})"


@st.composite
def games(draw) -> str:
    """The text of a valid RECYCLE game (dialect A)."""
    players = draw(st.integers(2, 3))
    ranks = RANKS[:draw(st.integers(2, 4))]
    cards = len(ranks) * len(SUITS)
    hand = draw(st.sampled_from(HANDS))
    each = draw(st.integers(1, max(1, cards // players - 1)))
    points = " ".join(f"((RANK ({r})) {draw(st.integers(0, 5))})" for r in ranks)
    deal = f"(all player 'P (repeat {each} (move (top (game iloc STOCK)) (top ('P {hand} HAND)))))"
    if draw(st.booleans()):  # round by round, as most games deal (`deals` does it at once)
        deal = f"(repeat {each} (all player 'P (move (top (game iloc STOCK)) (top ('P {hand} HAND)))))"
    flow = [draw(stages(i, hand)) for i in range(draw(st.integers(1, 2)))]
    return (f"(game (setup (create players {players}) (create deck (game iloc STOCK) "
            f"(deck (RANK ({', '.join(ranks)})) (SUIT ({', '.join(SUITS)})))))\n"
            f" (do ((put points 'PTS ({points})) (shuffle (game iloc STOCK)) {deal}))\n"
            f" {' '.join(flow)}\n"
            f" {draw(scorings(hand))})")
