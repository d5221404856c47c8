"""The personality editor: a .rul file with live diagnostics, save, and "use it now".

Diagnostics are `check_text`'s, so they read exactly like `president check`.
Shipped personalities are read-only: saving one writes a copy into the
per-user folder, the editor then edits that copy, and from then on every
seat, command and list that names the personality uses the copy (see
`personalities.catalog`): the seats playing it switch to it at once. A file changed on disk by another
editor is reloaded (unless there are unsaved edits here).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Header, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from personalities.catalog import (NothingToRevert, catalog, is_edited_copy, locate, revert_copy, shipped_text,
                                   user_folder)
from personalities.player import RulePlayer
from personalities.reader import RulError, check_text, parse_personality
from recycle.kernel.diagnostics import Severity

from tui.shared.confirm import Confirm, QuitFooter
from tui.president.session import Session
from tui.president.sources import file_mtime
from tui.president.wording import plural

DEBOUNCE = 0.3  # seconds of quiet typing before the file is checked again
POLL = 0.5  # seconds between looks at the file's modification time


@dataclass
class EditTarget:
    """What the editor edits: a personality's text, its file (None if shipped) and the seat using it."""

    name: str
    path: Path | None
    text: str
    seat: int | None = None

    @property
    def filename(self) -> str:
        return self.path.name if self.path else f"{self.name}.rul"


def read_target(name: str, path: Path | None, seat: int | None = None) -> EditTarget:
    text = path.read_text(encoding="utf-8") if path else shipped_text(name)
    return EditTarget(name, path, text, seat)


def render_diagnostics(diagnostics: list) -> Group:
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
    if not diagnostics:
        head = Text("✔ no errors, no warnings", style="bold green")
    else:
        head = Text(f"{plural(errors, 'error')}, {plural(warnings, 'warning')}",
                    style="bold red" if errors else "bold yellow")
    body = [Text(d.render(), style="red" if d.severity is Severity.ERROR else "yellow") for d in diagnostics]
    return Group(head, *body)


