"""The strength ladder: every bot against four copies of Classic, duplicate deals, 95% intervals.

    python bench/strength.py [--out strength] [--report] [--only NAME...] [--measure] [--endings N]

Each rung is `president tournament BOT Classic Classic Classic Classic
--rounds 1` on the same deals (one seed), every deal replayed with the seats
rotated; a tournament whose journal is complete in `--out` is not played
again (an interrupted one resumes), so `--report` only prints the tables.

At five seats a bot's finish-above rate (the share of its table mates it
finishes above) is its points per round / 4; Classic against itself is 50%
by construction. The interval is Student t over per-deal means (each deal,
with its rotations, is one independent unit). Rungs on the same deals are
also compared *paired*, deal by deal, which removes the luck of the cards:
`vs` is the mean per-deal difference from the named reference with its 95%
interval. `gap` is the share of the Classic-to-ceiling gap (the cheating MCTS,
which sees every hand, at the same iterations) that a bot closes, also on the
deals both played with a 95% bootstrap interval over deals.

Search budgets are iterations, so results do not depend on the machine's
load; `--measure` prints ISMCTS iterations per CPU second (7,000 iterations
is about one second of one idle core of the reference machine).

TAG's heuristic players (`osla`, `rhea`, `rmhc`; docs/agents.md) are on the
personalities' deals, and again against four random players (rungs `r_*`,
where random itself is 50% by construction).

The same ladder on a RECYCLE climbing game (Daifugo4, three Classic copies,
four seats: the rate is points / 3 there) shows the search is not
President-only. Last, the endgame check: won two-player endings played by
the search players with their alpha-beta switch must all be won.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from president.agents.bots import make_bot
from president.game.settings import preset
from president.game.state import PresidentState
from recycle.search import Solver
from recycle.tournament import records
from timing import add_smoke_option

#: ISMCTS iterations in one second per move: about 7,000 per CPU second on the 2-core reference machine
#: measured alone (`--measure`; 8,062, 6,878, 7,533 and 10,700 in four runs); 0.1 / 0.3 / 1 s = 700 / 2,100 / 7,000.
SECOND = 7000
#: The same second with Classic rollouts: ~1,900 ISMCTS iterations, ~450 PIMC samples (all actions each);
#: with the opponent model ~1,600 (1,634 measured), and with inference by the model too ~900 (934) by
#: rejection, ~1,500 by a chain of 300 worlds (0.95 of the model's rate, measured alternately).
CLASSIC_SECOND, PIMC_SECOND, MODEL_SECOND, INFER_SECOND, CHAIN_SECOND = 1900, 450, 1600, 900, 1500
SEED, DEALS = 4001, 60
GREEDY = "rollout=greedy"


@dataclasses.dataclass(frozen=True)
class Rung:
    """One tournament: `spec` against copies of Classic."""

    name: str
    spec: str
    label: str
    deals: int = DEALS
    game: str | None = None  # a RECYCLE climbing game instead of President
    seed: int = SEED
    vs: str | None = None  # paired comparison with this rung
    ceiling: str | None = None  # the cheating rung of the same budget, for the share of the gap closed
    opponent: str = "Classic"  # who fills the other seats

    @property
    def seats(self) -> int:
        return 4 if self.game else 5

    def arguments(self) -> list[str]:
        extra = ["--game", self.game] if self.game else []
        return ([self.spec] + [self.opponent] * (self.seats - 1) + extra
                + ["--matches", str(self.deals), "--rounds", "1", "--seed", str(self.seed)])


def ladder() -> list[Rung]:
    """The President ladder and the feature comparisons, cheapest first."""
    rungs = [Rung(f"p_{name}", name, name, 100, seed=5001)  # the personalities: cheap, so more deals
             for name in ("random", "Counter", "Aggressive", "Gambler", "Closer", "Cautious", "Beginner", "RankAware",
                          "TwoHoarder", "Expert")]
    for iterations, seconds in ((700, "0.1"), (2100, "0.3")):
        rungs.append(Rung(f"is{iterations}", f"ismcts:iterations={iterations}", f"ISMCTS {seconds} s (random rollouts)"))
        rungs.append(Rung(f"g{iterations}", f"ismcts:iterations={iterations},{GREEDY}",
                          f"ISMCTS {seconds} s, greedy rollouts", vs=f"is{iterations}"))
    rungs += [
        # the search ideas, each at 1,000 iterations, paired with the plain ISMCTS
        Rung("base", "ismcts:iterations=1000", "ISMCTS 1,000 iterations (random rollouts)", ceiling="m1000"),
        Rung("greedy", f"ismcts:iterations=1000,{GREEDY}", "+ greedy playout policy", vs="base", ceiling="m1000"),
        Rung("greedyinfer", f"ismcts:iterations=1000,{GREEDY},infer=0.3", "+ greedy + inference (q=0.3)",
             vs="greedy", ceiling="m1000"),
        Rung("m1000", f"mcts:iterations=1000,{GREEDY}", "cheating MCTS 1,000 iterations, greedy rollouts: ceiling"),
        Rung("greedytrees", f"ismcts:iterations=1000,{GREEDY},trees=4", "+ greedy, 4 root-parallel trees",
             vs="greedy"),
        Rung("greedyc4", f"ismcts:iterations=1000,{GREEDY},c=0.4", "+ greedy, c=0.4", vs="greedy"),
        Rung("classic200", "ismcts:iterations=200,rollout=Classic", "Classic rollouts, 200 iterations "
             "(the CPU time of 1,000 random ones)", vs="base"),
        Rung("pc30", "pimc:iterations=30,rollout=Classic", "PIMC, Classic rollouts, 30 samples", vs="greedy"),
        Rung("pc100", "pimc:iterations=100,rollout=Classic", "PIMC, Classic rollouts, 100 samples", vs="pc30"),
        Rung("ic300", "ismcts:iterations=300,rollout=Classic", "ISMCTS 300 iterations, Classic rollouts", deals=40),
        Rung("im300", "ismcts:iterations=300,rollout=Classic,model=on",
             "+ Classic as the model of the other players in the tree", deals=40, vs="ic300"),
        Rung("ic1s", f"ismcts:iterations={CLASSIC_SECOND},rollout=Classic",
             "ISMCTS 1 s, Classic rollouts", deals=40, ceiling="mc1s"),
        Rung("im1s", f"ismcts:iterations={MODEL_SECOND},rollout=Classic,model=on",
             "ISMCTS 1 s, Classic rollouts and opponent model", deals=40, ceiling="mm1s", vs="im300"),
        Rung("imi1s", f"ismcts:iterations={INFER_SECOND},rollout=Classic,model=on,infer=0.2,tries=4",
             "+ inference by the model (q=0.2), the same second", deals=40, ceiling="mm1s", vs="im1s"),
        *(Rung(f"imc{q}", f"ismcts:iterations={CHAIN_SECOND},rollout=Classic,model=on,infer=0.{q},pool=300",
               f"+ inference by the model, a chain of 300 worlds (q=0.{q}), the same second", deals=40,
               ceiling="mm1s", vs="im1s") for q in ("05", "01")),
        Rung("pc1s", f"pimc:iterations={PIMC_SECOND},rollout=Classic", "PIMC 1 s, Classic rollouts",
             ceiling="mc1s", vs="ic1s"),
        Rung("mc1s", f"mcts:iterations={CLASSIC_SECOND},rollout=Classic",
             "cheating MCTS 1 s, Classic rollouts", deals=24),
        Rung("mm1s", f"mcts:iterations={MODEL_SECOND},rollout=Classic,model=on",
             "cheating MCTS 1 s, Classic rollouts and opponent model: the ceiling", deals=30),
        Rung("g7000", f"ismcts:iterations={SECOND},{GREEDY}", "ISMCTS 1 s, greedy rollouts (the search player)",
             ceiling="m7000"),
        Rung("m7000", f"mcts:iterations={SECOND},{GREEDY}", "cheating MCTS 1 s, greedy rollouts: the ceiling"),
    ]
    # TAG's heuristic players (docs/agents.md), on the personalities' deals, then against four random players
    tag = [("osla", "osla", "one-step look-ahead, 10 samples"), ("rhea", "rhea", "RHEA, 100 generations of 10 actions"),
           ("rmhc", "rmhc", "RMHC, 100 generations of 10 actions"),
           ("rhea400", "rhea:iterations=400", "RHEA, 400 generations")]
    rungs += [Rung(f"t_{name}", spec, label, 100, seed=5001, vs="p_random") for name, spec, label in tag]
    rungs += [Rung(f"r_{name}", spec, f"{label}, against 4 x random", 60, seed=5001, opponent="random",
                   vs=None if name == "random" else "r_random")
              for name, spec, label in [("random", "random", "random"), ("Classic", "Classic", "Classic")] + tag[:2]]
    daifugo = [("d_random", "random", "random"), ("d_Beginner", "Beginner", "Beginner"),
               ("d_is100", "ismcts:iterations=100", "ISMCTS 100 iterations"),
               ("d_is300", "ismcts:iterations=300", "ISMCTS 300 iterations"),
               ("d_mcts100", "mcts:iterations=100", "cheating MCTS 100 iterations: the ceiling"),
               ("d_im100", "ismcts:iterations=100,rollout=Classic,model=on",
                "ISMCTS 100 iterations, Classic rollouts and opponent model")]
    rungs += [Rung(name, spec, label, deals=20, game="Daifugo4", seed=6001,
                   ceiling="d_mcts100" if name == "d_is100" else None) for name, spec, label in daifugo]
    return rungs


def play(out: Path, rung: Rung) -> None:
    """Play (or resume) the rung's tournament into `out/NAME.jsonl`."""
    journal = out / f"{rung.name}.jsonl"
    where = ["--resume", str(journal)] if journal.exists() else [*rung.arguments(), "--out", str(journal)]
    command = [sys.executable, "-m", "president.cli.main", "tournament", *where, "-j1",
               "--json", str(out / f"{rung.name}.json")]
    (out / f"{rung.name}.cmd").write_text(" ".join(["president", "tournament", *rung.arguments()]) + "\n")
    with open(out / f"{rung.name}.txt", "w") as log:
        subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, check=True)


