"""`RecycleState`: a RECYCLE game behind the game protocol of `recycle.kernel.protocol`.

    state = new_game(game_path("Hearts4"), seed=7)   # recycle.games.game_path: a shipped game
    results = play_game(state, [RandomAgent()] * state.num_players, random.Random(7))

An action is a `RecycleAction`: the option's index and its text (what it
moves and sets, e.g. `move SEVEN RED HEARTS from p0 HAND to p0 TRICK`), equal
by text, so an action from a clone or a determinization applies here too.
Cards a chooser cannot see are named by position, never by face; in a choice
that reads faces, by rank among the hidden cards its options move, and an
option's words end at its first hidden card (`canonical`), so the texts do not
depend on what the chooser cannot see.

Observations are visibility-exact (`Table.visible`) and include the hidden
cards a player saw go where they are (`knowledge`); `determinize` keeps all
of it and re-deals the rest.
"""
from __future__ import annotations

import random
from pathlib import Path

from recycle.kernel.protocol import (TERMINAL, ActionParseError, GameError, GameState, IllegalAction, Results,
                                     score_lead)
from recycle.lang import load_game
from recycle.lang import tree as T

from recycle.interp.actions import Executor
from recycle.interp.arrange import dealt_game
from recycle.interp.compiler import executor
from recycle.interp.engine import WARM_CHOICES, Engine
from recycle.interp.effects import RecycleAction, action
from recycle.interp.errors import LimitError, RecycleRuntimeError, guard, located
from recycle.interp.setup import MAX_CARDS, create_deck, teams_of
from recycle.interp.compat import cardstock_game, check_mode, is_cardstock
from recycle.interp.counting import Leaves
from recycle.interp.flow import SEQ, Machine
from recycle.interp.rounds import loop_here, play_rounds
from recycle.interp.canonical import canonical_texts, hidden_ranks, reads_faces
from recycle.interp.undo import OptionEffects, apply_all, option_texts
from recycle.interp.invariants import check_cards, checking_by_default
from recycle.interp.knowledge import Redealer
from recycle.interp.observation import RecycleObservation
from recycle.interp.sight import Sight, blind_to_redeal
from recycle.interp.store import Rng, Store, Table

#: The reference engine's bound on choices per game.
MAX_CHOICES = 500
MAX_STEPS = 200_000
#: Deals a determinization tries to find a world offering the chooser its real options.
MAX_REDEALS = 64


class Rules:
    """Everything shared by the states of one game: table, executor, machine, limits."""

    cardstock = False  # options of identical cards kept apart, as the reference engine (see `compat`)

    def __init__(self, table: Table, max_choices: int, max_steps: int, strict: bool = False,
                 check: bool = False, engine: Engine = Engine.FAST) -> None:
        self.table = table
        self.check = check  # card conservation checked after every step (see `invariants`)
        self.engine = engine  # the plain meaning or the speed layers over it (see `engine`)
        self.ex = executor(table, max_steps, engine)
        self.machine = Machine(self.ex, table.game)
        # choices left before the fast engine compiles (0: never, or compiled already; see `engine`)
        self.warm = WARM_CHOICES if engine is Engine.FAST else 0
        self.max_choices = max_choices
        self.strict = strict  # hitting max_choices: raise LimitError instead of calling the game
        self.guarded = guard(self.ex)  # one for all (it keeps nothing between uses)
        self._faces: dict[int, bool] = {}  # id of a choice node -> `faces`
        self.sight = Sight()  # what each choice's syntax tells of re-deals (`sight.blind_to_redeal`)
        self.by_rule: set[int] = set()  # ids of the choices explored rule by rule (`canonical.rules_matter`)

    def guard(self):
        return self.guarded

    def faces(self, choice) -> bool:
        """Does this choice read cards' faces (its options may depend on hidden ones: worded by
        `canonical`)? Never in the reference mode, whose options are worded as it words them."""
        known = self._faces.get(id(choice))
        if known is None:
            known = self._faces[id(choice)] = not self.cardstock and reads_faces(choice)
        return known


