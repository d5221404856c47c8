"""One game of any RECYCLE file as the screen plays it: a person in one seat, bots in the others.

No Textual here. The screen reads a `GameSession` (the board the person may
see, the current choice's options in the game's words, the log) and calls
`apply`; bots decide in worker threads from a `DecisionJob` taken on the app thread
from a *copy* of the state, so the live state is only touched by one thread.
Every game keeps a transcript (`recycle.interp.transcript`): the log is read
from it and `transcript()` writes what `recycle replay` checks.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recycle.about import About, about_game
from recycle.interp import new_game
from recycle.interp.effects import Move, RecycleAction
from recycle.interp.observation import OpenObservation
from recycle.interp.store import loc_text
from recycle.interp.transcript import finished_records
from recycle.kernel.protocol import GameError, Results
from recycle.labels import Labeller

from tui.shared.botjob import BotDecision, DecisionJob
from tui.anygame.board import Board, board_of, seat_view
from tui.anygame.events import words
from tui.anygame.faces import CardFaces
from tui.anygame.seats import Seats, read_seats
from tui.anygame.sealed import SealedTrace, knows_more

MAX_LOG = 2000  # lines kept on screen (a long game must not grow without bound)


@dataclass(frozen=True)
class OptionView:
    """One option of the current choice: its text in the game's words, with card faces."""

    index: int
    text: str  # the interpreter's text (what transcripts record)
    label: str  # what it does, in the game's words, with card faces (`recycle.labels`)
    cards: tuple[int, ...]  # the person's cards it moves (sorted ids, one per card text)

    def moves(self, selected) -> bool:
        """Does it move every selected card (as many of each as selected)?"""
        mine = list(self.cards)
        for c in selected:
            if c not in mine:
                return False
            mine.remove(c)
        return True


@dataclass
class PlayOptions:
    """What a game is played with (kept for "play again")."""

    game: Any  # a loaded recycle.lang.tree.Game
    seats: Seats
    agents: list  # one per seat, None for the person
    seed: int = 0
    deal: Any = None
    limits: dict = field(default_factory=dict)
    transcript: Path | None = None
    delay: float = 0.0  # seconds a bot waits before deciding (so a person can follow)
    open_hands: bool = False  # every card and every bot's reasoning shown (marked on the table)


