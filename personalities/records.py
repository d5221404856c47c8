"""Decision records: what one seat saw when it decided, and what it played (docs/imitate.md).

A records file is JSON Lines: a header line naming the format and who decided,
then one line per decision. A decision holds the climbing view of the deciding
seat (its hand, the upcards, its legal plays, the cards it has not seen, the
opponents' card counts, ...) and nothing else: every field is something that
seat could see, so a record never tells what another seat holds. The play is
`[value, count]`, `null` for a pass; an exchange decision holds the hand, how
many cards to give and the gift.

Records are read back through one typed loader (`load_records`): every line
is checked against its shape and against the game's sense (the play is one of
the legal plays, the hand is 17 counts, ...), and a bad line is a located
error naming the file, the line and the field. Reading is bounded.
"""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from recycle.kernel.schema import Bool, Int, Line, ListOf, Maybe, Obj, Str, json_lines

from personalities.view import JOKER, ClimbingView, ExchangeView, Play

FORMAT = "president-decisions"
VERSION = 1
#: A records file is read whole into memory: bounded (a decision line is about 400 bytes).
MAX_RECORDS_BYTES = 256 * 1024 * 1024
KIND = "a decision records file"
VALUES = 17  # hand and unseen cards are counted per value 0..16 (0..2 unused, 16 jokers)


class Situation(enum.Enum):
    """What kind of decision a record is; match rates are given per situation."""

    LEADING = "leading"
    """I have the lead: any set I hold, no pass."""
    FOLLOWING = "following"
    """Beat the upcards with as many cards, or pass."""
    EXCHANGE = "exchange"
    """Cards to hand over after a round (President and Vice-President choose)."""


class Label(enum.Enum):
    """Which play of a record a match rate compares with (`labelled`)."""

    PLAYED = "played"
    """The play made at the table: for a search player, one search's decision (a noisy draw)."""
    PREFERRED = "preferred"
    """A search player's preferred play: the most visited over all the searches the record keeps
    (`president record --searches K`); the play made, for records without visits."""

    @property
    def words(self) -> str:
        """What is matched, in a sentence's words."""
        return "the recorded play" if self is Label.PLAYED else "the preferred play"


def labelled(records: Sequence["RecordedDecision"], label: Label) -> list["RecordedDecision"]:
    """The records with `play` set to the label's play (the rest of each record unchanged)."""
    if label is Label.PLAYED:
        return list(records)
    return [r.preferred() for r in records]


def label_shown(records: Sequence["RecordedDecision"], label: Label) -> Label:
    """The label a report names: records without visits have no preferred play but the one played."""
    return label if any(r.visits for r in records) else Label.PLAYED


class RecordsError(ValueError):
    """A records file that cannot be used as a whole (no decision, wrong format); located errors of
    single lines are `DiagnosticError`s."""


@dataclass(frozen=True)
class RecordedDecision:
    """One decision: the seat's view, and what it played (`play`: None for a pass; for an exchange,
    `gift`: the values handed over). `jokers`: wild jokers in the play (rules never play them)."""

    situation: Situation
    view: ClimbingView | ExchangeView
    play: Play | None = None
    gift: tuple[int, ...] = ()
    jokers: int = 0
    round: int = 0
    seat: int = 0
    where: str = ""  # file:line it was read from, for messages
    #: A search player's root visits, summed over `searches` searches of this position (`Visit`s); empty
    #: for other players. The most visited is its preferred play (`preferred`).
    visits: tuple["Visit", ...] = ()
    searches: int = 0

    @property
    def round_key(self) -> tuple[str, int]:
        """Which recorded round the decision belongs to: its file, and the round there (a round's decisions
        are not independent: held out, or dealt to a fold, together)."""
        return self.where.rsplit(":", 1)[0], self.round

    def preferred(self) -> "RecordedDecision":
        """This decision labelled with the searches' preferred play: the most visited over every search
        of the position (ties: the recorded play, else the first listed). Itself when it has no visits."""
        if not self.visits:
            return self
        best = most_visited(self.visits, self.play, self.jokers)
        return replace(self, play=best.play, jokers=best.jokers)

    def to_json(self) -> dict:
        v = self.view
        out: dict = {"situation": self.situation.value, "round": self.round, "seat": self.seat,
                     "hand": list(v.hand), "order": list(v.order)}
        if isinstance(v, ExchangeView):
            out.update(give=v.count, gift=list(self.gift))
            return out
        out.update(upcards=None if v.upcards is None else list(v.upcards), legal=sorted(map(list, v.legal)),
                   can_pass=v.can_pass, unseen=list(v.unseen), opponents=list(v.opponent_counts),
                   played=v.played, deck_size=v.deck_size, rank=v.rank, higher_players=v.higher_players,
                   jokers_beat_singles=v.jokers_beat_singles, wild_jokers=v.wild_jokers,
                   play=None if self.play is None else list(self.play))
        if self.jokers:
            out["jokers"] = self.jokers
        if self.visits:
            out.update(searches=self.searches, visits=[v.to_json() for v in self.visits])
        return out


