"""The table screen: the players around the table, my hand, the score and the log.

Keys select and play cards; the bots are driven by `BotTurns`. Other screens
(debug, editor, hint, new match, round result) are opened from here, and the
bots wait while one of them is shown.
"""
from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, RichLog, Static

from president.cards import JOKER, parse_value, value_text
from president.state import Phase
from recycle.kernel.protocol import IllegalAction

from .debug import DebugScreen
from .editor import EditorScreen, PickerScreen
from .hint import HintScreen
from .newmatch import NewMatchScreen
from .result import RoundResultScreen
from .session import HUMAN, RoundResult, Session, card_label
from .turns import BotTurns
from .widgets import Felt, HandView, Panel, ScoreBoard, SeatPanel

KEYS_HELP = "←/→ move · space select · 3-9 T J Q K A 2 pick a value · enter play · p pass · esc clear"
VALUE_KEYS = "3456789tjqka2x"


def value_of_key(character: str | None) -> int | None:
    """The card value a key selects (`t` ten ... `2` two, `x` joker), or None."""
    if not character or character.lower() not in VALUE_KEYS:
        return None
    return JOKER if character.lower() == "x" else parse_value(character)


def seat_layout(players: int) -> tuple[list[int], list[int], list[int]]:
    """Opponents clockwise from my left: (left column, top row, right column)."""
    opponents = list(range(1, players))
    return opponents[:1], opponents[1:-1], opponents[-1:] if players > 2 else []


class TableScreen(BotTurns, Screen):
    """Where the game is played."""

    BINDINGS = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("space", "toggle", "Select"),
        Binding("enter", "play", "Play"),
        Binding("p", "pass_turn", "Pass"),
        Binding("escape", "clear", "Clear", show=False),
        Binding("n", "new_match", "New match"),
        Binding("d", "debug", "AI debug"),
        Binding("e", "editor", "Editor"),
        Binding("h", "hint", "Hint"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        left, top, right = seat_layout(self.session.settings.players)
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with Horizontal(id="top"):
                    for p in top:
                        yield SeatPanel(p, id=f"seat-{p}", classes="seat")
                with Horizontal(id="middle"):
                    for p in left:
                        yield SeatPanel(p, id=f"seat-{p}", classes="seat side")
                    yield Felt(id="felt")
                    for p in right:
                        yield SeatPanel(p, id=f"seat-{p}", classes="seat side")
                yield SeatPanel(HUMAN, id="seat-0", classes="seat")
                yield Panel(id="exchange")
                yield Panel(id="message")
                yield HandView(id="hand")
                yield Static(KEYS_HELP, id="keys")
            with Vertical(id="side"):
                yield ScoreBoard(id="score")
                yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        log.can_focus = False  # keys belong to the hand, never to the log
        log.border_title = "log"
        self.refresh_table()
        self.drive()

    def on_screen_resume(self) -> None:
        self.refresh_table()
        self.drive()

    # ---- drawing -----------------------------------------------------------
    def refresh_table(self) -> None:
        s = self.session
        self.sub_title = f"{s.round_text()} · seed {s.options.seed}"
        for panel in self.query(SeatPanel):
            panel.show(s, thinking=self.thinking == panel.seat)
        self.query_one(Felt).show(s)
        self.query_one(ScoreBoard).show(s)
        self.query_one(HandView).set_cards(s.state.hand(HUMAN))
        exchange = s.my_exchange()
        self.query_one("#exchange", Panel).show_parts([Text("exchange: " + "; ".join(exchange))] if exchange else [],
                                                      layout=True)

    def log_lines(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#message", Panel)
        message.show_parts([Text(text)])
        message.set_class(error, "error")

    def human_prompt(self) -> None:
        s = self.session
        if s.over:
            self.say("The match is over: press n for a new match.")
            return
        give = s.giving()
        if give:
            receiver, count = give
            self.say(f"You are {s.title(HUMAN)}: choose {count} card(s) to give to {s.names[receiver]} "
                     f"({s.title(receiver)}), then press enter.")
        elif s.state.upcards is None:
            self.say("Your lead: select one value (any number of its cards) and press enter.")
        else:
            up = s.state.upcards
            self.say(f"Your turn: beat {up} with {up.count} card(s) of a higher value, or p to pass.")

    def show_round_result(self, result: RoundResult) -> None:
        self.app.push_screen(RoundResultScreen(self.session, result))

    # ---- my hand -----------------------------------------------------------
    def action_move(self, delta: int) -> None:
        self.query_one(HandView).move(delta)

    def action_toggle(self) -> None:
        self.query_one(HandView).toggle()

    def action_clear(self) -> None:
        self.query_one(HandView).clear()

    def on_key(self, event: events.Key) -> None:
        value = value_of_key(event.character)
        if value is not None:
            event.stop()
            hand = self.query_one(HandView)
            if not any(card.value == value for card in hand.cards):
                self.say(f"You hold no {value_text(value)}.", error=True)
                return
            hand.select_value(value, self.session.wanted_count())

    def on_hand_view_changed(self, message: HandView.Changed) -> None:
        """Say at once whether the selection can be played, and if not why."""
        s = self.session
        if not message.cards:
            if s.human_turn():
                self.human_prompt()
            return
        text = " ".join(card_label(c) for c in message.cards)
        if not s.human_turn() or self.thinking is not None:
            self.say(f"selected {text}")
            return
        try:
            action = s.action_from_cards(message.cards)
        except IllegalAction as exc:
            self.say(f"selected {text}: {exc}", error=True)
            return
        self.say(f"selected {text}: enter {'gives' if s.giving() else 'plays'} {action}")

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
    def action_new_match(self) -> None:
        self.app.push_screen(NewMatchScreen(self.session.options), self._new_match_chosen)

    def _new_match_chosen(self, session: Session | None) -> None:
        if session is not None:  # once the dialog is gone: replacing the table inside its callback confuses it
            self.app.call_later(self.app.start_match, session)  # type: ignore[attr-defined]

    def action_debug(self) -> None:
        self.app.push_screen(DebugScreen(self.session))

    def action_editor(self) -> None:
        def chosen(target) -> None:
            if target is not None:
                self.app.push_screen(EditorScreen(self.session, target))

        self.app.push_screen(PickerScreen(self.session), chosen)

    def action_hint(self) -> None:
        self.app.push_screen(HintScreen(self.session))

