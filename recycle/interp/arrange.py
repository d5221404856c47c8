"""Fixed deals: put given cards in given places, in any RECYCLE game that shuffles and deals.

    state = new_game("President5.gdl", seed=3, deal={"p0": ["3c", "4d", ...], ...})

A deal is *seed-independent*: the same cards end in the same places whatever
the seed (the seed still drives the rest of the game). It is game-agnostic:
the game's own setup does the dealing, and we only arrange the order its first
shuffle produces. To find that order we run the setup twice with known orders
(the stock as created, then reversed) and watch where each stock position
lands by the first choice; a game whose dealing depends on the cards' faces
(not a fixed pattern of positions) is refused with a located error. After the
real run the places are checked against the deal, so an arranged game never
silently differs from what was asked.

Deal files (`recycle.kernel.deal_file`) have one line per place:

    # comments start with '#'
    p0: 3c 4d 4h ...                  a player: the one place the deal gives it cards
    p1 HAND: 5s 9d ...                or a place named in full (OWNER NAME)
    p2: THREE BLACK CLUBS, FOUR RED HEARTS   the game's own card text, comma-separated

Cards are named by the game's text or, for cards with standard RANK and SUIT
attributes, by rank and suit letter (`3c`, `Td` or `10d`, `Qh`, `As`, `2s`).
Places left out of the file get the remaining cards in an order drawn from the seed.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from recycle.kernel.deal_file import DealEntry, DealSpec, as_spec
from recycle.kernel.diagnostics import Diagnostic, DiagnosticError
from recycle.lang import load_game
from recycle.lang import tree as T

from recycle.interp.errors import located
from recycle.interp.store import Rng, Table, loc_text

if TYPE_CHECKING:
    from recycle.interp.game import RecycleState

#: How a game starts: `new_game` (passed in by it, so that arranging deals does not depend on starting games).
Start = Callable[..., "RecycleState"]

# ---- arranging the first shuffle ------------------------------------------------------

class ArrangedRng(Rng):
    """The game's generator, except that its first shuffle yields `arrange(cards)`.

    It still draws what a real shuffle draws, so the rest of the game's
    randomness is that of the seed."""

    __slots__ = ("arrange", "shuffled")

    def __init__(self, seed_state: int, arrange: Callable[[list], list]) -> None:
        super().__init__(seed_state)
        self.arrange, self.shuffled = arrange, None

    def shuffle(self, items: list) -> None:
        if self.shuffled is not None:
            super().shuffle(items)
            return
        self.shuffled = list(items)
        super().shuffle(list(items))
        items[:] = self.arrange(list(items))


@dataclass(frozen=True)
class _Probe:
    """Where each position of the first shuffle's result was at the first choice."""

    stock: tuple[int, ...]  # the cards as they were before the shuffle
    places: tuple[tuple, ...]  # per position: (location key, index in it)
    table: Table  # the game's cards: texts and attributes


def _run(game: T.Game, seed: int, arrange: Callable[[list], list], limits: dict, start: Start):
    holder: list[ArrangedRng] = []

    def shuffler(rng: Rng) -> Rng:
        holder.append(ArrangedRng(rng.s, arrange))
        return holder[0]

    state = start(game, seed, shuffler=shuffler, **limits)
    if not holder or holder[0].shuffled is None:
        raise located(_first_shuffle(game), game.filename,
                      "the game shuffles nothing before its first choice, so there is no deal to arrange",
                      hint="deal files work with games that shuffle a stock and deal from it")
    return state, tuple(holder[0].shuffled)


def _probe(game: T.Game, seed: int, order: Callable[[list], list], limits: dict, start: Start) -> _Probe:
    state, stock = _run(game, seed, order, limits, start)
    arranged = order(list(stock))
    locs, where = state.st.locs, state.st.where
    places = []
    for card in arranged:
        key = where[card]
        places.append((key, locs[key].index(card)))
    return _Probe(stock, tuple(places), state.table)


def _first_shuffle(node) -> object:
    """The first `(shuffle ...)` of the game (where errors about its deal point)."""
    return next((n for n in T.walk(node) if isinstance(n, T.Shuffle)), node)


def arrangement(game: T.Game, seed: int, spec: DealSpec, limits: dict, start: Start) -> tuple[list[int], dict, bool]:
    """(the first shuffle's result that deals `spec`, {location key: card ids}, order kept?)."""
    first = _probe(game, seed, lambda cards: cards, limits, start)
    second = _probe(game, seed, lambda cards: cards[::-1], limits, start)
    keys_a, keys_b = [k for k, _ in first.places], [k for k, _ in second.places]
    if keys_a != keys_b:
        pos = next(i for i, (a, b) in enumerate(zip(keys_a, keys_b)) if a != b)
        raise located(_first_shuffle(game), game.filename,
                      f"the game's deal depends on the cards' faces: position {pos + 1} of the shuffled stock "
                      f"went to {loc_text(keys_a[pos])} in one order and to {loc_text(keys_b[pos])} in another",
                      hint="deal files work with games that deal the shuffled stock in a fixed pattern")
    ordered = first.places == second.places  # else the game reorders hands by face: keep the sets only
    slots: dict[tuple, list[int]] = {}
    for pos, (key, index) in sorted(enumerate(first.places), key=lambda p: p[1][1]):
        slots.setdefault(key, []).append(pos)
    wanted = _resolve(first.table, game.filename, spec, first.stock, slots)
    result: list[int | None] = [None] * len(first.stock)
    for key, cards in wanted.items():
        for pos, card in zip(slots[key], cards):
            result[pos] = card
    used = {c for cards in wanted.values() for c in cards}
    rest = [c for c in first.stock if c not in used]
    Rng(seed).shuffle(rest)  # the places the file leaves out: a deal drawn from the seed
    free = iter(rest)
    return [c if c is not None else next(free) for c in result], wanted, ordered


