"""A cleaner label for a search player's records: more searches of the very positions recorded
(docs/imitate.md, "The label over four searches, and the ceilings").

    python bench/imitate_relabel.py RECORDS.jsonl ... --out-dir DIR

A record of `president record BOT --searches K` keeps the root visits of K
searches of each position; its preferred play (`--label preferred`) is the most
visited over them. A single search of the master is a noisy draw, so this
script writes the same records labelled over 4 searches (`searches: 4`): the
recorded ones and new ones (seeds of their own stream) summed, ties broken by
the play made. `president record BOT --searches 4` records this label directly;
this script is for records already made.

A record does not hold all a search reads (the round's history, for the
search's inference of the opponents' hands), so the positions are not rebuilt
from the record: each file's rounds are replayed from its header (seed,
opponents, bot, classic table), the bot's seat playing its recorded play and
drawing from the table's random stream what the search drew (one 64-bit seed:
recycle/search/common.py), so the opponents' plays, the deals and every later
position are the recorded ones. Every replayed position is checked against its
record (a different one stops the script). The first position of every file
is also searched again with the recorded searches' own seeds: when that does
not give the recorded visits (records of an earlier version of the search),
the recorded visits are dropped and the label is 4 new searches.

Beside each records file, `NAME.searches.jsonl` keeps, per playing position,
the plays of 4 independent searches (the play made first, when the recorded
searches count) and the added searches' visits (for the noise ceiling:
bench/imitate_ceilings.py). A file is written when all its rounds are done, so
a run cut short leaves whole files; files already in `--out-dir` are skipped.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import replace
from pathlib import Path

from personalities.records import RecordedDecision, Visit, header, load_records, most_visited, record_lines
from president.agents.opponents import make_bots
from president.game.cards import Give
from president.game.settings import preset
from president.game.state import PresidentState
from president.match.recording import record_of, root_visits
from president.match.simulate import match_seed
from recycle.kernel.protocol import play_game
from timing import add_smoke_option

#: Searches the relabelled records' visits are summed over.
LABEL_SEARCHES = 4
#: Independent searches whose own plays are kept per position (the noise ceiling's draws).
INDEPENDENT = 4
#: Fields of a record that are the play, not the position.
_PLAY_FIELDS = ("play", "jokers", "visits", "searches", "gift", "round")


class ReplayError(RuntimeError):
    """A replayed position differs from its record: the records were not made as the header says."""


def _position(record: RecordedDecision) -> dict:
    return {k: v for k, v in record.to_json().items() if k not in _PLAY_FIELDS}


def _summed(visits: list[tuple[Visit, ...]]) -> tuple[Visit, ...]:
    total: dict = {}
    for group in visits:
        for v in group:
            total[(v.play, v.jokers)] = total.get((v.play, v.jokers), 0) + v.visits
    return tuple(Visit(play, n, jokers) for (play, jokers), n in total.items())


class Replaying:
    """Seat 0 of a replayed match: plays its records in order, and searches each playing position `add`
    more times (`extra`: their seeds); `out` gets the relabelled records (visits summed over `LABEL_SEARCHES`
    searches), `alone` each independent search's own play and the added searches' visits.
    `recorded` (the recorded searches are the current master's): the recorded visits count, and the play
    made is the first independent search; else the label is the added searches' alone.
    `check`: search the first position again with the recorded searches' seeds (`searches`: their stream)
    and tell whether that gives the recorded visits (`same`)."""

    def __init__(self, inner, records, add: int, extra: random.Random, recorded: bool,
                 check: random.Random | None = None) -> None:
        self.inner, self.records, self.add, self.extra = inner, iter(records), add, extra
        self.recorded, self.check, self.same = recorded, check, None
        self.name = getattr(inner, "name", "bot")
        self.out: list[RecordedDecision] = []
        self.alone: list[dict] = []

    @property
    def draws_nothing_when_forced(self) -> bool:
        return getattr(self.inner, "draws_nothing_when_forced", False)

    def choose(self, observation, legal, rng: random.Random):
        if len(legal) < 2:
            return self.inner.choose(observation, legal, rng)
        record = next(self.records)
        seen = record_of(observation, legal, legal[0])
        if _position(seen) != _position(record):
            raise ReplayError(f"{record.where}: the replayed position is not the recorded one")
        table_stream = rng.getstate()
        rng.getrandbits(64)  # what the recorded search drew from the table's stream
        if isinstance(legal[0], Give):
            return next(a for a in legal if tuple(sorted(a.values)) == record.gift)
        action = next(a for a in legal if (None if a.count == 0 else (a.value, a.count), a.jokers)
                      == (record.play, record.jokers))
        if self.check is not None:
            first = random.Random()
            first.setstate(table_stream)
            streams = [first] + [random.Random(self.check.getrandbits(64)) for _ in range(record.searches - 1)]
            again = [self.inner.explain(observation, legal, s, believe=False) for s in streams]
            self.same = sorted(map(Visit.to_json, root_visits(legal, again))) == sorted(
                map(Visit.to_json, record.visits))
            self.check = None
            return action
        found = [self.inner.explain(observation, legal, random.Random(self.extra.getrandbits(64)), believe=False)
                 for _ in range(self.add)]
        each = [root_visits(legal, [d]) for d in found]
        plays = [_play_json(most_visited(v, None)) for v in each]
        if self.recorded:
            kept = [record.visits, *each[:LABEL_SEARCHES - record.searches]]
            plays = [_play_json(Visit(record.play, 0, record.jokers)), *plays]
        else:
            kept = each[:LABEL_SEARCHES]
        self.out.append(replace(record, visits=_summed(kept), searches=LABEL_SEARCHES))
        self.alone.append({"where": record.where, "plays": plays, "recorded": self.recorded,
                           "visits": [[x.to_json() for x in v] for v in each]})
        return action


def _play_json(visit: Visit) -> list[int] | None:
    return None if visit.play is None else [*visit.play, *([visit.jokers] if visit.jokers else [])]


def _replay(path: Path, add: int, recorded: bool, check: bool = False) -> tuple[dict, list, list[Replaying]]:
    """Replay the rounds of `path` (only its first match with `check`): its header, records and seats."""
    head, records = load_records(path)
    seed, rounds, bot = head["seed"], head["rounds"], head["player"]
    settings = preset("classic")
    by_round: dict[int, list[RecordedDecision]] = {}
    for r in records:
        by_round.setdefault(r.round, []).append(r)
    seats: list[Replaying] = []
    played = match = 0
    while played < rounds and not (check and match):
        length = min(settings.rounds or rounds, rounds - played)
        table = settings.with_overrides({"rounds": str(length), "target_score": "0"})
        agents, _ = make_bots([bot, *head["opponents"]], table.players)
        mine = [r for k in range(played + 1, played + length + 1) for r in by_round.get(k, [])]
        seat = Replaying(agents[0], mine, add, random.Random(f"president-relabel/{seed}/{match}/searches"),
                         recorded, random.Random(f"president-record/{seed}/{match}/searches") if check else None)
        agents[0] = seat
        play_game(PresidentState.new_match(table, match_seed(seed, match)), agents,
                  random.Random(f"president-record/{seed}/{match}"))
        if next(seat.records, None) is not None:
            raise ReplayError(f"{path}: match {match} ended before all its records were replayed")
        seats.append(seat)
        played += length
        match += 1
    return head, records, seats


def reproduced(path: Path) -> bool:
    """Do today's searches, with the recorded seeds, give the recorded visits of the first position?
    (Records made before a change of the search's code do not: their searches are another master's.)"""
    return bool(_replay(path, 0, True, check=True)[2][0].same)


def relabel(path: Path, recorded: bool) -> tuple[dict, list[RecordedDecision], list[dict]]:
    """The records of `path` labelled over `LABEL_SEARCHES` searches of today's master (the recorded ones
    counting when `recorded`), and each independent search's own play."""
    add = INDEPENDENT - 1 if recorded else INDEPENDENT  # the recorded play is one independent search
    head, records, seats = _replay(path, add, recorded)
    out = [r for s in seats for r in s.out]
    alone = [a for s in seats for a in s.alone]
    exchanges = [r for r in records if r.gift]
    return {**head, "searches": LABEL_SEARCHES}, _in_order(records, out + exchanges), alone