class RecycleState(GameState):
    """A position of a RECYCLE game. Build with `new_game`."""

    __slots__ = ("rules", "table", "num_players", "st", "stack", "pending", "_options", "found", "chooser",
                 "choices", "over", "called", "_results", "counting")

    @property
    def options(self) -> tuple[RecycleAction, ...]:
        """The pending choice's options. Made when first asked for: a random playout only
        needs how many there are (`Machine.offer` makes texts only to merge identical options)."""
        options = self._options
        if type(self.found) is Leaves:  # only counted (a new game, a playout that stopped): explored now
            self.counting = False
            with self.rules.guard():
                self.rules.machine.offer(self)
            options = self._options
        if type(options) is not tuple:  # a list of the options' texts, or None: no text made yet
            texts = options if options is not None else self._texts()
            options = self._options = tuple(action(i, text) for i, text in enumerate(texts))
        return options

    def hidden_ranks(self) -> dict:
        """In a choice that reads faces, (option index, card) -> (place, rank, rule) of the hidden
        cards its options move, as its words name them (`canonical`); else empty (named by place)."""
        if self.over or self.pending is None or not self.rules.faces(self.pending[0]):
            return {}
        self.options  # (explored, if they were only counted)
        return hidden_ranks(self.found, self.table, self.st, self.chooser)

    def _texts(self) -> list[str]:
        """The options' words for their chooser: canonical where the choice reads faces (`canonical`)."""
        words = canonical_texts if self.rules.faces(self.pending[0]) else option_texts
        return words(self.found, self.table, self.st, self.chooser)

    @options.setter
    def options(self, options: tuple) -> None:
        self._options = options

    @property
    def effects(self) -> OptionEffects:
        """Per option (by index), what it does: a tuple of `effects` objects."""
        self.options  # (explored, if they were only counted)
        return OptionEffects(self.found)

    # --- protocol -----------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.over else self.chooser

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[RecycleAction]:
        return [] if self.over else list(self.options)

    def _find(self, action) -> RecycleAction | None:
        options = self.options
        if isinstance(action, RecycleAction):
            if action.index < len(options) and options[action.index] is action:  # one of ours
                return action
            text = action.text
        else:
            text = str(action).strip()
        for option in options:
            if option.text == text:
                return option
        return None

    def apply(self, action) -> None:
        if self.over:
            raise IllegalAction("the game is over", "terminal")
        option = self._find(action)
        if option is None:
            raise IllegalAction(f"{action} is not one of the {len(self.options)} options now", "not-offered")
        self._play(option.index)

    def _play(self, index: int) -> None:
        """Do option `index` of the pending choice and run to the next choice or the end."""
        st = self.st
        if st.log is not None:
            st.log.append({"t": "choice", "player": self.chooser, "index": index,
                           "action": self.options[index].text, "options": len(self.found)})
        self._do(index)
        self._run()

    def _do(self, index: int) -> None:
        """Do option `index` of the pending choice: the choice is then behind."""
        found = self.found
        if type(found) is Leaves:
            found.play(index, self.st)
        else:
            apply_all(self.st, found[index])
        self.choices += 1
        self._options, self.found, self.pending = (), (), None
        rules = self.rules
        if rules.warm:  # the fast engine's warm-up (see `engine`)
            rules.warm -= 1
            if not rules.warm:
                rules.machine.compile_from_now()

    def random_playout(self, rng: random.Random, draw=None) -> int:
        """`GameState.random_playout`'s very moves and draws (options are counted by `found`,
        one per option), without making the options' actions or texts."""
        steps, rand = 0, rng.random
        rules = self.rules
        if rules.warm:  # playouts come by the thousand (search, analysis): compiling pays now (see `engine`)
            rules.warm = 0
            rules.machine.compile_from_now()
        self.counting = True  # options are only counted where that is proven (`counting`)
        try:
            st = self.st
            while not self.over:
                n = len(self.found)
                if not n:
                    raise GameError("no legal action in a position that is not over")
                index = int(rand() * n) if draw is None else draw(n)
                here = loop_here(self) if st.log is None and st.journal is None and not rules.check \
                    and rules.ex.compiling else None
                if here is None:
                    self._play(index)
                    steps += 1
                else:  # a stage's rounds in one loop, the same moves and draws (`rounds`)
                    steps += play_rounds(self, *here, index, rand, draw)
        finally:
            self.counting = False
        return steps

    def _run(self) -> None:
        with self.rules.guarded:
            self.rules.machine.advance(self)
        self._settle()

    def _settle(self) -> None:
        """After the machine stopped: call a game at the choice limit, record the end, check."""
        if not self.over and self.choices >= self.rules.max_choices:
            if self.rules.strict:
                raise located(self.pending[0], self.table.filename,
                              f"the game did not end within {self.rules.max_choices} choices", LimitError)
            # As the reference engine: the game is called and scored as it stands.
            self.over, self.called, self.options = True, True, ()
            if self.st.log is not None:
                self.st.log.append({"t": "called", "choices": self.choices})
        if self.over and self.st.log is not None:
            r = self.results()
            self.st.log.append({"t": "end", "scores": list(r.scores), "ranks": list(r.ranks)})
        if self.rules.check:
            check_cards(self, f"after {self.choices} choice(s)")

    def clone(self) -> "RecycleState":
        if type(self.found) is Leaves:  # explored once here, not in each of the many clones search makes
            self.options
        c = RecycleState.__new__(RecycleState)
        c.rules, c.table, c.num_players = self.rules, self.table, self.num_players
        c.st = self.st.clone()
        c.stack = self.stack[:]
        c.pending, c._options, c.found, c.chooser = self.pending, self._options, self.found, self.chooser
        c.choices, c.over, c.called, c._results = self.choices, self.over, self.called, self._results
        c.counting = False
        return c

    def results(self) -> Results:
        if not self.over:
            raise GameError("the game is not over")
        if self._results is None:
            with self.rules.guard():
                self._results = self._score()
        return self._results

    def _score(self) -> Results:
        """Each player's score with it as (current player); ranks shared on ties."""
        scoring, st, ex = self.table.game.scoring, self.st, self.rules.ex
        scores = []
        for p in range(self.num_players):
            st.pcycles.append((p, -1))
            try:
                score = ex.ev(scoring.score, self.rules.base_env, st)
                if not isinstance(score, int):
                    raise located(scoring.score, self.table.filename, f"a score must be an integer, not {score!r}")
                scores.append(ex.bounded(scoring.score, score))
            finally:
                st.pcycles.pop()
        sign = -1 if scoring.goal == "max" else 1
        ranks = tuple(1 + sum(1 for o in scores if sign * o < sign * s) for s in scores)
        return Results(ranks, tuple(float(s) for s in scores))

    def heuristic(self, player: int) -> float:
        """The game's scores as they stand: `player`'s lead over the others (`score_lead`; 0.5 where
        the scoring cannot be read before the end)."""
        if self.over:
            return self.results().utilities()[player]
        try:
            with self.rules.guard():
                scores = self._score()
        except RecycleRuntimeError:
            return 0.5
        return score_lead(scores.scores, player, self.table.game.scoring.goal)

    def observation(self, player: int) -> RecycleObservation:
        return RecycleObservation(self, player)

    def hidden_cards(self, player: int) -> list[tuple]:
        """(location key, index) of every card `player` cannot see."""
        table = self.table
        return [(key, i) for key, cards in sorted(self.st.locs.items())  # sorted: one order for all states
                if key[2] != "mem" and not table.visible(key, player) for i in range(len(cards))]

    def determinize(self, player: int, rng: random.Random) -> "RecycleState":
        """Re-deal the cards `player` cannot see (cards it knows stay in their location, see
        `knowledge`), keeping every location's size and card backs; reseed the game's
        generator; find the pending options again. The chooser of a choice that reads faces is told
        how many hidden cards its options may move (and chance drawn while finding them, e.g. a
        tie broken at random): re-dealt until the world offers the same option texts (at most
        `MAX_REDEALS` deals; docs/recycle-language.md, "Options and hidden cards"). Where no
        re-deal can change the options (`sight`), they are kept, not found again."""
        return self._determinized(player, rng, self.hidden_cards(player), blind_to_redeal(self, player))

    def determinizer(self, player: int):
        """`determinize(player, rng)` for many draws: where the pending options cannot depend on
        what the re-deal changes (`sight`), each draw keeps them instead of finding them again."""
        slots, same = self.hidden_cards(player), blind_to_redeal(self, player)
        deal = Redealer(self.table, self.st, player, slots)  # (its groups worked out once)
        choices, pending = self.choices, self.pending

        def draw(rng: random.Random) -> "RecycleState":
            if self.choices != choices or self.pending is not pending:  # played on since: all afresh
                return self.determinize(player, rng)
            return self._determinized(player, rng, slots, same, deal)
        return draw

    def _determinized(self, player: int, rng: random.Random, slots: list[tuple], same: bool,
                      deal: Redealer | None = None) -> "RecycleState":
        c = self._dealt(player, slots, rng, same, deal)
        if slots and not same and player == self.chooser and not self.over and self.pending is not None \
                and self.rules.faces(self.pending[0]):
            told = self.option_texts()
            for _ in range(MAX_REDEALS - 1):
                if c.option_texts() == told:
                    break
                c = self._dealt(player, slots, rng, False, deal)
        return c

    def _dealt(self, player: int, slots: list[tuple], rng: random.Random, same: bool = False,
               deal: Redealer | None = None) -> "RecycleState":
        c = self.clone()
        (deal or Redealer(self.table, self.st, player, slots))(c.st, rng)
        c.st.rng = Rng(rng.getrandbits(64))
        if not c.over and c.pending is not None and slots and not same:
            with c.rules.guard():
                c.rules.machine.offer(c)
        if c.rules.check:
            check_cards(c, f"in a determinization for player {player}")
        return c

    def option_texts(self) -> tuple[str, ...]:
        """The pending choice's options as their chooser reads them (part of its observation)."""
        return tuple(o.text for o in self.options) if not self.over else ()

    def hidden_is_determined(self, player: int) -> bool:
        """At most one card `player` cannot see whose location it does not know."""
        locs, known = self.st.locs, self.st.known
        unknown = {locs[k][i] for k, i in self.hidden_cards(player)}
        return len({c for c in unknown if (player, c) not in known}) <= 1

    def parse_action(self, text: str) -> RecycleAction:
        option = self._find(text)
        if option is None:
            shown = "; ".join(f"[{o.text}]" for o in self.options[:5])
            raise ActionParseError(f"{text!r} is not an option now; options: {shown}"
                                   + (" ..." if len(self.options) > 5 else ""))
        return option


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


__all__ = ["RecycleState", "RecycleAction", "RecycleObservation", "new_game", "RecycleRuntimeError",
           "MAX_CHOICES"]