def per_deal(out: Path, rung: Rung) -> dict[int, float]:
    """Deal -> the first bot's finish-above rate over that deal's rotations (complete deals only)."""
    path = out / f"{rung.name}.jsonl"
    if not path.exists():
        return {}
    totals: dict[int, list[float]] = {}
    for record in records(path):
        seat = record.seats.index(0)
        totals.setdefault(record.deal, []).extend(r[seat] / (rung.seats - 1) for r in record.points)
    return {d: statistics.fmean(v) for d, v in totals.items() if len(v) == rung.seats}


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% Student-t interval (normal quantile beyond 30 deals)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, math.nan, math.nan
    t = 1.96 if len(values) > 30 else {2: 12.7, 3: 4.30, 5: 2.78, 10: 2.26, 20: 2.09}.get(
        min((2, 3, 5, 10, 20), key=lambda n: abs(n - len(values))), 2.05)
    half = t * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def gap_share(values: dict[int, float], ceiling: dict[int, float], resamples: int = 4000) -> tuple[float, float, float]:
    """The share of the gap closed on the deals both played, with a 95% bootstrap interval over deals
    (each resample draws deals with replacement and keeps each deal's two rates together)."""
    common = sorted(set(values) & set(ceiling))
    if len(common) < 5:
        return math.nan, math.nan, math.nan

    def share(deals: list[int]) -> float:
        top = statistics.fmean(ceiling[d] for d in deals) - 0.5
        return (statistics.fmean(values[d] for d in deals) - 0.5) / top if top > 0 else math.nan

    rng = random.Random(0)
    shares = sorted(share(rng.choices(common, k=len(common))) for _ in range(resamples))
    shares = [x for x in shares if not math.isnan(x)]
    return share(common), shares[int(0.025 * len(shares))], shares[int(0.975 * len(shares)) - 1]