class GameSession:
    """A game between the person (`seats.human`) and bots, reproducible from `options.seed`."""

    def __init__(self, options: PlayOptions, number: int = 1) -> None:
        self.options, self.number = options, number
        self.seats = options.seats
        self.me = options.seats.human
        self.agents = options.agents
        self.rngs = [random.Random(f"recycle-play/{options.seed}/seat/{p}") for p in range(len(self.agents))]
        self.decisions: list[BotDecision] = []  # as the person may see them (see `reasoning`)
        self._reasons: list[BotDecision] = []  # with the bots' own traces and words
        self.log: list[str] = []
        self.error: str = ""  # a located error of the game file that stopped the game
        self._shown: dict[str, bool] = {}
        self._options: tuple[int, list[OptionView]] | None = None
        self.about: About = about_game(options.game)
        self.state = None
        try:
            self.state = new_game(options.game, options.seed, transcript=True, deal=options.deal, **options.limits)
        except GameError as exc:  # the setup itself failed: the screen shows where
            self.error = str(exc)
            return
        self.faces = CardFaces(self.state.table)
        text = self.state.table.text
        self.card_of = {text[c]: c for c in range(len(text) - 1, -1, -1)}  # one id per card text
        self.labeller = Labeller(self.state.table, self._name_cards)
        self.log.append(f"{self.title}: {self.about.title or 'a RECYCLE game'} · {self.about.scoring} · ? rules")
        self._read = 0
        self._take_log()

    # ---- reading the game ----------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.seats.specs)

    @property
    def over(self) -> bool:
        return bool(self.error) or self.state.is_terminal()

    @property
    def title(self) -> str:
        return Path(self.options.game.filename).stem

    def name(self, p: int) -> str:
        """`p0 you`, `p2 ismcts`: the seat as the log and the panels name it (`p2` as the game does)."""
        spec = self.seats.specs[p]
        short = Path(spec).stem if spec.endswith(".rul") else spec.split(":")[0]
        return f"p{p} {short}"

    def to_move(self) -> int:
        return -1 if self.over else self.state.current_player()

    def human_turn(self) -> bool:
        return not self.over and self.state.current_player() == self.me

    @property
    def open(self) -> bool:
        """Is every card shown? In the open-hands mode, and once the game is over."""
        return self.options.open_hands or self.over

    def board(self) -> Board:
        """What the person sees: their seat's observation (the whole table when `open`)."""
        seen = OpenObservation(self.state, self.me) if self.open else self.state.observation(self.me)
        return board_of(seat_view(seen), self.me, self._shown, self.card_of, self.open)

    def _name_cards(self, cards) -> str:
        faces = self.faces
        cards = sorted(cards, key=faces.sort_key)  # as in a sorted hand
        return " ".join(faces.label(c) for c in cards) if faces.standard else ", ".join(faces.text(c) for c in cards)

    def options_now(self) -> list[OptionView]:
        """The person's options now (empty when it is not their turn), labelled in the game's words,
        with the cards each moves."""
        if not self.human_turn():
            return []
        state = self.state
        if self._options is None or self._options[0] != state.choices:
            hand = {p.title for p in self.board().hand()}
            legal = state.legal_actions()
            effects = [state.effects[o.index] for o in legal]
            labels = self.labeller.choice(effects, self.me, self.me, state.hidden_ranks())
            out = []
            for option, did, label in zip(legal, effects, labels):
                cards = tuple(sorted(self.card_of[state.table.text[e.card]] for e in did
                                     if isinstance(e, Move) and loc_text(e.src) in hand))
                out.append(OptionView(option.index, option.text, label, cards))
            self._options = (state.choices, out)
        return self._options[1]

    def matching(self, selected) -> list[OptionView]:
        """The options moving every selected card; those moving exactly them first."""
        chosen = sorted(selected)
        found = [o for o in self.options_now() if o.moves(chosen)]
        return sorted(found, key=lambda o: list(o.cards) != chosen) if chosen else found

    def sole_option(self, card: int) -> OptionView | None:
        """The one option that moves `card`, if exactly one does (a click on it plays it)."""
        found = [o for o in self.options_now() if card in o.cards]
        return found[0] if len(found) == 1 else None

    def revealed(self) -> list[tuple[str, str, tuple[int, ...]]]:
        """Once the game is over: (seat, place, cards) of every player's pile the person could not
        see while playing (the hands a showdown lays down)."""
        if not self.over or self.error:
            return []
        visible, out = self.state.table.visible, []
        for owner in self.board().owners:
            for pile in owner.piles:
                if owner.owner[0] == "p" and pile.cards and not visible(pile.key, self.me):
                    out.append((self.name(owner.owner[1]), pile.name, pile.cards))
        return out

    def reasoning(self) -> list[BotDecision]:
        """The bots' decisions as the person may see them: their traces sealed while they hold
        what the person cannot see (open in the open-hands mode and once the game is over)."""
        return self._reasons if self.open else self.decisions

    def results(self) -> Results | None:
        return None if self.error or not self.state.is_terminal() else self.state.results()

    def standings(self) -> list[tuple[int, int, str, float]]:
        """(rank, seat, name, score), best first."""
        r = self.results()
        if r is None:
            return []
        return sorted(((r.ranks[p], p, self.name(p), r.scores[p]) for p in range(self.num_players)),
                      key=lambda row: (row[0], row[1]))

    # ---- playing -----------------------------------------------------------------
    def bot_job(self) -> DecisionJob | None:
        """The next bot decision to compute, or None (the person's turn, or the game is over)."""
        if self.over or self.human_turn():
            return None
        p = self.state.current_player()
        copy = self.state.clone()
        return DecisionJob(p, self.agents[p], copy.observation(p), copy.legal_actions(), self.rngs[p])

    def choose(self, index: int) -> list[str]:
        """The person takes option `index` of the current choice."""
        if not self.human_turn():
            raise GameError("it is not your turn")
        options = self.state.legal_actions()
        if not 0 <= index < len(options):
            raise GameError(f"there is no option {index + 1}: {len(options)} are offered")
        return self.apply(self.me, options[index])

    def apply(self, player: int, action: Any, trace: Any = None) -> list[str]:
        """Apply one decision (an option, or its text); the log lines it made."""
        state = self.state
        if self.over or state.current_player() != player:
            raise GameError(f"p{player} is not to move")
        offered = state.legal_actions()
        if isinstance(action, RecycleAction) and action.index < len(offered) and offered[action.index] is action:
            option = action  # one of this state's own options (equal texts may name different cards)
        else:
            option = state.parse_action(str(action))  # a bot's, from its copy of the state: by text
        did = state.effects[option.index]
        effects = len(did)
        mark = len(state.st.log)
        number = state.choices + 1
        sealed = player != self.me and knows_more(state, player, self.me)
        try:
            state.apply(option)
        except GameError as exc:  # a defect of the game file shows on screen, located
            self.error = str(exc)
            self.log.append(f"error: {exc}")
            return [self.log[-1]]
        self._read = mark + 1 + effects
        seen = self.labeller.label(did, player, self.me, done=True)  # as the person saw it done
        lines = [f"{self.name(player)}: {seen}"]
        if player != self.me:
            own = self.labeller.label(did, player, player, done=True)  # as the bot saw it: opened later
            self._reasons.append(BotDecision(self.number, number, player, self.name(player), own, trace))
            self.decisions.append(BotDecision(self.number, number, player, self.name(player), seen,
                                              SealedTrace(self.name(player)) if sealed else trace))
        self.log += lines
        return lines + self._take_log()

    def _take_log(self) -> list[str]:
        """Log lines for what the game did by itself since the last read (deals, scoring...)."""
        log = self.state.st.log
        entries, self._read = log[self._read:], len(log)
        lines = ["  " + w for w in words(entries, self.state.table, self.me, self.faces, self.about.followed)]
        if self.state.is_terminal():
            lines.append("game over: " + ", ".join(f"{name} {score:g}" for _, _, name, score in self.standings()))
        self.log += lines
        del self.log[:-MAX_LOG]
        return lines

    def transcript(self) -> list[dict]:
        """The game's transcript records (what `recycle replay` checks)."""
        specs = [self.seats.specs[p] for p in range(self.num_players)]
        if self.options.open_hands:  # the record says the person saw every card
            specs[self.me] += " (open hands)"
        return finished_records(self.state, specs)

    def again(self) -> GameSession:
        """A new game with the same seats (the next seed)."""
        opts = self.options
        fresh = PlayOptions(opts.game, opts.seats, opts.agents, opts.seed + 1, opts.deal, opts.limits,
                            opts.transcript, opts.delay, opts.open_hands)
        return GameSession(fresh, self.number + 1)


def play_options(game, players: str | None = None, seat: int | None = None, seed: int = 0, *,
                 deal=None, limits: dict | None = None, transcript: Path | None = None, delay: float = 0.0,
                 bots: dict | None = None, open_hands: bool = False) -> PlayOptions:
    """Everything one `recycle play` needs from a loaded game and the command line's words:
    seats (`read_seats`), one bot per other seat (agent specs, personalities, `.rul` files;
    `bots` are `make_climbing_bot`'s options). Raises `AgentSpecError` for a bad seat or bot."""
    from recycle.climbing.adapter import make_climbing_bot

    limits = dict(limits or {})
    count = new_game(game, 0, **limits).num_players
    seats = read_seats(players, seat, count)
    agents = [None if p == seats.human else make_climbing_bot(spec, game, count, **(bots or {}))
              for p, spec in enumerate(seats.specs)]
    return PlayOptions(game, seats, agents, seed, deal, limits, transcript, delay, open_hands)