@dataclass(frozen=True)
class Visit:
    """How often a search tried one play at the root: `[value, count, visits]` in a record (a pass is
    `[0, 0, visits]`; a play with wild jokers adds their number: `[value, count, visits, jokers]`)."""

    play: Play | None
    visits: int
    jokers: int = 0

    def to_json(self) -> list[int]:
        value, count = self.play or (0, 0)
        return [value, count, self.visits] + ([self.jokers] if self.jokers else [])


def most_visited(visits: Sequence[Visit], play: Play | None, jokers: int = 0) -> Visit:
    """The most visited of `visits` (ties: the one of `play`, else the first listed)."""
    most = max(v.visits for v in visits)
    tied = [v for v in visits if v.visits == most]
    return next((v for v in tied if (v.play, v.jokers) == (play, jokers)), tied[0])


def situation_of(view: ClimbingView | ExchangeView) -> Situation:
    if isinstance(view, ExchangeView):
        return Situation.EXCHANGE
    return Situation.LEADING if view.upcards is None else Situation.FOLLOWING


def header(who: str, **about) -> dict:
    """The first line of a records file: the format, and who decided (a bot spec or `person`)."""
    return {"format": FORMAT, "version": VERSION, "player": who, **about}


def record_lines(head: dict, decisions: Iterable[RecordedDecision]) -> Iterator[str]:
    """The lines of a records file (each ends with a newline)."""
    yield json.dumps(head, sort_keys=True) + "\n"
    for d in decisions:
        yield json.dumps(d.to_json(), separators=(",", ":")) + "\n"


# ---- reading --------------------------------------------------------------------------------
_COUNTS = ListOf(Int(0, 8), VALUES, VALUES)  # at most two packs: 8 cards of a value
_PLAY = ListOf(Int(1, 16), 2, 2)  # [value, count]: a value indexes the 17 counts
_ORDER = ListOf(Int(3, 15), 13, 13)
HEADER = Obj({"format": Str(64, (FORMAT,)), "version": Int(1, 1), "player": Str(500)})
COMMON = Obj({"situation": Str(16, tuple(s.value for s in Situation)), "round": Int(0, 10**6),
              "seat": Int(0, 15), "hand": _COUNTS, "order": _ORDER})
EXCHANGE = Obj({"give": Int(1, 16), "gift": ListOf(Int(3, 16), 1, 16)})
PLAYING = Obj({"upcards": Maybe(_PLAY), "legal": ListOf(_PLAY, 0, 200), "can_pass": Bool(),
               "unseen": _COUNTS, "opponents": ListOf(Int(0, 136), 0, 15), "played": Int(0, 136),
               "deck_size": Int(1, 136), "rank": Int(1, 6), "higher_players": Int(0, 15),
               "jokers_beat_singles": Bool(), "wild_jokers": Bool(), "play": Maybe(_PLAY),
               "jokers": Int(0, 8), "searches": Int(1, 1000),
               "visits": ListOf(ListOf(Int(0, 10**9), 3, 4), 1, 200)},
              optional=frozenset({"jokers", "searches", "visits"}))


def load_records(path: str | Path) -> tuple[dict, list[RecordedDecision]]:
    """(header, decisions) of a records file; a located `DiagnosticError` for the first bad line."""
    head: dict | None = None
    decisions: list[RecordedDecision] = []
    for line, data in json_lines(path, MAX_RECORDS_BYTES, KIND):
        if head is None:
            head = line.check(data, HEADER, hint=f"a records file starts with a header line naming format "
                                                 f"{FORMAT!r} (president record writes one)")
            continue
        decisions.append(_decision(line, data))
    if head is None:
        raise RecordsError(f"{path}: empty: not {KIND}")
    return head, decisions


