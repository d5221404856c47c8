"""Analyses side by side (`president analyze --compare`): every figure with its interval, and a mark where a
variant differs from the first beyond doubt; one source for the console's table and the report's.

A variant's figure is marked `*` when the 95% interval of its difference from
the first variant (from the paired bootstrap replicates, `stats.difference`)
excludes 0. No correction is made for the many figures compared: with
thirty-odd figures, one or two marks are expected by chance.
"""
from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table

from recycle.analysis.definitions import definition
from recycle.analysis.heuristics import HEURISTICS
from recycle.analysis.stats import Difference, Interval, difference

MARK = "*"


@dataclass(frozen=True)
class Cell:
    """One variant's figure: its interval, and whether it differs from the first variant's (None: the first)."""

    interval: Interval
    significant: bool | None = None

    def text(self, number, bounds) -> str:
        mark = f" {MARK}" if self.significant else ""
        return f"{number(self.interval.value)}{mark} {bounds(self.interval)}"


@dataclass(frozen=True)
class Comparison:
    """The analyses compared and, for each after the first, every shared figure's difference from the first."""

    analyses: tuple
    differences: tuple[dict[str, Difference], ...]

    @property
    def base(self):
        return self.analyses[0]

    def caption(self) -> str:
        return (f"value [95% interval]; {MARK}: differs from {self.base.name} (the 95% interval of the difference "
                "excludes 0; no correction for the many figures compared)")

    def rows(self) -> list[tuple[str, list[Cell | None]]]:
        """(figure, a cell per analysis: None where the analysis lacks the figure), in the first's order."""
        out = []
        for name, (_, b) in self.base.figures().items():
            if name.startswith("branching_curve_"):
                continue
            cells: list[Cell | None] = [Cell(b.interval(name))]
            for a, diffs in zip(self.analyses[1:], self.differences):
                figures = a.figures()
                if name not in figures:
                    cells.append(None)
                    continue
                d = diffs.get(name)
                cells.append(Cell(figures[name][1].interval(name), d is not None and d.significant))
            out.append((name, cells))
        return out

    def marked(self) -> dict[str, list[str]]:
        """Figure -> the analyses marked as differing from the first (what both tables mark)."""
        return {name: [a.name for a, c in zip(self.analyses, cells) if c and c.significant]
                for name, cells in self.rows()}

    def to_json(self, index: int) -> dict:
        """Analysis `index`'s (>= 1) differences from the first, for its JSON."""
        return {"against": self.base.name, **{name: {**d.diff.to_json(), "significant": d.significant}
                                              for name, d in self.differences[index - 1].items()}}


def compare(analyses: Sequence) -> Comparison:
    """Every analysis after the first against the first, figure by figure."""
    base = analyses[0]
    diffs = []
    for a in analyses[1:]:
        figures = [n for n in a.figures() if n in base.figures() and not n.startswith("branching_curve_")]
        diffs.append({n: difference(base.figures()[n][1], a.figures()[n][1], n) for n in figures})
    return Comparison(tuple(analyses), tuple(diffs))


def compare_table(c: Comparison) -> Table:
    """The console's table (fits 80 columns through `print_table`: each cell wraps at its spaces)."""
    from recycle.analysis.result import figure_label, interval_text, number_text

    cfg = c.base.config
    table = Table(title=f"Variants compared: {cfg.games} games per set, estimator {cfg.estimator}, seed "
                        f"{cfg.seed}", caption=c.caption())
    table.add_column("figure", overflow="fold")
    for a in c.analyses:
        table.add_column(a.name, justify="right", overflow="fold")
    for name, cells in c.rows():
        table.add_row(figure_label(name), *(x.text(number_text, interval_text) if x else "-" for x in cells))
    return table


def compare_html(c: Comparison, png) -> str:
    """The report's top section: the same table (intervals, marks) and a chart of each variant's heuristics."""
    head = "".join(f"<th>{html.escape(a.name)}</th>" for a in c.analyses)
    body = []
    for name, cells in c.rows():
        tds = "".join("<td>-</td>" if x is None else
                      f"<td>{x.interval.value:.3f}{' ' + MARK if x.significant else ''} {x.interval.bounds()}</td>"
                      for x in cells)
        body.append(f"<tr><td>{html.escape(name)}</td>{tds}<td class='def'>{html.escape(definition(name))}</td></tr>")
    table = (f"<table><tr><th>figure</th>{head}<th>what it is</th></tr>{''.join(body)}</table>"
             f"<p class='note'>{html.escape(c.caption())}.</p>")
    return f"<h2>Variants compared</h2>{table}{png(variants_figure(c), variants_alt(c))}"


def variants_alt(c: Comparison) -> str:
    return (f"Grouped bar chart: each heuristic of the {len(c.analyses)} variants "
            f"({', '.join(a.name for a in c.analyses)}) with its 95% interval, {MARK} above a variant's bar where "
            f"it differs from {c.base.name}'s.")


def variants_figure(c: Comparison):
    from recycle.analysis.report import _plt

    plt = _plt()
    names = [h for h in HEURISTICS if all(h in a.heuristics.point for a in c.analyses)]
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    width = 0.8 / len(c.analyses)
    for k, a in enumerate(c.analyses):
        ivs = [a.heuristics.interval(h) for h in names]
        xs = [i + (k - (len(c.analyses) - 1) / 2) * width for i in range(len(names))]
        ax.bar(xs, [iv.value for iv in ivs], width, label=a.name,
               yerr=[[iv.value - iv.low if iv.known else 0 for iv in ivs],
                     [iv.high - iv.value if iv.known else 0 for iv in ivs]], capsize=2)
        diffs = c.differences[k - 1] if k else {}
        for x, h, iv in zip(xs, names, ivs):
            if h in diffs and diffs[h].significant:  # the table's mark, on the bar it marks
                ax.annotate(MARK, (x, max(iv.value, iv.high if iv.known else iv.value)), ha="center",
                            xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right")
    ax.set(title=f"Heuristics of each variant (95% intervals; {MARK}: differs from {c.base.name})")
    ax.legend(fontsize="small")
    return fig
