"""Counted options: a choice's options found without trying them (a speed layer for random playouts).

Finding options (`explorers`) runs every option's actions and undoes them, so that
an option is its list of effects. A random playout needs only how many options
there are and the effects of the one drawn. Where a choice's shape proves that
trying would change nothing else, `leaves(node, env, st)` walks its conditions and
`any` loops exactly as exploring does and records each option as a *leaf*:
which action it runs (its site) with the values of the variables bound on the way.
Only the drawn leaf is run (`Leaves.play`). The proof, per site, is that its action

- always records at least one effect (so no option is dropped as doing nothing),
- cannot fail (so no error is missed): only integer writes of values that cannot
  fail, moves of the cards a variable holds, `repeat all` moves between locations,
  and conditionals on comparisons of such values;
- cannot read like another option (so no two would be merged, see `flow.Machine.merged`):
  sites whose numbers of effects can be equal never both offer options, and the
  options of one site move different cards the chooser sees, at the same place among
  their effects (in games where every card has its own name and no text holds a ';').

Trying options also leaves the places they moved cards to, empty once undone. Nothing tells
an empty place from an absent one but `(indexed ...)`, which lists them: games that use it
are explored.

What can only be known in the position is checked there (`Machine.offer`): the
number of options, the sites present, the step bound, the point maps read. When
anything is not proven, the options are explored as always: same options, same
errors, same steps.
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.cardsets import SIFT_OPS, fast_leaves, fast_sift, remembered, sift_into_of
from recycle.interp.codegen import IMPURE
from recycle.interp.source import Source
from recycle.interp.evaluate import MAX_INT
from recycle.interp.proof import Proof, Site
from recycle.interp.store import PointMap


class Plan:
    """How to count one choice's options: the generated walk and its sites."""

    __slots__ = ("walk", "sites", "overlaps", "points", "ranked", "steps", "apart", "small", "counter")

    def __init__(self, walk, sites: list[Site], points: frozenset, ranked: frozenset) -> None:
        self.walk, self.sites, self.points, self.ranked = walk, sites, points, ranked
        self.counter = None  # `CountingMixin.count`'s function, made at its first count
        self.small: dict = {}  # key -> the point map last found there with small scores
        # pairs of sites whose options could have as many effects: they must not both offer
        self.overlaps = tuple((i, j) for i, a in enumerate(sites) for j, b in enumerate(sites[:i])
                              if not _disjoint(a, b))
        # at most a + b x cards steps an option (`quiet.steps_bound`)
        self.steps = (max(s.steps[0] for s in sites), max(s.steps[1] for s in sites))
        self.apart = all(s.apart for s in sites)

    def clash(self, leaves: list) -> bool:
        """Do two sites that could read alike both offer options here? (Leaves come in the
        order of their sites, so a pair outside the first and the last leaf's sites is not.)"""
        first, last, present = leaves[0][0], leaves[-1][0], None
        for i, j in self.overlaps:  # (i > j)
            if j < first or i > last:
                continue
            if present is None:
                present = {leaf[0] for leaf in leaves}
            if i in present and j in present:
                return True
        return False


def _disjoint(a: Site, b: Site) -> bool:
    return (a.high is not None and a.high < b.low) or (b.high is not None and b.high < a.low)


class Leaves(list):
    """The options of a counted choice: (site, value, ...) each, in the order exploring finds them."""

    __slots__ = ("plan", "env", "ex")

    def play(self, index: int, st) -> None:
        """Do option `index`: run its site's action where the walk bound its variables."""
        leaf = self[index]
        site = self.plan.sites[leaf[0]]
        (site.run or self.ex.leaf_runner(site))(self.env, st, *leaf[1:])
        st.steps = 0  # as after applying an explored option: the count starts at the choice


#: What is known of point maps (immutable), by the map's id: (the map, so that its id is not
#: reused meanwhile; the number of cards asked about; the answer).
_SMALL: dict[int, tuple] = {}
_DISTINCT: dict[int, tuple] = {}