def load_all(paths: Sequence[str | Path], label: Label = Label.PLAYED) -> list[RecordedDecision]:
    """Every decision of every file, in order, labelled with `label`'s play."""
    out: list[RecordedDecision] = []
    for path in paths:
        out.extend(load_records(path)[1])
    return labelled(out, label)


def _decision(line: Line, data) -> RecordedDecision:
    common = line.check(data, COMMON)
    situation = Situation(common["situation"])
    hand, order = tuple(common["hand"]), tuple(common["order"])
    where = f"{line.filename}:{line.number}"
    if sorted(order) != list(range(3, 16)):
        raise line.error("field 'order': the values 3..15, each once, weakest first")
    if any(hand[:3]):
        raise line.error("field 'hand': values 0..2 do not exist, their counts must be 0")
    if situation is Situation.EXCHANGE:
        ex = line.check(data, EXCHANGE)
        gift = tuple(sorted(ex["gift"]))
        if len(gift) != ex["give"] or any(gift.count(v) > hand[v] for v in set(gift)):
            raise line.error("field 'gift': must be 'give' cards held in 'hand'")
        view = ExchangeView(hand, ex["give"], -1, order)
        return RecordedDecision(situation, view, gift=gift, round=common["round"], seat=common["seat"], where=where)
    p = line.check(data, PLAYING)
    up = None if p["upcards"] is None else tuple(p["upcards"])
    if (up is None) != (situation is Situation.LEADING):
        raise line.error("field 'upcards': null when leading, the play to beat when following")
    legal = frozenset(tuple(x) for x in p["legal"])
    play = None if p["play"] is None else tuple(p["play"])
    jokers = p.get("jokers", 0)
    if sum(p["opponents"]) != sum(p["unseen"]):
        raise line.error("field 'opponents': the opponents hold every unseen card (their counts add up to "
                         "the unseen cards)")
    if up is not None and not 3 <= up[0] <= JOKER:
        raise line.error("field 'upcards': a value 3..16")
    if any(c < 1 or hand[v] < c for v, c in legal):
        raise line.error("field 'legal': every legal play is a value held at least 'count' times")
    if play is None and not p["can_pass"]:
        raise line.error("field 'play': a pass (null) where passing was not allowed")
    if play is not None and play not in legal and not _wild_play(play, jokers, hand[JOKER]):
        raise line.error(f"field 'play': {list(play)} is not one of the legal plays")
    visits = _visits(line, p, legal, p["can_pass"], hand[JOKER])
    view = ClimbingView(hand, up, legal, p["can_pass"], tuple(p["unseen"]), tuple(p["opponents"]), p["played"],
                        p["deck_size"], order, p["rank"], p["higher_players"], p["jokers_beat_singles"],
                        p["wild_jokers"])
    return RecordedDecision(situation, view, play, jokers=jokers, round=common["round"], seat=common["seat"],
                            where=where, visits=visits, searches=p.get("searches", 1) if visits else 0)


def _wild_play(play: Play, jokers: int, held: int) -> bool:
    """A play with wild jokers (the view's legal plays list none): `count` cards of one value 3..16, of
    which `jokers` are jokers the player holds."""
    return 0 < jokers <= held and jokers <= play[1] and 3 <= play[0] <= JOKER


def _visits(line: Line, p: dict, legal: frozenset, can_pass: bool, held_jokers: int) -> tuple[Visit, ...]:
    """The `visits` field read and checked against the legal plays (optional: older records have none)."""
    out = []
    for entry in p.get("visits", ()):
        value, count, visits = entry[:3]
        jokers = entry[3] if len(entry) == 4 else 0
        play = None if count == 0 else (value, count)
        if play is None and (value or jokers):
            raise line.error("field 'visits': a pass is [0, 0, n]")
        if play is None and not can_pass:
            raise line.error("field 'visits': a pass [0, 0, n] where passing was not allowed")
        if play is not None and play not in legal and not _wild_play(play, jokers, held_jokers):
            raise line.error(f"field 'visits': {[value, count]} is not one of the legal plays")
        out.append(Visit(play, visits, jokers))
    if "searches" in p and not out:
        raise line.error("field 'searches': given without 'visits'")
    return tuple(out)