def table(out: Path, rungs: list[Rung]) -> list[str]:
    """Markdown rows: rate with interval, paired difference, share of the gap closed."""
    data = {r.name: per_deal(out, r) for r in rungs}
    lines = ["| bot | deals | finishes above (95% CI) | paired difference (95% CI) | gap closed |",
             "| --- | ---: | --- | --- | ---: |"]
    for rung in rungs:
        values = data[rung.name]
        if not values:
            continue
        if len(values) < 5:  # an interval over fewer deals says nothing
            lines.append(f"| {rung.label} (`{rung.spec}`) | {len(values)} | (too few deals) | | |")
            continue
        m, lo, hi = interval(list(values.values()))
        paired = ""
        if rung.vs and data.get(rung.vs):
            common = sorted(set(values) & set(data[rung.vs]))
            if len(common) > 2:
                d, dlo, dhi = interval([values[k] - data[rung.vs][k] for k in common])
                paired = f"{d:+.1%} ({dlo:+.1%} to {dhi:+.1%}) vs `{rung.vs}`, {len(common)} deals"
        top = statistics.fmean(data[rung.ceiling].values()) if data.get(rung.ceiling or "") else None
        gap = ""
        if top and top > 0.5:  # below Classic a bot closes none of the gap
            gap = f"{max(0.0, m - 0.5) / (top - 0.5):.0%} of `{rung.ceiling}`"
            share, slo, shi = gap_share(values, data[rung.ceiling])
            if not math.isnan(slo):
                gap += f"; {share:.0%} ({slo:.0%} to {shi:.0%}) on its {len(set(values) & set(data[rung.ceiling]))} deals"
        lines.append(f"| {rung.label} (`{rung.spec}`) | {len(values)} | {m:.1%} ({lo:.1%}-{hi:.1%}) | {paired} | {gap} |")
    return lines


