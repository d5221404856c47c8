"""What a counted option's action does, proven from its syntax (see `counting`).

A *site* is the action an option runs at the end of its walk through a choice's
conditions and `any` loops. `Proof(executor, path).site(action)` says, without
running it, how many effects it records (at least one, or the site is refused),
that it cannot fail, how many steps it may count, and whether two of its options
could read alike. Only a few forms are understood; anything else is refused, and
the choice is explored as always.
"""
from __future__ import annotations

from recycle.lang import tree as T

#: The first item of a numbered player's key (`state`: owners are ("p", i)).
PLAYER = "p"
#: Literals a proven write may hold: far from the 128-bit bound however often added.
SMALL = 2**64


class Site:
    """An action options run at the end of their walk, and what is proven of it."""

    __slots__ = ("body", "names", "kinds", "low", "high", "steps", "apart", "run")

    def __init__(self, body, names: tuple, kinds: tuple, low: int, high: int | None, steps: tuple[int, int],
                 apart: bool):
        self.body, self.names = body, names  # the action; the variables bound on the way, outer first
        self.kinds = kinds  # what the generated source knows of their values (`codegen`)
        self.run = None  # run(env, st, *values), made when first played (`CountingMixin.leaf_runner`)
        self.low, self.high = low, high  # how many effects an option of it has (high None: any number)
        self.steps = steps  # (a, b): it counts at most a + b x cards steps (`quiet.steps_bound`)
        self.apart = apart  # two of its options never read alike


#: What a variable bound on the way to a site holds: cards of one location (`(tuples ...)`
#: of it, or its cards one by one), or anything else.
TUPLES, CARD, OTHER = "tuples", "card", "other"


