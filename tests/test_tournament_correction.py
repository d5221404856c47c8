"""`--correction duplicate`: intervals and the SPRT on the deals' own spread; alpha-rank in the CLI's JSON."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from president.cli.main import main
from recycle.tournament import SPRT, ClusterSum, GameRecord, SprtPair, Tally
from recycle.tournament.stats import DUPLICATE_MIN_DEALS


def _deals(values: list[list[float]]) -> ClusterSum:
    acc = ClusterSum()
    for deal in values:
        acc.add(sum(deal), len(deal), sum(v * v for v in deal))
    return acc


def test_duplicate_variance_is_the_deals_own_once_there_are_enough():
    # every deal the same total, the rounds inside it far apart: the cards' luck cancelled within each deal
    acc = _deals([[0, 4, 2, 1, 3]] * 25)
    assert acc.variance(duplicate=True) == pytest.approx(0.0)
    assert acc.variance() == pytest.approx(250 / 124 / 125)  # the plain one keeps the floor: s^2 / n, rounds
    few = _deals([[0, 4, 2, 1, 3]] * (DUPLICATE_MIN_DEALS - 1))
    assert few.variance(duplicate=True) == few.variance()  # too few deals to trust their spread
    lo, hi = acc.mean_ci(duplicate=True)
    assert lo == pytest.approx(2.0) and hi == pytest.approx(2.0)
    assert acc.mean_ci()[0] < 2.0 < acc.mean_ci()[1]


def test_duplicate_variance_never_hides_a_spread_between_deals():
    acc = _deals([[0, 0, 0, 0, 0], [4, 4, 4, 4, 4]] * 15)
    assert acc.variance(duplicate=True) == pytest.approx(acc.variance())
    assert acc.variance(duplicate=True) > 4 * 4 / (acc.m - 1) / 4  # far above the independent-rounds figure


def test_normal_llr_agrees_with_the_bernoulli_one_for_independent_rounds():
    test = SPRT(0.45, 0.55)
    test.add(560, 1000)
    share = 0.56
    assert test.normal_llr(share, share * (1 - share) / 1000) == pytest.approx(test.llr, rel=0.05)
    assert test.decide(test.upper + 1) == "H1" and test.decide(test.lower - 1) == "H0" and test.decide(0.0) is None


#: Bot 0's result against bot 1 in each round of the two rotations of every deal: 1 above, 0.5 tied, 0 below.
#: 10.5 of 20: 52.5% in every deal, no spread between deals.
ROTATIONS = ([1] * 6 + [0] * 4, [1] * 4 + [0.5] + [0] * 5)


def _pair_records(deals: int) -> list[GameRecord]:
    """Two bots at two seats, every deal the same results (`ROTATIONS`), seats swapped in the second rotation."""
    place = {1: (1, 2), 0.5: (1, 1), 0: (2, 1)}  # (bot 0's place, bot 1's place)
    out = []
    for d in range(deals):
        for rot, results in enumerate(ROTATIONS):
            seats = (0, 1) if rot == 0 else (1, 0)
            places = tuple(place[w] if rot == 0 else place[w][::-1] for w in results)
            out.append(GameRecord(2 * d + rot, d, rot, seats, places, tuple((2 - a, 2 - b) for a, b in places)))
    return out


@pytest.mark.parametrize("duplicate", [False, True])
def test_the_duplicate_sprt_stops_sooner_when_deals_agree(duplicate):
    """52.5% in every deal against H0 49%, H1 51%: the rounds' test needs ~70 deals of evidence, the
    duplicate one sees no spread between deals and decides at its first chance."""
    tally = Tally(["a", "b"], 2, SprtPair(0, 1, SPRT(0.49, 0.51), duplicate=duplicate), rating=False)
    for record in _pair_records(400):
        if tally.decided:
            break
        tally.add(record)
    tally.finish()
    sprt = tally.summary()["sprt"]
    assert sprt["decision"] == "H1"
    deals = sprt["decided_after_games"] // 2
    assert deals == DUPLICATE_MIN_DEALS if duplicate else deals > 3 * DUPLICATE_MIN_DEALS
    assert sprt["stopped_by"] == ("duplicate" if duplicate else "rounds")
    assert set(sprt["rounds_test"]) == set(sprt["duplicate_test"]) - {"deals"} == {"llr", "decision"}


def test_cli_tournament_of_tag_agents_writes_alpha_rank_and_both_intervals(tmp_path: Path, capsys):
    out = tmp_path / "t.json"
    code = main(["tournament", "osla:samples=1", "rhea:iterations=2,length=3", "Classic", "random", "random",
                 "--matches", "1", "--rounds", "1", "--seed", "2", "-j1", "--correction", "duplicate",
                 "--out", str(tmp_path / "t.jsonl"), "--json", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    mass = data["alpha_rank"]["mass"]
    assert set(mass) == {"osla:samples=1", "rhea:iterations=2,length=3", "Classic", "random", "random#2"}
    assert math.isclose(sum(mass.values()), 1.0, abs_tol=1e-6)
    assert data["config"]["correction"] == "duplicate"
    for bot in data["bots"]:
        assert bot["mean_points_duplicate"]["value"] == bot["mean_points"]["value"]  # same mean, other interval
    shown = capsys.readouterr().out
    assert "α-rank" in shown and "duplicate deals as control variate" in shown
    # resuming keeps the stored correction; a plain tournament's file has none to keep
    assert main(["tournament", "--resume", str(tmp_path / "t.jsonl")]) == 0


def test_heavy_tailed_deal_totals_widen_the_duplicate_interval():
    """Most deals level and a few far off (as between near-equal bots): the deals' variance is worth fewer
    degrees of freedom, so the duplicate interval widens; deal totals without tails keep k - 1."""
    spiky = _deals([[2.0] * 5] * 34 + [[0.0] * 5, [4.0] * 5] * 3)
    assert spiky.kurtosis() > 3 and spiky.duplicate_df() < spiky.k - 1
    assert spiky.variance(duplicate=True) > spiky.k / (spiky.k - 1) * sum(
        (t - 2.0) ** 2 for t in [0.0, 4.0] * 3) / spiky.k / spiky.k  # more than the deals' plain variance
    even = _deals([[1.0] * 5, [3.0] * 5] * 20)  # two values, equally often: no tails (excess kurtosis -2)
    assert even.duplicate_df() == even.k - 1
