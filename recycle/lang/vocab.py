"""The RECYCLE vocabulary: keywords, value kinds, dialect markers, messages.

Kinds are plain strings (cheap to compare, readable in `Var.kind`):
int bool str card cards cardsets player team players teams ints strs points,
and "unknown" for what cannot be typed without running the game.
"""
from __future__ import annotations

#: What iterating a collection of a kind binds its variable to.
ELEMENT = {
    "players": "player", "teams": "team", "ints": "int", "strs": "str",
    "cards": "card", "cardsets": "cards", "team": "player", "unknown": "unknown",
}
COLLECTIONS = frozenset(ELEMENT) - {"unknown"}

#: `(OWNER WORD NAME)`: the second word decides the kind.
STORAGE = {"sto": "int", "str": "str", "points": "points",
           "vloc": "cards", "iloc": "cards", "hloc": "cards", "oloc": "cards", "mem": "cards"}
VISIBILITIES = ("vloc", "iloc", "hloc", "oloc", "mem")
RELATIVE = ("current", "next", "previous")
COMPARISONS = ("==", "!=", "<", ">", "<=", ">=")

#: Kind of a form from its head word alone (heads needing more are not here).
HEAD_KIND = {
    **dict.fromkeys(("size", "+", "-", "*", "//", "%", "mod", "^", "tri", "fib", "random",
                     "sum", "score", "scoremax", "scoremin", "pid", "tid"), "int"),
    **dict.fromkeys(("and", "or", "not") + COMPARISONS, "bool"),
    "cardatt": "str",
    **dict.fromkeys(("max", "min", "actual"), "card"),
    **dict.fromkeys(("union", "intersect", "disjunction", "sort", "run"), "cards"),
    **dict.fromkeys(("partition", "subsets", "runs", "tuples", "indexed"), "cardsets"),
    "range": "ints", "owner": "player", "team": "team",
}

#: Head words accepted where each kind is expected (for "did you mean").
HEADS = {
    "int": ("size", "+", "-", "*", "//", "%", "mod", "^", "tri", "fib", "random", "sum",
            "score", "scoremax", "scoremin", "pid", "tid", "all"),
    "bool": ("and", "or", "not", "all", "any") + COMPARISONS,
    "str": ("cardatt",),
    "card": ("top", "bottom", "max", "min", "actual"),
    "cards": ("union", "intersect", "disjunction", "sort", "filter", "top", "bottom", "run"),
    "cardsets": ("partition", "subsets", "runs", "tuples", "all", "indexed"),
    "player": ("current", "next", "previous", "owner"),
    "team": ("current", "next", "previous", "team"),
    "collection": ("other", "range", "filter", "union", "partition", "subsets", "runs", "tuples"),
    "action": ("move", "remember", "forget", "shuffle", "swap", "set", "put", "update", "inc",
               "dec", "cycle", "turn", "repeat", "create", "do", "all", "any", "let"),
    "flow": ("stage", "do", "choice", "all", "any", "let"),
    "game": ("declare", "setup", "stage", "do", "choice", "all", "any", "let", "scoring"),
}

KEYWORDS = frozenset(
    w for heads in HEADS.values() for w in heads if w.isalpha()
) | frozenset("""game players teams deck player team end simultaneous once faro points next
    current previous pass scoring max min using sto str vloc iloc hloc oloc mem all largest
    top bottom new indexed""".split())

