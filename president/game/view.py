"""The President view: a President observation as the condition engine reads it."""
from __future__ import annotations

from functools import cached_property
from operator import sub
from typing import Sequence

from personalities.view import ClimbingView, ExchangeView
from recycle.kernel.errors import UsageError

from president.game.cards import JOKER, Give, Play, play_of, PASS
from president.game.observation import NO_RANK, PresidentObservation, rank_of_place
from president.game.settings import EqualValue, JokerMode, Settings
from president.game.phase import Phase

_NORMAL = tuple(range(3, 16))
_REVERSED = tuple(range(15, 2, -1))


class PositionError(UsageError):
    """A position given on the command line (`president decide`) that no game can reach."""


def president_view(obs: PresidentObservation, legal_actions: Sequence[Play | Give]) -> ClimbingView | ExchangeView:
    """The climbing view of `obs` (or the exchange view while cards are being given)."""
    if obs.phase is Phase.EXCHANGE:
        return ExchangeView(obs.counts, obs.pending[2], obs.pending[1],
                            actions={g.values: g for g in legal_actions})
    actions: dict = {}
    runs: dict = {}  # the sequences I may lead, for `Lr`/`Hr` (a rule names them only so)
    pass_action = None
    up = obs.upcards
    answering_run = up is not None and up.run
    for action in legal_actions:
        if action.count == 0:
            pass_action = action
        elif action.jokers == 0 and action.run == answering_run:  # rule players never spend wild jokers...
            # ...and where plays name suits, the first listed (lowest suits) speaks for its value and count
            actions.setdefault((action.value, action.count), action)
        elif up is None and action.run and action.jokers == 0:
            runs.setdefault((action.value, action.count), action)
    if not actions and pass_action is None:  # ...unless only such plays are legal
        actions = {(a.value, a.count): a for a in legal_actions}
    if up is not None and obs.last_player == obs.player and pass_action is not None:
        # asked again with its own play standing (`last_player_answers`): rules that answer a play
        # would beat its own; passing wins the trick and the lead, which is what those rules play for
        actions = {}
    view = PresidentView(obs, None if up is None else (up.value, up.count), actions, pass_action)
    if runs:
        view.runs = runs
    return view


class PresidentView(ClimbingView):
    """The climbing view of a President observation; what it tells of the table (unseen cards,
    opponents, ranks, cards played) is worked out when first read, as most personalities read none
    of it. Built for every decision of every rule player, hence the lean `__init__`."""

    def __init__(self, obs: PresidentObservation, upcards: tuple[int, int] | None, actions: dict,
                 pass_action: Play | None) -> None:
        _, _, deck_size, wild, _ = entry = _table(obs.settings)
        self.__dict__.update(
            hand=obs.counts, upcards=upcards, legal=actions.keys(), can_pass=pass_action is not None,
            deck_size=deck_size, order=_REVERSED if obs.reversed else _NORMAL, jokers_beat_singles=True,
            wild_jokers=wild, actions=actions, pass_action=pass_action, _obs=obs, _facts=entry)

    @property
    def locked(self) -> bool:
        return bool(self._obs.lock)

    @property
    def sequence_up(self) -> bool:
        up = self._obs.upcards
        return up is not None and up.run

    @cached_property
    def unseen(self) -> tuple[int, ...]:
        return _unseen(self._facts[1], self.hand, self._obs.played_counts)

    @cached_property
    def _opponents(self) -> list[int]:
        obs = self._obs
        me, places = obs.player, obs.places
        return [p for p in range(self._facts[4]) if not places[p] and p != me]

    @cached_property
    def opponent_counts(self) -> tuple[int, ...]:
        sizes = self._obs.sizes
        return tuple([sizes[p] for p in self._opponents])

    @cached_property
    def played(self) -> int:
        return sum(self._obs.played_counts)

    @cached_property
    def rank(self) -> int:
        prev = self._obs.prev_places
        return NO_RANK if prev is None else rank_of_place(prev[self._obs.player], self._facts[4])

    @cached_property
    def higher_players(self) -> int:
        prev = self._obs.prev_places
        if prev is None:
            return 0
        mine = prev[self._obs.player]
        return sum(1 for p in self._opponents if prev[p] < mine)


