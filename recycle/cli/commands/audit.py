"""`recycle audit GAME`: does any agent decide, explain or show differently in two states a seat
cannot tell apart? (The leak audit, `recycle.audit`.)

    recycle audit Poker5                                  every agent, cheap budgets, 6 pairs
    recycle audit President5 --native --agents Classic,ismcts:iterations=50,mcts:iterations=50
    recycle audit MyGame.gdl --agents my.rul,random --pairs 20 --seed 3 --json audit.json

Exit status 0 when nothing differs (and a cheating control, when named, did differ), 1 when a
difference was found or the control never differed (the audit could not see one).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from recycle.audit import AuditReport, AuditSubject, audit
from recycle.cli.options import add_bot_options, bot_options
from recycle.games import game_path, shipped_games
from recycle.cli.arguments import IntRange, output_file
from recycle.kernel.errors import UsageError
from recycle.cli.console import add_seed_option, seed_of
from recycle.cli.output import write_json
from recycle.kernel.specs import split_specs

PAIRS = IntRange(1, 10_000)
#: Games that also have a native implementation (`--native`).
NATIVE = ("President5", "TidesOfTime2")
#: One cheap spec per name of the agent table (`recycle.players.AGENT_FACTORIES`): every agent is
#: audited (tests/test_leaks_audit.py checks none is missing); `mcts` is the cheating control.
CHEAP_SPECS = {
    "random": "random",
    "ismcts": "ismcts:iterations=8",
    "pimc": "pimc:samples=1",
    "vote": "vote:samples=1,depth=1,nodes=100",
    "alphabeta": "alphabeta:nodes=100,depth=1",
    "mcts": "mcts:iterations=8",
    "osla": "osla:samples=2",
    "rhea": "rhea:iterations=4,length=4",
    "rmhc": "rmhc:iterations=4,length=4",
    "tides-seed": "tides-seed",
    "tides-solver": "tides-solver",
}
#: At native President, inference-aware search too (it reads what the opponents did: passes, or their
#: decisions under a personality as the model).
INFERENCE_SPECS = ("ismcts:iterations=8,infer=0.3", "ismcts:iterations=8,infer=0.3,model=on,rollout=Classic,pool=4")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("audit", help="check that agents decide and explain alike in states a seat cannot tell apart")
    p.add_argument("game", metavar="GAME", help="a .rcy or .gdl file, or a shipped game's name")
    p.add_argument("--agents", default=None, metavar="SPECS",
                   help="agent specs, shipped personalities or .rul files, comma-separated (default: every "
                        "agent with a cheap budget, the personalities at a climbing game, and mcts as the "
                        "cheating control)")
    p.add_argument("--pairs", type=PAIRS, default=6, help=f"pairs of states to compare ({PAIRS.text}, default 6)")
    add_seed_option(p)
    p.add_argument("--json", metavar="FILE", type=output_file, help="also write every difference as JSON")
    p.add_argument("--native", action="store_true",
                   help=f"audit the game's native implementation ({' or '.join(NATIVE)}) instead of its file")
    add_bot_options(p)
    p.set_defaults(run=run_audit)


def default_specs(game: str, climbing: bool, native: bool = False) -> list[str]:
    """Every agent of the table (Tides agents at Tides only), the personalities at a climbing game,
    and inference-aware search at native President."""
    from personalities.catalog import shipped_names
    from recycle.players import agent_traits

    tides = game.lower().startswith("tidesoftime")
    specs = [spec for name, spec in CHEAP_SPECS.items() if agent_traits(name).plays("TidesOfTime2" if tides else game)]
    president = native and not tides
    return specs + (shipped_names() if climbing else []) + (list(INFERENCE_SPECS) if president else [])


def recycle_subject(path: str, **options) -> AuditSubject:
    """A RECYCLE game file; personalities play it through its climbing metadata (`options` as
    `make_climbing_bot`)."""
    from recycle.climbing.adapter import make_climbing_bot
    from recycle.interp import new_game
    from recycle.lang import load_game

    game = load_game(path)

    def whole(state) -> tuple:
        return tuple(sorted((k, tuple(v)) for k, v in state.st.locs.items() if v))

    return AuditSubject(Path(game.filename).name, lambda seed: new_game(game, seed), lambda spec: make_climbing_bot(spec, game, **options),
                   whole)


def president_subject(rules_dirs: tuple = ()) -> AuditSubject:
    """Native President, classic table (personalities also from `rules_dirs`); the seat's text adds
    the round's history as it reads it."""
    from president.agents.bots import make_bot
    from president.game.settings import preset
    from president.game.state import PresidentState

    settings = preset("classic")

    def seat_text(state, seat: int) -> str:
        obs = state.observation(seat)
        history = " ".join(f"p{p}:{'skip' if a is None else a}" for p, a in obs.history)
        return f"{obs!r}\nhistory {history}\nexchanged {obs.exchanged} known {obs.known} bounds {obs.bounds}"

    return AuditSubject("President (native)", lambda seed: PresidentState.new_match(settings, seed),
                   lambda spec: make_bot(spec, rules_dirs),
                   lambda s: (tuple(s.masks), tuple(s.gifts), tuple(s.bounds)), seat_text)


def tides_subject() -> AuditSubject:
    """Native Tides of Time."""
    from recycle.games.tides.state import TidesState
    from recycle.players import make_agent

    return AuditSubject("Tides of Time (native)", TidesState.new, make_agent, lambda s: (tuple(s.hands), tuple(s.picks)))


def subject_of(game: str, native: bool, **options) -> tuple[AuditSubject, bool]:
    """(the subject, is it a climbing game) for a GAME argument."""
    if native:
        name = next((n for n in NATIVE if n.lower() == game.lower()), None)
        if name is None:
            raise UsageError(f"--native: only {' and '.join(NATIVE)} have a native implementation, not {game!r}")
        return (president_subject(options.get("rules_dirs", ())), True) if name == "President5" else (tides_subject(), False)
    path = game_path(game)
    climbing = any(g.path == path and g.climbing for g in shipped_games()) or bool(options.get("meta"))
    return recycle_subject(path, **options), climbing


def run_audit(args: argparse.Namespace) -> int:
    from recycle.cli.console import console

    subject, climbing = subject_of(args.game, args.native, **bot_options(args))
    specs = split_specs(args.agents) if args.agents else default_specs(args.game, climbing, args.native)
    for spec in specs:  # every spec checked before any work
        subject.make_agent(spec)
    report = audit(subject, specs, args.pairs, seed_of(args))
    for line in report.summary():
        console.print(line, markup=False, highlight=False)
    if args.json:
        write_json(args.json, report.to_json())
    return 1 if verdict(report) else 0


def verdict(report: AuditReport) -> list[str]:
    """What is wrong with a report (nothing: the audit passed)."""
    wrong = [f"{len(report.leaks)} difference(s)"] if report.leaks else []
    wrong += [f"the control {c} never differed" for c in report.controls
              if report.pairs and not report.control_differed(c)]
    return wrong