def _in_order(records: list[RecordedDecision], relabelled: list[RecordedDecision]) -> list[RecordedDecision]:
    by_where = {r.where: r for r in relabelled}
    return [by_where.get(r.where, r) for r in records]


def relabel_file(path: Path, out_dir: Path) -> tuple[bool, int, int]:
    """Write `path` relabelled into `out_dir` (and its `.searches.jsonl`); whether its recorded searches
    were reproduced, the positions searched, and how many preferred plays changed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    recorded = reproduced(path)
    head, records, alone = relabel(path, recorded)
    about = {k: v for k, v in head.items() if k not in ("format", "version", "player")}
    side = out_dir / (path.stem + ".searches.jsonl")
    side.write_text("".join(json.dumps(a, separators=(",", ":")) + "\n" for a in alone), encoding="utf-8")
    target = out_dir / path.name
    part = target.with_suffix(".part")  # a run cut short leaves no half file under the records' name
    part.write_text("".join(record_lines(header(head["player"], **about), records)), encoding="utf-8")
    part.rename(target)
    changed = sum(a.preferred().play != b.preferred().play for a, b in zip(load_records(path)[1], records))
    return recorded, len(alone), changed


#: The search player `--smoke` records (a few iterations: a fraction of a second a search).
SMOKE_BOT = "ismcts:iterations=24,rollout=Classic"


def recorded_for_smoke(folder: Path, rounds: int = 1, seed: int = 3) -> Path:
    """A records file of SMOKE_BOT (2 searches a position) on the classic table, as `president record` writes."""
    from president.match.recording import record_matches, write_records
    from tui.president.options import DEFAULT_OPPONENTS

    path = folder / f"smoke-s{seed}.jsonl"
    opponents = list(DEFAULT_OPPONENTS)
    write_records(path, SMOKE_BOT, record_matches(SMOKE_BOT, opponents, preset("classic"), rounds, seed, searches=2),
                  seed=seed, rounds=rounds, opponents=opponents, searches=2)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="*", help="records files of `president record BOT --searches K`")
    parser.add_argument("--out-dir", type=Path, help="where the relabelled files go")
    add_smoke_option(parser)
    args = parser.parse_args()
    if args.smoke:
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="relabel-smoke-"))
        args.records, args.out_dir = [str(recorded_for_smoke(folder))], folder / "relabelled"
    if not args.records or args.out_dir is None:
        parser.error("name records files and --out-dir")
    for name in args.records:
        path = Path(name)
        if (args.out_dir / path.name).exists():
            continue
        began = time.process_time()
        recorded, positions, changed = relabel_file(path, args.out_dir)
        how = "reproduced" if recorded else "NOT reproduced: labelled by new searches only"
        print(f"{path.name}: recorded searches {how}"
              f"; {positions} positions, preferred play changed in {changed}, {time.process_time() - began:.0f} s CPU",
              flush=True)


if __name__ == "__main__":
    main()