def small_scores(pm) -> bool:
    """Can no score of this point map fail or leave the 128-bit bound?"""
    got = _SMALL.get(id(pm))
    return got[2] if got is not None and got[0] is pm else _learn(_SMALL, pm, (), _small)


def _distinct_scores(pm, attrs: list) -> bool:
    """`distinct_scores`, its answers kept in `_DISTINCT`."""
    got = _DISTINCT.get(id(pm))
    return got[2] if got is not None and got[0] is pm and got[1] == len(attrs) else \
        _learn(_DISTINCT, pm, attrs, _distinct)


def _learn(memo: dict, pm, attrs, question) -> bool:
    if len(memo) > 64:
        memo.clear()
    answer = question(pm, attrs)
    memo[id(pm)] = (pm, len(attrs), answer)
    return answer


def _small(pm, attrs) -> bool:
    return type(pm) is PointMap and all(type(p) is int for _, p in pm.awards) \
        and sum(abs(p) for _, p in pm.awards) <= MAX_INT


def _distinct(pm, attrs) -> bool:
    return small_scores(pm) and len({pm.score(c, attrs) for c in range(len(attrs))}) == len(attrs)


#: `distinct_scores(pm, attrs)`: does this point map score every card of the game differently (so max
#: and min never tie)? Asked at every counted position, answered once per map (in C where built).
distinct_scores = remembered(_distinct) or _distinct_scores


#: A comparison read the other way round: (< A B) is (> B A).
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def _is_var(node, name: str) -> bool:
    return type(node) is T.Var and node.name == name


def steady(node, fixed_key, ranked: set) -> bool:
    """Does evaluating `node` draw nothing (no random number, no new name)? A max or min by a
    stored map (at a key `fixed_key(node, ())` finds) draws only for a tie: its map's key goes
    to `ranked`, for the position to check that the map scores every card apart."""
    for x in T.walk(node):
        if type(x) in (T.MaxCard, T.MinCard) and type(x.using) is T.PointStorage \
                and fixed_key(x.using, ()) is not None:
            ranked.add(fixed_key(x.using, ()))
        elif isinstance(x, IMPURE):
            return False
    return True


