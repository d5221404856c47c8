"""Options in the game's words: what an option does, read from its effects, for one viewer.

    labeller = Labeller(state.table)
    labeller.choice([state.effects[o.index] for o in state.legal_actions()], chooser=0, viewer=0)
    # ['pass', 'CHIPS -1, BET +1, POT +1', ...]   Poker5's first betting round
    # ['play 3♠', 'play 4♥ 4♣', ...]             Daifugo4 (with a card namer giving faces)

An option's text (`move SEVEN RED HEARTS from p0 HAND to game TABLE; set game sto
TOP = 7`) says every change it makes; a person wants what it means at the table:

- cards moved, by where they go: `play 7♥ 7♠` (from the chooser's piles to a place others
  see), `discard K♦` (to a DISCARD-like place), `take the top card of STOCK`, `give 2♣ to p1`,
  `put X in PICK`; moves between places that are not the chooser's are told after;
- no card moved: `pass` for the game's `(turn pass)`, or for an option that only counts
  itself (every change +1, named by its counter: PASSES -> pass); otherwise its storage
  changes (`CHIPS -2, BET +2, POT +2`: a bet of 2 in the game's own names);
- storage set beside moved cards follows from the cards and is left out, unless two options
  would read alike without it; values that are not human sized (encodings, huge numbers)
  never appear.

Everything is drawn from what `viewer` may see: a card is named only if the viewer could
see where it came from (and, once unseen in an option, stays unnamed in it); a hidden card
is named by its position only where position is public knowledge (the chooser's own choice,
or a pile no player owns), else it is "a card". Storage is public in RECYCLE. So two states
the viewer cannot tell apart give the same labels.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from recycle.interp.effects import MISSING, Move, Pass, Reorder, SetValue
from recycle.interp.store import owner_text

#: Location names that mean "put out of play": moving one's cards there is discarding.
DISCARD_WORDS = ("DISCARD", "MUCK", "WASTE", "TRASH", "GRAVE", "DEAD")
#: Storage values at most this large (in absolute value) are shown: bigger ones are encodings.
HUMAN_SIZED = 99_999
#: Strings at most this long are shown.
HUMAN_TEXT = 24
#: Cards named in one phrase at most; more are counted.
MAX_NAMED = 8


def human_sized(value) -> bool:
    """Is a storage value one a person follows (a count, a small score, a short word)?"""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= HUMAN_SIZED
    return isinstance(value, str) and len(value) <= HUMAN_TEXT


def counter_word(name: str) -> str:
    """`PASSES` -> `pass`, `KNOCKS` -> `knock`: a counter's name as the action it counts."""
    word = name.lower()
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@dataclass(frozen=True)
class _Group:
    """Cards moved from one place to another by one option (in the order moved)."""

    src: tuple
    dst: tuple
    cards: tuple  # card ids, None for a card the viewer may not name
    positions: tuple  # each card's place from the top of `src` (for unnamed cards)
    ranks: tuple = ()  # each unnamed card's (place, rank, rule) in a choice reading faces (`canonical`)


