"""The new-match dialog: a bot for each opponent seat, the table's preset and settings, the seed."""
from __future__ import annotations

from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from president.game.settings import PRESETS, Settings, SettingsError, parse_assignments, preset
from recycle.kernel.specs import AgentSpecError
from recycle.kernel.diagnostics import DiagnosticError

from tui.president.options import MatchOptions, opponent_choices
from tui.president.session import SEAT_NAMES, Session


def differences(settings: Settings, preset_name: str) -> dict[str, str]:
    base, current = preset(preset_name).describe(), settings.describe()
    return {k: v for k, v in current.items() if base[k] != v}


def nearest_preset(settings: Settings) -> str:
    """The preset the settings differ least from (so the dialog shows few overrides)."""
    return min(PRESETS, key=lambda name: len(differences(settings, name)))


def settings_text(settings: Settings, preset_name: str) -> str:
    """The settings that differ from the preset, as `key=value, ...`."""
    return ", ".join(f"{k}={v}" for k, v in differences(settings, preset_name).items())


class NewMatchScreen(ModalScreen["Session | None"]):
    """Returns a ready `Session`, or None when cancelled; errors are shown in the dialog."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, options: MatchOptions) -> None:
        super().__init__()
        self.options = options
        self.choices = opponent_choices(options.rules_dirs)

    def compose(self) -> ComposeResult:
        specs = self.options.seat_specs()
        known = {spec for _, spec in self.choices}
        # A bot named on the command line by a spec not in the list (a path, parameters) stays choosable.
        extra = [(spec, spec) for spec in dict.fromkeys(specs) if spec not in known]
        base = nearest_preset(self.options.settings)
        with VerticalScroll(id="new-box", classes="dialog"):
            yield Static("New match", classes="dialog-title")
            for p, spec in enumerate(specs, start=1):
                with Horizontal(classes="field"):
                    yield Label(SEAT_NAMES[p] if p < len(SEAT_NAMES) else f"P{p}", classes="field-label")
                    yield Select(self.choices + extra, value=spec, allow_blank=False, id=f"bot-{p}", compact=True)
            with Horizontal(classes="field"):
                yield Label("preset", classes="field-label")
                yield Select([(name, name) for name in PRESETS], value=base, allow_blank=False, id="preset",
                             compact=True)
            with Horizontal(classes="field"):
                yield Label("settings", classes="field-label")
                yield Input(settings_text(self.options.settings, base), placeholder="players=6, revolution=on",
                            id="settings", compact=True)
            with Horizontal(classes="field"):
                yield Label("seed", classes="field-label")
                # The next seed, not a random one: a session stays reproducible from its first seed.
                yield Input(str(self.options.seed + 1), id="seed", restrict=r"-?[0-9]*", compact=True)
            yield Static("More players than bots listed: the bots repeat in rotation.", classes="dim", id="rotation")
            folders = ", then ".join(str(folder) for folder in self.options.rules_dirs)
            yield Static(f"Your .rul files: {folders} (in the lists by folder, or as 'your copy')",
                         classes="dim", id="rules-folder")
            yield Static(id="new-error")
            with Horizontal(id="new-buttons"):
                yield Button("Start", variant="primary", id="start", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#bot-1", Select).focus()
        self._rotation_note()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "settings":
            self._rotation_note()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset":
            self._rotation_note()

    def _rotation_note(self) -> None:
        """The rotation note only when the settings ask for more seats than the dialog lists bots."""
        try:
            players = self._settings().players
        except (SettingsError, ValueError):
            players = 0
        listed = self.options.settings.players - 1
        self.query_one("#rotation", Static).display = players - 1 > listed

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
        else:
            self.start()

    def on_input_submitted(self) -> None:
        self.start()

    def start(self) -> None:
        error = self.query_one("#new-error", Static)
        try:
            session = Session(self._options())
        except (SettingsError, AgentSpecError, DiagnosticError, OSError, ValueError) as exc:
            error.update(f"cannot start: {exc}")
            return
        self.dismiss(session)

    def _options(self) -> MatchOptions:
        seed_text = self.query_one("#seed", Input).value.strip()
        if not seed_text.lstrip("-").isdigit():
            raise ValueError("the seed is a whole number")
        settings = self._settings()
        bots = tuple(str(select.value) for select in self.query(Select) if (select.id or "").startswith("bot-"))
        # A deal file was for the first match (and its table): a new match is dealt afresh.
        return replace(self.options, settings=settings, seed=int(seed_text), opponents=bots, deal=None)

    def _settings(self) -> Settings:
        items = [item.strip() for item in self.query_one("#settings", Input).value.split(",") if item.strip()]
        return preset(str(self.query_one("#preset", Select).value)).with_overrides(parse_assignments(items))

    def action_cancel(self) -> None:
        self.dismiss(None)
