"""One match as the app plays it: state, bots, their rngs, and the record of decisions.

No Textual here: the screens read a `Session` and call `apply`; bot decisions
are computed elsewhere (in worker threads) from a `BotJob` taken on the app
thread, so the state itself is only ever touched by one thread.
"""
from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path
from typing import Any

from president.agents.bots import make_bot
from president.agents.opponents import tell_opponents
from president.game.cards import JOKER, Card, Give, Play, play_of
from president.game.observation import NO_RANK, RANK_TITLES, rank_of_place
from president.match.recording import DecisionLog, decisions_folder, record_of
from president.match.saved import MatchRecord, matches_dir, save
from president.match.simulate import match_seed
from president.game.state import Phase, PresidentState
from recycle.kernel.protocol import ActionParseError, IllegalAction

from tui.shared.botjob import BotDecision, DecisionJob
from tui.president.options import MatchOptions, bot_title
from tui.president.outcomes import Outcome, RoundResult, Standing, Turn
from tui.president.sources import SeatSources, seat_source
from tui.president.wording import card_label, cards_label, ordinal, plural

HUMAN = 0
SEAT_NAMES = ("You", "Ada", "Bo", "Cleo", "Dan", "Eve", "Finn")


def _log_name(seed: int) -> str:
    """A match's records file: when it started (UTC) and its seed, so files sort by time."""
    import time

    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + f"-seed{seed}.jsonl"


