"""A game's setup: `new_game` (the game's declarations, players, teams and decks, the rules
reused for the next game of the same setup) runs it and the flow to the first choice; here too
the cards of its decks (`create_deck`) and its teams (`teams_of`)."""
from __future__ import annotations

from itertools import product
from pathlib import Path

from recycle.kernel.protocol import TERMINAL
from recycle.lang import load_game
from recycle.lang import tree as T

from recycle.interp.actions import Executor
from recycle.interp.arrange import dealt_game
from recycle.interp.compat import cardstock_game, check_mode, is_cardstock
from recycle.interp.compiler import executor
from recycle.interp.engine import Engine
from recycle.interp.errors import LimitError, guard, located
from recycle.interp.flow import SEQ
from recycle.interp.game import MAX_CHOICES, MAX_STEPS, RecycleState, Rules
from recycle.interp.invariants import checking_by_default
from recycle.interp.store import Store, Table, loc_text

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


def new_game(game: "T.Game | str | Path", seed: int = 0, *, max_choices: int = MAX_CHOICES,
             max_steps: int = MAX_STEPS, max_cards: int = MAX_CARDS, strict: bool = False,
             transcript: bool = False, deal=None, shuffler=None, check: bool | None = None,
             compat: str | None = None, engine: "Engine | str | None" = None) -> RecycleState:
    """A RECYCLE game (a `Game` or a file path) set up and run to its first choice.

    A game still going after `max_choices` choices is *called* (ended and scored as it
    stands, `state.called` set), as the reference engine does; `strict=True` raises
    `LimitError` instead. More than `max_steps` steps between two choices, or more
    than `max_cards` cards, always raise `LimitError` naming the game's line.
    `transcript=True` keeps JSON-ready records in `state.st.log` (see `transcript`).
    `deal` ({place: cards} or a deal file's `DealSpec`) fixes who gets which cards, see
    `deal`; it works through `shuffler`, which replaces the game's generator before the flow.
    `check=True` (default: the environment variable `RECYCLE_CHECK=1`) verifies card
    conservation after the setup, every choice and every determinization (`invariants`).
    `compat="cardstock"` plays as the reference engine does where its quirks move statistics
    (ties of max/min, one option per physical card, the choice limit, literal location names;
    see `compat`). `engine` ("fast", the default, or "reference": the plain meaning of every
    form, no generated code and no playout shortcuts, see `engine`) never changes how a game plays."""
    engine = Engine.of(engine)
    if check_mode(compat) == "cardstock":  # the reference engine's quirks, see `compat`
        game = cardstock_game(game if isinstance(game, T.Game) else load_game(game))
        max_choices += 1  # it calls a game after its 501st choice, not its 500th
    if check is None:
        check = checking_by_default()
    if deal is not None:
        return dealt_game(game, seed, deal, new_game, max_choices=max_choices, max_steps=max_steps,
                          max_cards=max_cards, strict=strict, transcript=transcript, check=check, engine=engine)
    if not isinstance(game, T.Game):
        game = load_game(game)
    key = (id(game), max_choices, max_steps, max_cards, strict, check, engine)
    cached = _SETUPS.get(key)
    if cached is not None and cached[0] is game:  # the same setup again: reuse the rules
        _, rules, env, where, locs, decks = cached
        if rules.warm:  # a second game of the same rules: compiling pays from now on (see `engine`)
            rules.warm = 0
            rules.machine.compile_from_now()
        st = Store(seed=seed)
        st.where, st.locs = where[:], {k: v[:] for k, v in locs.items()}
        if transcript:
            st.log = [{"t": "game", "file": game.filename, "seed": seed, "players": rules.table.num_players,
                       **_limits_text(game, max_choices, strict)}] + decks
        return _start(rules, env, st, shuffler)
    # Declarations and the player count come first; evaluating them needs a table.
    probe = executor(Table(game, game.filename, 0, (), ()), max_steps, engine)
    with guard(probe):
        return _setup(game, seed, probe, key, max_cards, transcript, shuffler)


#: Rules already built, by (id of the Game, limits): new games of it skip the setup.
_SETUPS: dict[tuple, tuple] = {}
_SETUPS_KEPT = 16


def _setup(game: T.Game, seed: int, probe: Executor, key: tuple, max_cards: int, transcript: bool,
           shuffler=None) -> RecycleState:
    _, max_choices, max_steps, _, strict, check, engine = key
    filename = game.filename
    st = Store(seed=seed)
    st.log = [{"t": "game", "file": filename, "seed": seed}]
    env: dict = {}
    for d in game.declarations:
        probe.at = d
        env[d.var.name] = probe.ev(d.value, env, st)
    setup = game.setup
    probe.at = setup
    n = probe.ev(setup.players, env, st)
    if not isinstance(n, int) or not 1 <= n <= 64:
        raise located(setup.players, filename, f"a game needs 1 to 64 players, not {n!r}")
    teams = teams_of(setup.teams, n, filename)
    team_of = [0] * n
    for t, members in enumerate(teams):
        for p in members:
            team_of[p] = t
    table = Table(game, filename, n, teams, tuple(team_of))
    rules = Rules(table, max_choices, max_steps, strict, check, engine)
    rules.base_env = env
    if is_cardstock(game):
        rules.cardstock = rules.ex.cardstock = True
    for item in setup.decks:
        rules.ex.at = probe.at = item
        times, deck = (rules.ex.ev(item.times, env, st), item.action) if isinstance(item, T.Repeat) else (1, item)
        for _ in range(times):
            create_deck(rules.ex, deck, env, st, max_cards)
    st.log[0].update(players=n, **_limits_text(game, max_choices, strict))
    if st.rng.s == Store(seed=seed).rng.s and not st.fresh:  # the setup used no randomness
        while len(_SETUPS) >= _SETUPS_KEPT:
            del _SETUPS[next(iter(_SETUPS))]
        _SETUPS[key] = (game, rules, env, st.where[:], {k: v[:] for k, v in st.locs.items()}, st.log[1:])
    if not transcript:
        st.log = None
    return _start(rules, env, st, shuffler)


def _limits_text(game: T.Game, max_choices: int, strict: bool) -> dict:
    """The limits as a transcript's header records them: as the user gave them (`replay`
    passes them to `new_game` again), with the compatibility mode if any."""
    if is_cardstock(game):
        return {"max_choices": max_choices - 1, "strict": strict, "compat": "cardstock"}
    return {"max_choices": max_choices, "strict": strict}


def _start(rules: Rules, env: dict, st: Store, shuffler=None) -> RecycleState:
    """A state at the start of the flow, run to its first choice."""
    if shuffler is not None:
        st.rng = shuffler(st.rng)
    s = RecycleState.__new__(RecycleState)
    s.rules, s.table, s.num_players, s.st = rules, rules.table, rules.table.num_players, st
    s.stack = [(SEQ, rules.table.game.flow, 0, env)]
    s.pending, s._options, s.found, s.chooser = None, (), (), TERMINAL
    s.choices, s.over, s.called, s._results = 0, False, False, None
    s.counting = True  # the first options only counted where that is proven: explored when asked for
    s._run()
    s.counting = False
    rules.table.canonical(st)  # the keys the deal made, as the generated source names them
    return s
