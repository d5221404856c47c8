"""Issue 33 part 7: specs are bounded. A search player cannot be the rollout of another search
(`../shared/repro/nested_rollout_slow.sh` ran for minutes on a tiny job), and a parameter given
twice is refused instead of silently keeping the last."""
from __future__ import annotations

import time

import pytest

from recycle.cli import main as recycle_main
from recycle.kernel.specs import AgentSpecError, parse_spec
from recycle.players import SEARCH_PLAYER_NAMES, make_agent


def test_the_reproducer_is_refused_at_once_in_one_line(capsys):
    spec = "ismcts:iterations=2,rollout=ismcts:iterations=2,rollout=ismcts"
    start = time.perf_counter()
    code = recycle_main(["trace", "Poker5", "random", "--opponents", spec, "--seed", "1"])
    elapsed = time.perf_counter() - start
    err = capsys.readouterr().err.strip()
    assert code == 2 and elapsed < 30  # a usage error, found before any play
    assert err.count("\n") == 0 and "rollout is given twice" in err and "Traceback" not in err


@pytest.mark.parametrize("outer", SEARCH_PLAYER_NAMES)
@pytest.mark.parametrize("inner", SEARCH_PLAYER_NAMES)
def test_no_search_player_plays_inside_another(outer, inner):
    # refused either way: as a search inside a search, or by a player that takes no rollout at all
    refused = rf"{outer}: rollout={inner}:iterations=2: a search player \({inner}\)|{outer} does not take rollout"
    with pytest.raises(AgentSpecError, match=refused):
        make_agent(f"{outer}:rollout={inner}:iterations=2")


def test_cheap_rollouts_are_still_accepted():
    for rollout in ("random", "greedy", "Classic"):
        make_agent(f"ismcts:iterations=2,rollout={rollout}", fallback=_classic)


def _classic(spec):
    from president.agents.bots import personality_agent  # a shipped personality, as President resolves it

    return personality_agent(spec)


def test_a_parameter_given_twice_is_refused():
    with pytest.raises(AgentSpecError, match="iterations is given twice"):
        parse_spec("ismcts:iterations=2,ITERATIONS=3")