#: "expected: ..." text for each kind.
EXPECTED = {
    "int": "an integer: a number, 'VAR, (OWNER sto NAME), (size ...), (sum ... using ...), (+ A B) ...",
    "bool": "a condition: (== A B), (< A B), (and ...), (or ...), (not ...), (all|any COLLECTION 'V ...)",
    "str": "a name: NAME, 'VAR, (cardatt KEY CARD) or (OWNER str NAME)",
    "card": "a card: (top CARDS), (bottom CARDS), (N CARDS), (max|min CARDS using POINTS), 'VAR ...",
    "cards": "a card collection: (OWNER vloc|iloc|hloc|oloc|mem NAME), (union ...), (filter ...), 'VAR ...",
    "cardsets": "a collection of card collections: (partition ...), (subsets ...), (runs ...), "
                "(tuples ...), (all COLLECTION 'V CARDS)",
    "player": "a player: (current|next|previous player), (N player), (owner CARD) or 'VAR",
    "team": "a team: (current|next|previous team), (N team), (team PLAYER) or 'VAR",
    "owner": "an owner: game, a player, a team or 'VAR",
    "collection": "a collection: player, team, (other player), (range L..H), (NAME, ...), cards or 'VAR",
    "points": "a point map: (OWNER points NAME) or 'VAR",
    "action": "an action: (move ...), (set ...), (inc ...), (do (...)), (CONDITION ACTION), (all ...) ...",
    "flow": "(stage ...), (do (...)), (choice (...)), (all|any ...) or (let ...)",
    "value": "a value: an integer, a condition, a name, a card, a collection...",
}

#: Words for kinds in messages.
DESCRIBE = {
    "int": "an integer", "bool": "a condition", "str": "a name", "card": "a card",
    "cards": "a card collection", "cardsets": "a collection of card collections",
    "player": "a player", "team": "a team", "players": "a collection of players",
    "teams": "a collection of teams", "ints": "a range of integers", "strs": "a list of names",
    "points": "a point map", "owner": "an owner", "unknown": "a value of unknown kind",
    "collection": "a collection", "action": "an action", "value": "a value",
}

#: Distinctive forms: key -> (dialect letter, description).
FEATURES = {
    "put-points": ("A", "(put points 'V ...)"),
    "mod": ("A", "(mod A B)"),
    "points-var": ("A", "using 'VAR (point map in a variable)"),
    "points-storage": ("B", "(OWNER points NAME)"),
    "percent": ("B", "(% A B)"),
    "str-storage": ("B", "(OWNER str NAME)"),
    "oloc": ("B", "oloc visibility"),
    "location-number": ("B", "a number as a location name"),
    "location-new": ("B", "new as a location name"),
    "sort": ("B", "(sort ...)"),
    "intersect": ("B", "(intersect ...)"),
    "disjunction": ("B", "(disjunction ...)"),
    "top-n": ("B", "(top N CARDS)"),
    "run": ("B", "(run top|bottom N ...)"),
    "partition": ("B", "(partition ...)"),
    "subsets": ("B", "(subsets ...)"),
    "runs": ("B", "(runs largest|all ...)"),
    "pow": ("B", "(^ A B)"),
    "tri": ("B", "(tri N)"),
    "fib": ("B", "(fib N)"),
    "random": ("B", "(random ...)"),
    "faro": ("B", "(shuffle faro ...)"),
    "deck-name": ("B", "(create deck NAME ...)"),
    "nested-teams": ("B", "nested team lists"),
    "no-teams": ("B", "setup without (create teams ...)"),
    "repeat-forget": ("B", "(repeat all (forget ...))"),
    "repeat-deck": ("B", "(repeat N (create deck ...))"),
    "cycle-var": ("B", "(cycle next|current 'VAR)"),
    "award-pairs": ("B", "(KEY : VALUE) awards"),
    "trailing-text": ("B", "text after (game ...)"),
    "simultaneous": ("C", "(stage ... simultaneous ...)"),
    "once": ("C", "(stage ... once ...)"),
    "swap": ("C", "(swap ...)"),
    "update": ("C", "(update ...)"),
    "bare-incdec": ("C", "(inc S) / (dec S) without amount"),
    "nary": ("C", "+ or * with more than two operands"),
    "pid": ("C", "(pid PLAYER)"),
    "tid": ("C", "(tid TEAM)"),
    "scoremax": ("C", "(scoremax ...)"),
    "scoremin": ("C", "(scoremin ...)"),
    "all-sum": ("C", "(all COLLECTION 'V INTEGER)"),
    "location-index": ("C", "indexed location (OWNER vloc NAME N)"),
    "indexed": ("C", "(indexed OWNER vloc NAME)"),
    "subsets-size": ("C", "(subsets CARDS > N)"),
    "cycle-player": ("C", "(cycle next|current PLAYER)"),
}
