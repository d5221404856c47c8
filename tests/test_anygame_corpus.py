"""Every shipped game and every third corpus game (by file name, so each family of the corpus is
there) played to the end on the `recycle play` screen, with random choices for the person (a seeded
rng) and random bots: no game file may crash the screen. (Every corpus game is read and played
without the screen by the corpus and leak-audit tests; a third keeps this one within the suite's time.)

A file the reader rejects is refused by the command with its located error (exit 3); a game
that fails while playing ends on the error dialog naming its line. Games whose random play
needs more than 500 choices are left out (their rules, not the screen, make them long).
"""
from __future__ import annotations

import asyncio
import random
from importlib import resources

import pytest
from conftest import SHARED

from recycle.cli.main import main
from recycle.interp import new_game
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.protocol import GameError, RandomAgent, play_game
from recycle.lang import load_game
from tui.anygame.app import ErrorScreen, GameOverScreen, PlayApp
from tui.anygame.pilot import play_to_end
from tui.anygame.session import play_options
from tui.president.pilot import screen_text

CORPUS = SHARED / "recycle-corpus"
FILES = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.glob("*/*")
               if p.suffix in (".rcy", ".gdl"))[::3] if CORPUS.is_dir() else []
SHIPPED = sorted(e.name for e in resources.files("recycle.games").iterdir() if e.name.endswith(".gdl"))
MAX_CHOICES = 500
SEED = 11


def long_game(game) -> bool:
    """Does a random game of these rules (this seed) take more than MAX_CHOICES choices?"""
    state = new_game(game, SEED)
    try:
        play_game(state, [RandomAgent()] * state.num_players, random.Random(SEED))
    except GameError:
        return False  # it fails while playing: the screen must show that
    return state.called or state.choices > MAX_CHOICES


def play_on_screen(path, capsys) -> None:
    try:
        game = load_game(path)
    except DiagnosticError:  # the command refuses it with the located error, before any screen
        assert main(["play", str(path)]) == 3
        err = capsys.readouterr().err
        assert f"{path.name}:" in err and "^" in err and "Traceback" not in err
        return
    if long_game(game):
        pytest.skip(f"random play needs more than {MAX_CHOICES} choices")
    app = PlayApp(play_options(game, "you,random", None, SEED))

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_end(pilot, random.Random(SEED), by_keys=1)
            assert isinstance(app.screen, (GameOverScreen, ErrorScreen))
            session = app.session
            if isinstance(app.screen, ErrorScreen):
                assert session.error and f"{path.name}:" in screen_text(app)
            else:
                assert session.state.is_terminal() and len(session.standings()) == session.num_players
                assert "game over" in screen_text(app)

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_corpus_game_plays_to_the_end_on_screen(shared_dir, name, capsys):
    play_on_screen(shared_dir / "recycle-corpus" / name, capsys)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_game_plays_to_the_end_on_screen(name, capsys):
    play_on_screen(resources.files("recycle.games") / name, capsys)
