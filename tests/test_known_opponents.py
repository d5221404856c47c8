"""Known opponents: a search told the table's names weighs each rule personality's plays by its own rules.

The names are public at a table, so this reads nothing hidden; a world in
which a known opponent's own rules would not have made its plays is (nearly)
impossible, the true world never is, and a wrong guess of an opponent only
lowers weights (the generic model keeps a share).
"""
from __future__ import annotations

import random

import pytest

from president.agents.beliefs import seat_belief
from president.agents.bots import make_bot
from president.agents.opponents import make_bots
from president.agents.opponents import known_policies
from president.game.settings import Settings
from president.game.state import PresidentState
from recycle.kernel.protocol import decide
from recycle.kernel.specs import AgentSpecError
from recycle.search.rollouts import AgentModel
from recycle.search.inference import Known

TABLE = ("Classic", "Expert", "Cautious", "Gambler", "Expert")
RULED = ("Classic", "Expert", "Cautious", "Aggressive", "Expert")  # no coins flipped: functions of the hand
MASTER = "ismcts:iterations=40,rollout=Classic,model=on,infer=0.05,pool=20"


def mid_round(seed: int, steps: int = 25, table: tuple[str, ...] = TABLE) -> PresidentState:
    """A round of `table`, `steps` decisions in."""
    state = PresidentState.new_match(Settings(), seed)
    bots, rng = [make_bot(name) for name in table], random.Random(seed)
    for _ in range(steps):
        p = state.current_player()
        state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))
    return state


def test_only_rule_personalities_other_than_the_seat_are_known():
    known = known_policies(["human", "Expert", MASTER, "Gambler", "random"], 0)
    assert sorted(known) == [1, 3]
    assert known[1].samples == 1 and known[3].samples > 1  # Gambler flips coins: asked several times
    assert sorted(known_policies(TABLE, 1)) == [0, 2, 3, 4]


def test_a_search_is_told_the_names_only_when_it_asks():
    agents, _ = make_bots([MASTER + ",names=on", MASTER, "Expert", "Gambler", "Classic"], 5)
    assert [seat for seat, _ in agents[0].inference.known] == [2, 3, 4]
    assert agents[1].inference.known == ()


def test_names_need_a_model_and_inference():
    with pytest.raises(AgentSpecError, match="names=on"):
        make_bot("ismcts:iterations=10,names=on")


@pytest.mark.parametrize("seed", [3, 11])
def test_the_true_world_keeps_full_weight_and_a_contradicting_one_is_nearly_impossible(seed):
    state = mid_round(seed, table=RULED)
    observer = state.current_player()
    known = known_policies(RULED, observer)
    evidence = state.evidence(observer, 0.05, Known(AgentModel(make_bot("Classic")), known))
    assert len(evidence.events) > 10
    # the true hands: every opponent's own rules made exactly its plays
    truth = state.clone()
    assert evidence.weight(truth) == 1.0
    # some swap of cards between two opponents contradicts a known opponent's rules
    neighbour, rng = state.neighbours(observer), random.Random(seed)
    weights = [evidence.weight(w) for w in (neighbour(truth, rng) for _ in range(40)) if w is not None]
    assert min(weights) <= Known.MIX


def test_known_opponents_keep_decisions_deterministic_and_beliefs_whole():
    state = mid_round(5)
    p = state.current_player()
    agents, _ = make_bots([MASTER + ",names=on", *TABLE[1:]], 5)
    runs = [decide(agents[0], state.observation(p), state.legal_actions(), random.Random(9), explain=True)
            for _ in range(2)]
    assert runs[0].action == runs[1].action and runs[0].belief == runs[1].belief
    names = ["human", *TABLE[1:]]
    belief = seat_belief(state.observation(p).sample_state(random.Random(1)), p, random.Random(1), worlds=30,
                         names=names)
    assert "own rules" in belief.method
    for hand in belief.hands:
        assert sum(x for _, x in hand.expected) == pytest.approx(state.sizes[hand.player], abs=1e-6)