# ---- the endgame switch -----------------------------------------------------
def won_endings(count: int, first_seed: int = 5000) -> list[PresidentState]:
    """Two-player endings of random 3-5 player rounds that the player to move wins with the right move only."""
    found, seed = [], first_seed
    while len(found) < count:
        players = 3 + seed % 3
        settings = dataclasses.replace(preset("classic"), players=players, rounds=1)
        state, rng = PresidentState.new_match(settings, seed), random.Random(seed)
        while not state.is_terminal() and len(state.still_in()) > 2:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        seed += 1
        if state.is_terminal() or len(state.legal_actions()) < 2 or sum(state.sizes) > 14:
            continue
        state = state.truncated()
        me, n = state.current_player(), state.num_players
        values, _ = Solver(me).root_values(state, state.legal_actions())
        best = max(values.values())
        if best == (n - state.best_free) / (n - 1) and min(values.values()) < best:  # won, but can be lost
            found.append(state)
    return found


def endgame_check(count: int) -> str:
    """Play every won ending with each search player against two opponents; report the losses."""
    tried = lost = 0
    endings = won_endings(count)
    for spec in ("ismcts:iterations=200", "ismcts:iterations=200,rollout=greedy", "pimc:samples=10",
                 "vote:samples=5"):
        for opponent in ("alphabeta", "random"):
            for start in endings:
                state, rng = start.clone(), random.Random(tried)
                me = state.current_player()
                mine, theirs = make_bot(spec), make_bot(opponent)
                while not state.is_terminal():
                    p = state.current_player()
                    state.apply((mine if p == me else theirs).choose(state.observation(p), state.legal_actions(), rng))
                tried += 1
                lost += state.round_log[-1][me] != start.best_free  # won: the better of the two places
    return (f"endgame switch: {len(endings)} won two-player endings x 4 search players x 2 opponents "
            f"(perfect solver, random) = {tried} games, {lost} lost")


