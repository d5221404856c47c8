"""The native twin of a shipped game (`--native` of `recycle run` and `recycle trace`, `recycle crosscheck-tides`):
Tides of Time's own implementation, played with the same seeds and seats as its RECYCLE file."""
from __future__ import annotations

from recycle.kernel.errors import UsageError
from recycle.kernel.protocol import Agent


#: The shipped game whose native twin `--native` plays.
NATIVE_GAMES = ("tidesoftime2",)


def check_native(game: str) -> None:
    """`--native` plays only games with a native implementation."""
    if game.lower().removesuffix(".gdl").rsplit("/", 1)[-1] not in NATIVE_GAMES:
        raise UsageError(f"--native: {game!r} has no native implementation; only TidesOfTime2 has one")


def native_state(seed: int):
    """The native Tides of Time round dealt from `seed`."""
    from recycle.games.tides.state import TidesState

    return TidesState.new(seed)


def native_agents(specs: list[str]) -> tuple[list[Agent], list[str]]:
    """Two fresh agents for the native round; a rule personality gets a clear error."""
    from recycle.games.tides.tides_game import TidesGame
    from recycle.players import make_bots

    return make_bots(TidesGame(), specs or ["random"])
