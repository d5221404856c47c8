"""The table screen: the opponents across the top, the trick on the felt, my hand, the score and the log.

Keys select and play cards; the bots are driven by `BotTurns`. Other screens
(debug, editor, hint, new match, round result, final standings) are opened
from here, and the bots wait while one of them is shown. The layout follows
the terminal: the scores and log are a sidebar when wide, else folded
behind `l`; below `MIN_SIZE` only "terminal too small" is shown.
"""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, RichLog, Static

from president.game.cards import JOKER, Give, parse_value, value_text
from president.game.state import Phase
from recycle.kernel.protocol import IllegalAction

from tui.shared.botworker import BotTurns
from tui.shared.confirm import QuitFooter
from tui.shared.cards import HandRow
from tui.president.debug import debug_screen
from tui.president.editor import EditorScreen, PickerScreen
from tui.president.beliefs import BeliefScreen
from tui.president.hint import HintScreen
from tui.president.newmatch import NewMatchScreen
from tui.president.prompts import follow_prompt, lead_prompt
from tui.president.result import FinalScreen, RoundResultScreen
from tui.president.outcomes import Outcome, RoundResult
from tui.president.session import HUMAN, Session
from tui.president.wording import cards_label, plural
from tui.shared.toosmall import TooSmall
from tui.president.widgets import Felt, HandView, MyLine, Panel, ScoreBoard, SeatPanel

KEYS_HELP = "←/→ space: pick cards · 3-9 T J Q K A 2 x: a value · enter: play · p: pass · esc: clear"
VALUE_KEYS = "3456789tjqka2x"
MIN_SIZE = (70, 22)  # the smallest terminal the table is drawn in (80x24 is the usual default)
GAME_ACTIONS = {"move", "toggle", "play", "pass_turn", "clear", "hint"}  # ignored while too small


def value_of_key(character: str | None) -> int | None:
    """The card value a key selects (`t` ten ... `2` two, `x` joker), or None."""
    if not character or character.lower() not in VALUE_KEYS:
        return None
    return JOKER if character.lower() == "x" else parse_value(character)