def count_source(src: Source, indent: int, plan: Plan, walk, max_steps: int, steps: str = "st.steps") -> None:
    """Source setting `_ro` to the options counted by `plan` in the env `env` (`Leaves`, `_rn` of
    them), or to None where they must be explored (`CountingMixin.count`; a stage's rounds,
    `rounds.counted`): no tie for max or min to draw for, the walk, the step bound, the scores
    of the point maps. `walk(indent) -> bool` writes the walk in (appending to `_out`), where it
    can; else (or `walk` None) `plan.walk` is called. A stage's rounds (`src.places` set) have
    set `_ro` to their own empty list; `steps`: where the step count is (their local)."""
    src.ns.update(_Leaves=Leaves, _walk=plan.walk, _distinct=distinct_scores, _small=small_scores,
                  _psmall=plan.small)
    emit = src.emit
    if src.places is None:
        emit(indent, "_ro = _Leaves()")
    else:  # (nothing here stores a point map: each is read once)
        src.pointed = {}
    inner, head = indent, len(src.lines)
    if plan.ranked and src.places is not None:  # (a stage's rounds: the last map proven kept in a local)
        for key in plan.ranked:
            if src.steady:  # (the map read once a call, `Source.steady`: asked once too)
                emit(indent, f"if not {src.once(f'((_rp := {src.points(key)}) is not None and _distinct(_rp, _attrs))')}:")
                emit(indent + 1, "_ro = None")
                continue
            proven = src.proven("distinct", key)
            emit(indent, f"if _ro is not None and (_rp := {src.points(key)}) is not {proven}:")
            emit(indent + 1, "if _rp is not None and _distinct(_rp, _attrs):")
            emit(indent + 2, f"{proven} = _rp")
            emit(indent + 1, "else:")
            emit(indent + 2, "_ro = None")
        emit(indent, "if _ro is not None:")
        inner += 1
    elif plan.ranked:  # max and min by these maps draw for ties: there must be none
        emit(indent, f"for _rk in {src.const(tuple(plan.ranked))}:")
        emit(indent + 1, "_rp = st.points.get(_rk)")
        emit(indent + 1, "if _rp is None or not _distinct(_rp, _attrs):")
        emit(indent + 2, "_ro = None")
        emit(indent + 2, "break")
        emit(indent, "if _ro is not None:")
        inner += 1
    emit(inner, "try:")
    emit(inner + 1, "_out = _ro")  # the walk written in where it can be (the same leaves), else called
    mark = len(src.lines)
    if walk is None or not walk(inner + 1):
        del src.lines[mark:]
        emit(inner + 1, "_walk(env, st, _ro)")
    emit(inner, "except Exception:")  # exploring raises it, or first what trying an earlier option raises
    emit(inner + 1, "_ro = None")
    emit(indent, "if _ro is not None:")
    emit(indent + 1, "_rn = len(_ro)")
    a, b = plan.steps
    per = src.once(f"({a} + {b} * len(st.where))") if b else str(a)  # (cards are made in the setup only)
    # trying them could reach the step bound: the error must come where it does
    emit(indent + 1, f"if {steps} + _rn * {per} > {max_steps}:")
    emit(indent + 2, "_ro = None")
    for key in plan.points:  # (point maps are immutable: each asked about once)
        name = src.const(key)
        if src.steady:  # (the map read once a call, `Source.steady`: asked once too)
            src.ns["_known_small"] = known_small
            emit(indent, f"if not {src.once(f'_known_small(_psmall, {name}, {src.points(key)})')}:")
            emit(indent + 1, "_ro = None")
            continue
        if src.places is not None:  # (a stage's rounds: the last map found small kept in a local)
            small = src.proven("small", key)
            emit(indent, f"if _ro is not None and (_rp := {src.points(key)}) is not {small}:")
            emit(indent + 1, f"if _rp is None or _psmall.get({name}) is _rp:")
            emit(indent + 2, f"{small} = _rp")
            emit(indent + 1, "elif _small(_rp):")
            emit(indent + 2, f"_psmall[{name}] = {small} = _rp")
            emit(indent + 1, "else:")
            emit(indent + 2, "_ro = None")
            continue
        emit(indent, f"if _ro is not None and (_rp := st.points.get({name})) is not None "
                     f"and _psmall.get({name}) is not _rp:")
        emit(indent + 1, "if _small(_rp):")
        emit(indent + 2, f"_psmall[{name}] = _rp")
        emit(indent + 1, "else:")
        emit(indent + 2, "_ro = None")
    if src.pointed is not None:
        src.read_points(head, indent)


def known_small(cache: dict, key, pm) -> bool:
    """`small_scores` of the map `pm` stored at `key` (None: no map, no score), the map last
    found so kept in `cache` by its key."""
    if pm is not None and cache.get(key) is not pm:
        if not small_scores(pm):
            return False
        cache[key] = pm
    return True


def site_source(src: Source, indent: int, site: Site, env: str, values: list[str], stmt) -> None:
    """Source doing `site`'s action, its variables bound to the Python locals `values` over the
    env `env` (`CountingMixin.leaf_runner`; the drawn option of a stage's rounds, `rounds`):
    nothing to record (a playout keeps none), no step to count (the count starts again at the
    choice after, `Leaves.play`), and none can fail (proven): `src` is quiet and bare meanwhile."""
    bound: dict = {}
    for name, kind, value in zip(site.names, site.kinds, values):
        env, bound = src.bind(indent, env, bound, name, kind, value)
    was = src.quiet, src.bare
    src.quiet = src.bare = True
    stmt(src, site.body, env, bound, indent, True, 0)
    src.quiet, src.bare = was


