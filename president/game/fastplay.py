"""President's compiled engine, when it was built: random play, legal plays and re-deals.

`playout` makes exactly the moves of `PresidentState.random_moves` (the pure
loop, the reference) with the same draws from the same generator: the C
module (`president/game/_fastplay.c`, the rules of a trick in `_fastplay_rules.c`)
plays a round's tricks on C arrays and writes every field of the state back.
It returns None where it does not apply, and the pure loop runs: tables where
suits matter, two decks, or a `draw` that is not CPython's `Random._randbelow`.
Between rounds (a whole match), the exchange and the next deal stay in Python.
`legality.legal_plays` and `knowledge.Dealer.deal` use the module's `legal`
and `deal` the same way (`python_legal_plays` and `place_cards` are theirs).

The extension is optional: `pip install .` builds it when a C compiler and
the Python headers are there and goes on without it otherwise. The
environment variable `PRESIDENT_PURE=1` forces the pure Python engine
(`president --version` says which one is in use); `tests/test_fastplay.py`
cross-checks the two move for move (docs/compiled.md).
"""
from __future__ import annotations

import os
import random
from typing import TYPE_CHECKING, Callable

from president.game.phase import Phase

if TYPE_CHECKING:
    from president.game.settings import Settings
    from president.game.state import PresidentState

#: Set to 1 (or anything but empty/0) to run the pure Python engine even where the compiled one is built.
PURE_VARIABLE = "PRESIDENT_PURE"


def _load():
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None, f"pure Python ({PURE_VARIABLE} is set)"
    try:
        from president.game import _fastplay
    except ImportError:
        return None, "pure Python (the compiled engine is not built)"
    return _fastplay, "compiled (C: president.game._fastplay)"


_C, _DESCRIPTION = _load()


def engine() -> str:
    """Which engine plays random rounds: `compiled (...)` or `pure Python (why)`."""
    return _DESCRIPTION


def compiled() -> bool:
    return _C is not None


def compiled_module():
    """The C module itself (for `rulebots`), or None where pure Python is in use."""
    return _C


def deal_cards() -> Callable | None:
    """The compiled `Dealer.place_cards` loop: deal(groups, masks, counts, draw) -> None or a stuck card's bit."""
    return None if _C is None else _C.deal


def legal_plays() -> Callable | None:
    """The compiled `legality.legal_plays` at a table `rules_of` accepts: legal(state, rules) -> list."""
    return None if _C is None else _C.legal


_RULES: dict[int, tuple["Settings", tuple | None]] = {}  # id(settings) -> (settings, its rules)


def rules_of(settings: "Settings") -> tuple | None:
    """The table's rules as the C loop reads them, or None where it does not apply
    (suits matter, or two decks: a hand is then more than 64 bits; seats redrawn or the last player asked
    again: the C loop turns in seat order and ends a trick when all others have passed)."""
    entry = _RULES.get(id(settings))
    if entry is not None and entry[0] is settings:
        return entry[1]
    from president.game.settings import EqualValue, JokerMode

    rules = None
    if (not settings.suited and settings.decks == 1 and not settings.seat_change
            and not settings.last_player_answers):
        equal = {EqualValue.SKIP: 0, EqualValue.ALLOW: 1, EqualValue.NO: 2}[settings.equal_value]
        rules = (settings.joker_mode is JokerMode.WILD, settings.pass_locks, equal, settings.twos_end_trick,
                 settings.revolution, settings.eight_cut, settings.no_going_out_on_two)
    if len(_RULES) > 256:  # settings are few; a long run deriving many must not grow this forever
        _RULES.clear()
    _RULES[id(settings)] = (settings, rules)
    return rules


def _init_tables() -> None:
    from president.game.cards import JOKER, PASS, play_of

    # [value][count][jokers]: every play of one deck the C loop can make (at most 4 naturals + 2 jokers)
    table = [[[None] * 9 for _ in range(9)] for _ in range(17)]
    for value in range(3, 16):
        for count in range(1, 9):
            for jokers in range(0, min(count, 3)):
                if count - jokers <= 4:
                    table[value][count][jokers] = play_of(value, count, jokers)
    table[JOKER][1][0] = play_of(JOKER, 1)
    _C.init(table, PASS)


if _C is not None:
    _init_tables()


def bits_of(draw: Callable[[int], int] | None) -> Callable[[int], int] | None:
    """`getrandbits` of the generator whose `_randbelow` `draw` is, when that is CPython's
    `Random._randbelow_with_getrandbits` (a loop over `getrandbits` the playout can inline); else None."""
    if getattr(draw, "__func__", None) is getattr(random.Random, "_randbelow_with_getrandbits", False):
        return draw.__self__.getrandbits
    return None


def shuffle(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)`: in compiled code where it was built and `rng` shuffles and draws as CPython's
    `Random` does (the same index from the same `getrandbits` calls), else `rng.shuffle` itself."""
    bits = None
    if _C is not None and type(rng).shuffle is random.Random.shuffle:
        bits = bits_of(rng._randbelow)
    if bits is None:
        rng.shuffle(items)
    else:
        _C.shuffle(bits, items)


def playout(state: "PresidentState", rng: random.Random, draw: Callable[[int], int] | None = None) -> int | None:
    """`state.random_playout(rng, draw)` in compiled code: the number of moves, or None (nothing done)
    where the compiled loop does not apply."""
    if _C is None:
        return None
    rules = rules_of(state.settings)
    if rules is None:
        return None
    PLAY, OVER = Phase.PLAY, Phase.OVER
    if draw is None:
        pick, bits = rng.random, False
    else:
        pick, bits = bits_of(draw), True
        if pick is None:
            return None
    steps = 0
    while state.phase is not OVER:
        if state.phase is not PLAY:  # an exchange: the pure loop's own step
            steps += state.random_moves(rng, draw, exchange_only=True)
            continue
        moves, ended = _C.play_round(state, pick, bits, rules)
        steps += moves
        if ended:
            state._end_round()
    return steps
