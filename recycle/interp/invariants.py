"""Card conservation: the invariant every RECYCLE position keeps, checked in debug mode.

Every card the setup made is in exactly one real location (vloc, iloc, hloc,
oloc), and `Store.where` says which; `mem` locations hold copies only (of
cards that exist). No action, undo or determinization may lose, duplicate or
misplace a card. `check_cards` verifies it for one position; `new_game(...,
check=True)` (or the environment variable `RECYCLE_CHECK=1`) verifies it after
the setup, after every choice applied and for every determinization, so a
broken invariant is caught at the step that broke it. Off by default: it costs
a walk over every card.
"""
from __future__ import annotations

import os

from recycle.interp.errors import InternalError
from recycle.interp.store import loc_text

#: `RECYCLE_CHECK=1` in the environment turns the check on for every game made.
ENV_FLAG = "RECYCLE_CHECK"


def checking_by_default() -> bool:
    return os.environ.get(ENV_FLAG, "") not in ("", "0")


class CardConservationError(InternalError):
    """A card was lost, duplicated or misplaced: always a defect of the interpreter."""


def card_problems(table, st) -> list[str]:
    """What is wrong with the cards of store `st` (empty when the invariant holds)."""
    made = len(table.attrs)
    problems: list[str] = []
    if len(st.where) != made:
        problems.append(f"{made} cards made but {len(st.where)} have a place")
    count = [0] * made
    for key, cards in st.locs.items():
        copies = key[2] == "mem"
        for c in cards:
            if type(c) is not int or not 0 <= c < made:
                problems.append(f"{loc_text(key)} holds {c!r}, which is no card")
            elif copies:
                continue
            else:
                count[c] += 1
                if c < len(st.where) and st.where[c] != key:
                    where = "no location" if st.where[c] is None else loc_text(st.where[c])
                    problems.append(f"{table.text[c]} is in {loc_text(key)} but its index says {where}")
    for c, k in enumerate(count):
        if k != 1:
            problems.append(f"{table.text[c]} is in {k} real locations" if k else f"{table.text[c]} was lost")
        if len(problems) > 20:
            break
    return problems


def check_cards(state, when: str) -> None:
    """Raise `CardConservationError` (naming `when`: after which step) if the invariant is broken."""
    problems = card_problems(state.table, state.st)
    if problems:
        table = state.table
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise CardConservationError(f"card conservation broken {when}: {shown}", table.filename)
