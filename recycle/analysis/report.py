"""The HTML report: one self-contained page (plots embedded as PNG) a newcomer reads to learn a game's character.

Plots (matplotlib, drawn off-screen): each player's expected normalised place
(the estimator's value of its best option: 1 first, 0 last) over the game in the
all-AI games (CardStock's lead curves), the branching factor
over the game, the win rate by seat in random play with intervals, and the
heuristics as bars with intervals against the distribution of the other
analysed games (a folder run) and the published CardStock values. Every
figure carries its one-sentence definition (`definitions`). Above them, what
a designer can act on (`designer`: the findings, the games that show them
with the command replaying each, the reference set); a comparison of
variants opens with its table and chart (`compare`).
"""
from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path

from recycle.analysis.definitions import definition
from recycle.analysis.compare import compare_html
from recycle.analysis.designer import findings_html
from recycle.analysis.findings import seat_win_rates
from recycle.analysis.heuristics import HEURISTICS
from recycle.analysis.metrics import BINS
from recycle.analysis.records import ALL_AI, RANDOM, GameLog
from recycle.analysis.reference import PUBLISHED, PUBLISHED_KEYS
from recycle.analysis.stats import Interval
from recycle.analysis.verdicts import Band, verdict

#: Reports of more games than this show only the heuristics chart for each.
FULL_PLOTS = 12
#: Where the plain-language verdicts change: fairness from "noticeably off" to "close to fair", drama
#: from "rarely behind" to "often behind".
FAIR, DRAMATIC = 0.85, 0.2

STYLE = """body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child,td.def{text-align:left}img{max-width:100%}.note{color:#555;font-size:.9em}"""


def _plt():
    import matplotlib

    matplotlib.use("Agg")  # no display: the report is written, never shown
    import matplotlib.pyplot as plt

    return plt


#: What the lead curves plot: the estimator's value of the player's best option, a mean of
#: (np - 1 - place) / (np - 1) over rollouts. Not a win rate: the seats' values need not sum to 1.
PLACE = "expected normalised place (1 first, 0 last)"
PLACE_AXIS = "expected normalised place\n(1 first, 0 last)"
#: The middle of each tenth of the game: where the curves by stretch are drawn.
PROGRESS = tuple((b + 0.5) / BINS for b in range(BINS))


def _png(fig, alt: str) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    _plt().close(fig)
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}">'


def lead_curves(logs: Sequence[GameLog], players: int) -> list[list[float | None]]:
    """Per player, its mean expected normalised place in each tenth of the game (all-AI games)."""
    sums = [[0.0] * BINS for _ in range(players)]
    counts = [[0] * BINS for _ in range(players)]
    for g in logs:
        m = len(g.decisions)
        for i, d in enumerate(g.decisions):
            b = min(BINS - 1, int(BINS * i / m))
            if d.view:
                for p, v in enumerate(d.view[:players]):
                    sums[p][b] += float(v)
                    counts[p][b] += 1
            elif d.values:
                sums[d.player][b] += float(d.lead)
                counts[d.player][b] += 1
    return [[s / c if c else None for s, c in zip(sums[p], counts[p])] for p in range(players)]