class Labeller:
    """Labels options of one game. `name_cards(ids)` names visible cards (default: the game's
    words joined by ', '); the table's own visibility decides what may be named."""

    def __init__(self, table, name_cards: Callable[[Sequence[int]], str] | None = None) -> None:
        self.table = table
        self.name_cards = name_cards or (lambda ids: ", ".join(table.text[c] for c in ids))
        self.ranks: dict = {}  # of the choice being labelled (`choice`)

    # ---- one option -------------------------------------------------------------------------
    def label(self, effects: Sequence, chooser: int, viewer: int, done: bool = False) -> str:
        """One option alone: the moves of the chooser's cards (others' bookkeeping, a trick cleared,
        only when there are none), or its storage changes. `done`: the option was taken, so a card
        is named where the viewer saw it arrive too."""
        return self._parts(effects, chooser, viewer, done, brief=True)[0] or "do nothing"

    def _parts(self, effects: Sequence, chooser: int, viewer: int, done: bool = False,
               brief: bool = False, varying: frozenset = frozenset()) -> tuple[str, str, str]:
        """(the label, its storage changes, the moves left out as others' bookkeeping). `brief`:
        moves between places not the chooser's are left out when it moves cards of its own;
        `varying`: storage other options change by other amounts (a bid of 1 among bids)."""
        groups = self._groups(effects, viewer, chooser, done)
        mine = ("p", chooser)
        own = [self._move(g, chooser, viewer) for g in groups if mine in (g.src[:2], g.dst[:2])]
        rest = [self._move(g, chooser, viewer) for g in groups if mine not in (g.src[:2], g.dst[:2])]
        sets = [e for e in effects if isinstance(e, SetValue) and e.kind in ("ints", "strs")]
        stores = self._stores(sets, chooser)
        if groups:
            if brief and own:
                return "; ".join(own), stores, "; ".join(rest)
            return "; ".join(own + rest), stores, ""
        if any(isinstance(e, Pass) for e in effects):
            return "pass", stores, ""
        counted = [e for e in sets if _delta(e) == 1]
        if counted and len(counted) == len(sets) and not any(e.key in varying for e in counted):
            passes = [e for e in counted if str(e.key[-1]).startswith("PASS")] or counted
            return counter_word(str(passes[0].key[-1])), stores, ""
        others = [f"{e.why} {self._where(e.key, chooser)}" for e in effects if isinstance(e, Reorder)]
        return ", ".join(([stores] if stores else []) + others), stores, ""

    def _groups(self, effects: Sequence, viewer: int, chooser: int, done: bool) -> list[_Group]:
        unseen: set[int] = set()  # cards the viewer could not see at some point of the option
        order: dict[tuple, list] = {}
        visible = self.table.visible
        for e in effects:
            if not isinstance(e, Move):
                continue
            if done:  # seen leaving or arriving
                named = visible(e.src, viewer) or visible(e.dst, viewer)
            else:  # seen where it is now, and where it was before this option moved it
                if not visible(e.src, viewer):
                    unseen.add(e.card)
                named = e.card not in unseen
            order.setdefault((e.src, e.dst), []).append((e.card if named else None, e.ft, e.card))
        ranks = self.ranks
        return [_Group(src, dst, tuple(c for c, _, _ in items), tuple(f for _, f, _ in items),
                       tuple(ranks.get(card) for _, _, card in items) if ranks else ())
                for (src, dst), items in order.items()]

    # ---- words --------------------------------------------------------------------------------
    def _move(self, g: _Group, chooser: int, viewer: int) -> str:
        mine = ("p", chooser)
        src_mine, dst_mine = g.src[:2] == mine, g.dst[:2] == mine
        what = self._cards(g, chooser, viewer)
        if src_mine and dst_mine:
            if self._public(g.dst) and not self._public(g.src):
                return f"play {what}"  # onto the chooser's own place on the table (a trick)
            return f"put {what} in {g.dst[3]}"
        if src_mine:
            if _discard(g.dst):
                return f"discard {what}"
            if g.dst[0] == "p":
                return f"give {what} to {owner_text(g.dst)}"
            return f"play {what}" + ("" if self._public(g.dst) else f" to {self._where(g.dst, chooser)}")
        if dst_mine:
            return f"take {what}" + ("" if " of " in what else f" from {self._where(g.src, chooser)}")
        return f"{what} from {self._where(g.src, chooser)} to {self._where(g.dst, chooser)}"

    def _cards(self, g: _Group, chooser: int, viewer: int) -> str:
        if all(c is not None for c in g.cards) and len(g.cards) <= MAX_NAMED:
            return self.name_cards(g.cards)
        n = len(g.cards)
        # A hidden card's place is public where nobody owns the pile or the chooser picks by it.
        by_place = g.src[0] != "p" or viewer == chooser
        src = self._where(g.src, chooser)
        if n == 1 and g.cards[0] is None and g.ranks and g.ranks[0] is not None:
            _, k, rule = g.ranks[0]  # its rank, not its place (`canonical`)
            return f"hidden card {k} of {src}" + ("" if rule is None else f" (rule {rule + 1})")
        if n == 1 and g.cards[0] is None and by_place:
            place = g.positions[0]
            return f"the top card of {src}" if place == 0 else f"card {place + 1} from the top of {src}"
        if by_place and all(c is None for c in g.cards) and sorted(g.positions) == [0] * n:
            return f"the top {n} cards of {src}"  # each drawn from the top in turn
        return "a card" if n == 1 else f"{n} cards"

    def _public(self, key: tuple) -> bool:
        return all(self.table.sight(key))

    def _where(self, key: tuple, chooser: int) -> str:
        """A place as the chooser says it: its name for the game's and the chooser's own, `p2 HAND` else."""
        return str(key[3]) if key[:2] in (("g", 0), ("p", chooser)) else f"{owner_text(key)} {key[3]}"

    def _stores(self, sets: list, chooser: int) -> str:
        """`CHIPS -2, BET +2, POT +2`: the last value each storage gets, the chooser's first."""
        last: dict[tuple, SetValue] = {}
        first_old: dict[tuple, object] = {}
        for e in sets:
            first_old.setdefault(e.key, e.old)
            last[e.key] = e
        names = [k[2] for k in last]
        out = []
        for key in sorted(last, key=lambda k: (k[:2] != ("p", chooser), k[:2] != ("g", 0))):
            e, old = last[key], first_old[key]
            if not human_sized(e.new) or (old is not MISSING and not human_sized(old)):
                continue
            name = str(key[2])
            if key[:2] not in (("p", chooser), ("g", 0)) or (key[:2] == ("g", 0) and names.count(key[2]) > 1):
                name = f"{owner_text(key)} {name}"
            d = _delta(SetValue(e.kind, key, old, e.new))
            if d is not None:
                out.append(f"{name} {'+' if d >= 0 else '-'}{abs(d)}" if d else f"{name} = {e.new}")
            else:
                out.append(f"{name} = {e.new}")
        return ", ".join(out)

    # ---- a whole choice -------------------------------------------------------------------------
    def choice(self, options: Sequence[Sequence], chooser: int, viewer: int, ranks: dict | None = None) -> list[str]:
        """Labels for every option of one choice (`options[i]` are option i's effects): moves
        between places not the chooser's (a trick cleared before each play) are left out, and
        options that would read alike get those moves, their storage changes, then a number.
        `ranks` (`RecycleState.hidden_ranks`, a choice reading faces): hidden cards are named by
        rank, and an option is told up to its first hidden card, as its text
        (docs/recycle-language.md, "Options and hidden cards")."""
        if not ranks:
            return self._choice(options, chooser, viewer)
        mine: list[dict] = [{} for _ in options]  # per option: card -> (place, rank, rule)
        for (i, card), rank in ranks.items():
            mine[i][card] = rank
        return self._choice([_up_to_first(o, m) for o, m in zip(options, mine)], chooser, viewer, mine)

    def _choice(self, options: Sequence[Sequence], chooser: int, viewer: int, ranks: list | None = None) -> list[str]:
        if viewer != chooser:  # the options depend on the chooser's hidden cards: no comparing them
            return [self.label(o, chooser, viewer) for o in options]
        deltas: dict[tuple, set] = {}
        for o in options:
            for e in o:
                if isinstance(e, SetValue) and e.kind == "ints":
                    deltas.setdefault(e.key, set()).add(_delta(e))
        varying = frozenset(k for k, d in deltas.items() if len(d) > 1)
        parts = []
        for i, o in enumerate(options):
            self.ranks = ranks[i] if ranks else {}
            parts.append(self._parts(o, chooser, viewer, brief=True, varying=varying))
        self.ranks = {}
        labels = [text or "do nothing" for text, _, _ in parts]
        for extra in (2, 1):
            alike = {t for t in labels if labels.count(t) > 1}
            for i, part in enumerate(parts):
                if labels[i] in alike and part[extra] and part[extra] != labels[i]:
                    labels[i] = f"{labels[i]} ({part[extra]})"
        alike = {t for t in labels if labels.count(t) > 1}
        seen: dict[str, int] = {}
        for i, text in enumerate(labels):
            if text in alike:
                seen[text] = seen.get(text, 0) + 1
                labels[i] = f"{text} (#{seen[text]})"
        return labels


def _up_to_first(effects: Sequence, ranks: dict) -> tuple:
    """An option's effects up to and including its first move of a card in `ranks` (a hidden card)."""
    for i, e in enumerate(effects):
        if isinstance(e, Move) and e.card in ranks:
            return tuple(effects[:i + 1])
    return tuple(effects)


def _delta(e: SetValue):
    """The change an integer write makes (a storage never set reads 0), or None."""
    old = 0 if e.old is MISSING else e.old
    if type(e.new) is int and type(old) is int:
        return e.new - old
    return None


def _discard(key: tuple) -> bool:
    return any(w in str(key[3]) for w in DISCARD_WORDS)