class Proof:
    """What one site's action does, from its syntax: its effects as segments, in order

        ("one",)             one effect                ("all", place)   every card of a place moved
        ("cond", low, high)  a conditional's effects   ("cards", name, place, kind)  a variable's cards moved

    and whether it cannot fail. Places are keys (a fixed location) or ("cur", vis, NAME)."""

    def __init__(self, ex, path: tuple) -> None:
        self.ex, self.path = ex, path
        self.bound = {any_.var.name: self._binding(any_) for any_, _, _ in path}
        self.full: set = set()  # places known to hold a card at this point of the action
        self.points: set = set()
        self.ranked: set = set()  # maps max/min pick cards by (no two cards score alike by them)

    def _binding(self, any_) -> tuple:
        """(TUPLES|CARD|OTHER, source place, size variable name) of an `any`'s variable."""
        coll = any_.collection
        if type(coll) is T.Tuples:
            place = self.place(coll.cards)
            size = coll.size.name if type(coll.size) is T.Var else None
            return (TUPLES, place, size) if place is not None else (OTHER, None, None)
        if type(coll) is T.Filter and type(coll.collection) is T.Location:  # some cards of a location
            coll = coll.collection
        if type(coll) is T.Location:
            place = self.place(coll)
            return (CARD, place, None) if place is not None else (OTHER, None, None)
        return OTHER, None, None

    def place(self, loc, mem: bool = False):
        """A real (or, `mem`, a mem) location's place: its fixed key, or the current player's; else None."""
        if type(loc) is not T.Location or (loc.visibility == "mem") != mem or type(loc.name) is not T.Name \
                or loc.index is not None:
            return None
        fixed = self.ex.fixed_key(loc, (loc.visibility,))
        if fixed is not None:
            return fixed
        if type(loc.owner) is T.PlayerRef and loc.owner.which == "current":
            return ("cur", loc.visibility, loc.name.value)
        return None

    def site(self, body, points: set, ranked: set) -> Site | None:
        segments = self.segments(body)
        if segments is None:
            return None
        low, high = _span(segments)
        if low < 1:
            return None  # it might do nothing: such an option is not offered
        points |= self.points
        ranked |= self.ranked
        names, kinds = tuple(p[0].var.name for p in self.path), tuple(p[2] for p in self.path)
        steps = self.ex.steps_bound(body, frozenset(name for name, b in self.bound.items() if b[0] == TUPLES))
        if steps is None:
            return None
        return Site(body, names, kinds, low, high, steps, self.apart(segments))

    # --- what the action does -------------------------------------------------------------

    def segments(self, n) -> list | None:
        """The segments of action `n` (what it does, in order), or None where nothing is proven."""
        prove = _SEGMENTS.get(type(n))
        return None if prove is None else prove(self, n)

    def _do(self, n) -> list | None:
        out = []
        for a in n.actions:
            more = self.segments(a)
            if more is None:
                return None
            out += more
        return out

    def _conditional(self, n) -> list | None:
        if not self.truth(n.condition):
            return None
        before = set(self.full)
        inner = self.segments(n.action)
        if inner is None:
            return None
        self.full &= before  # what the action may fill, it may not have run to fill
        return [("cond", 0, _span(inner)[1], inner)]

    def _set_int(self, n) -> list | None:
        return [("one",)] if self.storage(n.storage) and self.integer(n.value) else None

    def _add_int(self, n) -> list | None:
        """(inc ...) and (dec ...): a literal amount needs no bound check (see runners._storage_write)."""
        if not self.storage(n.storage):
            return None
        amount = n.amount
        ok = type(amount) is T.IntLit and type(amount.value) is int and 0 <= amount.value < SMALL
        return [("one",)] if ok else None

    def _all(self, n) -> list | None:
        """(all 'T 'C (move 'C (top PLACE))): the cards of a variable moved."""
        move, coll = n.action, n.collection
        if type(coll) is not T.Var or self.bound.get(coll.name, (OTHER,))[0] != TUPLES \
                or type(move) is not T.Move or type(move.card) is not T.Var or move.card.name != n.var.name:
            return None
        return self._moved(coll.name, move)

    def _move(self, n) -> list | None:
        if type(n.card) is T.Var and self.bound.get(n.card.name, (OTHER,))[0] == CARD:  # (move 'C (top PLACE))
            return self._moved(n.card.name, n)
        source, to = self._held(n.card), self._destination(n)
        if source is None or to is None:
            return None
        self.full.discard(source)  # (it may hold no card now)
        self.full.add(to)
        return [("one",)]

    def _remember(self, n) -> list | None:
        """A copy of a card held somewhere, into a mem location."""
        to = n.to
        if self._held(n.card) is None or type(to) is not T.CardAt or to.position not in ("top", "bottom") \
                or self.place(to.cards, mem=True) is None:
            return None
        return [("one",)]

    def _pass(self, n) -> list:
        return [("one",)]

    def _set_str(self, n) -> list | None:
        return [("one",)] if self.storage(n.storage, T.StrStorage) and self.text(n.value) else None

    def _repeat_all(self, n) -> list | None:
        move = n.action
        if type(move) is not T.Move or type(move.card) is not T.CardAt or move.card.position not in ("top", "bottom"):
            return None
        source, to = self.place(move.card.cards), self._destination(move)
        if source is None or to is None:
            return None
        if source in self.full:
            self.full.add(to)
        self.full.discard(source)
        return [("all", source)]

    def _held(self, card):
        """The place of `(top|bottom PLACE)` when PLACE is known to hold a card here, else None."""
        if type(card) is not T.CardAt or card.position not in ("top", "bottom"):
            return None
        place = self.place(card.cards)
        return place if place is not None and place in self.full else None

    def _destination(self, move):
        to = move.to
        return self.place(to.cards) if type(to) is T.CardAt and to.position in ("top", "bottom") else None

    def _moved(self, name: str, move) -> list | None:
        to = self._destination(move)
        if to is None:
            return None
        self.full.add(to)  # a variable bound on the way holds at least one card
        return [("cards", name, to, self.bound[name][0])]

    def storage(self, n, kind=T.IntStorage) -> bool:
        """An integer (or `kind`) storage whose key cannot fail: the game's, a numbered or the
        current player's."""
        if type(n) is not kind or type(n.name) is not T.Name or getattr(n, "index", None) is not None:
            return False
        return self.ex.fixed_key(n, ()) is not None or (type(n.owner) is T.PlayerRef and n.owner.which == "current")

    def integer(self, n) -> bool:
        """An integer expression that cannot fail, within the 128-bit bound."""
        kind = type(n)
        if kind is T.IntLit:
            return type(n.value) is int and abs(n.value) < SMALL
        if kind is T.IntStorage:
            return self.storage(n)
        if kind is T.Size:
            coll = n.collection
            return self.place(coll) is not None or (type(coll) is T.Var and self.bound.get(coll.name, (OTHER,))[0] == TUPLES)
        if kind is T.Score:  # of the top, bottom, max or min card of something holding one, by a stored map
            card, using = n.card, n.using
            if type(card) in (T.MaxCard, T.MinCard) and type(card.using) is T.PointStorage \
                    and self.ex.fixed_key(card.using, ()) is not None:
                self.ranked.add(self.ex.fixed_key(card.using, ()))  # a tie would be drawn for: see `ranked`
            elif type(card) is not T.CardAt or card.position not in ("top", "bottom"):
                return False
            if type(using) is not T.PointStorage:
                return False
            key = self.ex.fixed_key(using, ())
            cards = card.cards
            held = (type(cards) is T.Var and self.bound.get(cards.name, (OTHER,))[0] == TUPLES) \
                or self.place(cards) in self.full
            if key is None or not held:
                return False
            self.points.add(key)  # its awards are checked in the position (`small_scores`)
            return True
        return False

    def text(self, n) -> bool:
        """A text that cannot fail: a name, a stored text, a card's attribute (of no card: "")."""
        kind = type(n)
        if kind is T.Name:
            return True
        if kind is T.StrStorage:
            return self.storage(n, T.StrStorage)
        if kind is T.CardAtt and type(n.key) is T.Name:
            card = n.card
            return (type(card) is T.Var and self.bound.get(card.name, (OTHER,))[0] == CARD) or (
                type(card) is T.CardAt and card.position in ("top", "bottom") and self.place(card.cards) is not None)
        return False

    def truth(self, n) -> bool:
        """A condition that cannot fail: comparisons of such integers, and, or, not."""
        kind = type(n)
        if kind is T.Compare:
            return n.op in ("==", "!=", "<", "<=", ">", ">=") and self.integer(n.left) and self.integer(n.right)
        if kind in (T.And, T.Or):
            return all(self.truth(x) for x in n.operands)
        if kind is T.Not:
            return self.truth(n.operand)
        return False

    # --- can two of its options read alike? ---------------------------------------------------

    def _sizes_outside(self, size) -> bool:
        """Is every outer variable the size of the tuples, over distinct numbers (a range)?"""
        return all(type(outer[0].collection) is T.Range and outer[0].var.name == size for outer in self.path[:-1])

    def apart(self, segments: list) -> bool:
        """Options of this site differ by the cards of the innermost variable, moved from one
        place the chooser sees to one place, at the same index among their effects."""
        if not self.path:
            return True  # no variable: one option at most
        names = [p[0].var.name for p in self.path]
        what, source, size = self.bound[names[-1]]
        if what == OTHER or not _seen_by_chooser(source):
            return False
        if not self._sizes_outside(size):
            return False
        at = [i for i, s in enumerate(segments) if s[0] == "cards"]
        if len(at) != 1 or segments[at[0]][1] != names[-1]:
            return False
        i = at[0]
        if any(_takes_from(s, source) for s in segments[:i]):
            return False  # their cards would not all move from where they are now
        fixed_before = all(s[0] == "one" for s in segments[:i])
        fixed_after = all(s[0] == "one" for s in segments[i + 1:])
        same_count = what == CARD or len(self.path) == 1  # one tuples' size for all options
        return (fixed_before and fixed_after) or (same_count and (fixed_before or fixed_after))


