"""The RECYCLE interpreter: any game of the language behind the game protocol.

    from recycle.interp import new_game
    state = new_game("my-game.gdl", seed=1)   # a recycle.kernel.protocol.GameState

Layers: `store` (the table of cards, and the store: locations, storage, cycles, generator; cheap clone),
`evaluate` + `cardsets` (expressions; `fast` compiles the common ones into
closures, `codegen` into Python source), `effects` (every change as an
undoable object), `undo` (the same changes as the plain tuples compiled
actions record, undo and apply; option texts), `actions` (the executor and
the options of a choice; its actions and the exploration of options compiled
to Python source by `runners` and `explorers`), `flow` (stages and choices as
a resumable machine), `knowledge` (what players saw go into hidden places;
determinization), `game` (`RecycleState`; `observation`), `setup` (`new_game`),
`transcript` (JSON Lines transcripts and replay), `invariants` (card conservation, checked
in debug mode). Errors of a game are `errors.RecycleRuntimeError` (a `GameError`) located
at a line of the game file; a failure of the interpreter itself is an `errors.InternalError`.
"""
from recycle.interp.errors import InternalError, LimitError, NoOptionsError, RecycleRuntimeError
from recycle.interp.game import MAX_CHOICES, RecycleAction, RecycleObservation, RecycleState
from recycle.interp.setup import new_game
from recycle.interp.invariants import CardConservationError, check_cards

__all__ = ["new_game", "RecycleState", "RecycleAction", "RecycleObservation", "RecycleRuntimeError",
           "NoOptionsError", "LimitError", "InternalError", "CardConservationError", "check_cards", "MAX_CHOICES"]