def _card_names(game_text: list[str], attrs: list[dict], stock: Sequence[int]) -> dict[str, str]:
    """Lower-case name -> the game's card text: the text itself and `3c`-style short names."""
    names = {}
    for c in stock:
        names[game_text[c].lower()] = game_text[c]
        short = short_name(attrs[c])
        if short:
            names.setdefault(short, game_text[c])
    return names


_RANKS = {"TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6", "SEVEN": "7", "EIGHT": "8",
          "NINE": "9", "TEN": "t", "JACK": "j", "QUEEN": "q", "KING": "k", "ACE": "a"}
_SUITS = {"CLUBS": "c", "DIAMONDS": "d", "HEARTS": "h", "SPADES": "s"}


def short_name(attrs: dict) -> str:
    """`3c`, `th`, `as`: a card's rank and suit letter, or "" for a card without standard ones."""
    rank, suit = _RANKS.get(str(attrs.get("RANK", "")).upper()), _SUITS.get(str(attrs.get("SUIT", "")).upper())
    return rank + suit if rank and suit else ""


def _lookup(names: dict[str, str], word: str) -> str | None:
    w = word.lower()
    return names.get(w) or (names.get("t" + w[2:]) if w.startswith("10") else None)


def _place_key(spec: DealSpec, entry: DealEntry, slots: dict, problems: list) -> tuple | None:
    """The location a deal line names: `p0 HAND`, or `p0` when the deal gives p0 one place."""
    word = entry.place
    by_text = {loc_text(k).lower(): k for k in slots}
    if word.text.lower() in by_text:
        return by_text[word.text.lower()]
    mine = [k for k in slots if f"{loc_text(k).split()[0]}".lower() == word.text.lower()]
    if len(mine) == 1:
        return mine[0]
    dealt = ", ".join(sorted(loc_text(k) for k in slots))
    if mine:
        problems.append(spec.error(word, f"the deal gives {word.text} cards in several places",
                                   hint=f"name one in full: {', '.join(loc_text(k) for k in mine)}"))
    else:
        problems.append(spec.error(word, f"the game's deal puts no card in {word.text!r}",
                                   hint=f"places the deal fills: {dealt}"))
    return None


def _resolve(table: Table, filename: str, spec: DealSpec, stock: Sequence[int],
             slots: dict) -> dict[tuple, list[int]]:
    """{location key: card ids in order} for the file's lines, or located errors for all it gets wrong."""
    names = _card_names(table.text, table.attrs, stock)
    pool: dict[str, list[int]] = {}
    for c in stock:
        pool.setdefault(table.text[c], []).append(c)
    total = {text: len(ids) for text, ids in pool.items()}
    problems: list[Diagnostic] = []
    out: dict[tuple, list[int]] = {}
    for entry in spec.entries:
        key = _place_key(spec, entry, slots, problems)
        cards = []
        for word in entry.cards:
            text = _lookup(names, word.text)
            if text is None:
                example = table.text[stock[0]] + (f" or {short_name(table.attrs[stock[0]])}"
                                                   if short_name(table.attrs[stock[0]]) else "")
                problems.append(spec.error(word, f"{word.text!r} is not a card of the stock {filename} deals",
                                           hint=f"name cards as the game does, e.g. {example}"))
            elif not pool[text]:
                problems.append(spec.error(word, f"duplicate card {word.text}: the pack has {total[text]} of it"))
            else:
                cards.append(pool[text].pop())
        if key is None:
            continue
        want = len(slots[key])
        if len(entry.cards) != want:
            problems.append(spec.error(entry.place, f"{loc_text(key)} gets {want} cards from the game's deal, "
                                                    f"not {len(entry.cards)}"))
        out[key] = cards
    if problems:
        raise DiagnosticError(problems)
    return out


def dealt_game(game: "T.Game | str | Path", seed: int, deal: "DealSpec | Mapping[str, Sequence[str]]", start: Start,
               **limits) -> "RecycleState":
    """`start(game, seed)` (`new_game`) with the first shuffle arranged so that the game deals `deal`."""
    if not isinstance(game, T.Game):
        game = load_game(game)
    spec = as_spec(deal)
    transcript = limits.pop("transcript", False)
    order, wanted, ordered = arrangement(game, seed, spec, limits, start)
    state, _ = _run(game, seed, lambda cards: order, {**limits, "transcript": transcript}, start)
    text, locs = state.table.text, state.st.locs
    for key, cards in wanted.items():
        got, want = [text[c] for c in locs.get(key, ())], [text[c] for c in cards]
        if (got != want) if ordered else (sorted(got) != sorted(want)):
            raise located(_first_shuffle(game), game.filename,
                          f"the game did not deal {loc_text(key)} as asked (its deal depends on the cards' faces)",
                          hint="deal files work with games that deal the shuffled stock in a fixed pattern")
    if state.st.log is not None:  # so that `replay` deals the same
        state.st.log[0]["deal"] = {loc_text(k): [text[c] for c in cards] for k, cards in wanted.items()}
    return state
