"""Plain-language verdicts follow from the interval: never a verdict the interval does not support."""
from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from recycle.analysis.stats import Interval
from recycle.analysis.verdicts import MAX_GAMES, Band, verdict

FAIRNESS = (Band(-math.inf, 0.85, "seat 0 wins noticeably more or less often"), Band(0.85, math.inf, "seat 0 is fair"))
THREE = (Band(-math.inf, 0.0, "worse"), Band(0.0, 0.5, "a little better"), Band(0.5, math.inf, "much better"))


def test_the_issues_contradictions_are_gone():
    # "Fairness 0.33: seat 0 wins noticeably more or less often" with [0.000, 0.833]: the interval is all below
    assert verdict(Interval(0.33, 0.0, 0.833), FAIRNESS, 30).sentence() == "seat 0 wins noticeably more or less often."
    # "Fairness 1.00: close to its fair share" with [0.333, 1.000]: the interval spans both verdicts
    v = verdict(Interval(1.0, 0.333, 1.0), FAIRNESS, 30)
    assert not v.settled and v.sentence().startswith("cannot tell yet whether seat 0 wins noticeably")
    assert f"about {v.more_games} more games per set would tell" in v.sentence() and v.more_games > 0


def test_a_figure_without_an_interval_says_so():
    v = verdict(Interval.none(0.9), FAIRNESS, 30)
    assert v.settled and "no interval" in v.sentence()


unit = st.floats(-0.5, 1.5, allow_nan=False)


@given(a=unit, b=unit, c=unit, games=st.integers(2, 500), bands=st.sampled_from([FAIRNESS, THREE]))
def test_verdicts_follow_from_many_synthetic_intervals(a, b, c, games, bands):
    low, value, high = sorted((a, b, c))
    iv = Interval(value, low, high)
    v = verdict(iv, bands, games)
    inside = [band for band in bands if not (high < band.low or low >= band.high)]  # bands the interval reaches
    assert list(v.bands) == inside
    if v.settled:  # a verdict: the whole interval in one band
        assert v.bands[0].low <= low and (high < v.bands[0].high or v.bands[0] is bands[-1])
        assert v.sentence() == v.bands[0].text + "."
        return
    assert v.sentence().startswith("cannot tell yet")
    if v.more_games is None:  # only when the value sits on (a hair from) a boundary between bands
        gap = min(abs(value - band.low) for band in bands[1:])
        assert gap * math.sqrt(MAX_GAMES / games) <= max(value - low, high - value) * (1 + 1e-9)
        return
    # the same interval narrowed as 1/sqrt(games) to games + more_games lies in the value's band ...
    total = games + v.more_games
    shrink = math.sqrt(games / total)
    band = next(bd for bd in bands if bd.low <= value < bd.high)
    new_low, new_high = value - (value - low) * shrink, value + (high - value) * shrink
    assert band.low <= new_low + 1e-9 and (new_high < band.high + 1e-9)
    # ... and one game fewer would not be enough (up to rounding)
    shrink_less = math.sqrt(games / (total - 1))
    assert (value - (value - low) * shrink_less < band.low + 1e-6 or value + (high - value) * shrink_less
            > band.high - 1e-6 or total - 1 <= games)