#: id(settings) -> (settings, the pack's cards per value, deck size, wild jokers?, players).
_TABLES: dict[int, tuple[Settings, tuple[int, ...], int, bool, int]] = {}


def _table(settings: Settings) -> tuple[Settings, tuple[int, ...], int, bool, int]:
    """What a view needs of the table's settings, worked out once per settings object (they are frozen)."""
    entry = _TABLES.get(id(settings))
    if entry is None or entry[0] is not settings:
        if len(_TABLES) > 256:  # bounded: a long-lived process may see many tables
            _TABLES.clear()
        pack = (0, 0, 0) + (4 * settings.decks,) * 13 + (settings.jokers,)  # values 0..2 do not exist
        entry = _TABLES[id(settings)] = (settings, pack, settings.deck_size,
                                         settings.joker_mode is JokerMode.WILD, settings.players)
    return entry


def _unseen(pack: Sequence[int], hand: Sequence[int], played: Sequence[int]) -> tuple[int, ...]:
    """Per value, the cards of the pack that are neither mine nor played."""
    return tuple(map(sub, map(sub, pack, hand), played))


def hypothetical_view(settings: Settings, hand: list[int], upcards: list[int] | None, played: list[int],
                      opponents: list[int] | None, rank: int = NO_RANK, higher_players: int = 0) -> ClimbingView:
    """A view of a position described by hand (`president decide`), not reached in a game.

    Upcards count as played. Without opponent counts, the unseen cards are
    shared as evenly as possible among the other players of the table.
    """
    if not hand:
        raise PositionError("the hand is empty: name my cards with --hand")
    if not 1 <= rank <= NO_RANK:
        raise PositionError(f"rank must be 1 (President) to 6 (none yet), not {rank}")
    if not 0 <= higher_players < settings.players:
        raise PositionError(f"higher players must be 0 to {settings.players - 1}, not {higher_players}")
    counts = [0] * 17
    for v in hand:
        counts[v] += 1
    played_counts = [0] * 17
    for v in played + (upcards or []):
        played_counts[v] += 1
    for v in range(3, 17):
        limit = settings.jokers if v == JOKER else 4 * settings.decks
        if counts[v] + played_counts[v] > limit:
            raise PositionError(f"too many cards of value {v} in hand and played (the pack has {limit})")
    up = None
    if upcards:
        if len(set(upcards)) != 1:
            raise PositionError("the upcards must all be of one value")
        up = (upcards[0], len(upcards))
    unseen = _unseen(_table(settings)[1], counts, played_counts)
    if opponents is None:
        left, others = sum(unseen), settings.players - 1
        opponents = [left // others + (1 if i < left % others else 0) for i in range(others)]
    elif not 1 <= len(opponents) < settings.players or min(opponents) < 1:
        raise PositionError(f"--opponents gives the card counts of the 1 to {settings.players - 1} opponents "
                         f"still in the round, each 1 or more, not {','.join(map(str, opponents))}")
    elif sum(opponents) != sum(unseen):
        raise PositionError(f"the opponents hold {sum(opponents)} cards but {sum(unseen)} are unseen")
    actions: dict = {}
    equal = settings.equal_value is not EqualValue.NO
    for v in range(3, 16):
        held = counts[v]
        if not held:
            continue
        if up is None:
            for k in range(1, held + 1):
                actions[(v, k)] = play_of(v, k)
        elif held >= up[1] and (v > up[0] or (equal and v == up[0])):
            actions[(v, up[1])] = play_of(v, up[1])
    return ClimbingView(
        hand=tuple(counts), upcards=up, legal=actions.keys(),
        can_pass=up is not None, unseen=unseen, opponent_counts=tuple(opponents),
        played=sum(played_counts), deck_size=settings.deck_size, rank=rank,
        higher_players=higher_players, wild_jokers=settings.joker_mode is JokerMode.WILD, actions=actions,
        pass_action=PASS if up is not None else None)
