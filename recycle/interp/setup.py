"""A game's setup: its teams and the cards of its decks (`game._setup`)."""
from __future__ import annotations

from itertools import product

from recycle.lang import tree as T

from recycle.interp.actions import Executor
from recycle.interp.errors import LimitError, located
from recycle.interp.store import Store, loc_text

#: Cards a game may create, all decks together.
MAX_CARDS = 10_000


def cards_of(deck: T.Deck, env: dict, limit: int = MAX_CARDS) -> list[dict] | None:
    """Every card of a `(deck ...)`: one per combination of its attributes' values; None as
    soon as there would be more than `limit` (counted before each product is made: a few
    lines of values can multiply into billions)."""
    def attribute(attr: T.Attribute) -> list[dict] | None:
        out = []
        for group in attr.groups:
            values = env[group.values.name] if isinstance(group.values, T.Var) else group.values
            subs = combined(group.attributes)
            if subs is None or len(out) + len(values) * len(subs) > limit:
                return None
            out += [{attr.key: v, **s} for v in values for s in subs]
        return out

    def combined(attributes) -> list[dict] | None:
        """Every combination of the attributes' values (None: more than `limit`)."""
        made = [{}]
        for attr in attributes:
            more = attribute(attr)
            if more is None or len(made) * len(more) > limit:
                return None
            made = [{**a, **b} for a, b in product(made, more)]
        return made

    return combined(deck.attributes)


def teams_of(spec, n: int, filename: str) -> tuple[tuple[int, ...], ...]:
    """Teams from `(create teams ...)` (nested lists flattened); players left out get their own."""
    if spec is None:
        return tuple((p,) for p in range(n))

    def members(ts: T.TeamSpec) -> tuple[int, ...]:
        return ts.members + tuple(p for sub in ts.subteams for p in members(sub))

    teams = [members(ts) for ts in spec.teams]
    for ts, m in zip(spec.teams, teams):
        if any(not 0 <= p < n for p in m):
            raise located(ts, filename, f"team ({', '.join(map(str, m))}) names a player not in this {n}-player game")
    placed = {p for m in teams for p in m}
    return tuple(teams) + tuple((p,) for p in range(n) if p not in placed)


def create_deck(ex: Executor, deck: T.CreateDeck, env: dict, st: Store, max_cards: int) -> None:
    table = ex.table
    key = ex.loc_key(deck.location, env, st) if isinstance(deck.location, T.Location) else None
    if key is None:
        raise located(deck, table.filename, "a deck is created in a location (OWNER iloc NAME)")
    if key[2] == "mem":  # the reader refuses a written one; a computed one is refused here
        raise located(deck, table.filename, "a deck's cards are real cards: they cannot be created in a mem location")
    name = "DEFAULT" if deck.name is None else str(ex.ev(deck.name, env, st))
    cards = cards_of(deck.deck, env, max_cards - len(table.attrs))
    if cards is None or len(table.attrs) + len(cards) > max_cards:
        raise located(deck, table.filename, f"more than {max_cards:,} cards", LimitError)
    pile = st.loc(key)
    for attrs in cards:
        c = table.add_card(attrs, name)
        pile.append(c)
        st.where.append(key)
    st.log.append({"t": "deck", "to": loc_text(key), "cards": [table.text[c] for c in pile[-len(cards):]]})