class PickerScreen(ModalScreen["EditTarget | None"]):
    """Choose what to edit: a seat's bot, or any personality file."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.targets: list[tuple[str, str, Path | None, int | None]] = []  # label, name, path, seat
        for p in range(1, session.settings.players):
            agent, source = session.agents[p], session.sources[p]
            if isinstance(agent, RulePlayer) and source is not None:
                where = source.path or "shipped"
                self.targets.append((f"seat {p} · {session.names[p]} · {agent.name} ({where})",
                                     agent.name, source.path, p))
        for entry in catalog(session.options.rules_dirs):
            if entry.replaced:  # the user's copy is listed (and edited) instead
                continue
            where = f"your copy, {entry.path}" if entry.edited else str(entry.path or entry.source)
            self.targets.append((f"file · {entry.name} ({where})", entry.name, entry.path, None))

    def compose(self) -> ComposeResult:
        # Not a scroll: the title and the keys stay in sight, the list scrolls between them.
        with Vertical(id="picker-box", classes="dialog"):
            yield Static("Edit which personality?", classes="dialog-title")
            yield OptionList(*[Option(label, id=str(i)) for i, (label, *_) in enumerate(self.targets)], id="targets")
            yield Static("enter: edit · escape: cancel · in the editor, ctrl+o reverts your copy", classes="dim")

    def on_mount(self) -> None:
        targets = self.query_one("#targets", OptionList)
        targets.highlighted = 0
        targets.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        _, name, path, seat = self.targets[event.option_index]
        try:
            target = read_target(name, path, seat)
        except OSError as exc:
            self.notify(f"cannot read {path}: {exc}", severity="error")
            return
        if seat is not None and seat in self.session.texts:  # the seat plays an edited, maybe unsaved, text
            target.text = self.session.texts[seat]
        self.dismiss(target)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EditorScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+r", "use_now", "Use it now", priority=True),
        Binding("ctrl+o", "revert", "Revert to shipped", priority=True),
        Binding("escape", "close", "Close", priority=True),
    ]

    def __init__(self, session: Session, target: EditTarget) -> None:
        super().__init__()
        self.session, self.target = session, target
        self.saved_text = target.text  # what is on disk (or shipped): unsaved edits differ from it
        self.disk_mtime = file_mtime(target.path)
        self._check_timer = None
        self._close_warned = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="editor-info")
        with Horizontal(id="editor-main"):
            yield TextArea(self.target.text, id="source", show_line_numbers=True, soft_wrap=True)
            with VerticalScroll(id="diagnostics-scroll"):
                yield Static(id="diagnostics")
        yield QuitFooter(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        area = self.query_one("#source", TextArea)
        area.cursor_blink = not self.app.is_headless  # a blinking cursor would make screenshots flaky
        area.focus()
        self._describe()
        self.check()
        self.set_interval(POLL, self.poll_disk)

    def _describe(self) -> None:
        t = self.target
        if t.path is None:
            where = "shipped, read-only: ctrl+s saves your copy in " + str(self._rules_dir())
        elif self._is_copy():
            where = f"your copy of the shipped {t.name}: {t.path} (ctrl+o reverts)"
        else:
            where = str(t.path)
        seat = f" · seat {t.seat} ({self.session.names[t.seat]})" if t.seat is not None else ""
        self.sub_title = f"editing {t.filename}"
        self.query_one("#editor-info", Static).update(f"{t.filename} — {where}{seat}")

    def _is_copy(self) -> bool:
        """The file edited is the user's copy of a shipped personality (so it can be reverted)."""
        return is_edited_copy(self.target.path)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._is_copy() if action == "revert" else True  # no revert key for a file of one's own

    def action_revert(self) -> None:
        """Delete the user's copy, after asking; the shipped personality is edited (and played) again."""
        t = self.target
        unsaved = " Your unsaved edits are lost too." if self.text != self.saved_text else ""
        question = f"Delete your copy {t.path} and go back to the shipped {t.name}?{unsaved}"
        self.app.push_screen(Confirm(question, yes="delete my copy", no="keep it"), self._revert_confirmed)

    def _revert_confirmed(self, yes: bool | None) -> None:
        t = self.target
        if not yes:
            return
        try:
            path = revert_copy(t.name, self.session.options.rules_dirs)
        except (NothingToRevert, OSError) as exc:
            self.notify(f"cannot revert {t.name}: {exc}", severity="error")
            return
        seats = self.session.follow_revert(path)
        where = locate(t.name, self.session.options.rules_dirs)
        t.path = where if isinstance(where, Path) else None
        t.text = read_target(t.name, t.path).text
        self.saved_text, self.disk_mtime = t.text, file_mtime(t.path)
        self.query_one("#source", TextArea).load_text(t.text)
        self._describe()
        self.refresh_bindings()
        played = (f"; {', '.join(self.session.names[p] for p in seats)} {'plays' if len(seats) == 1 else 'play'} it now"
                  if seats else "")
        self.notify(f"deleted {path}: {t.name} is {'another copy' if t.path else 'the shipped one'}{played}")

    def _rules_dir(self) -> Path:
        """Where a copy of a shipped personality goes: the per-user folder, which every command reads."""
        return user_folder()

    @property
    def text(self) -> str:
        return self.query_one("#source", TextArea).text

    # ---- live diagnostics --------------------------------------------------------
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._close_warned = False
        if self._check_timer is not None:
            self._check_timer.stop()
        self._check_timer = self.set_timer(DEBOUNCE, self.check)

    def check(self) -> None:
        self._check_timer = None
        diagnostics = check_text(self.text, self.target.filename)
        self.query_one("#diagnostics", Static).update(render_diagnostics(diagnostics))

    # ---- save, use, reload ----------------------------------------------------------
    def action_save(self) -> None:
        t = self.target
        path = t.path or self._rules_dir() / f"{t.name}.rul"  # shipped: save a copy in the user's folder
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.text, encoding="utf-8")
        except OSError as exc:
            self.notify(f"cannot save {path}: {exc}", severity="error")
            return
        copied = t.path is None
        t.path, self.saved_text, self.disk_mtime = path, self.text, file_mtime(path)
        self.session.note_saved(path)
        self._describe()
        self.refresh_bindings()  # a saved copy can be reverted
        errors = sum(d.severity is Severity.ERROR for d in check_text(self.text, t.filename))
        self.notify(f"saved {path}" + (f" with {plural(errors, 'error')}: no bot can use it yet" if errors else ""),
                    severity="warning" if errors else "information")
        if copied:  # the name now means this copy, here as in every command: the seats playing it follow
            seats = self.session.adopt_copy(path)
            if seats:
                self.app.reload_changed_sources()  # type: ignore[attr-defined]

    def action_use_now(self) -> None:
        t = self.target
        seats = [t.seat] if t.seat is not None else [
            p for p in range(1, self.session.settings.players)
            if isinstance(self.session.agents[p], RulePlayer) and self.session.agents[p].name.lower() == t.name.lower()]
        if not seats:
            self.notify(f"no seat plays {t.name}: open the editor from a seat (e, then a seat)", severity="warning")
            return
        try:
            personality = parse_personality(self.text, name=t.name, filename=t.filename)
        except RulError as exc:
            self.notify(f"{t.filename} has {plural(len(exc.errors), 'error')}: the bot keeps its old rules",
                        severity="error")
            return
        unchanged = t.path is not None and self.text == self.saved_text
        for p in seats:
            self.session.reload_seat(p, personality, t.path if unchanged else None,
                                     None if unchanged else self.text)
        names = ", ".join(self.session.names[p] for p in seats)
        self.notify(f"{names} will play {t.name} from the next decision")

    def poll_disk(self) -> None:
        t = self.target
        mtime = file_mtime(t.path)
        if t.path is None or mtime == self.disk_mtime:
            return
        self.disk_mtime = mtime
        try:
            disk = t.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.notify(f"cannot reload {t.path}: {exc}", severity="error")
            return
        if disk == self.text:
            self.saved_text = disk
        elif self.text == self.saved_text:  # no edits here: follow the other editor
            self.saved_text = disk
            self.query_one("#source", TextArea).load_text(disk)
            self.notify(f"{t.filename} changed on disk: reloaded")
        else:
            self.notify(f"{t.filename} changed on disk; your unsaved edits are kept (ctrl+s overwrites)",
                        severity="warning")

    def action_close(self) -> None:
        if self.text != self.saved_text and not self._close_warned:
            self._close_warned = True
            self.notify("unsaved edits: escape again to close without saving", severity="warning")
            return
        self.dismiss(None)

