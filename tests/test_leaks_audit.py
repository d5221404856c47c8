"""Issue 33 part 4: the leak audit over every shipped game and agent (and the corpus when present).

Pairs of states a seat cannot tell apart, differing in hidden information, must give every
non-cheating agent the same decision and explanation, and the seat the same options and text;
the cheating `mcts` is the control that must differ somewhere (else the audit could be blind).
"""
from __future__ import annotations

import json
import random

import pytest
from conftest import SHARED
from test_recycle_interp_corpus import KNOWN_DEFECTS

from recycle.audit import Pair, SeatLeak, AuditSubject, assert_same_for_seat, audit, compare_game, first_difference
from recycle.cli.main import main as recycle_main
from recycle.cli.commands.audit import CHEAP_SPECS, default_specs, president_subject, subject_of, verdict
from recycle.games import shipped_games
from recycle.kernel.protocol import RandomAgent
from recycle.players import AGENT_FACTORIES

CORPUS = SHARED / "recycle-corpus"
#: (GAME argument, --native)
SHIPPED = [(g.name, False) for g in shipped_games()] + [("President5", True), ("TidesOfTime2", True)]
CONTROL = CHEAP_SPECS["mcts"]


def test_every_agent_of_the_table_is_audited():
    assert set(CHEAP_SPECS) == set(AGENT_FACTORIES)
    assert CONTROL in default_specs("Poker5", False) and "Classic" in default_specs("President5", True)


def check(report) -> None:
    assert report.pairs >= 1, "no pair found: the audit compared nothing"
    assert not report.leaks, "\n".join(report.summary())


@pytest.mark.parametrize("game, native", SHIPPED, ids=[f"{g}{'-native' if n else ''}" for g, n in SHIPPED])
def test_no_agent_sees_hidden_information_in_a_shipped_game(game, native):
    subject, climbing = subject_of(game, native)
    report = audit(subject, default_specs(game, climbing, native), pairs=2, seed=0)
    check(report)
    assert report.control_differed(CONTROL), "the cheating control never differed: the audit may be blind"


@pytest.mark.slow
@pytest.mark.parametrize("game, native", SHIPPED, ids=[f"{g}{'-native' if n else ''}" for g, n in SHIPPED])
def test_no_agent_sees_hidden_information_bigger_run(game, native):
    subject, climbing = subject_of(game, native)
    check(audit(subject, default_specs(game, climbing, native), pairs=8, seed=1))


def corpus_files() -> list[str]:
    if not CORPUS.is_dir():
        return []
    return sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.glob("*/*")
                  if p.suffix in (".gdl", ".rcy") and p.relative_to(CORPUS).as_posix() not in KNOWN_DEFECTS)


def corpus_check(name: str, pairs: int) -> None:
    subject, _ = subject_of(str(CORPUS / name), False)
    report = audit(subject, [s for k, s in CHEAP_SPECS.items() if not k.startswith("tides")], pairs=pairs, seed=0)
    if report.pairs:
        check(report)


