"""A deal in one go: `(repeat N (all player 'P (move (top PLACE) (top ('P iloc HAND)))))` (a speed layer).

Most games deal so: N rounds, one card from the top of a place to the top of each player's
place, player after player. Run card by card that is N x players moves; when nothing can
differ from them it is done at once: the top N x players cards, read from the top, go in
turn to the players (each player's in the order it would get them), the steps are counted
and `Executor.at` left as the moves would leave them.

Only in quiet functions (no record to keep, see `quiet`), and only when the moves could not
fail or teach anyone anything: the place holds enough cards, it is none of the players'
places, no player knows where any hidden card is, and nobody sees a card go from the place
into a place it cannot see (`knowledge.move_changes` is then empty). Else the moves run one
by one, as written by `runners`.
"""
from __future__ import annotations

from recycle.lang import tree as T


def _dealing_move(n):
    """The move of `(repeat N (all player 'P (move (top PLACE) (top ('P VIS NAME)))))` (N a
    positive literal, NAME a plain name of a real location), or None when `n` is not that shape."""
    if type(n.times) is not T.IntLit or type(n.times.value) is not int or n.times.value < 1:
        return None
    each = n.action
    if type(each) is not T.AllDo or type(each.collection) is not T.Players:
        return None
    move = each.action
    if type(move) is not T.Move or not all(type(x) is T.CardAt and x.position == "top" and type(x.cards) is T.Location
                                           for x in (move.card, move.to)):
        return None
    to = move.to.cards
    if type(to.owner) is not T.Var or to.owner.name != each.var.name or type(to.name) is not T.Name \
            or to.index is not None or to.visibility == "mem":
        return None
    return move


class DealsMixin:
    """`deal(repeat node)` and its source, for `runners` (needs `fixed_key`, `table`)."""

    def deal(self, n) -> tuple | None:
        """(the place's key, the players' keys, the move) when repeat node `n` is such a deal
        that can be done at once, else None."""
        move = _dealing_move(n)
        if move is None or not self.table.players:
            return None
        table, to = self.table, move.to.cards
        source = self.fixed_key(move.card.cards, (move.card.cards.visibility,))
        seats = tuple(table.key(p + (to.visibility, to.name.value)) for p in table.players)
        if source is None or source[2] == "mem" or source in seats \
                or any(table.learning(source, seat) for seat in seats):
            return None
        return source, seats, move

    def deal_source(self, src, n, indent: int) -> bool:
        """Write the deal at once, when `n` is one, and open the `else:` of the moves one by one
        (True); else write nothing (False)."""
        found = self.deal(n) if src.quiet else None
        if found is None:
            return False
        source, seats, move = found
        count, every = len(seats), n.times.value * len(seats)
        e = lambda line, more=0: src.emit(indent + more, line)  # noqa: E731
        e(f"_p = st.locs.get({src.const(source)})")
        e(f"if _p is not None and len(_p) >= {every} and not st.known:")
        e(f"_cs = _p[:{-every - 1}:-1]", 1)  # the cards in the order they are dealt
        e(f"del _p[{-every}:]", 1)
        e("_w = st.where", 1)
        e(f"for _t, _d in {src.const(tuple(enumerate(seats)))}:", 1)
        e("_dl = st.locs.get(_d)", 2)
        e("if _dl is None:", 2)  # made in the order the first round would make them
        e("_dl = st.locs[_d] = []", 3)
        e(f"_mine = _cs[_t::{count}]", 2)
        e("_dl += _mine", 2)
        e("for _c in _mine:", 2)
        e("_w[_c] = _d", 3)
        if not src.bare:  # the steps of the `all`s and the moves (which, calling nothing, set no
            # `at` in a quiet block: see `runners.stmt`)
            src.step(indent + 1, n.times.value * (1 + count))
        e("else:")
        return True
