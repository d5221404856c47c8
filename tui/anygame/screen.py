"""The table of any RECYCLE game: what I may see, my hand, the current choice, the log.

Keys: ↑/↓ and enter (or 1-9) take an option; ←/→ and space select hand cards,
which filters the options to those moving them; a click on a card that
appears in exactly one option takes it. `d` shows the bots' reasoning (sealed
while it names what the person cannot see), `l` the log (a sidebar when the
terminal is wide), `?` the game's description, `v` every storage value. Bots
move in worker threads (`tui.shared.botworker.BotTurns`); their seat shows "thinking…"
meanwhile. Everything drawn comes from the person's observation (`board`).
"""
from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from tui.shared.botjob import DecisionJob
from tui.shared.botworker import BotTurns
from tui.shared.cards import HandRow
from tui.shared.toosmall import TooSmall
from tui.shared.traceview import DebugScreen
from tui.anygame.info import AboutScreen, ValuesScreen, hidden_values
from tui.anygame.render import card_face, owner_text, teams_text
from tui.anygame.session import GameSession, OptionView

MIN_SIZE = (60, 20)
RECENT = 2  # log lines shown under the board when the log itself is folded away
GAME_ACTIONS = {"move", "toggle", "choose", "clear"}  # ignored while the terminal is too small