class Session(SeatSources):
    """A match between the human (seat 0) and bots, reproducible from `options.seed`."""

    def __init__(self, options: MatchOptions) -> None:
        self.options = options
        self.settings = options.settings
        n = self.settings.players
        self.names = [SEAT_NAMES[p] if p < len(SEAT_NAMES) else f"P{p}" for p in range(n)]
        self.specs = ["human"] + options.seat_specs()
        dirs = options.rules_dirs
        self.agents: list[Any] = [None] + [make_bot(spec, dirs) for spec in self.specs[1:]]
        for p, agent in enumerate(self.agents[1:], 1):  # the names are on the table: a search may use them
            tell_opponents(agent, p, self.specs, dirs)
        # One rng per seat derived from the seed: a hint or a slow bot never shifts another's draws.
        self.rngs = [random.Random(f"president-play/{options.seed}/seat/{p}") for p in range(n)]
        self.hint_rng = random.Random(f"president-play/{options.seed}/hints")
        self.sources = [None] + [seat_source(spec, dirs) for spec in self.specs[1:]]
        self.state = PresidentState.new_match(self.settings, match_seed(options.seed, 0), deal=options.deal)
        self.decisions: list[BotDecision] = []  # the whole match's, for the debug screen
        self.results: list[RoundResult] = []
        self.texts: dict[int, str] = {}  # seat -> .rul text it plays from an editor buffer (maybe unsaved)
        self.gift_receivers: dict[int, int] = {}  # a bot's gift's decision number -> who received it
        self.open_hands = False  # the debug screen shows the bots' cards during the round
        self.opened_rounds: set[int] = set()  # rounds in which it did (the match record says so)
        self.trick: list[Turn] = []  # the trick being played, in order
        # Saved unless --no-save: the person's decisions as records (docs/imitate.md) as they are played,
        # the match for review (president/match/saved.py) at the end of every round.
        self.saving = options.saving
        self.decision_log = DecisionLog(decisions_folder(), _log_name(options.seed), seed=options.seed,
                                        opponents=list(self.specs[1:]))
        self.last_trick: list[Turn] = []  # the one before it, until the next round
        # The match as saved for review (president/match/saved.py): every action, the bots' beliefs.
        self.actions: list[tuple[int, str]] = []
        self.beliefs: dict[int, Any] = {}  # action index -> the bot's belief then
        self.saved_as: Path | None = None

    def again(self) -> "Session":
        """The same table and bots for another match, with the next seed (still reproducible)."""
        from dataclasses import replace

        return Session(replace(self.options, seed=self.options.seed + 1, deal=None))

    # ---- reading the table ------------------------------------------------
    @property
    def round_number(self) -> int:
        """The round being played (1-based); the last one once the match is over."""
        return self.state.round_no if self.over else self.state.round_no + 1

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def round_text(self) -> str:
        s = self.settings
        length = f"of {s.rounds}" if s.rounds else ""
        target = f"to {s.target_score} points" if s.target_score else ""
        return " ".join(x for x in (f"round {self.round_number}", length, target) if x)

    def opponents_in_turn_order(self) -> tuple[int, ...]:
        """The other players as the turn reaches them after you: the seating, which a table with
        `seat_change` draws anew every few rounds (in player order otherwise)."""
        seating = self.state.seating
        at = seating.index(HUMAN)
        return tuple(seating[(at + k) % len(seating)] for k in range(1, len(seating)))

    def personality_name(self, p: int) -> str:
        """The seat's bot as a person reads it: a personality's name, `master search`, `mcts (cheating)`."""
        from recycle.players import agent_traits

        agent = self.agents[p]
        if agent is None:
            return "human"
        if hasattr(agent, "personality"):  # a rule player: its personality's name
            return agent.name
        title = bot_title(self.specs[p])
        return f"{title} (cheating)" if agent_traits(title).cheats else title

    def bot_name(self, p: int) -> str:
        """The seat's bot in a table or a title: `Classic (your copy)` when it plays the user's copy."""
        return self.personality_name(p) + (" (your copy)" if self.your_copy(p) else "")

    def your_copy(self, p: int) -> bool:
        """Seat p plays the user's edited copy of a shipped personality."""
        from personalities.catalog import is_edited_copy

        source = self.sources[p]
        return source is not None and is_edited_copy(source.path)

    def title(self, p: int) -> str:
        """Rank from the previous round: President ... Loser, or '-' in the first round."""
        prev = self.state.prev_places
        rank = NO_RANK if prev is None else rank_of_place(prev[p], self.settings.players)
        return RANK_TITLES[rank]

    def rank_text(self, p: int) -> str:
        return self.title(p) if self.state.prev_places else "no rank yet"

    def last_action(self, p: int) -> str:
        """What p did last, as the person may know it: a gift between two bots is only a count."""
        for player, action in reversed(self.state.history):
            if player == p:
                if isinstance(action, Give) and HUMAN != p and all(
                        receiver != HUMAN for giver, receiver, _ in self.state.gifts if giver == p):
                    return "gave " + "▮" * len(action.values)  # card backs: how many, not which
                return "skipped" if action is None else str(action)
        return ""

    def place(self, p: int) -> int:
        return self.state.places[p] if self.state.phase is Phase.PLAY else 0

    def human_turn(self) -> bool:
        return not self.over and self.state.current_player() == HUMAN

    def giving(self) -> tuple[int, int] | None:
        """(receiver, count) when the human must choose cards to give now."""
        if self.state.phase is Phase.EXCHANGE and self.state.pending[0][0] == HUMAN:
            _, receiver, count = self.state.pending[0]
            return receiver, count
        return None

    def wanted_count(self) -> int | None:
        """How many cards the human should select: None when leading (any set of one value)."""
        give = self.giving()
        if give:
            return give[1]
        up = self.state.upcards
        return None if up is None else up.count

    def received(self) -> list[Card]:
        """Cards the human received in this round's exchange and still holds."""
        if self.over:
            return []
        hand = list(self.state.hand(HUMAN))
        kept = []
        for _, receiver, cards in self.state.observation(HUMAN).exchanged:
            for card in cards if receiver == HUMAN else ():
                if card in hand:
                    hand.remove(card)
                    kept.append(card)
        return kept

    def standings(self) -> list[Standing]:
        """Everyone by match points (best first; ties by better places), with places per round."""
        n = self.settings.players
        rows = [Standing(p, self.state.scores[p], tuple(r.places[p] for r in self.results),
                         sum(r.places[p] == 1 for r in self.results)) for p in range(n)]
        return sorted(rows, key=lambda s: (-s.points, sum(s.places), s.player))

    def my_exchange(self) -> list[str]:
        """This round's gifts the human took part in, as sentences."""
        lines = []
        for giver, receiver, cards in self.state.observation(HUMAN).exchanged:
            text = cards_label(cards)
            if giver == HUMAN:
                lines.append(f"you gave {text} to {self.names[receiver]} ({self.title(receiver)})")
            else:
                lines.append(f"you received {text} from {self.names[giver]} ({self.title(giver)})")
        return lines

    def set_open_hands(self, on: bool) -> None:
        """Show (or stop showing) the bots' cards on the debug screen; the round is recorded."""
        self.open_hands = on
        if on and not self.over:
            self.opened_rounds.add(self.round_number)

    # ---- the human's actions ----------------------------------------------
    def action_from_cards(self, cards: list[Card]) -> Play | Give:
        """The action the selected cards make; raises `IllegalAction` saying why it is not allowed."""
        give = self.giving()
        if give:
            receiver, count = give
            if len(cards) != count:
                raise IllegalAction(f"choose exactly {plural(count, 'card')} to give to {self.names[receiver]}, "
                                    f"not {len(cards)}", "exchange-count")
            return Give(tuple(sorted(c.value for c in cards)))
        if not cards:
            leading = self.state.upcards is None  # the leader cannot pass: never suggest it
            raise IllegalAction("select the cards to lead first (the leader cannot pass)" if leading
                                else "select the cards to play first (or press p to pass)", "select")
        if self.state.settings.suited:  # the cards name the play (a group or a sequence, suits and all)
            return _suited_play(self.state, cards)
        naturals = {c.value for c in cards if c.value != JOKER}
        jokers = sum(1 for c in cards if c.value == JOKER)
        if len(naturals) > 1:
            raise IllegalAction("a play is cards of one value: "
                                + " ".join(card_label(c) for c in cards) + " mixes values", "one-value")
        try:
            play = play_of(naturals.pop(), len(cards), jokers) if naturals else Play.parse(" ".join(["Jk"] * jokers))
        except ActionParseError as exc:
            raise IllegalAction(str(exc), "jokers") from None
        self.state.check_play(play)
        return play

    def check_pass(self) -> Play:
        self.state.check_play(Play.PASS)
        return Play.PASS

    # ---- bots -------------------------------------------------------------
    def bot_job(self) -> DecisionJob | None:
        """The decision the bot to move must make, or None when it is the human's turn."""
        p = self.state.current_player()
        if self.over or p == HUMAN:
            return None
        return DecisionJob(p, self.agents[p], self.state.observation(p), self.state.legal_actions(), self.rngs[p])

    def hint_job(self, spec: str) -> DecisionJob:
        """`spec` deciding in the human's place (its own rng: hints never change the bots' play)."""
        agent = make_bot(spec, self.options.rules_dirs)
        return DecisionJob(HUMAN, agent, self.state.observation(HUMAN), self.state.legal_actions(), self.hint_rng)

    # ---- changing the state -------------------------------------------------
    def apply(self, player: int, action: Any, trace: Any = None, belief: Any = None) -> Outcome:
        """Play `action` for `player` (who must be to move); raises `IllegalAction`."""
        state = self.state
        if state.current_player() != player:
            raise IllegalAction(f"it is not {self.names[player]}'s turn", "turn")
        round_before, seen, before = state.round_no, len(state.history), state.masks[player]
        seated_before = self.opponents_in_turn_order()  # (a seating rotated as a whole is the same table)
        record = record_of(state.observation(player), state.legal_actions(), action) \
            if player == HUMAN and self.saving else None
        state.apply(action)
        if record is not None:
            self._save(record)
        if belief is not None:
            self.beliefs[len(self.actions)] = belief
        self.actions.append((player, str(action)))
        if player != HUMAN:
            self.decisions.append(BotDecision(round_before + 1, len(self.decisions) + 1, player,
                                              self.names[player], action, trace, belief))
            if isinstance(action, Give):
                self.gift_receivers[len(self.decisions)] = state.gifts[-1][1]
        out = Outcome([self._describe(player, action)])
        self._follow_trick(player, action, before, round_before, seen)
        if state.round_no != round_before:
            self.set_open_hands(self.open_hands)  # still open: the new round is opened too
            out.result = RoundResult(state.round_no, state.round_log[-1], tuple(state.scores), self.over)
            self.results.append(out.result)
            if self.saving:
                self._save_match()
            winner = out.result.places.index(1)
            out.lines.append(f"round {out.result.round} over: {self.says(winner, 'is', 'are')} President")
            if not self.over and self.opponents_in_turn_order() != seated_before:
                out.lines.append("seats drawn anew: after you play "
                                 + ", ".join(self.names[p] for p in self.opponents_in_turn_order()))
            return out
        for skipped, gone in state.history[seen + 1:]:
            if gone is None:
                out.lines.append(f"{self.says(skipped, 'is', 'are')} skipped (equal value)")
        if isinstance(action, Play) and not action.is_pass and state.places[player]:
            out.lines.append(f"{self.says(player, 'goes', 'go')} out {ordinal(state.places[player])}")
        if isinstance(action, Play) and state.phase is Phase.PLAY and state.upcards is None:
            out.lines.append(f"trick over: {self.says(state.current, 'leads', 'lead')}")
        return out

    def _save(self, record) -> None:
        try:
            self.decision_log.add(record)
        except OSError:  # a full disk or a read-only folder must not stop the match: saving stops
            self.saving = False

    def _save_match(self) -> None:
        try:
            self.save()
        except OSError:  # as above: the match goes on unsaved
            self.saving = False

    # ---- the record, for review ----------------------------------------------
    def record(self) -> MatchRecord:
        """The match so far, as saved for review."""
        deal = tuple(tuple(str(c) for c in hand) for hand in self.options.deal) if self.options.deal else None
        return MatchRecord(self.settings, self.options.seed, deal, tuple(self.specs), tuple(self.names),
                           tuple(self.actions), dict(self.beliefs), tuple(sorted(self.opened_rounds)))

    def save(self) -> Path:
        """Write the match to the per-user data folder (one file per match, rewritten each round)."""
        if self.saved_as is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            self.saved_as = matches_dir() / f"{stamp}-seed{self.options.seed}.json"
        save(self.record(), self.saved_as)
        return self.saved_as

    def _follow_trick(self, player: int, action: Any, before: int, round_before: int, seen: int) -> None:
        """Keep `trick` (the turns since the lead, with the very cards) up to date after an action."""
        state = self.state
        if state.round_no != round_before:  # the round is over: a new table
            self.trick, self.last_trick = [], []
            return
        if not isinstance(action, Play):
            return
        played = tuple(state.lay.card_list(before & ~state.masks[player]))
        self.trick.append(Turn(player, played, "pass" if action.is_pass else ""))
        self.trick += [Turn(p, (), "skipped") for p, gone in state.history[seen + 1:] if gone is None]
        if state.phase is Phase.PLAY and state.upcards is None:  # the trick is over
            self.trick, self.last_trick = [], self.trick

    def _describe(self, player: int, action: Any) -> str:
        who = self.names[player]
        if isinstance(action, Give):
            receiver = self.state.gifts[-1][1]
            to = "you" if receiver == HUMAN else self.names[receiver]
            if HUMAN in (player, receiver):
                return f"{who} gave {cards_label(self._last_gift())} to {to}"
            return f"{who} gave {plural(len(action.values), 'card')} to {to}"
        return self.says(player, "passes", "pass") if action.is_pass else f"{self.says(player, 'plays', 'play')} {action}"

    def says(self, p: int, third: str, second: str) -> str:
        """`Ada plays` but `You play`."""
        return f"You {second}" if p == HUMAN else f"{self.names[p]} {third}"

    def _last_gift(self) -> list[Card]:
        return self.state.lay.card_list(self.state.gifts[-1][2])


def _suited_play(state, cards: list[Card]) -> Play:
    """The legal play these cards make where suits matter; raises `IllegalAction` naming the rule."""
    from president.game.cards import parse_suited
    from president.game.suited import play_of_cards

    play = play_of_cards(state, cards)
    if play is not None:
        return play
    try:
        play = parse_suited([("Jk" if c.value == JOKER else str(c)) for c in cards])
    except ActionParseError as exc:
        raise IllegalAction(str(exc), "one-value") from None
    state.check_play(play)  # raises: no legal play is made of these cards
    raise IllegalAction(f"{play} is not a legal play now", "play")