class TableScreen(BotTurns, Screen):
    """Where the game is played."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("space", "toggle", "Select"),
        Binding("enter", "play", "Play"),
        Binding("p", "pass_turn", "Pass"),
        Binding("escape", "clear", "Clear", show=False),
        Binding("h", "hint", "Hint"),
        Binding("b", "belief", "Unseen cards", show=False),  # the footer has no room left at 80 columns
        Binding("l", "toggle_side", "Log"),  # short labels: every key and ^q fit in 80 columns
        Binding("d", "debug", "Debug"),
        Binding("e", "editor", "Editor"),
        Binding("n", "new_match", "New match"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = session.options.delay
        self.result_due: RoundResult | None = None  # shown when the table is next on screen
        self.note: tuple[str, bool] | None = None  # what the last key said (error?), until the game moves

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with Horizontal(id="opponents"):
                    for p in range(1, self.session.settings.players):
                        yield SeatPanel(p, id=f"seat-{p}", classes="seat")
                yield Felt(id="felt")
                yield MyLine(id="seat-0")
                yield Panel(id="exchange")
                yield Panel(id="message")
                yield HandView(id="hand")
                yield Static(KEYS_HELP, id="keys")
            with Vertical(id="side"):
                yield ScoreBoard(id="score")
                yield RichLog(id="log", wrap=True, markup=False)
        yield TooSmall(*MIN_SIZE, id="too-small")
        yield QuitFooter(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        log.can_focus = False  # keys belong to the hand, never to the log
        log.border_title = "log"
        self.query_one(TooSmall).check(self.app.size)
        self.refresh_table()
        self.drive()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmall).check(event.size)

    def on_screen_resume(self) -> None:
        self.refresh_table()
        self.drive()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in GAME_ACTIONS and self.query_one(TooSmall).active:
            return False  # nothing is seen: no card is played blind
        return True

    # ---- drawing -----------------------------------------------------------
    def refresh_table(self) -> None:
        s = self.session
        self.sub_title = f"{s.round_text()} · seed {s.options.seed}" + (" · OPEN HANDS" if s.open_hands else "")
        self.seat_in_turn_order()
        for panel in self.query(SeatPanel):
            panel.show(s, thinking=self.thinking == panel.seat)
        self.query_one(Felt).show(s, self.thinking)
        self.query_one(MyLine).show(s)
        self.query_one(ScoreBoard).show(s)
        self.query_one(HandView).set_cards(s.state.hand(HUMAN), s.received())
        exchange = s.my_exchange() if s.state.phase is not Phase.OVER else []
        self.query_one("#exchange", Panel).show_parts(
            [Text("exchange: " + "; ".join(exchange))] if exchange else [],  # wrapped: never cut
            layout=True)
        self.show_status()

    def seat_in_turn_order(self) -> None:
        """Opponents' panels left to right as the turn reaches them after you (seats may be redrawn)."""
        row = self.query_one("#opponents", Horizontal)
        order = [self.query_one(f"#seat-{p}", SeatPanel) for p in self.session.opponents_in_turn_order()]
        if list(row.children) != order:
            for panel in order:
                row.move_child(panel, after=len(row.children) - 1)

    def log_lines(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)

    def say(self, text: str, error: bool = False) -> None:
        """A message about the last key; it stays until the game moves on."""
        self.note = (text, error)
        self.show_status()

    def show_status(self) -> None:
        """The message line: what the last key said, else what the game expects now (never stale)."""
        text, error = self.note or (self.status_text(), False)
        message = self.query_one("#message", Panel)
        message.show_parts([Text(text)])
        message.set_class(error, "error")

    def status_text(self) -> str:
        """What the game expects now, from the state alone; with the selection when it is my turn."""
        s = self.session
        if s.over:
            return "The match is over: n for a new match, ctrl+q to quit."
        if not s.human_turn():
            p = s.state.current_player()
            skipped = s.trick and s.trick[-1].player == HUMAN and s.trick[-1].note == "skipped"
            head = "You are skipped (equal value). " if skipped else ""
            return head + f"Waiting for {s.names[p]}" + (" (thinking…)" if self.thinking == p else "") + "."
        hand = self.query_one(HandView)
        selected = hand.selected_cards()
        if selected:
            return self.selection_text(selected)
        give = s.giving()
        if give:
            receiver, count = give
            return (f"You are {s.title(HUMAN)}: choose {plural(count, 'card')} to give to {s.names[receiver]} "
                    f"({s.title(receiver)}), then enter.")
        if s.state.upcards is None:
            return lead_prompt(s.settings)
        return follow_prompt(s.settings, s.state)

    def selection_text(self, cards: list) -> str:
        """Whether the selected cards can be played, and if not why."""
        s = self.session
        text = cards_label(cards)
        try:
            action = s.action_from_cards(cards)
        except IllegalAction as exc:
            return f"selected {text}: {exc}"
        if isinstance(action, Give):
            receiver, _ = s.giving()
            return f"selected {text}: enter gives them to {s.names[receiver]}"
        return f"selected {text}: enter plays them"

    def human_prompt(self) -> None:
        self.show_status()

    # ---- bots ----------------------------------------------------------------
    def before_bot_turn(self) -> bool:
        if self.result_due is None:
            return False
        result, self.result_due = self.result_due, None
        self.app.push_screen(RoundResultScreen(self.session, result), self._round_result_closed)
        return True

    def _round_result_closed(self, _: Any = None) -> None:
        if self.session.over:
            self.app.push_screen(FinalScreen(self.session), self._final_choice)

    def _final_choice(self, choice: str | None) -> None:
        if choice == "again":
            self.app.call_later(self.app.start_match, self.session.again())  # type: ignore[attr-defined]
        elif choice == "new":
            self.action_new_match()
        elif choice == "quit":
            self.app.exit()

    def next_bot_job(self):
        return self.session.bot_job()

    def apply_bot_decision(self, player: int, decision: Any) -> None:
        self.after_action(self.session.apply(player, decision.action, decision.trace, decision.belief))

    def bot_failed(self, player: int, error: BaseException) -> None:
        name = self.session.names[player]
        self.notify(f"{name}'s bot failed: {error}; it plays its first legal action", severity="error", timeout=8)
        self.after_action(self.session.apply(player, self.session.state.legal_actions()[0]))

    def after_action(self, outcome: Outcome) -> None:
        """Every change of the state, the human's or a bot's, ends here."""
        self.note = None
        self.log_lines(outcome.lines)
        if outcome.result is not None:
            self.result_due = outcome.result
            self.query_one(HandView).clear()  # a new round: nothing stays selected
        self.refresh_table()
        self.drive()

    # ---- my hand -----------------------------------------------------------
    def action_move(self, delta: int) -> None:
        self.query_one(HandView).move(delta)

    def action_toggle(self) -> None:
        self.query_one(HandView).toggle()

    def action_clear(self) -> None:
        self.note = None
        self.query_one(HandView).clear()
        self.show_status()

    def on_key(self, event: events.Key) -> None:
        value = value_of_key(event.character)
        if value is None or self.query_one(TooSmall).active:
            return
        event.stop()
        hand = self.query_one(HandView)
        if not any(card.value == value for card in hand.cards):
            self.say(f"You hold no {value_text(value)}.", error=True)
            return
        hand.select_value(value, self.session.wanted_count())

    def on_hand_row_changed(self, message: HandRow.Changed) -> None:
        """Say at once whether the selection can be played, and if not why."""
        self.note = None
        self.show_status()

    def _act(self, make_action) -> None:
        s = self.session
        if s.over:
            self.say("The match is over: press n for a new match.")
            return
        if not s.human_turn() or self.thinking is not None:
            self.say(f"Wait for your turn: it is {s.names[s.state.current]}'s.", error=True)
            return
        try:
            action = make_action()
        except IllegalAction as exc:
            self.say(f"Not allowed: {exc}", error=True)
            return
        self.query_one(HandView).clear()
        self.after_action(s.apply(HUMAN, action))

    def action_play(self) -> None:
        self._act(lambda: self.session.action_from_cards(self.query_one(HandView).selected_cards()))

    def action_pass_turn(self) -> None:
        if self.session.state.phase is Phase.EXCHANGE and self.session.human_turn():
            self.say("You cannot pass in the exchange: choose the cards to give.", error=True)
            return
        self._act(self.session.check_pass)

    # ---- other screens -------------------------------------------------------
    def action_toggle_side(self) -> None:
        """The scores and log: shown over the table when narrow, hidden or shown when wide."""
        self.toggle_class("-side-toggled")

    def action_new_match(self) -> None:
        self.app.push_screen(NewMatchScreen(self.session.options), self._new_match_chosen)

    def _new_match_chosen(self, session: Session | None) -> None:
        if session is not None:  # once the dialog is gone: replacing the table inside its callback confuses it
            self.app.call_later(self.app.start_match, session)  # type: ignore[attr-defined]

    def action_debug(self) -> None:
        self.app.push_screen(debug_screen(self.session))

    def action_editor(self) -> None:
        def chosen(target) -> None:
            if target is not None:
                self.app.push_screen(EditorScreen(self.session, target))

        self.app.push_screen(PickerScreen(self.session), chosen)

    def action_belief(self) -> None:
        """What the cards I have not seen probably are, from my seat's information only."""
        self.app.push_screen(BeliefScreen(self.session))

    def action_hint(self) -> None:
        self.app.push_screen(HintScreen(self.session))
