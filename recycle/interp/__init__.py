"""The RECYCLE interpreter: any game of the language behind the game protocol.

    from recycle.interp import new_game
    state = new_game("Hearts4.rcy", seed=1)   # a recycle.kernel.protocol.GameState

Layers: `state` (cards, locations, storage, cycles, generator; cheap clone),
`evaluate` + `cardsets` (expressions; `fast` compiles the common ones into
closures, `codegen` into Python source), `effects` (every change as an
undoable object), `journal` (the same changes as the plain tuples compiled
actions record, undo and apply; option texts), `actions` (the executor and
the options of a choice; its actions and the exploration of options compiled
to Python source by `runners` and `explorers`), `flow` (stages and choices as
a resumable machine), `knowledge` (what players saw go into hidden places;
determinization), `game` (`RecycleState`, `new_game`; `observation`),
`transcript` (JSON Lines transcripts and replay). Errors are `errors.RecycleRuntimeError` (a
`GameError`) located at a line of the game file.
"""
from recycle.interp.errors import LimitError, NoOptionsError, RecycleRuntimeError
from recycle.interp.game import MAX_CHOICES, RecycleAction, RecycleObservation, RecycleState, new_game

__all__ = ["new_game", "RecycleState", "RecycleAction", "RecycleObservation", "RecycleRuntimeError",
           "NoOptionsError", "LimitError", "MAX_CHOICES"]
