"""Deal files for President: who holds which cards at the start of the first round.

    # any comment
    p0: 3c 4c 4h 7s 9d Tc Jh Qs Ks As 2d
    p1: ...

One line per seat, cards in `president.game.cards` text (`3c`, `Td` or `10d`, `Jk`).
A deal file does not depend on any seed: the same file gives the same hands to
the native engine (`PresidentState.new_match(..., deal=deal.hands)`) and, through
`recycle_places`, to a RECYCLE game (`recycle.interp.new_game(..., deal=...)`).
The reader checks the deal against the table (`Settings`): every seat once,
each hand as big as dealing the pack one card at a time from the dealer's left
makes it, every card of the pack exactly once; each mistake is reported at its
line and column with a hint. The line syntax is shared with RECYCLE deals
(`recycle.interp.arrange`).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from recycle.kernel.diagnostics import Diagnostic, DiagnosticError
from recycle.kernel.protocol import ActionParseError
from recycle.kernel.deal_file import DealSpec, Word, deal_text, parse_deal, read_deal

from president.game.cards import Card, cards_text
from president.game.layout import layout
from president.game.settings import Settings


@dataclass(frozen=True)
class Deal:
    """Every seat's hand (sorted, lowest value first), seat 0 first."""

    hands: tuple[tuple[Card, ...], ...]

    @classmethod
    def of(cls, hands) -> "Deal":
        """A deal of hands given in any order (sorted here, so that equal deals are equal)."""
        return cls(tuple(tuple(sorted(h)) for h in hands))

    def places(self) -> dict[str, list[str]]:
        """{`p0`: ["3c", ...], ...}: the deal as a RECYCLE game takes it (cards by rank and suit)."""
        return {f"p{p}": [str(c) for c in hand] for p, hand in enumerate(self.hands)}

    def text(self, comment: str = "") -> str:
        """The deal file (`parse_deal_text` reads it back to an equal `Deal`)."""
        return deal_text(self.places(), comment)

    def to_json(self) -> dict:
        return {f"p{p}": cards_text(hand) for p, hand in enumerate(self.hands)}


def pack(settings: Settings) -> list[Card]:
    """Every physical card of the table's pack, lowest first."""
    return [c for c in layout(settings.decks, settings.jokers).cards if c is not None]


def hand_sizes(settings: Settings) -> list[int]:
    """How many cards each seat gets when the pack is dealt one at a time from seat 0
    (the first round's dealer is the last seat, so seat 0 is on its left)."""
    n, total = settings.players, settings.deck_size
    return [(total - p + n - 1) // n for p in range(n)]


def random_deal(settings: Settings, rng: random.Random) -> Deal:
    """A shuffled pack dealt as the native engine deals it."""
    cards = pack(settings)
    rng.shuffle(cards)
    n = settings.players
    return Deal.of(cards[p::n] for p in range(n))


def parse_deal_text(text: str, settings: Settings, filename: str = "<deal>") -> Deal:
    """A `Deal` from a deal file's text; raises `DiagnosticError` naming every mistake."""
    return _check(parse_deal(text, filename), settings)


def read_deal_file(path: str | Path, settings: Settings) -> Deal:
    """A `Deal` from a file (bounded read; located errors)."""
    return _check(read_deal(path), settings)


def write_deal_file(path: str | Path, deal: Deal, comment: str = "") -> None:
    Path(path).write_text(deal.text(comment), encoding="utf-8")


def _check(spec: DealSpec, settings: Settings) -> Deal:
    n, sizes = settings.players, hand_sizes(settings)
    available = Counter(pack(settings))
    problems: list[Diagnostic] = []
    hands: dict[int, list[Card]] = {}
    wrong_size: list[tuple[Word, int, int]] = []
    for entry in spec.entries:
        seat = _seat(spec, entry.place, n, problems)
        cards = []
        for word in entry.cards:
            card = _card(spec, word, problems)
            if card is None:
                continue
            if available[card] == 0:
                copies = sum(1 for c in pack(settings) if c == card)
                problems.append(spec.error(word, f"duplicate card {card}" if copies else
                                           f"{card} is not in this pack",
                                           hint=f"the pack has {copies} of it" if copies else
                                           f"the table plays {settings.decks} deck(s) and {settings.jokers} joker(s)"))
                continue
            available[card] -= 1
            cards.append(card)
        if seat is not None:
            hands[seat] = cards
            if len(entry.cards) != sizes[seat]:
                wrong_size.append((entry.place, seat, len(entry.cards)))
    hint = _missing_hint(available)  # once every line is read: what no line deals
    for word, seat, count in wrong_size:
        problems.append(spec.error(word, f"p{seat} has {count} card{'s' * (count != 1)}, but dealing {settings.deck_size} cards "
                                         f"to {n} players gives it {sizes[seat]}", hint=hint))
    missing = [p for p in range(n) if p not in hands]
    if missing:
        lines = spec.text.count("\n") + 1
        problems.append(Diagnostic(spec.filename, lines, 1, f"the deal has {len(hands)} hands for {n} players: "
                                   f"{', '.join(f'p{p}' for p in missing)} missing", hint=hint))
    if problems:
        raise DiagnosticError(sorted(problems, key=lambda d: (d.line, d.column)))
    return Deal.of(hands[p] for p in range(n))


def _seat(spec: DealSpec, word: Word, players: int, problems: list) -> int | None:
    text = word.text.lower()
    number = text[1:]  # ASCII digits only: str.isdigit() also takes '⓷', which int() refuses
    if text[:1] == "p" and number.isascii() and number.isdigit() and int(number) < players:
        return int(text[1:])
    problems.append(spec.error(word, f"{word.text!r} is not a seat of this {players}-player table",
                               hint=f"seats are p0 to p{players - 1}"))
    return None


def _card(spec: DealSpec, word: Word, problems: list) -> Card | None:
    try:
        return Card.parse(word.text)
    except ActionParseError as exc:
        problems.append(spec.error(word, str(exc), hint="a card is a value and a suit letter: 3c, Td, Qh, As, 2s"))
        return None


def _missing_hint(available: Counter) -> str:
    left = sorted(available.elements())
    if not left:
        return ""
    shown = " ".join(map(str, left[:20])) + (" ..." if len(left) > 20 else "")
    return f"not dealt yet: {shown}"
