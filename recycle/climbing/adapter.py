"""Rule personalities at RECYCLE climbing games: the climbing view of a RECYCLE observation.

    agent = climbing_bot("Classic", "recycle/games/President5.gdl")   # None if not a personality
    agents, names = make_climbing_bots(["Classic", "random"], game, players=5)

The condition engine reads only a `ClimbingView`; `ClimbingAdapter` builds
one for any RECYCLE climbing game, deriving what it can from the game:

- a choice's options are tried by the interpreter already (`state.effects`):
  an option whose cards all leave my hand for the table is a play; its
  (value, count) is the value shared by those cards and how many there are
  (options mixing values, or moving my cards elsewhere, are not plays the
  rules can name). Several options making the same (value, count) — a pair
  offered once per suit combination — resolve to the *first offered*, so a
  decision never depends on anything but the game's own option order;
- an option that moves none of my cards is the pass when a play is offered
  (the first such option, if several), or when it is the only option and
  cards lie on the table (a forced pass, traced as in President);
- a decision offering no play otherwise (a bet, a discard, a draw) goes to
  the fallback agent the user names (`--fallback`, default random);
- a card's value is its RANK on the `.rul` scale (or a `value=` point map),
  the value order comes from the game's `order=` point map;
- the upcards are the top run of equal values on the table (the last play
  where the table keeps only it; Comet's whole sequence keeps its last card);
- played cards are the cards in public (`vloc`) locations; unseen ones are
  the rest of the pack not in my hand. When the game leaves cards out of
  play in hidden places (Comet's undealt stock), `unseen` counts the cards
  expected in the opponents' hands (scaled to their size), so FollowOdds
  stays the chance its uniform deal defines;
- rank and higher players come from a `rank=` player storage, else none;
  the order is reversed while a `reverse=` game storage is not 0.

What cannot be derived comes from the metadata (`recycle.climbing.metadata`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from personalities.player import RulePlayer
from personalities.view import JOKER, NO_RANK, TWO, ClimbingView
from recycle.kernel import user_files as uploads
from recycle.kernel.specs import AgentSpecError, fill_seats
from recycle.players import AGENT_FACTORIES, cannot_play, make_agent
from recycle.kernel.protocol import Agent, GameError
from recycle.interp.effects import Move
from recycle.lang import load_game
from recycle.lang import tree as T

from recycle.climbing.metadata import ClimbingMeta, ClimbingMetaError, game_names, read_meta

#: A card's `.rul` value from its RANK (the default when no `value=` point map is named).
RANK_VALUES = {"THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10,
               "JACK": 11, "QUEEN": 12, "KING": 13, "ACE": 14, "TWO": 15, "JOKER": 16}
_CACHED = 64  # per adapter: packs and orders kept (games change point maps rarely)


class ClimbingError(GameError):
    """A climbing game that does not fit the adapter at run time (a point map unset, a bad value)."""


class ClimbingAdapter:
    """The view function of one game and its metadata: (observation, legal actions) -> ClimbingView,
    or None when the decision is not a climbing play (the fallback agent takes it)."""

    def __init__(self, game: T.Game, meta: ClimbingMeta) -> None:
        names = game_names(game)
        self.game, self.meta = game, meta
        self.hand_visibility = names.player_locations[meta.hand]
        self.table_key = ("g", 0, names.game_locations[meta.table], meta.table)
        self._packs: dict[tuple, tuple] = {}  # (id(table), id(value map)) -> (table, map, values, pack)
        self._orders: dict[tuple, tuple] = {}  # (id(pack), id(order map)) -> (pack, map, order)
        self._named_ranks: tuple | None = None  # (table, every card's RANK a standard rank name)

    @property
    def _where(self) -> str:
        """Where the metadata was read (`file:line`), for run-time errors about what it names."""
        return self.meta.source or self.game.filename

    # ---- what does not change often: card values, pack, order ---------------
    def _point_map(self, st, name: str, chooser: int):
        found = st.gvars.get(name[1:]) if name.startswith("'") else st.points.get(("g", 0, name))
        if found is None:
            raise ClimbingError(f"{self._where}: the point map {name} named by the climbing "
                                f"metadata is not set when p{chooser} chooses")
        return found

    def _value_map_name(self, table) -> str | None:
        """The point map giving values: `value=`, else the order map when some card's RANK is
        not a standard rank name (a rank map from 0 or 1, ranks named otherwise), else None."""
        if self.meta.value:
            return self.meta.value
        if self._named_ranks is None or self._named_ranks[0] is not table:
            self._named_ranks = (table, all(a.get("RANK") in RANK_VALUES for a in table.attrs))
        return None if self._named_ranks[1] else self.meta.order

    def _pack(self, table, st, chooser: int) -> tuple[list[int], tuple[int, ...]]:
        """Each card's value (0: none) and how many cards of each value the pack has."""
        name = self._value_map_name(table)
        value_map = self._point_map(st, name, chooser) if name else None
        key = (id(table), id(value_map))
        got = self._packs.get(key)
        if got is None or got[0] is not table or got[1] is not value_map:
            values = self._values(table, value_map, name)
            pack = [0] * 17
            for v in values:
                pack[v] += 1
            if not any(pack[3:]):
                raise ClimbingError(f"{self._where}: no card has a RANK from TWO to ACE or "
                                    f"JOKER; name a point map giving .rul values (3..16) with value=")
            pack[0] = 0
            if len(self._packs) >= _CACHED:
                self._packs.clear()
            got = self._packs[key] = (table, value_map, values, tuple(pack))
        return got[2], got[3]

    def _values(self, table, value_map, name: str | None) -> list[int]:
        """Each card's .rul value: its RANK's, or its score in `value_map` — as it is when every
        score is a .rul value (3..14, 15 a two, 16 a joker; 0: not a climbing card), else the
        scores in order mapped onto 3, 4, ... (a rank map from 0 or 1, a watch card at 0)."""
        if value_map is None:
            return [RANK_VALUES.get(a.get("RANK", ""), 0) for a in table.attrs]
        scores = [value_map.score(c, table.attrs) for c in range(len(table.attrs))]
        if all(v == 0 or 3 <= v <= JOKER for v in scores):
            return scores
        distinct = sorted(set(scores))
        if len(distinct) > TWO - 2:
            raise ClimbingError(f"{self._where}: the point map {name} gives the cards {len(distinct)} "
                                f"different values ({distinct[0]}..{distinct[-1]}); a climbing view tells at most "
                                f"{TWO - 2} apart (.rul values 3..15): name a point map giving one value per rank "
                                f"with value=")
        scale = {v: 3 + i for i, v in enumerate(distinct)}
        return [scale[v] for v in scores]

    def _order(self, table, st, pack: tuple[int, ...], values: list[int], chooser: int) -> tuple[int, ...]:
        """Values present in the pack (jokers aside), weakest first: a value is as strong as its weakest card."""
        order_map = self._point_map(st, self.meta.order, chooser)
        key = (id(pack), id(order_map))
        got = self._orders.get(key)
        if got is None or got[0] is not pack or got[1] is not order_map:
            strength: dict[int, int] = {}
            for card, v in enumerate(values):
                if v and v != JOKER:
                    score = order_map.score(card, table.attrs)
                    strength[v] = min(score, strength.get(v, score))
            if len(self._orders) >= _CACHED:
                self._orders.clear()
            got = self._orders[key] = (pack, order_map, tuple(sorted(strength, key=lambda v: (strength[v], v))))
        return got[2]

    # ---- the view -----------------------------------------------------------
    def __call__(self, observation: Any, legal_actions: Sequence[Any]) -> ClimbingView | None:
        state = observation.live_state()  # its options' effects are already computed
        st, table, me = state.st, state.table, observation.player
        values, pack = self._pack(table, st, me)
        hand_key = ("p", me, self.hand_visibility, self.meta.hand)
        actions, quiet = self._classify(state, legal_actions, hand_key, values)
        on_table = st.locs.get(self.table_key, ())
        # A lone option moving none of my cards while cards lie on the table is a forced pass (traced
        # as in President); quiet options with no play offered (bets, a draw) are the fallback's.
        if not actions and not (len(legal_actions) == 1 and quiet and on_table):
            return None
        pass_action = quiet[0] if quiet else None
        hand = [0] * 17
        for c in st.locs.get(hand_key, ()):
            hand[values[c]] += 1
        hand[0] = 0
        played = [0] * 17
        for key, cards in st.locs.items():
            if key[2] == "vloc":
                for c in cards:
                    played[values[c]] += 1
        sizes = {q: len(st.locs.get(("p", q, self.hand_visibility, self.meta.hand), ()))
                 for q in range(state.num_players) if q != me}
        still_in = [q for q, n in sizes.items() if n]
        counts = tuple(sizes[q] for q in still_in)
        rank, higher = self._rank(st, me, still_in)
        return ClimbingView(
            hand=tuple(hand), upcards=_top_run(on_table, values), legal=actions.keys(),
            can_pass=pass_action is not None, unseen=_unseen(pack, hand, played, sum(counts)),
            opponent_counts=counts, played=sum(played[1:]), deck_size=sum(pack),
            order=self._order(table, st, pack, values, me)[::-1 if self._reversed(st) else 1],
            rank=rank, higher_players=higher,
            actions=actions, pass_action=pass_action)

    def _classify(self, state, legal_actions, hand_key, values) -> tuple[dict, list]:
        """(value, count) -> first option playing it; the options moving none of my cards."""
        actions: dict[tuple[int, int], Any] = {}
        quiet: list = []
        table_key = self.table_key
        for action in legal_actions:
            moved: dict[int, tuple] = {}  # my card -> where the option leaves it
            for effect in state.effects[action.index]:
                if isinstance(effect, Move) and (effect.src == hand_key or effect.card in moved):
                    moved[effect.card] = effect.dst
            out = [c for c, dst in moved.items() if dst != hand_key]
            if not out:
                quiet.append(action)
            elif all(moved[c] == table_key for c in out):
                v = values[out[0]]
                if v and all(values[c] == v for c in out):
                    actions.setdefault((v, len(out)), action)
        return actions, quiet

    def _reversed(self, st) -> bool:
        return bool(self.meta.reverse and st.ints.get(("g", 0, self.meta.reverse), 0))

    def _rank(self, st, me: int, still_in: list[int]) -> tuple[int, int]:
        if not self.meta.rank:
            return NO_RANK, 0
        ranks = {q: st.ints.get(("p", q, self.meta.rank), 0) for q in [me, *still_in]}
        mine = ranks[me]
        if not 1 <= mine < NO_RANK:
            return NO_RANK, 0
        return mine, sum(1 for q in still_in if 1 <= ranks[q] < mine)


