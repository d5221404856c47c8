"""The coach at the table: the round just finished, reviewed with all hands open (`r` on its result).

The same review as `president review` (president/match/review.py), worked out in a
worker thread from the session's own record of the match: the round is over,
so every hand may be shown.
"""
from __future__ import annotations

import random
from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from president.match.review import review_round

from tui.president.session import Session


class ReviewReady(Message):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class ReviewScreen(ModalScreen[None]):
    """A finished round's review; escape (or r) goes back."""

    BINDINGS = [Binding("escape", "close", "Back"), Binding("r", "close", "Back", show=False)]

    def __init__(self, session: Session, round_no: int) -> None:
        super().__init__()
        self.session, self.round_no = session, round_no

    def compose(self) -> ComposeResult:
        with Vertical(id="review-box", classes="dialog"):
            yield Static(f"Review of round {self.round_no}: all hands open", classes="dialog-title")
            with VerticalScroll(id="review-scroll"):
                yield Static("working it out: each level's play and the expected points of every choice…",
                             id="review-text")
            yield Static("escape: back · arrows/page keys: scroll", classes="dim")

    def on_mount(self) -> None:
        record = self.session.record()  # taken now, on the app thread
        rng = random.Random(f"president-play/{self.session.options.seed}/review/{self.round_no}")
        width = max(40, min(80, self.app.size.width - 8))  # inside the dialog's border and padding
        self.run_worker(partial(self._think, record, rng, width), thread=True, exit_on_error=False, group="review")

    def _think(self, record, rng: random.Random, width: int) -> None:
        try:
            text = review_round(record, self.round_no, rng).text(width)
        except Exception as exc:  # said on the screen, never a crash of the table
            text = f"no review: {exc}"
        self.post_message(ReviewReady(text))

    def on_review_ready(self, message: ReviewReady) -> None:
        self.query_one("#review-text", Static).update(message.text)
        self.query_one("#review-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