@pytest.mark.parametrize("name", corpus_files()[:6] or ["<corpus missing>"])
def test_no_agent_sees_hidden_information_in_corpus_games(shared_dir, name):
    corpus_check(name, 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", corpus_files() or ["<corpus missing>"])
def test_no_agent_sees_hidden_information_in_the_whole_corpus(shared_dir, name):
    corpus_check(name, 2)


# ---- the audit sees a leak ----------------------------------------------------------------------
class Peeker(RandomAgent):
    """Not labelled as cheating, yet it reads the true state: the audit must catch it."""

    name = "peeker"

    def choose(self, observation, legal_actions, rng):
        hidden = hash(repr(observation.true_state().masks)) if hasattr(observation, "true_state") else 0
        return legal_actions[hidden % len(legal_actions)]


class BeliefPeeker(RandomAgent):
    """Decides honestly (at random) but reports the true hands as its belief: the audit must catch it."""

    name = "belief-peeker"

    def explain(self, observation, legal_actions, rng):
        from recycle.kernel.beliefs import BeliefTally
        from recycle.kernel.protocol import Decision

        decision = super().explain(observation, legal_actions, rng)
        truth = BeliefTally(observation.player)
        truth.add(observation.true_state())
        return Decision(decision.action, decision.trace, truth.belief("peeked"))


PEEKERS = {"peeker": Peeker, "belief-peeker": BeliefPeeker}


def peeking_subject() -> AuditSubject:
    base = president_subject()
    return AuditSubject("peeking", base.new_state,
                   lambda spec: PEEKERS[spec]() if spec in PEEKERS else base.make_agent(spec),
                   base.whole, base.seat_text)


def test_a_belief_reading_hidden_cards_is_caught_and_honest_beliefs_pass():
    """Beliefs are compared like decisions: the true hands reported as a belief differ between states the
    seat cannot tell apart; the beliefs of Classic and of the inferring search do not."""
    search = "ismcts:iterations=30,rollout=Classic,model=on,infer=0.05,pool=10"
    report = audit(peeking_subject(), ["belief-peeker", "Classic", search], pairs=3, seed=0)
    assert report.leaks and {(d.agent, d.what) for d in report.leaks} == {("belief-peeker", "belief")}


def test_an_agent_reading_hidden_cards_is_caught():
    report = audit(peeking_subject(), ["peeker", "Classic"], pairs=4, seed=0)
    assert report.leaks and {d.agent for d in report.leaks} == {"peeker"}
    assert "decision differs" in str(report.leaks[0]) and "line 1, column" in str(report.leaks[0])
    assert verdict(report)


def test_the_gift_leak_of_the_reproducer_is_caught(monkeypatch):
    """With other pairs' gifts in the history again (the bug of gift_history_leak.py), the seat's text differs."""
    from test_leaks_gifts import after_exchange

    import president.game.observation as observation

    subject = president_subject()
    state = after_exchange(1)
    neutral = state.prev_places.index(3)
    other = state.observation(neutral).sample_state(random.Random(3))
    pair = Pair(0, neutral, state, other)
    assert compare_game(subject, pair) == []
    monkeypatch.setattr(observation, "history_as_seen", lambda items, gifts, seat: tuple(items))
    diffs = compare_game(subject, pair)
    assert [d.what for d in diffs] == ["seat text"] and "history" in str(diffs[0])


def test_assert_same_for_seat_names_the_first_difference():
    assert_same_for_seat("hand 3 4\ntable 5", "hand 3 4\ntable 5")
    with pytest.raises(SeatLeak, match=r"line 2, column 7") as caught:
        assert_same_for_seat("hand 3 4\ntable 5", "hand 3 4\ntable 6", "the debug screen")
    assert "the debug screen differs" in str(caught.value)
    assert "^" in first_difference("a", "b")


def test_the_command_prints_the_counts_and_writes_json(tmp_path, capsys):
    out = tmp_path / "audit.json"
    code = recycle_main(["audit", "Poker5", "--agents", f"random,{CONTROL}",
                         "--pairs", "2", "--seed", "0", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "Poker5.gdl: 2 pairs, 2 agents" in printed and "0 difference(s) found" in printed
    data = json.loads(out.read_text())
    assert data["pairs"] == 2 and data["controls"] == [CONTROL] and all(d["agent"] == CONTROL for d in data["differences"])


def test_the_command_refuses_bad_input_in_one_line(capsys):
    assert recycle_main(["audit", "Poker5", "--native"]) == 2
    assert "only President5 and TidesOfTime2" in capsys.readouterr().err
    assert recycle_main(["audit", "Poker5", "--agents", "nosuchbot"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_a_game_hiding_nothing_gives_no_pair_and_passes(shared_dir, capsys):
    game = str(CORPUS / "testing" / "Test-Disjunct.gdl")
    assert recycle_main(["audit", game, "--agents", f"random,{CONTROL}", "--pairs", "1", "--seed", "0"]) == 0
    assert "0 pairs" in capsys.readouterr().out
