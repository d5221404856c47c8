"""Difficulty levels: `president play --level`, the levels' bots, and the new-match dialog's list."""
from __future__ import annotations

import pytest

from president.agents.bots import make_bot
from president.cli import main
from president.cli.commands import play
from president.agents.levels import LEVELS, SEARCH, level
from president.game.settings import preset


@pytest.mark.parametrize("name", list(LEVELS))
def test_every_level_names_bots_that_exist(name):
    chosen = level(name.upper())
    assert chosen.name == name and chosen.opponents
    for spec in chosen.opponents:
        make_bot(spec)  # raises on a name or parameter that does not exist


def test_levels_below_master_are_rule_personalities_and_the_search_player_answers_in_time():
    assert LEVELS["normal"].opponents == ("Classic", "Cautious", "Aggressive", "Gambler")  # the default table
    assert LEVELS["expert"].opponents == ("Expert",)
    assert LEVELS["master"].opponents == (SEARCH, "Expert")
    assert all(":" not in spec for name, lv in LEVELS.items() if name != "master" for spec in lv.opponents)
    search = make_bot(SEARCH)
    assert search.budget.kind == "iterations" and 0 < search.budget.cap <= 3  # a person never waits long


def test_unknown_level_is_a_clear_error():
    with pytest.raises(ValueError, match="easy, normal, hard, expert, master"):
        level("impossible")


@pytest.fixture
def started(monkeypatch, tmp_path):
    """Run `president play` up to starting the app; returns the options it would start with."""
    seen = []

    class App:
        def __init__(self, options):
            seen.append(options)

        def run(self):
            pass

    import tui.president.app

    monkeypatch.setattr(play, "has_terminal", lambda: True)
    monkeypatch.setattr(tui.president.app, "PresidentApp", App)

    def start(*argv):
        code = main(["play", "--rules-dir", str(tmp_path), "--seed", "1", *argv])
        return code, seen[-1] if seen else None
    return start


@pytest.mark.parametrize("name", list(LEVELS))
def test_play_level_seats_the_levels_bots(started, name):
    code, options = started("--level", name)
    assert code == 0
    specs = options.seat_specs()
    assert len(specs) == preset("classic").players - 1
    assert set(specs) == set(LEVELS[name].opponents)


def test_play_level_and_opponents_together_are_refused(started, capsys):
    code, options = started("--level", "hard", "--opponents", "Classic")
    assert code == 2 and options is None
    assert "--level or --opponents" in capsys.readouterr().err


def test_play_rejects_an_unknown_level(started, capsys):
    with pytest.raises(SystemExit) as exit_:
        started("--level", "godlike")
    assert exit_.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_new_match_dialog_offers_every_level_bot_and_the_search_player():
    from tui.president.options import opponent_choices

    specs = [spec for _, spec in opponent_choices(())]
    assert SEARCH in specs and all(s in specs for lv in LEVELS.values() for s in lv.opponents)
    assert len(specs) == len(set(specs))  # every choice once
