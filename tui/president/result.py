"""Between rounds: places, ranks, points and the match score, and the exchange that follows."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from president.game.observation import RANK_TITLES, rank_of_place

from tui.president.outcomes import RoundResult
from tui.president.session import HUMAN, Session
from tui.president.wording import ordinal, plural


def result_table(session: Session, result: RoundResult) -> Table:
    n = len(result.places)
    table = Table(title=f"Round {result.round} result", expand=True)
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("bot")
    table.add_column("new rank")
    table.add_column("points", justify="right")
    table.add_column("match", justify="right")
    for p in sorted(range(n), key=lambda q: result.places[q]):
        place = result.places[p]
        style = "bold" if p == HUMAN else ""
        table.add_row(ordinal(place), session.names[p], session.bot_name(p),
                      RANK_TITLES[rank_of_place(place, n)], f"+{result.points[p]}", str(result.scores[p]),
                      style=style)
    return table


def open_hands_note(session: Session) -> str:
    """The match record's line on open hands: the rounds in which the bots' cards were shown."""
    rounds = sorted(session.opened_rounds)
    if not rounds:
        return ""
    return f"Open hands (the bots' cards shown on the debug screen) in {plural(len(rounds), 'round')}: " + \
        ", ".join(map(str, rounds)) + "."


def outlook(session: Session, result: RoundResult) -> Text:
    """What happens next: the match result, or the exchange before the next round."""
    if result.match_over:
        best = max(result.scores)
        winners = " and ".join(session.names[p] for p, s in enumerate(result.scores) if s == best)
        note = open_hands_note(session)
        return Text.assemble((f"Match over after {plural(result.round, 'round')}: {winners} won with {best} points.",
                              "bold"), f"\n{note}" if note else "")
    lines = [f"Next: {session.round_text()}."] + [line for line in (open_hands_note(session),) if line]
    exchange = session.my_exchange()
    if exchange:  # a Loser's / Vice-Loser's gift is forced and has already been taken
        lines.append("Exchange (taken automatically): " + "; ".join(exchange) + ".")
    give = session.giving()
    if give:
        lines.append(f"You are {session.title(HUMAN)}: you will choose {plural(give[1], 'card')} "
                     f"to give to {session.names[give[0]]}.")
    elif session.state.pending:
        giver, receiver, count = session.state.pending[0]
        if HUMAN == receiver:
            lines.append(f"{session.names[giver]} will choose {plural(count, 'card')} to give you.")
    return Text("\n".join(lines))


class RoundResultScreen(ModalScreen[None]):
    """Shown when a round ends; any of enter, space or escape goes back to the table."""

    BINDINGS = [
        Binding("enter", "close", "Continue"),
        Binding("space", "close", "Continue", show=False),
        Binding("escape", "close", "Continue", show=False),
        Binding("r", "review", "Review the round"),
    ]

    def __init__(self, session: Session, result: RoundResult) -> None:
        super().__init__()
        self.session, self.result = session, result

    def compose(self) -> ComposeResult:
        with Vertical(id="result-box", classes="dialog"):
            yield Static(result_table(self.session, self.result), id="result-table")
            yield Static(outlook(self.session, self.result), id="result-next")
            go_on = "enter: final standings" if self.result.match_over else "enter: continue"
            yield Static(f"{go_on} · r: review this round (all hands open)", classes="dim")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_review(self) -> None:
        from tui.president.review import ReviewScreen

        self.app.push_screen(ReviewScreen(self.session, self.result.round))

    def on_click(self) -> None:
        self.dismiss(None)


def standings_table(session: Session) -> Table:
    """The match's final standings, by match points: places per round and Presidencies."""
    table = Table(title="Final standings", expand=True)
    table.add_column("", justify="right")
    table.add_column("player")
    table.add_column("bot")
    table.add_column("points", justify="right")
    table.add_column("places by round")
    table.add_column("President", justify="right")
    for i, row in enumerate(session.standings(), start=1):
        places = " ".join(str(place) for place in row.places)
        table.add_row(ordinal(i), session.names[row.player], session.bot_name(row.player), str(row.points),
                      places, f"{row.presidencies}x", style="bold" if row.player == HUMAN else "")
    return table


def most_president(session: Session) -> str:
    rows = session.standings()
    most = max(row.presidencies for row in rows)
    names = " and ".join(session.names[r.player] for r in rows if r.presidencies == most)
    return f"President most often: {names} ({plural(most, 'round')} of {len(session.results)})."


class FinalScreen(ModalScreen["str | None"]):
    """The end of a match: the standings, then play again (same table, next seed), new match, or quit.

    Dismissed with "again", "new", "quit", or None (escape: back to the finished table)."""

    BINDINGS = [
        Binding("a", "choose('again')", "Play again"),
        Binding("n", "choose('new')", "New match"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "choose('')", "Back to the table"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical(id="final-box", classes="dialog"):
            yield Static(standings_table(self.session), id="final-table")
            yield Static("\n".join(x for x in (most_president(self.session), open_hands_note(self.session)) if x),
                         id="final-president")
            with Horizontal(id="final-buttons"):
                yield Button("Play again (a)", variant="primary", id="again")
                yield Button("New match (n)", id="new")
                yield Button("Quit (q)", id="quit")

    def on_mount(self) -> None:
        self.query_one("#again", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
