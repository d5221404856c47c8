"""`PresidentApp`: the match being played, the table screen, and bots that follow their files.

    president play --seed 1            # the command line
    PresidentApp(MatchOptions(...))    # tests: `async with app.run_test() as pilot`
"""
from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from personalities.reader import RulError, load_personality

from tui.shared.confirm import Confirm
from tui.president.options import MatchOptions
from tui.president.session import Session
from tui.president.wording import plural
from tui.president.table import TableScreen

SOURCE_POLL = 1.0  # seconds between looks at the seats' .rul files


class PresidentApp(App[None]):
    """President against bots; the human is seat 0."""

    CSS_PATH = "president.tcss"  # relative to this module, so it is found in an installed package too
    TITLE = "President"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]  # the default one is hidden from the footer

    def __init__(self, options: MatchOptions) -> None:
        super().__init__()
        self.session = Session(options)  # raises for a bad bot spec before any screen is drawn

    def on_mount(self) -> None:
        # Pushed (not the default screen) so that a new match can switch it for a fresh one.
        self.push_screen(TableScreen(self.session))
        self.set_interval(SOURCE_POLL, self.reload_changed_sources)

    def action_help_quit(self) -> None:
        """Ctrl-C asks whether to quit (a second Ctrl-C, or y, quits): it is how many people leave a
        terminal program, and `q` is taken (it selects queens)."""
        if isinstance(self.screen, Confirm) and self.screen.purpose == "quit":
            self.exit()
            return
        saved = ("Its finished rounds are saved for president review; the round in progress is not."
                 if self.session.saving else "The match in progress is not saved.")
        self.push_screen(Confirm(f"Quit President? {saved}", yes="quit", no="keep playing", purpose="quit"),
                         lambda yes: self.exit() if yes else None)

    @property
    def table(self) -> TableScreen:
        return next(s for s in self.screen_stack if isinstance(s, TableScreen))

    def start_match(self, session: Session) -> None:
        """A new match on a fresh table: nothing of the old one (timers, workers) can reach it."""
        self.session = session
        self.switch_screen(TableScreen(session))

    def reload_changed_sources(self) -> None:
        """A seat's .rul file changed on disk (another editor): reload it, or say why not."""
        session = self.session
        for p, path in session.changed_sources():
            name = session.names[p]
            try:
                personality = load_personality(path)
            except RulError as exc:
                first = exc.errors[0].headline() if exc.errors else str(exc)
                errors = plural(len(exc.errors), "error")
                self.notify(f"{name} keeps the old rules: {path.name} has {errors}: {first}",
                            severity="error", timeout=10)
                continue
            except (OSError, UnicodeDecodeError) as exc:
                self.notify(f"{name} keeps the old rules: cannot read {path}: {exc}", severity="error")
                continue
            session.reload_seat(p, personality)
            self.notify(f"{name} reloaded {path.name}")
