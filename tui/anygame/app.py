"""`PlayApp`: any RECYCLE game against bots, game after game with the same seats.

    recycle play Hearts4 --players you,ismcts:time=0.5,random,random   # the command line
    PlayApp(options)        # tests: `async with app.run_test(size=(80, 24)) as pilot`
    PlayApp(options, about_first=True)   # the game's description first (the command does this)
"""
from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static
from rich.text import Text

from recycle.interp.transcript import write

from tui.anygame.info import AboutScreen
from tui.anygame.render import faces_text, standings_table
from tui.anygame.screen import PlayScreen
from tui.anygame.session import GameSession, PlayOptions


class GameOverScreen(ModalScreen[str]):
    """Final scores and ranks; `n` plays again with the same seats, `q` quits, esc looks at the table."""

    BINDINGS = [Binding("n", "dismiss('again')", "Play again"), Binding("enter", "dismiss('again')", show=False),
                Binding("q", "dismiss('quit')", "Quit"), Binding("escape", "dismiss('look')", "Look at the table")]

    def __init__(self, session: GameSession, saved: str = "") -> None:
        super().__init__()
        self.session, self.saved = session, saved

    def compose(self) -> ComposeResult:
        s = self.session
        with Vertical(id="over-box"):
            yield Static(f"{s.title}: game over" + (" (called at the choice limit)" if s.state.called else ""),
                         id="over-title")
            yield Static(standings_table(s.standings(), s.me), id="over-table")
            shown = s.revealed()
            if shown:  # the cards nobody else could see, now that the game is over
                lines = [Text.assemble((f"{seat} {place} ", "bold"), faces_text(cards, s.faces))
                         for seat, place, cards in shown]
                yield Static(Text("\n").join(lines), id="over-hands")
            yield Static(self.saved, id="over-saved")
            yield Static("n / enter play again · esc look at the table · q quit", id="over-keys")


class ErrorScreen(ModalScreen[None]):
    """The game file went wrong while playing: its located error, and the way out."""

    BINDINGS = [Binding("q", "app.quit", "Quit"), Binding("escape", "dismiss", "Look at the table")]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="over-box"):
            yield Static("the game stopped: an error in the game file", id="over-title")
            yield Static(self.message, id="over-error")
            yield Static("q quit · esc look at the table", id="over-keys")


class PlayApp(App[None]):
    """One person and bots at any RECYCLE game."""

    CSS_PATH = "play.tcss"  # beside this module, so an installed package finds it too
    TITLE = "recycle play"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, options: PlayOptions, about_first: bool = False) -> None:
        super().__init__()
        self.session = GameSession(options)
        self.saved: list[Path] = []
        self.about_first = about_first

    def on_mount(self) -> None:
        self.push_screen(PlayScreen(self.session))  # a game that fails at once: the table shows it
        if self.about_first and not self.session.error:  # the bots wait until the table is back
            s = self.session
            self.push_screen(AboutScreen(s.title, s.about, s.faces.legend))

    @property
    def table(self) -> PlayScreen:
        return next(s for s in self.screen_stack if isinstance(s, PlayScreen))

    def game_over(self, session: GameSession) -> None:
        """The table calls this once per game: save the transcript, show the result."""
        if session.error:
            self.push_screen(ErrorScreen(session.error))
            return
        saved = ""
        target = session.options.transcript
        if target is not None:
            path = target if session.number == 1 else target.with_name(f"{target.stem}-{session.number}{target.suffix}")
            try:
                write(path, session.transcript())
                self.saved.append(path)
                saved = f"transcript saved to {path} (check it with: recycle replay {path})"
            except OSError as exc:
                saved = f"could not save the transcript to {path}: {exc}"
        self.push_screen(GameOverScreen(session, saved), self._after_game)

    def _after_game(self, choice: str | None) -> None:
        if choice == "again":
            self.play_again()
        elif choice == "quit":
            self.exit()

    def play_again(self) -> None:
        """A new game, same seats, next seed, on a fresh table (nothing of the old one can reach it)."""
        self.table.cancel_bots()
        self.session = self.session.again()
        self.switch_screen(PlayScreen(self.session))
