"""`RecycleState`: a RECYCLE game behind the game protocol of `recycle.kernel.protocol` (made,
set up and run to its first choice by `setup.new_game`).

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

from recycle.kernel.protocol import (TERMINAL, ActionParseError, GameError, GameState, IllegalAction, Results,
                                     score_lead)

from recycle.interp.compiler import executor
from recycle.interp.engine import WARM_CHOICES, Engine
from recycle.interp.effects import RecycleAction, action
from recycle.interp.errors import LimitError, RecycleRuntimeError, guard, located
from recycle.interp.evaluate import MAX_INT, MIN_INT
from recycle.interp.counting import Leaves
from recycle.interp.flow import Machine
from recycle.interp.rounds import loop_here, play_rounds
from recycle.interp.canonical import canonical_texts, hidden_ranks, reads_faces
from recycle.interp.undo import OptionEffects, apply_all, option_texts
from recycle.interp.invariants import check_cards
from recycle.interp.knowledge import Redealer
from recycle.interp.observation import RecycleObservation
from recycle.interp.sight import Sight, blind_to_redeal
from recycle.interp.store import Rng, Table

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
        self.seats = tuple((p, -1) for p in range(table.num_players))  # each as the player cycle's top (scoring)

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

    def played_out(self, action, index: int, rng: random.Random) -> bool:
        """`apply(action)` (where it is not one of the options: option `index`, if there is
        one; else False) then `random_playout(rng)`, the option played as the playout plays its
        draws (in a stage's rounds, by their loop: `rounds`), so the same moves and draws."""
        if self.over:
            return False
        option = self._find(action)
        if option is None and index >= len(self.options):
            return False
        self.random_playout(rng, first=index if option is None else option.index)
        return True

    def random_playout(self, rng: random.Random, draw=None, first: int | None = None) -> int:
        """`GameState.random_playout`'s very moves and draws (options are counted by `found`,
        one per option), without making the options' actions or texts. `first`: the pending
        choice's option played first, instead of a drawn one."""
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
                if first is None:
                    index = int(rand() * n) if draw is None else draw(n)
                else:
                    index, first = first, None
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
        """Each player's score with it as (current player); ranks shared on ties: a player's place is
        1 + how many score strictly better (the first of its score in the best-first order, found in C:
        a rollout is scored at its end, thousands of times a decision)."""
        rules, st = self.rules, self.st
        node, goal = self.table.game.scoring.score, self.table.game.scoring.goal
        score_of, env, ex = rules.ex.fn(node), rules.base_env, rules.ex  # (what `ex.ev` calls)
        push, pop, scores = st.pcycles.append, st.pcycles.pop, []
        for seat in rules.seats:  # (p, -1): p the current player, none queued
            push(seat)
            try:
                score = score_of(env, st)
            finally:
                pop()
            if type(score) is not int and not isinstance(score, int):
                raise located(node, self.table.filename, f"a score must be an integer, not {score!r}")
            if not MIN_INT <= score <= MAX_INT:
                ex.bounded(node, score)  # (raises)
            scores.append(score)
        # best first after a head no score equals: `index` is then the place
        order = [None, *sorted(scores, reverse=goal == "max")]
        return Results(tuple(map(order.index, scores)), tuple(map(float, scores)))

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


__all__ = ["RecycleState", "RecycleAction", "RecycleObservation", "RecycleRuntimeError", "MAX_CHOICES"]