def _top_run(cards: Sequence[int], values: list[int]) -> tuple[int, int] | None:
    """(value, count) of the equal values on top of the table (the top card is last), or None if empty."""
    if not cards or not values[cards[-1]]:  # nothing, or a card of no climbing value, on top
        return None
    top = values[cards[-1]]
    count = 0
    for c in reversed(cards):
        if values[c] != top:
            break
        count += 1
    return top, count


def _unseen(pack: tuple[int, ...], hand: list[int], played: list[int], held: int) -> tuple[int, ...]:
    """Per value, the pack's cards neither mine nor played; scaled down to the `held` cards of the
    opponents when more are unseen (cards out of play in hidden places), largest remainders first."""
    unseen = [max(0, pack[v] - hand[v] - played[v]) if v >= 3 else 0 for v in range(17)]
    total = sum(unseen)
    if total <= held:
        return tuple(unseen)
    shares = [(u * held // total, u * held % total, v) for v, u in enumerate(unseen)]
    left = held - sum(s for s, _, _ in shares)
    extra = {v for _, _, v in sorted(shares, key=lambda s: (-s[1], -s[2]))[:left]}
    return tuple(s + (v in extra) for s, _, v in shares)


# ---- building bots ------------------------------------------------------------
_GAMES: dict[str, T.Game] = {}
_ADAPTERS: dict[tuple, ClimbingAdapter] = {}


def loaded(game: T.Game | str | Path) -> T.Game:
    """A game by path (read once per process: tournaments build bots every match) or as given."""
    if isinstance(game, T.Game):
        return game
    key = str(game)
    if key not in _GAMES or uploads.is_recording():  # a recorded run must see the file read
        if len(_GAMES) >= _CACHED:
            _GAMES.clear()
        _GAMES[key] = load_game(key)
    return _GAMES[key]


def adapter_for(game: T.Game | str | Path, meta: ClimbingMeta | str | None = None) -> ClimbingAdapter:
    """The adapter of a game: `meta` is metadata, its text (`--climbing`), or None to find it
    next to or in the game file. Raises `ClimbingMetaError` (located) when it is missing or wrong."""
    game = loaded(game)
    key = (id(game), meta if isinstance(meta, (str, type(None))) else meta.text())
    got = _ADAPTERS.get(key)
    if got is None or got.game is not game:
        if len(_ADAPTERS) >= _CACHED:
            _ADAPTERS.clear()
        found = meta if isinstance(meta, ClimbingMeta) else read_meta(game, meta)
        got = _ADAPTERS[key] = ClimbingAdapter(game, found)
    return got


def climbing_bot(spec: str, game, *, fallback: str = "random", rules_dirs: tuple[Path, ...] = (),
                 meta: ClimbingMeta | str | None = None) -> Agent | None:
    """A rule player at `game` for a personality name or `.rul` path; None if `spec` is neither.

    The metadata is read only when `spec` is a personality, so games without it
    still run agents that need none."""
    from personalities.catalog import find_personality

    personality = find_personality(spec, tuple(rules_dirs))
    if personality is None:
        return None
    try:  # registered agents only: a personality cannot be its own fallback
        backup = make_agent(fallback)
    except AgentSpecError as exc:
        known = ", ".join(sorted(AGENT_FACTORIES))
        raise AgentSpecError(f"--fallback {fallback!r}: the fallback takes the decisions rules cannot (bets, "
                             f"discards), so it is an agent spec, one of: {known}") from exc
    return RulePlayer(personality, _adapter_for_personality(personality.name, game, meta), fallback=backup)


def _adapter_for_personality(name: str, game, meta: ClimbingMeta | str | None) -> ClimbingAdapter:
    """`adapter_for`; a shipped game without climbing metadata cannot be given one by its user (the file is
    inside the installed package): say that the personality cannot play it, and what can."""
    from recycle.games import shipped_name

    try:
        return adapter_for(game, meta)
    except ClimbingMetaError:
        shipped = shipped_name(loaded(game).filename) if meta is None else None
        if shipped is None:
            raise  # the user's own file: the located error says which line to add
        raise AgentSpecError(cannot_play(name, shipped)) from None


def make_climbing_bot(spec: str, game, **options) -> Agent:
    """The agent for one BOT argument at a climbing game (any agent spec, a personality, a .rul file)."""
    if not spec.strip():
        raise AgentSpecError("empty bot name")
    return make_agent(spec, lambda name: climbing_bot(name, game, **options), game=Path(loaded(game).filename).stem)


def make_climbing_bots(specs: Sequence[str], game, players: int, **options) -> tuple[list[Agent], list[str]]:
    """One agent per seat (fewer specs are repeated in rotation), each its own object; and the seat names.
    `options`: fallback, rules_dirs, meta (as `climbing_bot`)."""
    seats = fill_seats(specs, players)
    # Fresh objects per seat: stateful agents (search players) never share memory.
    return [make_climbing_bot(s, game, **options) for s in seats], seats


__all__ = ["ClimbingAdapter", "ClimbingError", "adapter_for", "climbing_bot",
           "make_climbing_bot", "make_climbing_bots", "RANK_VALUES"]