#: The actions `Proof.segments` proves, and how (any other: nothing proven).
_SEGMENTS = {T.Do: Proof._do, T.Conditional: Proof._conditional, T.SetInt: Proof._set_int, T.Inc: Proof._add_int,
             T.Dec: Proof._add_int, T.AllDo: Proof._all, T.Move: Proof._move, T.Remember: Proof._remember,
             T.TurnPass: Proof._pass, T.SetStr: Proof._set_str, T.RepeatAll: Proof._repeat_all}


def _span(segments: list) -> tuple[int, int | None]:
    """(fewest, most) effects of a list of segments (most None: unbounded)."""
    low, high = 0, 0
    for s in segments:
        if s[0] == "one":
            low, high = low + 1, None if high is None else high + 1
        elif s[0] == "cond":
            high = None if high is None or s[2] is None else high + s[2]
        elif s[0] == "cards":  # a card, or the cards of tuples (at least one)
            low, high = low + 1, None if high is None or s[3] != CARD else high + 1
        else:
            high = None
    return low, high


def _seen_by_chooser(place) -> bool:
    """Does the current player see the cards of this place (before the option moves them)?"""
    if place is None:
        return False
    if place[0] == "cur":
        return place[1] in ("iloc", "vloc")
    return place[-2] == "vloc"


def _takes_from(segment, place) -> bool:
    """Can this segment move cards out of `place`?"""
    if segment[0] == "cond":
        return any(_takes_from(s, place) for s in segment[3])
    if segment[0] != "all":
        return False
    other = segment[1]
    if other == place:
        return True
    # the current player's place and a numbered player's can be one place
    return (other[0] == "cur") != (place[0] == "cur") and (other if place[0] == "cur" else place)[0] == PLAYER