def typical(logs: Sequence[GameLog], k: int = 3) -> list[GameLog]:
    """Up to k games of middling length: the ones around the median number of decisions."""
    ranked = sorted(logs, key=lambda g: (len(g.decisions), g.index))
    if len(ranked) <= k:
        return ranked
    mid = len(ranked) // 2
    return ranked[max(0, mid - k // 2):max(0, mid - k // 2) + k]


def game_leads(g: GameLog) -> list[list[tuple[int, float]]]:
    """Per player, (decision number, expected normalised place): every player's view where the estimator gives it."""
    pts: list[list[tuple[int, float]]] = [[] for _ in range(g.players)]
    for i, d in enumerate(g.decisions):
        if d.view:
            for p, v in enumerate(d.view[:g.players]):
                pts[p].append((i, float(v)))
        elif d.values:
            pts[d.player].append((i, float(d.lead)))
    return pts


def _plots(analysis, corpus: Sequence) -> list[tuple[str, str]]:
    plt = _plt()
    n, out = analysis.players, []
    out.append(("Lead curves, averaged", _png(lead_figure(plt, analysis), f"Line chart: each seat's mean "
                f"{PLACE} in each tenth of the all-AI games of {analysis.name}.")))
    games = typical(analysis.logs.get(ALL_AI, []))
    if games:
        fig, axes = plt.subplots(1, len(games), figsize=(3.2 * len(games), 3), sharey=True, squeeze=False)
        for ax, g in zip(axes[0], games):
            for p, pts in enumerate(game_leads(g)):
                if pts:
                    ax.plot(*zip(*pts), label=f"seat {p}" + (" (won)" if g.ranks[p] == 1 else ""))
            ax.set(xlabel="decision", ylim=(0, 1), title=f"game {g.index}")
            ax.legend(fontsize="x-small")
        axes[0][0].set_ylabel(PLACE_AXIS)
        out.append((f"Lead curves of {len(games)} typical all-AI games",
                    _png(fig, f"Line charts, one per game: each seat's {PLACE} at every decision of "
                              f"{len(games)} all-AI games of middling length.")))
    curve = [(x, analysis.metrics.interval(f"branching_curve_{b}")) for b, x in enumerate(PROGRESS)
             if f"branching_curve_{b}" in analysis.metrics.point]
    if curve:
        fig, ax = plt.subplots(figsize=(6, 3.2))
        ax.plot([x for x, _ in curve], [iv.value for _, iv in curve], marker="o")
        ax.fill_between([x for x, _ in curve], [iv.low for _, iv in curve], [iv.high for _, iv in curve], alpha=.3)
        ax.set(xlabel="progress through the game", ylabel="options per decision",
               title="Branching factor over the game (random play, 95% band)")
        out.append(("Branching factor", _png(fig, "Line chart with a band: mean options per decision in each "
                                                  "tenth of the random games, with its 95% interval.")))
    rates = seat_win_rates(analysis.logs.get(RANDOM, []), n, analysis.config.seed, analysis.config.replicates)
    out.append(("Fairness by seat", _png(seat_figure(plt, rates), "Bar chart: each seat's share of the "
                                          "random games it won, with 95% intervals, against the fair share "
                                          f"1/{n} (dashed line).")))
    out.append(("Heuristics", _heuristics_png(plt, analysis, corpus)))
    return out


def lead_figure(plt, analysis):
    """Each seat's mean expected normalised place by tenth of the all-AI games."""
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for p, curve in enumerate(lead_curves(analysis.logs.get(ALL_AI, []), analysis.players)):
        pts = [(x, y) for x, y in zip(PROGRESS, curve) if y is not None]
        if pts:
            ax.plot(*zip(*pts), marker="o", label=f"seat {p}")
    ax.set(xlabel="progress through the game", ylabel=PLACE_AXIS, ylim=(0, 1),
           title="Each seat's expected normalised place (all-AI games)")
    ax.legend(fontsize="small")
    return fig


def seat_figure(plt, rates: Sequence[Interval]):
    """Bars of each seat's win rate with intervals; the seat axis in whole seats."""
    n = len(rates)
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.bar(range(n), [iv.value for iv in rates], yerr=[[iv.value - iv.low for iv in rates],
                                                       [iv.high - iv.value for iv in rates]], capsize=4)
    ax.axhline(1 / n, color="grey", linestyle="--", label="fair share")
    ax.set_xticks(range(n), [f"seat {p}" for p in range(n)])
    ax.set(ylabel="win rate", title="Wins by seat in random play (95% intervals)")
    ax.legend(fontsize="small")
    return fig


def _heuristics_png(plt, analysis, corpus: Sequence) -> str:
    others = sum(1 for a in corpus if a is not analysis)
    return _png(_heuristics_figure(plt, analysis, corpus),
                f"Bar chart: each heuristic of {analysis.name} with its 95% interval"
                + (f", boxes of the same heuristic over the {others} other games analysed" if others else "")
                + ", crosses at CardStock's published values.")


def _heuristics_figure(plt, analysis, corpus: Sequence):
    names = [h for h in HEURISTICS if h in analysis.heuristics.point]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ivs = [analysis.heuristics.interval(h) for h in names]
    ax.bar(range(len(names)), [iv.value for iv in ivs], color="#4c72b0", label=analysis.name,
           yerr=[[iv.value - iv.low if iv.known else 0 for iv in ivs],
                 [iv.high - iv.value if iv.known else 0 for iv in ivs]], capsize=3)
    others = [[a.heuristics.point[h] for a in corpus if h in a.heuristics.point and a is not analysis] for h in names]
    boxes = any(others)
    if boxes:
        ax.boxplot([o or [float("nan")] for o in others], positions=range(len(names)), widths=.5,
                   showfliers=False, manage_ticks=False)
    pub = [(i, v) for i, h in enumerate(names) for game in PUBLISHED.values()
           for k, v in zip(PUBLISHED_KEYS, game) if k == h]
    if pub:
        ax.scatter(*zip(*pub), color="grey", marker="x", label="CardStock's published games", zorder=3)
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right")
    ax.set(title="Heuristics (bars: this game, 95% intervals"
                 + ("; boxes: the other games analysed)" if boxes else ")"))
    ax.legend(fontsize="small")
    return fig


def _rows(analysis) -> str:
    out = []
    for name, (_, b) in analysis.figures().items():
        if name.startswith("branching_curve_"):
            continue
        iv = b.interval(name)
        out.append(f"<tr><td>{html.escape(name)}</td><td>{iv.value:.3f}</td><td>{iv.bounds()}</td>"
                   f"<td>{b.games_needed(name) if iv.known else '-'}</td>"
                   f"<td class='def'>{html.escape(definition(name))}</td></tr>")
    return ("<table><tr><th>figure</th><th>value</th><th>95% interval</th>"
            "<th>games for width &lt; 0.05 (counts: 5% of the value)</th><th>what it is</th></tr>"
            + "".join(out) + "</table>")


def character(analysis) -> list[str]:
    """Plain sentences on what the numbers say, for a reader who does not know the formulas; each
    verdict follows from the figure's interval (`verdicts`), "cannot tell yet" when it spans two."""
    h, n, games = analysis.heuristics, analysis.players, analysis.config.games
    said = []

    def told(name: str, label: str, bands) -> Interval | None:
        if name not in h.point:
            return None
        iv = h.interval(name)
        said.append(f"{label} {iv.value:.2f} {iv.bounds(2)}: {verdict(iv, bands, games).sentence()}")
        return iv

    told("fairness", "Fairness", (Band(-math.inf, FAIR, f"seat 0 wins noticeably more or less often than 1 in {n} "
                                                   "in random play"),
                                  Band(FAIR, math.inf, "seat 0 wins close to its fair share in random play")))
    told("order", "Order", (Band(-math.inf, 0.0, "luck dominates (the estimating AI does no better than random "
                                                 "play)"),
                            Band(0.0, math.inf, "skill matters (the estimating AI beats random players)")))
    m = h.interval("meaningful_moves") if "meaningful_moves" in h.point else None
    if m:
        said.append(f"Meaningful moves {m.value:.2f} {m.bounds(2)}: on average the best and worst option differ by "
                    f"{100 * m.value:.0f} points of expected normalised place (1 first, 0 last).")
    d = told("drama", "Drama", (Band(-math.inf, DRAMATIC, "winners were rarely behind along the way"),
                                Band(DRAMATIC, math.inf, "winners were often behind before they won")))
    if d and n > 2 and analysis.config.drama == "cardstock" and d.value < DRAMATIC:
        said.append("With more than two players a shared second place is already worth at least 0.5, "
                    "CardStock's drama threshold; --drama blog uses the blog's higher threshold.")
    return said


def write_report(folder: str | Path, analyses: Sequence, corpus: Sequence = (), title: str | None = None,
                 comparison=None) -> Path:
    """Write `index.html` into `folder`: every analysis's tables and plots; returns its path.

    With a `comparison` (`compare.Comparison`: variants of one game, not games), the page opens
    with its table and a chart of the variants side by side, and no chart shows the variants as
    a distribution of games."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    corpus = [] if comparison else list(corpus) or list(analyses)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title or 'Game analysis')}"
             f"</title><style>{STYLE}</style></head><body><h1>{html.escape(title or 'Game analysis')}</h1>"]
    if comparison:
        parts.append(compare_html(comparison, _png))
    elif len(analyses) > 1:
        parts.append(_corpus_section(analyses))
    for a in analyses:
        c = a.config
        parts.append(f"<h2>{html.escape(a.name)}</h2><p class='note'>{a.players} players; {c.games} games in each "
                     f"of three sets (all random, estimating AI at seat 0, all estimating AI); estimator "
                     f"{html.escape(c.estimator)} with {c.rollouts} rollouts per option; seed {c.seed}; "
                     f"95% intervals: bias-corrected bootstrap from {c.replicates} resamples of the games (order "
                     f"and the first player's win rate: Wilson score intervals; variance: none, a maximum).</p>")
        parts.append("<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in character(a)) + "</ul>")
        parts.append(findings_html(a))
        parts.append("<h3>Every figure</h3>" + _rows(a))
        # A big folder gets one chart per game, not five: the page stays a few megabytes.
        plots = _plots(a, corpus or [a]) if len(analyses) <= FULL_PLOTS else [
            ("Heuristics", _heuristics_png(_plt(), a, corpus or [a]))]
        for caption, img in plots:
            parts.append(f"<h3>{html.escape(caption)}</h3>{img}")
    parts.append("<p class='note'>Formulas: CardStock's heuristics and TAG's metrics as docs/analysis.md "
                 "in the project's repository defines them.</p></body></html>")
    path = folder / "index.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def _corpus_section(analyses: Sequence) -> str:
    plt = _plt()
    names = [h for h in HEURISTICS if any(h in a.heuristics.point for a in analyses)]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.boxplot([[a.heuristics.point[h] for a in analyses if h in a.heuristics.point] for h in names])
    ax.set_xticks(range(1, len(names) + 1), names, rotation=35, ha="right")
    ax.set(title=f"Heuristics over {len(analyses)} games")
    head = "".join(f"<th title='{html.escape(definition(h), quote=True)}'>{h}</th>" for h in names)
    rows = "".join(f"<tr><td>{html.escape(a.name)}</td>" + "".join(
        f"<td>{a.heuristics.point[h]:.2f}</td>" if h in a.heuristics.point else "<td>-</td>" for h in names)
        + "</tr>" for a in analyses)
    alt = f"Box plot: the spread of each heuristic over the {len(analyses)} games analysed."
    return f"<h2>All {len(analyses)} games</h2>{_png(fig, alt)}<table><tr><th>game</th>{head}</tr>{rows}</table>"
