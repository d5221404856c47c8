"""A table of rule players, played in compiled code: `play_game`'s loop without a call per decision.

Where every seat is a rule personality (`RulePlayer` on `president_view`, no fallback agent) and
the compiled engine plays the table (`fastplay.rules_of`: suits do not matter, one deck), the
rounds' tricks are played in C (`president/game/_fastplay_bots.c`): the legal plays, the view a
rule reads, the walk of the personality's rules and the play itself, decision for decision those of
`recycle.kernel.protocol.play_out` with `RulePlayer.choose`, with the same draws from the same
generator. A personality reaches C as tables of ints made once per personality (`programs_of`): the
rules worth trying when leading and when following n cards (`personalities.compiled.plan`), each a
potential's code and its conditions as (variable, comparison, target). The exchange, the end of a
round and any decision C declines stay in Python, move by move as `play_out` makes them (a rule
player's gift chosen from its hand, without listing every gift it could make).

`PRESIDENT_PURE=1`, or a table or a generator the C loop does not know, leaves everything to
`play_out` (the reference); tests/test_rulebots.py checks the two make the same games.
"""
from __future__ import annotations

import operator
import random
from array import array
from dataclasses import dataclass
from typing import Any, Sequence

from personalities.compiled import plan
from personalities.odds import odds_of
from personalities.player import RulePlayer, gift_of
from personalities.syntax import Personality
from personalities.variables import Variable
from recycle.kernel.protocol import apply_chosen, unasked_when_forced

from president.game import fastplay
from president.game.exchange import apply_gift, give_of
from president.game.phase import Phase
from president.game.view import _NORMAL, _REVERSED, _table, president_view

#: The ids of the variables in C (`_fastplay_bots.c`): the 15 read once per decision first.
VARIABLES = (Variable.LEAD, Variable.RANK, Variable.NUM_DIFF_VALS, Variable.TWOS_LEFT, Variable.PERCENT_PLAYED,
             Variable.HIGHEST_OPP_CARDS, Variable.HIGHER_PLAYERS, Variable.PLAYERS_LEFT, Variable.TOT_MY_CARDS,
             Variable.TOT_MY_TWOS, Variable.HAND_VALUE, Variable.MY_LOWEST_CARD, Variable.MY_HIGHEST_CARD,
             Variable.LOCKED, Variable.SEQUENCE_UP, Variable.CARD_VAL, Variable.NUM_THIS_VALUE,
             Variable.FOLLOW_ODDS, Variable.MATCHES_UP_CARD, Variable.RANDOM)
_VARIABLE_IDS = {v: i for i, v in enumerate(VARIABLES)}
#: The ids of the comparisons in C.
COMPARISONS = (operator.gt, operator.lt, operator.eq, operator.ne, operator.ge, operator.le)
_COMPARISON_IDS = {c: i for i, c in enumerate(COMPARISONS)}
#: Situations a table of programs covers: leading (0) and following 1..8 cards (`MAXK` in C).
NEEDS = 9
_ORDERS = (_NORMAL, _REVERSED)  # the view's orders


def program(personality: Personality, need: int) -> bytes:
    """The walk of `personality` for `need` as C reads it: int32s, the number of rules, then per rule
    kind, value, exact count, the early conditions (count, then variable, comparison, target each) and
    the late ones."""
    ints = []
    entries = plan(personality, need)
    ints.append(len(entries))
    for _, (kind, value, exact), _, early, late in entries:
        ints += [kind, value, exact]
        for conditions in (early, late):
            ints.append(len(conditions))
            for written, _, compare, target in conditions:
                ints += [_VARIABLE_IDS[written.variable], _COMPARISON_IDS[compare], int(target)]
    return array("i", ints).tobytes()


_PROGRAMS: dict[int, tuple[Personality, tuple[bytes, ...]]] = {}


def programs_of(personality: Personality) -> tuple[bytes, ...]:
    """`program` for every need, made once per personality (an edited one is a new object)."""
    entry = _PROGRAMS.get(id(personality))
    if entry is None or entry[0] is not personality:
        if len(_PROGRAMS) > 1024:  # bounded, as `personalities.compiled`'s cache
            _PROGRAMS.clear()
        entry = _PROGRAMS[id(personality)] = (personality, tuple(program(personality, n) for n in range(NEEDS)))
    return entry[1]


def compiled_player(agent: Any) -> bool:
    """Is `agent` a rule player this loop decides for (President's view, no fallback agent)?"""
    return type(agent) is RulePlayer and agent.view is president_view and agent.fallback is None