class CountingMixin:
    """`leaves(choice, env, st)` for `actions.Executor` (needs `value`, `items`, `flat`, `runner`, `pure`)."""

    def leaves(self, node, env: dict, st) -> Leaves | None:
        """The choice's options as leaves, when its shape proves them (else None: explore)."""
        plan = self.plan_of(node)
        return None if plan is None else self.count(plan, env, st)

    def plan_of(self, node) -> Plan | None:
        """How to count the options of choice `node`, or None: they are explored."""
        plan = self._plans.get(id(node), False)
        if plan is False:
            plan = self._plans[id(node)] = self._plan(node)
        return plan

    def count(self, plan: Plan, env: dict, st) -> Leaves | None:
        """`leaves`, its plan known."""
        counter = plan.counter
        if counter is None:  # (`count_source`, as a stage's rounds write it in)
            src = Source({**self._statement_base(), "_plan": plan, "_cx": self})
            src.emit(0, "def f(env, st):")
            count_source(src, 1, plan, None, self.max_steps)
            src.emit(1, "if _ro is not None:")
            src.emit(2, "_ro.plan, _ro.env, _ro.ex = _plan, env, _cx")
            src.emit(1, "return _ro")
            counter = plan.counter = src.build(plan)
        return counter(env, st)

    def leaf_runner(self, site: Site):
        """`run(env, st, *values)`: the site's action as `runner` runs it, its variables bound."""
        src = Source(self._statement_base())
        values = [f"_v{i}" for i in range(len(site.names))]
        src.emit(0, f"def f(env, st, {''.join(v + ', ' for v in values)}):")
        site_source(src, 1, site, "env", values, self.stmt)
        try:
            site.run = src.build(site.body)
        except (SyntaxError, RecursionError, MemoryError):  # beyond Python's limits: the runner
            run = self.runner(site.body)
            site.run = lambda env, st, *values: run({**env, **dict(zip(site.names, values))}, st)
        return site.run

    def _plan(self, choice) -> Plan | None:
        if any(type(n) is T.IndexedLocations for n in T.walk(self.table.game)):
            # Trying options leaves the empty places they moved cards to; `(indexed ...)` lists
            # those too, so counting (which tries none) could list fewer.
            return None
        src = Source(self._statement_base())
        src.emit(0, "def f(env, st, _out):")
        walked = self.walk_into(src, choice, 1)
        if walked is None:
            return None
        try:
            return Plan(src.build(choice), *walked)
        except (SyntaxError, RecursionError, MemoryError):
            return None

    def walk_into(self, src: Source, choice, indent: int) -> tuple | None:
        """Source appending the choice's leaves to `_out` (`env`: its env), written into `src`
        at `indent` -> (its sites, the point maps it scores by, those max and min pick by);
        None: not provable (or no option can be counted)."""
        sites: list = []
        points: set = set()
        ranked: set = set()
        for option in choice.options:
            if not self._walk(src, option, "env", {}, indent, (), sites, (points, ranked)):
                return None
        return (sites, frozenset(points), frozenset(ranked)) if sites else None

    def steady(self, node, ranked: set) -> bool:
        """`steady(node, self.fixed_key, ranked)`."""
        return steady(node, self.fixed_key, ranked)

    def _walk(self, src: Source, n, env: str, bound: dict, indent: int, path: tuple, sites: list, maps) -> bool:
        """Source recording the leaves under `n` as exploring finds them; False: not provable.
        `maps`: (point maps whose scores are written, point maps max and min pick cards by)."""
        kind = type(n)
        if indent > 20:
            return False
        if kind is T.Conditional:  # a false condition: nothing done, no option
            if not self.steady(n.condition, maps[1]):
                return False  # (counted and then explored, a draw would be made twice)
            # (steady: its max and min cannot tie, `count` checks that first; so what falls back
            # to the closure on a Python error draws nothing either)
            cond, _ = self.value(src, n.condition, env, bound, indent, steady=True)
            src.emit(indent, f"if {cond}:")
            return self._walk(src, n.action, env, bound, indent + 1, path, sites, maps)
        if kind is T.AnyDo:  # an `any` over nothing: no option
            if not self.steady(n.collection, maps[1]):
                return False
            items, ikind, _ = self.items(src, n.collection, env, bound, indent)
            if type(n.action) is T.Conditional:  # the state is the same for every element: see `hoist`
                self.hoist(src, n.action.condition, env, bound, indent)
                sifted = self._sifted(src, n, env, bound, indent, items, maps)
                if sifted is not None:  # the sets that beat a bound, found and recorded in one call
                    x = src.temp()
                    done = self._site(src, n.action.action, indent, path + ((n, x, ikind),), sites, maps, sifted)
                    src.hoisted.clear()
                    return done
            x = src.temp()
            if type(n.action) not in (T.Conditional, T.AnyDo):  # an option per element
                return self._site(src, n.action, indent, path + ((n, x, ikind),), sites, maps, (fast_leaves, items))
            src.emit(indent, f"for {x} in {items}:")
            inner, ibound = src.bind(indent + 1, env, bound, n.var.name, ikind, x)
            done = self._walk(src, n.action, inner, ibound, indent + 1, path + ((n, x, ikind),), sites, maps)
            src.hoisted.clear()
            return done
        return self._site(src, n, indent, path, sites, maps)

    def _sifted(self, src: Source, n, env: str, bound: dict, indent: int, items: str, maps) -> tuple | None:
        """(`sift_into`, its arguments' source after `out, head`) recording the elements of `(any SETS
        'T ((OP (score (max 'T using P) using Q) BOUND) ACTION))` whose condition holds (`cardsets.sift`),
        ACTION a site; None: not of that shape. The condition is steady and BOUND does not read 'T,
        so it is the same for every set; what cannot be judged (a tie, a value that is not a card)
        raises, and the options are explored."""
        cond, var = n.action.condition, n.var.name
        if type(cond) is not T.Compare or type(n.action.action) in (T.Conditional, T.AnyDo, T.Choice):
            return None
        op, scored, other = cond.op, cond.left, cond.right
        if type(scored) is not T.Score:
            op, scored, other = _FLIPPED.get(op), cond.right, cond.left
        if op not in SIFT_OPS or type(scored) is not T.Score or type(scored.card) not in (T.MaxCard, T.MinCard) \
                or not _is_var(scored.card.cards, var) or any(_is_var(x, var) for x in T.walk(other)) \
                or any(_is_var(x, var) for x in T.walk((scored.using, scored.card.using))):
            return None
        if not self.steady(cond, maps[1]):  # (also: the map max and min pick by goes to `ranked`)
            return None
        using = (scored.card.using, scored.using)
        if any(type(x) not in (T.PointStorage, T.PointMap) for x in using):  # (maps, before any line is written)
            return None
        pieces = [self.value(src, x, env, bound, indent, steady=True) for x in (*using, other)]
        if pieces[0][1] != "points" or pieces[1][1] != "points":
            return None
        sign = 1 if type(scored.card) is T.MaxCard else -1
        (pick, _), (score, _), (limit, _) = pieces
        return sift_into_of(fast_sift), f"{items}, {pick}, {sign}, {score}, _attrs, {SIFT_OPS[op]}, {limit}"

    def _site(self, src: Source, n, indent: int, path: tuple, sites: list, maps, into: tuple | None = None) -> bool:
        """Source recording action `n` as a leaf, its variables bound by `path`; False: not provable.
        `into`: (`leaves` or `sift_into`, its arguments after `out, head`): the last variable runs
        over those elements, one leaf each, all appended in one call (in C)."""
        if type(n) is T.Choice or self.flat(n) is None:
            return False
        site = Proof(self, path).site(n, *maps)
        if site is None:
            return False
        sites.append(site)
        if into is None:
            src.emit(indent, f"_out.append(({len(sites) - 1}, {''.join(x + ', ' for _, x, _ in path)}))")
        else:  # (site, the outer values..., each element): as the loop would append them
            head = f"({len(sites) - 1}, {''.join(x + ', ' for _, x, _ in path[:-1])})"
            src.emit(indent, f"{src.call(into[0])}(_out, {head}, {into[1]})")
        return True


__all__ = ["CountingMixin", "Leaves", "Plan", "count_source", "distinct_scores", "site_source", "small_scores", "steady"]
