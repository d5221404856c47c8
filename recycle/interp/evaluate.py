"""Expressions: integers, names, conditions, cards, owners and collections.

`Evaluator.ev(node, env, st)` runs the node's function (made on first use:
the `_Form` method; in the fast engine, once compiling, Python source for
common forms or compiled closures, asked of `Evaluator.compiler`, see
`compiler`) and
returns a plain value: int, bool, str, a card id (int, or None for "no
card": the top of an empty pile), an owner tuple (`("p", 2)`), a list (cards,
players, teams, names, integers, or lists of card lists) or a `PointMap`.
Lists returned for real locations are the live ones: callers copy before
changing the game while iterating.

`env` is a small dict of variables (never mutated: binding copies it); a
name not in it is looked up in the game-wide `(put points 'V ...)` store.
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.cardsets import _COMPARE, CollectionsMixin
from recycle.interp.errors import LimitError, RecycleRuntimeError, located
from recycle.interp.store import GAME, PointMap, Store, Table


def _trunc_div(a: int, b: int) -> int:
    """Integer division as the reference engine (C#) does it: towards zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


#: Integers beyond 128 bits are an error of the game, and a bound on work: `(^ 10 100000000)`
#: would otherwise compute for minutes, and a score must become a float. (The reference engine's
#: are 64-bit; our shipped Poker5 ranks hands as (* CATEGORY (^ 2 70)), so 64 is too few.)
MIN_INT, MAX_INT = -2**127, 2**127 - 1


def _arith(op: str, a: int, b: int) -> int:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "//":
        return _trunc_div(a, b)
    if op == "%":
        return a - b * _trunc_div(a, b)
    if b < 0:  # ^ with a negative exponent: 0, as integer division would make it
        return 0
    if b > 128 and a not in (-1, 0, 1):  # |a| >= 2: beyond the bound, known without computing it
        return MAX_INT + 1
    return a ** b


class Evaluator(CollectionsMixin):
    """Evaluates expressions of one game (its `Table`) against any `Store`: the meaning of
    every expression form. `compiler` (given by the fast engine, see `compiler.executor`)
    offers faster functions for the same forms; it is asked only while `compiling`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.compiling = False  # the compiler's functions used (else: the `_Form` methods alone)
        self.compiler = None  # the fast engine's compilers and shortcuts (`compiler.Compiler`)
        self.attrs = table.attrs
        forms = [cls for cls in vars(T).values() if isinstance(cls, type)]
        self._dispatch = {c: getattr(self, "_" + c.__name__) for c in forms if hasattr(self, "_" + c.__name__)}
        self._fns: dict[int, object] = {}  # id(node) -> f(env, st); the tree outlives this evaluator
        self._point_maps: dict[tuple, PointMap] = {}  # awards -> the one map with them

    def error(self, node, message: str, cls=RecycleRuntimeError, hint: str = "") -> RecycleRuntimeError:
        return located(node, self.table.filename, message, cls, hint)

    def ev(self, node, env: dict, st: Store):
        f = self._fns.get(id(node))
        if f is None:
            f = self.fn(node)
        return f(env, st)

    def fn(self, node):
        """The function `f(env, st)` evaluating `node` (made once: generated source, see
        `codegen`, or a closure)."""
        f = self._fns.get(id(node))
        if f is None:
            f = self._fns[id(node)] = (self.compiling and self.compiler.function(node)) or self.closure(node)
        return f

    def closure(self, node):
        """A closure evaluating `node`: compiled for common forms (`fast`), else its `_Form` method
        (always, in the reference engine)."""
        maker = self.compiler.maker(type(node)) if self.compiling else None
        if maker is not None:
            return maker(node)
        method = self._dispatch.get(type(node))
        if method is None:
            def f(env, st, node=node):
                raise self.error(node, f"{type(node).__name__} cannot be evaluated here")
        else:
            def f(env, st, node=node, method=method):
                return method(node, env, st)
        return f

    def bind(self, env: dict, var, value) -> dict:
        new = env.copy()
        new[var.name] = value
        return new

    def iterate(self, node, env: dict, st: Store) -> list:
        """The elements of a collection expression, as a fresh list (safe to act on)."""
        value = self.ev(node, env, st)
        if isinstance(value, tuple) and value and value[0] == "t":
            return [self.table.players[p] for p in self.table.team_members[value[1]]]
        if not isinstance(value, (list, tuple)):
            raise self.error(node, f"expected a collection, found {value!r}")
        return list(value)

    # --- leaves -------------------------------------------------------------

    def _IntLit(self, n, env, st):
        return n.value

    def _Name(self, n, env, st):
        return n.value

    def _NewName(self, n, env, st):
        st.fresh += 1
        return f"NEW{st.fresh}"

    def _Var(self, n, env, st):
        try:
            return env[n.name]
        except KeyError:
            pass
        if n.name in st.gvars:
            return st.gvars[n.name]
        raise self.error(n, f"variable '{n.name} has no value here")

    # --- owners -------------------------------------------------------------

    def _GameOwner(self, n, env, st):
        return GAME

    def _player_index(self, which: str, st: Store, cycles: list, count: int) -> int:
        idx, queued = cycles[-1]
        if which == "current":
            return idx
        if which == "next":
            return queued if queued >= 0 else (idx + 1) % count
        return (idx - 1) % count  # previous: to the right, never "who went before"

    def _PlayerRef(self, n, env, st):
        return self.table.players[self._player_index(n.which, st, st.pcycles, self.table.num_players)]

    def _TeamRef(self, n, env, st):
        return self.table.teams[self._player_index(n.which, st, st.tcycles, len(self.table.teams))]

    def _at(self, n, env, st, seq: tuple, what: str):
        i = self.ev(n.index, env, st)
        if type(i) is not int:  # e.g. a player where its number belongs: the checker cannot always tell
            raise self.error(n, f"({what} ...) needs an integer {what} number, found {i!r}")
        if not 0 <= i < len(seq):
            raise self.error(n, f"there is no {what} {i} (there are {len(seq)})")
        return seq[i]

    def _PlayerAt(self, n, env, st):
        return self._at(n, env, st, self.table.players, "player")

    def _TeamAt(self, n, env, st):
        return self._at(n, env, st, self.table.teams, "team")

    def _OwnerOf(self, n, env, st):
        return self.owner_of(n, self.ev(n.card, env, st), st)

    def owner_of(self, n, card, st):
        """The player holding `card`, for (owner ...) node `n`."""
        if card is None:
            raise self.error(n, "(owner ...) of no card: the collection is empty")
        key = st.where[card]
        if key is None or key[0] != "p":
            raise self.error(n, f"{self.table.text[card]} is not held by a player")
        return self.table.players[key[1]]

    def _TeamOf(self, n, env, st):
        p = self.ev(n.player, env, st)
        return self.table.teams[self.table.team_of[p[1]]]

    def _Pid(self, n, env, st):
        return self.ev(n.player, env, st)[1]

    def _Tid(self, n, env, st):
        return self.ev(n.team, env, st)[1]

    # --- storage and locations ----------------------------------------------

    def storage_key(self, n, env, st) -> tuple:
        owner = self.ev(n.owner, env, st)
        if not isinstance(owner, tuple):
            raise self.error(n.owner, f"expected an owner (game, a player or a team), found {owner!r}")
        return owner + (str(self.ev(n.name, env, st)),)

    def _IntStorage(self, n, env, st):
        return st.ints.get(self.storage_key(n, env, st), 0)

    def _StrStorage(self, n, env, st):
        return st.strs.get(self.storage_key(n, env, st), "")

    def _PointStorage(self, n, env, st):
        return st.points.get(self.storage_key(n, env, st)) or PointMap(())

    def loc_key(self, n, env, st) -> tuple:
        """The key of a `Location` node: (owner kind, owner number, visibility, name)."""
        owner = self.ev(n.owner, env, st)
        if not isinstance(owner, tuple):
            raise self.error(n.owner, f"expected an owner (game, a player or a team), found {owner!r}")
        name = str(self.ev(n.name, env, st))
        if n.index is not None:
            i = self.ev(n.index, env, st)
            if i:  # (OWNER vloc ROW 0) is (OWNER vloc ROW), as in the reference engine
                name = f"{name}:{i}"
        return owner + (n.visibility, name)

    def _Location(self, n, env, st):
        return st.locs.get(self.loc_key(n, env, st)) or []

    def _IndexedLocations(self, n, env, st):
        owner = self.ev(n.owner, env, st)
        name = str(self.ev(n.name, env, st))
        found = [(0, k) if k[3] == name else (int(k[3].split(":", 1)[1]), k) for k in st.locs
                 if k[:3] == owner + (n.visibility,) and (k[3] == name or k[3].startswith(name + ":"))]
        return [st.locs[k] for _, k in sorted(found)]

    # --- integers -----------------------------------------------------------

    def _Arithmetic(self, n, env, st):
        values = [self.ev(x, env, st) for x in n.operands]
        for v in values:
            if type(v) is not int:
                raise self.error(n, f"({n.op} ...) needs integers, found {v!r}")
        total = values[0]
        try:
            for v in values[1:]:
                total = _arith(n.op, total, v)
                if not MIN_INT <= total <= MAX_INT:
                    raise self.error(n, f"({n.op} ...) gives a number beyond 128 bits (-2**127..2**127-1)",
                                     LimitError, hint="RECYCLE integers are at most 128-bit")
        except ZeroDivisionError:
            raise self.error(n, f"({n.op} ...) divides by zero") from None
        return total

    def bounded(self, n, value: int) -> int:
        """`value`, or a located error when it is beyond 128 bits (see `MAX_INT`)."""
        if not MIN_INT <= value <= MAX_INT:
            raise self.error(n, "a number beyond 128 bits (-2**127..2**127-1)", LimitError,
                             hint="RECYCLE integers are at most 128-bit")
        return value

    def _Tri(self, n, env, st):
        k = self.ev(n.n, env, st)
        if type(k) is not int:
            raise self.error(n, f"(tri ...) needs an integer, found {k!r}")
        return self.bounded(n, k * (k + 1) // 2)

    def _Fib(self, n, env, st):
        k = self.ev(n.n, env, st)
        if type(k) is not int:
            raise self.error(n, f"(fib ...) needs an integer, found {k!r}")
        a, b = 0, 1
        for _ in range(max(0, min(k, 200))):  # fib(200) is beyond 2**127: the bound says so below
            a, b = b, a + b
        return self.bounded(n, a)

    def _Random(self, n, env, st):
        low = 0 if n.low is None else self.ev(n.low, env, st)
        high = self.ev(n.high, env, st)
        if high < low:
            raise self.error(n, f"(random ...) of an empty range {low}..{high}")
        return low + st.rng.below(high - low + 1)

    def _Size(self, n, env, st):
        value = self.ev(n.collection, env, st)
        if isinstance(value, tuple) and value and value[0] == "t":
            return len(self.table.team_members[value[1]])
        if not isinstance(value, (list, tuple, str)):
            raise self.error(n, f"(size ...) needs a collection, found {value!r}")
        return len(value)

    def _points(self, n, env, st) -> PointMap:
        pm = self.ev(n, env, st)
        if not isinstance(pm, PointMap):
            raise self.error(n, f"expected a point map, found {pm!r}")
        return pm

    def _Sum(self, n, env, st):
        pm, attrs = self._points(n.using, env, st), self.attrs
        return sum(pm.score(c, attrs) for c in self.ev(n.cards, env, st))

    def _Score(self, n, env, st):
        card = self.ev(n.card, env, st)
        if card is None:
            raise self.error(n, "(score ...) of no card: the collection is empty")
        return self._points(n.using, env, st).score(card, self.attrs)

    def _extreme_score(self, n, env, st, pick):
        pm, cards = self._points(n.using, env, st), self.ev(n.cards, env, st)
        if not cards:
            raise self.error(n, "the best score of an empty collection")
        return pick(pm.score(c, self.attrs) for c in cards)

    def _ScoreMax(self, n, env, st):
        return self._extreme_score(n, env, st, max)

    def _ScoreMin(self, n, env, st):
        return self._extreme_score(n, env, st, min)

    def _AllSum(self, n, env, st):
        return sum(self.ev(n.value, self.bind(env, n.var, x), st) for x in self.iterate(n.collection, env, st))

    # --- conditions ---------------------------------------------------------

    def _And(self, n, env, st):
        return all(self.ev(x, env, st) for x in n.operands)

    def _Or(self, n, env, st):
        return any(self.ev(x, env, st) for x in n.operands)

    def _Not(self, n, env, st):
        return not self.ev(n.operand, env, st)

    def _Compare(self, n, env, st):
        a, b = self.ev(n.left, env, st), self.ev(n.right, env, st)
        try:
            return _COMPARE[n.op](a, b)
        except TypeError:
            raise self.error(n, f"cannot compare {a!r} with {b!r} using {n.op}") from None

    def _AllTrue(self, n, env, st):
        return all(self.ev(n.condition, self.bind(env, n.var, x), st) for x in self.iterate(n.collection, env, st))

    def _AnyTrue(self, n, env, st):
        return any(self.ev(n.condition, self.bind(env, n.var, x), st) for x in self.iterate(n.collection, env, st))

    # --- cards --------------------------------------------------------------

    def _CardAtt(self, n, env, st):
        card = self.card_of(n.card, self.ev(n.card, env, st))
        return "" if card is None else self.attrs[card].get(self.ev(n.key, env, st), "")

    def position(self, n, env, st, size: int) -> int | None:
        """Index into a list of `size` for a CardAt position; the top is the end of the list,
        an integer N counts from the top (0 is the top card, as `recycle.lang.tree` says;
        no corpus game indexes cards); None when out of range."""
        pos = n.position
        if pos == "top":
            i = size - 1
        elif pos == "bottom":
            i = 0
        else:
            k = self.ev(pos, env, st)
            if type(k) is not int:
                raise self.error(pos, f"a card's place is an integer, not {k!r}")
            i = size - 1 - k
        return i if 0 <= i < size else None

    def card_of(self, n, card) -> int | None:
        """`card` if it is a card (or None: no card), else a located error (a variable may
        hold a collection, a player...)."""
        if card is not None and (type(card) is not int or not 0 <= card < len(self.attrs)):
            raise self.error(n, f"expected a card, found {card!r}")
        return card

    def _CardAt(self, n, env, st):
        cards = self.ev(n.cards, env, st)
        if cards and isinstance(cards[0], list):
            # A card wanted from a collection of collections (`(top 'PAIRS)` over tuples):
            # the top card of the set at that place, as `(top (top SETS))` would say.
            chosen = self._CollectionAt(n, env, st, cards)
            return chosen[-1] if chosen else None
        i = self.position(n, env, st, len(cards))
        return None if i is None else cards[i]

    #: Ties of max/min walked as the reference engine does (see `compat`); set per game.
    cardstock = False

    def _extreme_card(self, n, env, st, sign: int):
        return self.extreme_of(n, self._points(n.using, env, st), self.ev(n.cards, env, st), st, sign)

    def extreme_of(self, n, pm: PointMap, cards, st, sign: int):
        """Max (sign 1) or min (-1) card of `cards` by point map `pm`, both evaluated (in that order)
        by the caller: `_extreme_card`, or the compiled closure of `fast`."""
        if not cards:
            raise self.error(n, "the max or min of an empty collection")
        if self.cardstock:
            return self._walked_extreme(n, pm, cards, st, sign)
        cache, attrs, best, tied = pm._cache, self.attrs, None, None
        for c in cards:
            s = cache.get(c)
            if s is None:
                if type(c) is not int:  # checked on a cache miss only: cards are scored once
                    raise self.error(n, f"max and min compare cards, and this collection holds {c!r}")
                s = pm.score(c, attrs)
            if sign < 0:
                s = -s
            if best is None or s > best:
                best, first, tied = s, c, None
            elif s == best:
                tied = tied or [first]
                tied.append(c)
        return first if tied is None else tied[st.rng.below(len(tied))]  # ties: at random

    def _walked_extreme(self, n, pm, cards, st, sign: int):
        """The reference engine's max/min: walk the cards in order, a better card replaces the
        best, a tied one replaces it with probability 1/2 (later cards win ties more often)."""
        attrs, best, chosen = self.attrs, None, None
        for c in cards:
            if type(c) is not int:
                raise self.error(n, f"max and min compare cards, and this collection holds {c!r}")
            s = sign * pm.score(c, attrs)
            if best is None or s > best or (s == best and st.rng.below(2)):
                best, chosen = s, c
        return chosen

    def _MaxCard(self, n, env, st):
        return self._extreme_card(n, env, st, 1)

    def _MinCard(self, n, env, st):
        return self._extreme_card(n, env, st, -1)

    def _Actual(self, n, env, st):
        return self.ev(n.card, env, st)  # cards are always the real ones here