def _getrandbits(rng: random.Random):
    """The generator's `getrandbits` when `randint` draws through CPython's own `_randbelow` loop over it."""
    kind = type(rng)
    if kind.randint is not random.Random.randint or kind.randrange is not random.Random.randrange:
        return None
    return fastplay.bits_of(rng._randbelow)


@dataclass(frozen=True)
class CompiledSeats:
    """What the C loop needs of one table of rule players that does not change between rollouts: the rules
    of the table (`fastplay.rules_of`), the pack, each seat's programs, who is not asked when forced.

    Kept for the very objects it was made from (the settings, the agents, and the agents' personalities, which
    `RulePlayer.reload` may change), so a search's thousands of rollouts work it out once."""

    personalities: tuple[Personality, ...]
    rules: tuple
    pack: tuple[int, ...]
    deck_size: int
    programs: tuple[tuple[bytes, ...], ...]
    forced: tuple[bool, ...]
    forced_bits: int


#: (id(settings), id of each seat's agent) -> (those objects, their `CompiledSeats` or None where the C loop
#: does not apply). An entry holds the objects whose ids make its key, so no other object takes one of those ids.
_SEATS: dict[tuple[int, ...], tuple[tuple[Any, ...], CompiledSeats | None]] = {}
_SEATS_KEPT = 64  # a few tables and rollout agents per process; bounded as the other caches here


def compiled_seats(settings, agents: Sequence[Any]) -> CompiledSeats | None:
    """The table's `CompiledSeats`, or None where the C loop does not apply to these agents and settings."""
    key = (id(settings), *map(id, agents))
    entry = _SEATS.get(key)
    if entry is not None:
        seats = entry[1]
        if seats is None:
            return None
        for agent, personality in zip(agents, seats.personalities):
            if agent.personality is not personality:  # reloaded since: made anew below
                break
        else:
            return seats
    seats = _compile_seats(settings, agents)
    if len(_SEATS) >= _SEATS_KEPT:
        _SEATS.clear()
    _SEATS[key] = ((settings, *agents), seats)
    return seats


def _compile_seats(settings, agents: Sequence[Any]) -> CompiledSeats | None:
    rules = fastplay.rules_of(settings)
    if rules is None or not all(map(compiled_player, agents)):
        return None
    _, pack, deck_size, _, _ = _table(settings)  # (the view's, worked out once per table)
    forced = tuple(unasked_when_forced(agents))
    personalities = tuple(agent.personality for agent in agents)
    return CompiledSeats(personalities, rules, pack, deck_size, tuple(map(programs_of, personalities)), forced,
                         sum(1 << p for p, f in enumerate(forced) if f))


def playout(state, agents: Sequence[Any], rng: random.Random) -> int | None:
    """Play `state` to its end as `play_out(state, [a.choose for a in agents], rng, forced)` does, and
    return the moves made, as it counts them; or None, having done nothing, where the compiled loop
    does not apply."""
    c_module = fastplay.compiled_module()
    if c_module is None or len(agents) != state.num_players:
        return None
    seats = compiled_seats(state.settings, agents)
    bits = _getrandbits(rng)
    if seats is None or bits is None:
        return None
    rules, programs, forced_bits, forced = seats.rules, seats.programs, seats.forced_bits, seats.forced
    pack, deck_size = seats.pack, seats.deck_size
    play_round, PLAY, EXCHANGE, OVER = c_module.play_rules_round, Phase.PLAY, Phase.EXCHANGE, Phase.OVER
    moves = 0
    while state.phase is not OVER:
        if state.phase is PLAY:
            played, ended = play_round(state, rules, programs, forced_bits, state.prev_places, pack, deck_size,
                                  odds_of, bits, _ORDERS)
            moves += played
            if ended:
                state._end_round()
                continue
        if state.phase is EXCHANGE:  # `RulePlayer.choose` on the exchange view, without listing every gift
            giver, _, count = state.pending[0]
            apply_gift(state, give_of(gift_of(state.counts[giver], count)))
            moves += 1
            continue
        # a decision C leaves to Python: one move of `play_out`
        player = state.current_player()
        legal = state.legal_actions()
        if forced[player] and len(legal) == 1:
            state.apply_legal(legal[0])
        else:
            apply_chosen(state, legal, agents[player].choose(state.observation(player), legal, rng))
        moves += 1
    return moves