class GameHand(HandRow):
    """My cards. A click asks the screen first (a card in exactly one option is played at once);
    space and the arrows select as in any hand."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    _clicking = False

    def on_click(self, event) -> None:
        event.prevent_default()  # Textual would call HandRow's handler too: it is called here, once
        self._clicking = True
        try:
            super().on_click(event)
        finally:
            self._clicking = False

    def toggle(self, index: int | None = None) -> None:
        if self._clicking and index is not None:
            self.post_message(self.Clicked(index))
            return
        super().toggle(index)


class PlayScreen(BotTurns, Screen):
    """Where one game is played."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("space", "toggle", "Select card"),
        Binding("escape", "clear", "Clear", show=False),
        *[Binding(str(k), f"choose({k})", show=False) for k in range(1, 10)],
        Binding("d", "debug", "Reasoning"),
        Binding("l", "toggle_log", "Log"),
        Binding("question_mark", "about", "Rules"),
        Binding("v", "values", "Values", show=False),
        Binding("n", "again", "Play again", show=False),  # said by the status line once the game is over
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = session.options.delay
        self.shown: list[OptionView] = []  # the options listed, in list order
        self.over_shown = False
        self.hand_names = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with VerticalScroll(id="board"):
                    yield Static(id="board-text")
                yield Static(id="recent")
                with Vertical(id="hand-box"):
                    yield GameHand(id="hand")
                yield OptionList(id="options")
                yield Static(id="status")
            with Vertical(id="side"):
                yield RichLog(id="log", wrap=True, markup=False, max_lines=2000, min_width=20)
        yield TooSmall(*MIN_SIZE)
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        self.title = s.title
        self.sub_title = f"game {s.number} · seed {s.options.seed} · you are p{s.me}" + (
            " · OPEN HANDS" if s.options.open_hands else "")
        log = self.query_one("#log", RichLog)
        for line in s.log:
            log.write(line)
        self.refresh_table()
        self.query_one("#options", OptionList).focus()
        self.call_after_refresh(self.drive)

    def on_screen_resume(self) -> None:
        self.drive()

    def on_resize(self, event) -> None:
        self.query_one(TooSmall).check(event.size)

    # ---- BotTurns host ----------------------------------------------------------------------
    def before_bot_turn(self) -> bool:
        s = self.session
        if s.over and not self.over_shown:
            self.over_shown = True
            self.app.game_over(s)  # type: ignore[attr-defined]
            return True
        if self.app.screen is not self:  # the rules or the values are open over the table: the bots wait
            return True
        return s.over

    def next_bot_job(self) -> DecisionJob | None:
        return self.session.bot_job()

    def apply_bot_decision(self, player: int, decision: Any) -> None:
        self.after(self.session.apply(player, decision.action, decision.trace))

    def bot_failed(self, player: int, error: BaseException) -> None:
        s = self.session
        self.notify(f"{s.name(player)} failed: {error}; it takes its first option", severity="error", timeout=8)
        self.after(s.apply(player, s.state.legal_actions()[0]))

    def human_prompt(self) -> None:
        self.refresh_table()

    def after(self, lines: list[str]) -> None:
        """Every change of the game, mine or a bot's, ends here."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)
        hand = self.query_one(GameHand)
        hand.clear()
        self.refresh_table()
        self.drive()

    # ---- drawing ----------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        s = self.session
        if s.error:
            self.query_one("#status", Static).update(Text(s.error, style="bold red"))
            return
        board = s.board()
        hand = board.hand()
        in_hand = {p.key for p in hand}
        mover = s.to_move()
        parts: list = []
        for owner in board.owners:
            p = owner.owner[1] if owner.owner[0] == "p" else None
            title = "table" if owner.owner[0] == "g" else (s.name(p) if p is not None else f"team {owner.tag}")
            status = ""
            if p is not None and p == self.thinking:
                status = "thinking…"
            elif p is not None and p == mover:
                status = "◀ to move"
            parts.append(owner_text(owner, title, s.faces, in_hand, status,
                                    "yellow" if p == mover else "", s.about.followed))
        teams = teams_text(board)
        if teams is not None:
            parts.append(teams)
        more = hidden_values(board, s.about.followed)
        parts.append(Text(s.about.scoring + " · ? rules" + (f" · v {more} more values" if more else ""),
                          style="dim"))
        if s.faces.legend:
            parts.append(Text("cards: " + " · ".join(s.faces.legend), style="dim"))
        if board.open:
            parts.insert(0, Text("game over: every card shown" if s.over else "open hands: every card and "
                                 "every bot's reasoning shown", style="bold magenta"))
        self.query_one("#board-text", Static).update(Group(*parts))
        self.query_one("#recent", Static).update(Text("\n".join(s.log[-RECENT:]), style="dim", overflow="ellipsis",
                                                      no_wrap=True))
        cards = sorted((c for pile in hand for c in pile.cards), key=s.faces.sort_key)
        widget = self.query_one(GameHand)
        widget.set_faces([card_face(s.faces.face(c)) for c in cards], cards)
        self.hand_names = " + ".join(p.name for p in hand)
        self._hand_title()
        self._fill_options()
        self._status()

    def _hand_title(self) -> None:
        """`your HAND`, and for custom cards the name of the card at the cursor (faces are codes)."""
        hand, s = self.query_one(GameHand), self.session
        title = f"your {self.hand_names}" if self.hand_names else "you hold no cards"
        if hand.keys and not s.faces.standard:
            title += f" · ▲ {s.faces.text(hand.keys[hand.cursor])}"
        self.query_one("#hand-box").border_title = title

    def _fill_options(self) -> None:
        s = self.session
        selected = frozenset(self.query_one(GameHand).selected_keys())
        shown = s.matching(selected) if s.human_turn() else []
        options = self.query_one("#options", OptionList)
        if [o.index for o in shown] == [o.index for o in self.shown] and options.option_count == len(shown):
            return
        self.shown = shown
        options.clear_options()
        options.add_options([Option(Text.assemble((f"{k + 1 if k < 9 else ' '} ", "bold"), o.label), id=str(o.index))
                             for k, o in enumerate(shown)])
        if shown:
            options.highlighted = 0

    def _status(self) -> None:
        s = self.session
        selected = self.query_one(GameHand).selected_keys()
        if s.over:
            text = Text("game over · n play again · d reasoning · ctrl+q quit", style="bold")
        elif self.thinking is not None:
            text = Text(f"{s.name(self.thinking)} is thinking…", style="bold magenta")
        elif s.human_turn():
            count = len(s.options_now())
            if selected and not self.shown:
                text = Text("no option moves all the selected cards · esc clears", style="bold red")
            else:
                how = f"{len(self.shown)} of {count} options" if selected else f"{count} option{'s' * (count != 1)}"
                text = Text.assemble(("your turn", "bold yellow"), f" · {how}: ↑↓ enter or 1-9 · ←→ space select cards")
        else:
            text = Text(f"{s.name(s.to_move())} to move")
        self.query_one("#status", Static).update(text)

    # ---- keys and clicks ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return not (action in GAME_ACTIONS and self.query_one(TooSmall).active)

    def action_move(self, delta: int) -> None:
        self.query_one(GameHand).move(delta)
        self._hand_title()

    def action_toggle(self) -> None:
        self.query_one(GameHand).toggle()

    def action_clear(self) -> None:
        self.query_one(GameHand).clear()

    def on_hand_row_changed(self, message: HandRow.Changed) -> None:
        self._hand_title()
        self._fill_options()
        self._status()

    def on_game_hand_clicked(self, message: GameHand.Clicked) -> None:
        hand = self.query_one(GameHand)
        if not 0 <= message.index < len(hand.keys):
            return
        option = self.session.sole_option(hand.keys[message.index]) if not hand.selected else None
        if option is not None and self.thinking is None:
            self.take(option.index)
        else:
            hand.toggle(message.index)

    def action_choose(self, number: int) -> None:
        if 1 <= number <= len(self.shown):
            self.take(self.shown[number - 1].index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.take(int(event.option.id))

    def take(self, index: int) -> None:
        """The person takes the option with this index among the game's options."""
        s = self.session
        if not s.human_turn() or self.thinking is not None:
            self.notify("not your turn", severity="warning")
            return
        self.after(s.choose(index))

    def action_debug(self) -> None:
        s = self.session
        names = [s.name(p) for p in range(s.num_players)]
        self.app.push_screen(DebugScreen(s.reasoning(), names, subtitle=f"{s.title} game {s.number}",
                                         describe=lambda r: f"{r.name} · {r.action}",
                                         empty="No bot has decided anything yet."))

    def action_about(self) -> None:
        s = self.session
        self.app.push_screen(AboutScreen(s.title, s.about, s.faces.legend))

    def action_values(self) -> None:
        if not self.session.error:
            self.app.push_screen(ValuesScreen(self.session.board(), self.session.about.followed))

    def action_toggle_log(self) -> None:
        self.toggle_class("-show-log")

    def action_again(self) -> None:
        if self.session.over:
            self.app.play_again()  # type: ignore[attr-defined]
