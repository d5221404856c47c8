"""Tides of Time scoring: an independent oracle, hand-scored kingdoms, and the native and batch scorers.

The oracle below is written again from the seed's card list and scoring steps
(suit counts with a slot for "no suit", a has-card test, singletons before
doubling, doubling, the per-card loop with the best single card tracked, and
highest last, with win-ties as the tie-breaker, defect 3 fixed). It shares no
code with `recycle.games.tides`: cards are named here by the seed's numbers.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.games.tides.cards import BY_NUMBER, mask_of
from recycle.games.tides.first_pick import pair_scores
from recycle.games.tides.scoring import scores

# ---- the oracle -------------------------------------------------------------------------
NONE, PALACE, LIBRARY, GARDEN, TEMPLE, STRONGHOLD = range(6)
EACH, ALL, MAJ, TIES, LACK, ONE, DOUBLE, SINGLE = range(8)
#: seed number -> (suit, strategy, named suits, points), as the seed's Init() lists them
ORACLE_DECK = {
    1: (STRONGHOLD, EACH, [TEMPLE], 3), 2: (PALACE, EACH, [LIBRARY], 3), 3: (LIBRARY, EACH, [GARDEN], 3),
    4: (TEMPLE, EACH, [PALACE], 3), 5: (GARDEN, EACH, [STRONGHOLD], 3), 6: (GARDEN, MAJ, [PALACE], 7),
    7: (TEMPLE, MAJ, [GARDEN], 7), 8: (STRONGHOLD, MAJ, [LIBRARY], 7), 9: (PALACE, MAJ, [STRONGHOLD], 7),
    10: (LIBRARY, MAJ, [TEMPLE], 7), 11: (TEMPLE, EACH, [LIBRARY, GARDEN], 5),
    12: (LIBRARY, EACH, [PALACE, STRONGHOLD, TEMPLE], 9), 13: (GARDEN, ALL, [], 13),
    14: (STRONGHOLD, LACK, [], 3), 15: (PALACE, TIES, [], 0), 16: (NONE, ONE, [], 8),
    17: (NONE, DOUBLE, [], 0), 18: (NONE, SINGLE, [], 8),
}


def oracle(a: list[int], b: list[int]) -> tuple[int, int]:
    """Both scores, step by step as the seed orders them."""
    sym = {0: [0] * 6, 1: [0] * 6}
    cards = {0: a, 1: b}
    for p in (0, 1):
        for n in cards[p]:
            sym[p][ORACLE_DECK[n][0]] += 1
    holds = {p: {ORACLE_DECK[n][1] for n in cards[p]} for p in (0, 1)}
    score, best = [0, 0], [0, 0]
    for p in (0, 1):  # step 3, on the counts before doubling
        if ONE in holds[p]:
            mine = sum(1 for s in range(1, 6) if sym[p][s] == 1)
            theirs = sum(1 for s in range(1, 6) if sym[1 - p][s] == 1)
            if mine > theirs or (mine == theirs and TIES in holds[p]):
                score[p] += 8
                best[p] = 8
    for p in (0, 1):  # step 4
        if DOUBLE in holds[p]:
            top = max(sym[p][1:])
            for s in range(1, 6):
                if sym[p][s] == top:
                    sym[p][s] = 2 * top
    for p in (0, 1):  # step 5
        for n in cards[p]:
            _, kind, named, points = ORACLE_DECK[n]
            got = 0
            if kind == EACH:
                got = points * min(sym[p][s] for s in named)
            elif kind == ALL:
                got = points * min(sym[p][1:])
            elif kind == MAJ:
                s = named[0]
                if sym[p][s] > sym[1 - p][s] or (sym[p][s] == sym[1 - p][s] and TIES in holds[p]):
                    got = points
            elif kind == LACK:
                got = points * sum(1 for s in range(1, 6) if sym[p][s] == 0)
            score[p] += got
            best[p] = max(best[p], got)
    final = list(score)
    for p in (0, 1):  # step 6 (win-ties, not "holds this card", breaks the tie)
        if SINGLE in holds[p] and (best[p] > best[1 - p] or (best[p] == best[1 - p] and TIES in holds[p])):
            final[p] += 8
    return final[0], final[1]


# ---- hand-scored kingdoms ---------------------------------------------------------------
# Card numbers: 1 each-temple(S) 2 each-library(P) 3 each-garden(L) 4 each-palace(T) 5 each-stronghold(G)
# 6 most-palace(G) 7 most-garden(T) 8 most-library(S) 9 most-stronghold(P) 10 most-temple(L)
# 11 library-garden(T) 12 palace-stronghold-temple(L) 13 all-suits(G) 14 lacking(S) 15 win-ties(P)
# 16 singletons 17 double 18 highest. Suits: P L G T S.
KINGDOMS = [
    # A: P1 L1 G1 T1 S1: five each-cards 3 each = 15. B: one of each suit; every majority ties 1-1: 0.
    ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], 15, 0),
    # A: P2 G1 T1 S1, win-ties: most-palace 2>1 =7, most-garden 1=1 tie won =7, most-library 0<1 =0,
    # most-stronghold 1=1 tie won =7 -> 21. B: five each-cards on one of each suit, 3 each -> 15.
    ([6, 7, 8, 9, 15], [1, 2, 3, 4, 5], 21, 15),
    # A: P1 L1 T1 -> 3 singles vs B's 1 (S2 G2 T1): singletons 8; double: P L T -> 2; each-library 6,
    # each-garden 0, each-palace 6 -> 20. B: each-temple 3, each-stronghold 6, most-palace 0<2, most-garden
    # 2>0 =7, most-library 0<2 -> 16.
    ([16, 17, 2, 3, 4], [1, 5, 6, 7, 8], 20, 16),
    # A: P3 G1, everything misses (no S, no L): 0; highest 0 < 7. B: S3 L1 T1: most-library 7, most-temple 7,
    # each-temple 3, each-palace 0, lacking P and G 6 -> 23.
    ([18, 15, 9, 5, 2], [8, 10, 1, 4, 14], 0, 23),
    # A: G1 P2 T1: most-palace 7, each-library 0, each-palace 6, best 7; B best 7 (most-library); the tie
    # goes to A's win-ties: highest 8 -> 21. B: S2 L1 G1 T1: 3 + 3 + 6 + most-garden 1=1 lost 0 + 7 -> 19.
    ([18, 6, 2, 4, 15], [1, 3, 5, 7, 8], 21, 19),
    # As above with most-stronghold (0<2, 0) instead of win-ties: best 7 = 7 and no win-ties: no highest -> 13.
    ([18, 6, 2, 4, 9], [1, 3, 5, 7, 8], 13, 19),
    # A: P1 L2 S1 (2 singles) vs B P1 T1 G2 (2 singles, before B doubles): tie won by win-ties: 8; each-garden
    # G0 0, most-temple 0 vs 1 0, each-temple T0 0 -> 8. B: double G -> 4; each-library 0, each-palace 3,
    # each-stronghold 0, most-palace 1=1 lost 0 -> 3.
    ([16, 15, 3, 10, 1], [2, 4, 5, 6, 17], 8, 3),
    # As above with most-stronghold instead of win-ties: singletons tie lost 0; most-stronghold 1>0 7 -> 7.
    ([16, 9, 3, 10, 1], [2, 4, 5, 6, 17], 7, 3),
    # A: T1 L2 G1, double L -> 4: library-garden 5*min(4,1)=5, each-garden 3, each-stronghold 0, most-temple
    # 1<2 0 -> 8. B: S3 T2: each-temple 6, each-palace 0, most-garden 0<1, most-library 0<4, lacking P L G 9 -> 15.
    ([17, 11, 3, 5, 10], [1, 4, 7, 8, 14], 8, 15),
    # A: P1 L2 T1, double L -> 4: palace-stronghold-temple 0 (S0), each-library 12, each-garden 0,
    # library-garden 0 (G0) -> 12. B: S1 T1 G2 P1: 3 + 3 + 3 + most-palace 1=1 0 + most-stronghold 1>0 7 -> 16.
    ([17, 2, 3, 11, 12], [1, 4, 5, 6, 9], 12, 16),
    # A: P1 L1 T1 G1 all largest -> 2 each (S stays 0): 6 + 6 + 6 + 0 -> 18. B: S2 G1 T1 P1: each-temple 3,
    # most-palace 1<2, most-garden 1<2, most-library 0<2, most-stronghold 2>0 7 -> 10.
    ([17, 2, 3, 4, 5], [1, 6, 7, 8, 9], 18, 10),
    # A: all five suits: 13 + four each-cards 3 -> 25. B: G2 T1 S2: each-stronghold 6, most-palace 0<1,
    # most-garden 2>1 7, most-library 0<1, lacking P L 6 -> 19.
    ([13, 2, 3, 4, 1], [5, 6, 7, 8, 14], 25, 19),
    # A: G1 P1 L2 T1, no S: all-suits 0, each-library 6, each-garden 3, each-palace 3, most-temple 1=1 0 -> 12.
    # B: S2 G1 T1 P1: 3 + 6 + most-garden 1=1 0 + most-library 0<2 0 + most-stronghold 2>0 7 -> 16.
    ([13, 2, 3, 4, 10], [1, 5, 7, 8, 9], 12, 16),
    # A: S3 (0 singles vs 3): singletons 0; double S -> 6; lacking P L G T 12; each-temple 0; most-library
    # 0<1 -> 12. B: P1 L1 T1 G2: 3 + 6 + 3 + each-stronghold 0 + most-palace 1>0 7 -> 19.
    ([14, 1, 8, 16, 17], [2, 3, 4, 5, 6], 12, 19),
    # A: L1 P2 T1 S1: palace-stronghold-temple 9, most-stronghold 1<2 0, each-palace 6, each-temple 3 -> 18,
    # best 9. B: S2 P1 T1: most-library 0<1, lacking L G 6, each-library 0, most-garden 0=0 lost 0; highest
    # 6 < 9 -> 6.
    ([12, 9, 4, 1, 15], [8, 14, 2, 7, 18], 18, 6),
    # A: P2 T2 L1, win-ties: most-garden 0=0 won 7, most-temple 2>0 7, each-library 3, each-palace 6 -> 23.
    # B: S3 P1 (1 single vs A's 1, lost): each-temple 0, most-library 0<1, most-stronghold 3>0 7, lacking
    # L G T 9 -> 16.
    ([15, 7, 10, 2, 4], [1, 8, 9, 14, 16], 23, 16),
    # A: P1 L1 T1 (3 singles vs 1): 8, each-library 3, each-garden 0, each-palace 3, best 8 > B's 7:
    # highest 8 -> 22. B: 3 + 6 + 0 + most-garden 2>0 7 + 0 -> 16.
    ([18, 16, 2, 3, 4], [1, 5, 6, 7, 8], 22, 16),
    # A: S1 T1 L1 P1: 3 + 3 + most-temple 1=1 0 + most-stronghold 1>0 7, best 7 < B's 12: no highest -> 13.
    # B: P1 L2 T1, double L -> 4: each-library 12, each-garden 0, library-garden 0, palace-stronghold-temple
    # 0 -> 12.
    ([18, 1, 4, 10, 9], [2, 3, 11, 12, 17], 13, 12),
    # A: G1 P1 L1 T1, no S: all-suits 0, 3 + 3 + 3, best 3 = B's 3, no win-ties -> 9. B: S1 G1 T1 L1
    # (4 singles = A's 4, lost): 3 + 3 + most-garden 1=1 0 + most-temple 1=1 0 -> 6.
    ([18, 13, 2, 3, 4], [1, 5, 7, 10, 16], 9, 6),
    # A: P2 L1 T1: 3 + 0 + 6, best 6 < 7: no highest -> 9. B: S1 G1 T2 L1: each-temple 6, each-stronghold 3,
    # most-garden 1>0 7, most-temple 2>1 7, library-garden 5 -> 28.
    ([18, 15, 2, 3, 4], [1, 5, 7, 10, 11], 9, 28),
    # A: S1 L1 T2 (2 singles = B's 2 before doubling, lost): each-temple 6, 0, 0, most-garden 0<4 -> 6.
    # B: double G -> 4: each-library 0, each-stronghold 3, most-palace 1>0 7, most-library 0<1 -> 10.
    ([16, 1, 3, 4, 7], [17, 2, 5, 6, 8], 6, 10),
    # A: four singles > B's 2: 8 + 3 + 0 + 3 + 3 -> 17. B: double G -> 4: each-stronghold 3, most-palace 1=1,
    # most-library 0<1, most-stronghold 1=1 -> 3.
    ([16, 1, 3, 4, 2], [17, 5, 6, 8, 9], 17, 3),
    # A: T2 G1 S1 P1: most-garden 1<2 (B doubled G L T to 2) 0, most-palace 1>0 7, each-palace 3,
    # each-temple 6 -> 16, best 7. B: each-stronghold 0, each-garden 6, library-garden 10, best 10 > 7:
    # highest 8 -> 24.
    ([7, 6, 4, 1, 15], [17, 5, 3, 11, 18], 16, 24),
    # A: G1 P1 L2 S1, no T: all-suits 0, each-library 6, each-garden 3, most-temple 0<3, each-temple 0 -> 9.
    # B: T3 S1: each-palace 0, most-garden 0<1, library-garden 0, most-library 0<2, best 0 < 6 -> 0.
    ([13, 2, 3, 10, 1], [4, 7, 11, 8, 18], 9, 0),
    # A: P2, 0 singles < 3: 0; double P -> 4; most-stronghold 0<2; best 0 < 7 -> 0. B: S2 P1 G1 T1: 3 + 0
    # + 6 + most-garden 1>0 7 + most-library 0=0 lost 0 -> 16.
    ([17, 16, 18, 15, 9], [1, 2, 5, 7, 8], 0, 16),
    # A: P1 S1 (2 singles < B's 3): 0; double P S -> 2; most-library 0<1; best 0 < 7 -> 0. B: G2 T1 L1 S1:
    # most-palace 0<2, most-garden 2>0 7, most-temple 1>0 7, all-suits 0 (no P), lacking P 3 -> 17.
    ([15, 8, 16, 18, 17], [6, 7, 10, 13, 14], 0, 17),
    # A: L1 T1 S1 P1 all largest -> 2: palace-stronghold-temple 9*2 = 18, each-palace 6, each-temple 6,
    # most-stronghold 2=2 lost -> 30. B: S2 P1 L1 G1: most-library 1<2, lacking T 3, 3 + 3 + 6 -> 15.
    ([17, 12, 4, 1, 9], [8, 14, 2, 3, 5], 30, 15),
    # A: T1 L2 G2: library-garden 10, each-garden 6, most-temple 1<2, each-stronghold 0, most-palace 0<1
    # -> 16. B: T2 S2 P1: each-palace 3, most-garden 0<2, each-temple 6, most-library 0<2 -> 9.
    ([11, 3, 10, 5, 6], [4, 7, 1, 8, 15], 16, 9),
    # A: all five suits: 13 + 3 + 3 + 3 + 3 -> 25, best 13. B: S2 P1 (1 single < 5): 0, most-library 0<1,
    # most-stronghold 2>1 7, lacking L G T 9, best 9 < 13: no highest -> 16.
    ([13, 2, 3, 4, 1], [14, 8, 9, 16, 18], 25, 16),
    # A: P1 L1 T2 G1: 3 + 3 + 3 + most-garden 1>0 7 + most-palace 1=1 0 -> 16, best 7. B: S3 P1: lacking L G T
    # 9, each-temple 0, most-library 0<1, most-stronghold 3>0 7, best 9 > 7: highest 8 -> 24.
    ([2, 3, 4, 7, 6], [14, 1, 8, 18, 9], 16, 24),
    # Mid-round kingdoms score the same way: A: G1 P1, most-palace 1=1 won by win-ties 7. B: most-stronghold
    # 0=0 lost, each-stronghold 0 -> 0.
    ([6, 15], [9, 5], 7, 0),
    # Empty kingdoms: nothing scores.
    ([], [], 0, 0),
    # A: one single (P) > 0: singletons 8. B: nothing -> 0.
    ([16, 15], [], 8, 0),
    # A: 0 singles = 0, no win-ties: 0.
    ([16], [], 0, 0),
]


@pytest.mark.parametrize("a, b, score_a, score_b", KINGDOMS)
def test_hand_scored_kingdoms(a, b, score_a, score_b):
    assert oracle(a, b) == (score_a, score_b)
    assert scores(mask_of(BY_NUMBER[n] for n in a), mask_of(BY_NUMBER[n] for n in b)) == (score_a, score_b)


def test_enough_hand_scored_kingdoms():
    assert len([k for k in KINGDOMS if len(k[0]) == len(k[1]) == 5]) >= 30


kingdom_pairs = st.permutations(list(range(1, 19))).flatmap(
    lambda order: st.tuples(st.integers(0, 5)).map(lambda k: (order[:k[0]], order[k[0]:2 * k[0]])))


@given(kingdom_pairs)
@settings(max_examples=400, deadline=None)
def test_native_scoring_agrees_with_the_oracle(pair):
    a, b = pair
    assert scores(mask_of(BY_NUMBER[n] for n in a), mask_of(BY_NUMBER[n] for n in b)) == oracle(list(a), list(b))


@given(st.lists(st.permutations(list(range(1, 19))), min_size=1, max_size=40))
@settings(max_examples=30, deadline=None)
def test_batch_scoring_agrees_with_the_oracle(orders):
    a = np.array([mask_of(BY_NUMBER[n] for n in o[:5]) for o in orders], dtype=np.int64)
    b = np.array([mask_of(BY_NUMBER[n] for n in o[5:10]) for o in orders], dtype=np.int64)
    pa, pb = pair_scores(a, b)
    assert [(int(x), int(y)) for x, y in zip(pa, pb)] == [oracle(list(o[:5]), list(o[5:10])) for o in orders]
