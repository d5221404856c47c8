"""`recycle games` (the shipped games, described by their own header comments), unknown game
names, and the climbing metadata suggested for a game that lacks it."""
from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.climbing.metadata import ClimbingMetaError, read_meta, suggest
from recycle.games import game_path, shipped_games
from recycle.cli.arguments import UsageError
from recycle.lang import load_game, parse_game

GAMES_DIR = Path(str(resources.files("recycle.games")))  # where the installed package keeps them


def test_every_shipped_game_is_listed_with_its_header_title(capsys):
    files = sorted(GAMES_DIR.glob("*.gdl"))
    games = {g.name: g for g in shipped_games()}
    assert set(games) == {f.stem for f in files} and len(files) >= 4
    for f in files:
        first = f.read_text(encoding="utf-8").splitlines()[0]
        assert games[f.stem].title == first.lstrip(";").strip()
        assert games[f.stem].climbing == bool(re.search(r"^;; climbing:", f.read_text(), re.MULTILINE))
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for g in games.values():
        assert g.name in out and g.title[:30] in out
    assert games["President5"].players == "5" and games["President5"].climbing


def test_an_unknown_game_name_lists_the_shipped_ones(capsys):
    assert game_path("president5") == str(GAMES_DIR / "President5.gdl")
    names = ", ".join(g.name for g in shipped_games())
    with pytest.raises(UsageError, match=f"the shipped games are {names} "):
        game_path("Presidnt5")
    assert main(["run", "Presidnt5", "--games", "1"]) == 2
    assert "'Presidnt5' is neither a file nor a shipped game" in capsys.readouterr().err


@pytest.mark.parametrize("name", [g.name for g in shipped_games() if g.climbing])
def test_the_suggested_metadata_is_the_declared_one(name, tmp_path):
    text = (GAMES_DIR / f"{name}.gdl").read_text(encoding="utf-8")
    declared = dict(re.findall(r"(\w+)=(\w+)", re.search(r"^;; climbing:(.*)$", text, re.MULTILINE).group(1)))
    bare = tmp_path / f"{name}.gdl"
    bare.write_text(re.sub(r"^;; climbing:.*$", ";;", text, flags=re.MULTILINE), encoding="utf-8")
    game = load_game(bare)
    want = " ".join(f"{k}={declared[k]}" for k in ("hand", "table", "order"))
    assert suggest(game) == want
    with pytest.raises(ClimbingMetaError) as caught:
        read_meta(game)
    assert f'probably --climbing "{want}"' in caught.value.render()
    assert caught.value.render().startswith(f"{bare}:1:1: error: this game has no climbing metadata")


def test_no_suggestion_without_a_point_map():
    game = parse_game("""(game (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, B)))))
      (do ((all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))
      (scoring max 0))""", "NoMaps2.gdl")
    assert suggest(game) == ""
