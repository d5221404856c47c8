"""Bot turns for any game's table: a short delay, the decision in a thread worker, the result
back on the app thread.

`decide` is CPU-bound (search players can think for seconds), so it never runs
on the event loop. The worker only computes; it posts a message and the game
is changed by the message handler, on the app thread. A token makes a
decision that arrives late (its screen moved on, a new game started) harmless.

    class MyTable(BotTurns, Screen):
        def next_bot_job(self): ...          # a DecisionJob for the bot to move, or None
        def apply_bot_decision(self, player, decision): ...   # may raise: then bot_failed
        def bot_failed(self, player, error): ...              # report, play a fallback
        def human_prompt(self): ...          # no bot to move: say what the person may do
        def refresh_table(self): ...         # draw (the `thinking` seat is marked)
    ...
    self.drive()                             # after every change of the game

The API of this module is shared by both tables: keep it stable.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from textual.message import Message

from tui.shared.botjob import DecisionJob


class BotDecided(Message):
    """A worker finished a bot's decision."""

    def __init__(self, token: int, player: int, decision: Any) -> None:
        super().__init__()
        self.token, self.player, self.decision = token, player, decision


class BotFailed(Message):
    """A bot raised instead of deciding; the table reports it and plays on for it."""

    def __init__(self, token: int, player: int, error: BaseException) -> None:
        super().__init__()
        self.token, self.player, self.error = token, player, error


class BotTurns:
    """Mixin for a table `Screen`: drives the bots while that screen is the one shown.

    Bots wait while another screen (debug, editor, a dialog) is on top; call `drive()`
    again when the table is back (`on_screen_resume`) and after every change of the game.
    """

    thinking: int | None = None  # the seat whose decision is being waited for
    token: int = 0
    bot_delay: float = 0.0  # seconds before a bot decides, so a person can follow

    def drive(self) -> None:
        """Start whatever comes next: `before_bot_turn` (a result to show), a bot's turn, or the human's."""
        if not self.is_current or self.thinking is not None:  # type: ignore[attr-defined]
            return
        if self.before_bot_turn():
            return
        job = self.next_bot_job()
        if job is None:
            self.human_prompt()
            return
        self.token += 1
        self.thinking = job.player
        self.refresh_table()
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, partial(self._start_worker, self.token))  # type: ignore[attr-defined]
        else:
            self._start_worker(self.token)

    def cancel_bots(self) -> None:
        """Forget any decision in flight (a new game): its result will be ignored."""
        self.token += 1
        self.thinking = None

    def _start_worker(self, token: int) -> None:
        if token != self.token:
            return
        if not self.is_current:  # type: ignore[attr-defined]
            self.thinking = None  # another screen opened during the delay: resume on return
            return
        job = self.next_bot_job()  # taken now, on the app thread, from the current state
        if job is None:
            self.thinking = None
            return
        self.run_worker(partial(self._think, token, job), thread=True, group="bots",  # type: ignore[attr-defined]
                        exit_on_error=False, description=f"seat {job.player} decides")

    def _think(self, token: int, job: DecisionJob) -> None:
        """Runs in a worker thread: only computes, then posts (post_message is thread-safe)."""
        try:
            decision = job.run()
        except Exception as exc:  # a broken bot must not take the app down
            self.post_message(BotFailed(token, job.player, exc))  # type: ignore[attr-defined]
            return
        self.post_message(BotDecided(token, job.player, decision))  # type: ignore[attr-defined]

    def on_bot_decided(self, message: BotDecided) -> None:
        if message.token != self.token:
            return
        self.thinking = None
        try:
            self.apply_bot_decision(message.player, message.decision)
        except Exception as exc:  # an illegal action from a bot: report, then play for it
            self.bot_failed(message.player, exc)

    def on_bot_failed(self, message: BotFailed) -> None:
        if message.token != self.token:
            return
        self.thinking = None
        self.bot_failed(message.player, message.error)

    # ---- provided by the host screen ------------------------------------------
    def before_bot_turn(self) -> bool:
        """Something to show before the next turn (a round result)? Show it and return True."""
        return False

    def next_bot_job(self) -> DecisionJob | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def apply_bot_decision(self, player: int, decision: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def bot_failed(self, player: int, error: BaseException) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def human_prompt(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def refresh_table(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