def measure(spec: str = "ismcts:iterations=4000", decisions: int = 40) -> str:
    """Iterations per CPU second of `spec` over searched decisions of real matches against Classic."""
    settings = dataclasses.replace(preset("classic"), rounds=2)
    rates: list[float] = []
    seed = 0
    while len(rates) < decisions:
        state, seat, rng = PresidentState.new_match(settings, 500 + seed), seed % 5, random.Random(seed)
        agents = [make_bot("Classic") for _ in range(5)]
        agents[seat] = make_bot(spec)
        while not state.is_terminal() and len(rates) < decisions:
            p, legal = state.current_player(), state.legal_actions()
            start = time.process_time()
            decision = agents[p].explain(state.observation(p), legal, rng)
            cpu = time.process_time() - start
            if p == seat and len(legal) > 1 and not decision.trace.solver:
                rates.append(decision.trace.iterations / cpu)
            state.apply(decision.action)
        seed += 1
    q = statistics.quantiles(rates, n=4)
    return (f"{spec}: iterations per CPU second, {decisions} searched decisions: median "
            f"{statistics.median(rates):,.0f} (quartiles {q[0]:,.0f}-{q[2]:,.0f})")


def policy_alone(deals: int = 60) -> str:
    """The greedy playout policy (no randomness) as a player against 4 x Classic: how good a model it is."""
    from president.game.playout import greedy_choice
    from president.game.state import Phase

    settings = dataclasses.replace(preset("classic"), rounds=1)
    rates = []
    for deal in range(deals):
        total = 0.0
        for seat in range(5):
            state, rng = PresidentState.new_match(settings, 9000 + deal), random.Random(deal * 7 + seat)
            bots = [make_bot("Classic") for _ in range(5)]
            while not state.is_terminal():
                p, legal = state.current_player(), state.legal_actions()
                mine = p == seat and state.phase is Phase.PLAY
                state.apply(greedy_choice(state, legal, rng, 0.0) if mine
                            else bots[p].choose(state.observation(p), legal, rng))
            total += (5 - state.round_log[-1][seat]) / 4
        rates.append(total / 5)
    m, lo, hi = interval(rates)
    return f"greedy playout policy alone against 4 x Classic: {m:.1%} ({lo:.1%}-{hi:.1%}), {deals} deals"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="strength", help="folder of the tournaments' commands, logs and journals")
    parser.add_argument("--report", action="store_true", help="only print the tables of the tournaments in --out")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME", help="play only these rungs")
    parser.add_argument("--measure", action="store_true", help="measure ISMCTS iterations per CPU second first")
    parser.add_argument("--endings", type=int, default=40, help="won two-player endings for the endgame check")
    add_smoke_option(parser)
    args = parser.parse_args()
    if args.smoke:  # one deal of random against Classic, in a folder of its own
        args.out, args.only, args.endings, args.report = tempfile.mkdtemp(prefix="strength-smoke-"), ["p_random"], 1, False
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.measure:
        for spec in ("ismcts:iterations=4000", f"ismcts:iterations=4000,{GREEDY}"):
            print(measure(spec))
    rungs = [dataclasses.replace(r, deals=1) for r in ladder() if r.name == "p_random"] if args.smoke else ladder()
    if not args.report:
        for rung in rungs:
            if args.only is None or rung.name in args.only:
                play(out, rung)
    print("President, against 4 x Classic (Classic itself: 50% by construction)")
    print("\n".join(table(out, [r for r in rungs if not r.game and r.opponent == "Classic"])))
    print("\nPresident, against 4 x random (random itself: 50% by construction)")
    print("\n".join(table(out, [r for r in rungs if not r.game and r.opponent == "random"])))
    print("\nDaifugo4 (RECYCLE), against 3 x Classic")
    print("\n".join(table(out, [r for r in rungs if r.game])))
    if not args.report:
        print(policy_alone(1 if args.smoke else 60))
        print(endgame_check(args.endings))


if __name__ == "__main__":
    main()
