"""Bot turns: a short delay, the decision in a thread worker, the result back on the app thread.

`decide` is CPU-bound (search players can think for seconds), so it never runs
on the event loop. The worker only computes; it posts a message and the state
is changed by the message handler, on the app thread. A token makes a
decision that arrives late (its screen moved on) harmless.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from textual.message import Message

from .session import BotJob, Outcome, RoundResult

if TYPE_CHECKING:
    from .session import Session


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
    """Mixin for the table screen: drives the bots while the table is the screen shown.

    The host provides `session`, `refresh_table()`, `log_lines()`,
    `show_round_result()` and `human_prompt()`.
    """

    session: "Session"
    thinking: int | None = None  # the seat whose decision is being waited for
    token: int = 0
    result_due: RoundResult | None = None  # shown when the table is next on screen

    def drive(self) -> None:
        """Start whatever comes next: the round result, a bot's turn, or wait for the human."""
        if not self.is_current or self.thinking is not None:  # type: ignore[attr-defined]
            return  # bots wait while another screen (debug, editor...) is open
        if self.result_due is not None:
            result, self.result_due = self.result_due, None
            self.show_round_result(result)
            return
        job = self.session.bot_job()
        if job is None:
            self.human_prompt()
            return
        self.token += 1
        self.thinking = job.player
        self.refresh_table()
        delay = self.session.options.delay
        if delay > 0:
            self.set_timer(delay, partial(self._start_worker, self.token))  # type: ignore[attr-defined]
        else:
            self._start_worker(self.token)

    def _start_worker(self, token: int) -> None:
        if token != self.token:
            return
        if not self.is_current:  # type: ignore[attr-defined]
            self.thinking = None  # another screen opened during the delay: resume on return
            return
        job = self.session.bot_job()  # taken now, on the app thread, from the current state
        if job is None:
            self.thinking = None
            return
        self.run_worker(partial(self._think, token, job), thread=True, group="bots",  # type: ignore[attr-defined]
                        exit_on_error=False, description=f"seat {job.player} decides")

    def _think(self, token: int, job: BotJob) -> None:
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
        decision = message.decision
        try:
            outcome = self.session.apply(message.player, decision.action, decision.trace)
        except Exception as exc:  # an illegal action from a bot: report, then play for it
            self.on_bot_failed(BotFailed(message.token, message.player, exc))
            return
        self.after_action(outcome)

    def on_bot_failed(self, message: BotFailed) -> None:
        if message.token != self.token:
            return
        self.thinking = None
        name = self.session.names[message.player]
        self.notify(f"{name}'s bot failed: {message.error}; it plays its first legal action",  # type: ignore
                    severity="error", timeout=8)
        fallback = self.session.state.legal_actions()[0]
        self.after_action(self.session.apply(message.player, fallback))

    def after_action(self, outcome: Outcome) -> None:
        """Every change of the state, the human's or a bot's, ends here."""
        self.log_lines(outcome.lines)
        if outcome.result is not None:
            self.result_due = outcome.result
        self.refresh_table()
        self.drive()

    # ---- provided by the host screen ------------------------------------------
    def refresh_table(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def log_lines(self, lines: list[str]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def show_round_result(self, result: RoundResult) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def human_prompt(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
