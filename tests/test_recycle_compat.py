"""`--compat cardstock` (docs/recycle-language.md, "Reference-compatible mode"): each quirk of the reference
engine moves the statistic it should, and the default stays our reading."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from recycle.cli.main import build_parser, main
from recycle.cli.options import limits_of
from recycle.interp import new_game
from recycle.interp.compat import COMPAT_MODES, cardstock_game, is_cardstock
from recycle.kernel.protocol import RandomAgent, play_game
from recycle.lang import load_game

DATA = Path(__file__).resolve().parent / "data"


def test_ties_of_max_are_walked_with_coin_flips():
    game = load_game(DATA / "CompatTies1.gdl")
    rate = {mode: sum(new_game(game, seed, compat=mode).results().scores[0] for seed in range(2000)) / 2000
            for mode in (None, "cardstock")}
    # Three tied cards: uniform picks the last one a third of the time; the walk half of the time.
    assert rate[None] == pytest.approx(1 / 3, abs=0.04)
    assert rate["cardstock"] == pytest.approx(1 / 2, abs=0.04)


def test_identical_cards_are_one_option_each():
    game = load_game(DATA / "CompatOptions2.gdl")
    ours, theirs = new_game(game, 0), new_game(game, 0, compat="cardstock")
    assert sorted(a.text for a in ours.legal_actions()) == sorted({a.text for a in theirs.legal_actions()})
    assert (len(ours.legal_actions()), len(theirs.legal_actions())) == (2, 4)
    # Every physical card is a distinct action, and applying any of them plays on.
    for i, action in enumerate(theirs.legal_actions()):
        assert action.index == i
        copy = theirs.clone()
        copy.apply(action)
        assert copy.choices == 1


def test_the_choice_limit_is_one_later():
    game = load_game(DATA / "CompatLimit1.gdl")
    called = {}
    for mode in (None, "cardstock"):
        state = new_game(game, 0, compat=mode)
        play_game(state, [RandomAgent()], random.Random(0))
        called[mode] = (state.choices, state.called)
    assert called == {None: (500, True), "cardstock": (501, True)}


def test_location_names_are_literal():
    game = load_game(DATA / "CompatNames1.gdl")
    ours, theirs = new_game(game, 0), new_game(game, 0, compat="cardstock")
    assert sorted(k[3] for k in ours.st.locs) == ["A", "B", "STOCK"]
    assert sorted(k[3] for k in theirs.st.locs) == ["L", "STOCK"]
    assert (ours.results().scores, theirs.results().scores) == ((1.0,), (0.0,))


def test_the_default_is_untouched_and_the_copy_is_reused():
    game = load_game(DATA / "CompatNames1.gdl")
    copy = cardstock_game(game)
    assert is_cardstock(copy) and not is_cardstock(game)
    assert cardstock_game(game) is copy and cardstock_game(copy) is copy
    with pytest.raises(ValueError, match="the modes are cardstock"):
        new_game(game, 0, compat="cardstock-ish")


@pytest.mark.parametrize("command", [["run", "GAME"], ["corpus", "DIR"]])
def test_commands_take_compat(command):
    args = build_parser().parse_args(command + ["--compat", "cardstock"])
    assert limits_of(args)["compat"] == "cardstock" and COMPAT_MODES == ("cardstock",)
    assert limits_of(build_parser().parse_args(command))["compat"] is None


def test_run_with_compat_moves_the_mean_score(tmp_path):
    path = str(DATA / "CompatTies1.gdl")
    means = {}
    for mode in ([], ["--compat", "cardstock"]):
        out = tmp_path / f"r{len(mode)}.json"
        assert main(["run", path, "--games", "600", "--seed", "3", "--json", str(out), *mode]) == 0
        means[len(mode)] = json.loads(out.read_text())["seats"][0]["mean_score"]
    assert means[0] == pytest.approx(1 / 3, abs=0.06) and means[2] == pytest.approx(1 / 2, abs=0.06)


def test_a_compat_transcript_replays(tmp_path, capsys):
    folder = tmp_path / "t"
    assert main(["run", str(DATA / "CompatOptions2.gdl"), "--games", "2", "--seed", "5", "--compat", "cardstock",
                 "--transcript", str(folder)]) == 0
    files = sorted(folder.glob("*.jsonl"))
    header = json.loads(files[0].read_text().splitlines()[0])
    assert (header["compat"], header["max_choices"]) == ("cardstock", 500)
    capsys.readouterr()
    assert main(["replay", *map(str, files)]) == 0
    assert capsys.readouterr().out.count("reproduced") == 2
