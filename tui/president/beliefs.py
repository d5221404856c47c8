"""The person's own helper belief: what the cards they have not seen probably are, from their seat.

On request only (`b` at the table). It reads the person's observation only —
their cards, the plays, their own exchange — and averages the worlds of the
inference chain (`president.agents.beliefs.seat_belief`, which weighs each rule
personality's plays by its own rules: the bots' names are on the table), so it tells nothing a
person at a real table could not work out. The bots' beliefs are another
matter: the debug screen shows them with open hands or after the round.
"""
from __future__ import annotations

import random
from functools import partial

from rich.console import Group
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from president.agents.beliefs import seat_belief

from tui.president.session import HUMAN, Session

from tui.shared.traceview import render_belief, render_guess

ABOUT = "From what you have seen: your cards, the plays, your exchange."


class BeliefReady(Message):
    def __init__(self, token: int, belief=None, error: Exception | None = None) -> None:
        super().__init__()
        self.token, self.belief, self.error = token, belief, error


class BeliefScreen(ModalScreen[None]):
    """Works the belief out in a worker thread, on the person's own copy of a world (the table may move)."""

    BINDINGS = [Binding("escape", "close", "Back"), Binding("b", "close", "Back", show=False)]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.token = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="belief-box", classes="dialog"):
            yield Static("What the unseen cards probably are", classes="dialog-title")
            yield Static(ABOUT, classes="dim")
            with VerticalScroll(id="belief-scroll"):
                yield Static("working it out…", id="belief-grid")
            yield Static("escape: back to the table", classes="dim")

    def on_mount(self) -> None:
        s = self.session
        if s.over:
            self.query_one("#belief-grid", Static).update("The match is over: every hand is shown.")
            return
        rng = random.Random(f"president-play/{s.options.seed}/belief/{len(s.state.history)}")
        root = s.state.observation(HUMAN).sample_state(rng)  # taken now, on the app thread: my copy
        self.token += 1
        self.run_worker(partial(self._think, self.token, root, rng), thread=True, exit_on_error=False,
                        group="belief")

    def _think(self, token: int, root, rng: random.Random) -> None:
        try:
            self.post_message(BeliefReady(token, seat_belief(root, HUMAN, rng, names=self.session.specs,
                                                               rules_dirs=self.session.options.rules_dirs)))
        except Exception as exc:  # a position the chain cannot weigh: said, never a crash
            self.post_message(BeliefReady(token, error=exc))

    def on_belief_ready(self, message: BeliefReady) -> None:
        if message.token != self.token:
            return
        grid = self.query_one("#belief-grid", Static)
        if message.error is not None or message.belief is None:
            grid.update(f"no belief here: {message.error or 'nothing is hidden'}")
            return
        names = self.session.names
        grid.update(Group(render_belief(message.belief, names), render_guess(message.belief, names)))

    def action_close(self) -> None:
        self.dismiss(None)
