"""The findings and the reference comparison, as the report shows them (HTML) and as the console does.

One source for both: the findings (`findings`) and the reference set
(`reference`) of an analysis; the HTML section lists every finding with its
games and the exact command that replays each, the console a compact table
that fits 80 columns and the replay command once.
"""
from __future__ import annotations

import html

from rich.table import Table

from recycle.analysis.definitions import definition
from recycle.analysis.reference import COMPARED, describe_source, headline, reference

def findings_html(analysis) -> str:
    """The report's "what a designer can act on" section of one analysis, with the reference table."""
    ref, found = reference(), analysis.findings()
    parts = ["<h3>What a designer can act on</h3>"]
    for f in found:
        parts.append(f"<h4>{html.escape(f.title)}</h4><p>" + "<br>".join(html.escape(s) for s in f.lines) + "</p>")
        placing = reference_line(analysis, f)
        if placing:
            parts.append(f"<p class='note'>{html.escape(placing)}</p>")
        if f.examples:
            items = []
            for e in f.examples:
                command = (f" <code>{html.escape(analysis.replay.format(index=e.index))}</code>"
                           if analysis.replay else "")
                items.append(f"<li>game {e.index} (seed {e.seed}): {html.escape(e.note)}.{command}</li>")
            parts.append("<p class='note'>Games that show it (each command plays that game again, move by "
                         "move):</p><ul>" + "".join(items) + "</ul>")
    parts.append(reference_table_html(analysis, found, ref))
    return "\n".join(parts)


def reference_line(analysis, finding) -> str:
    """Where the finding's headline figure falls in the reference set ("" when it has none there)."""
    if finding.value is None:
        return ""
    placing = reference().placing(finding.key, finding.value.value, analysis.name)
    return f"Against the reference set: {placing}." if placing else ""


def reference_table_html(analysis, found, ref) -> str:
    values = headline(analysis, found)
    intervals = {f.key: f.value for f in found if f.value is not None}
    rows = []
    for name in COMPARED:
        if name not in values:
            continue
        iv = intervals.get(name) or analysis.heuristics.interval(name)
        shipped, published = ref.others(name, analysis.name), ref.published(name)
        rng = (lambda d: f"{min(d.values()):.2f} to {max(d.values()):.2f} ({len(d)})" if d else "-")
        below = sum(1 for x in shipped.values() if x < values[name])
        rows.append(f"<tr><td>{name}</td><td>{values[name]:.3f} {iv.bounds()}</td><td>{rng(shipped)}</td>"
                    f"<td>{below if shipped else '-'}</td><td>{rng(published)}</td>"
                    f"<td class='def'>{html.escape(definition(name))}</td></tr>")
    return ("<h4>Against the reference set</h4><table><tr><th>figure</th><th>this game [95% interval]</th>"
            "<th>shipped games: range (games)</th><th>shipped games below</th><th>published games: range "
            "(games)</th><th>what it is</th></tr>" + "".join(rows) + "</table>"
            f"<p class='note'>{html.escape(describe_source(ref.source))}; published games: CardStock's authors' "
            "figures for Agram, Hearts, Ninety-Eight and Stealing Bundles (docs/analysis.md).</p>")


def findings_table(analysis) -> Table:
    """The console's compact form: a row per finding, its sentences and the games that show it."""
    table = Table(title=f"{analysis.name}: what a designer can act on",
                  caption="games: their numbers in this analysis (replayed by the command below)"
                  if analysis.replay else None)
    table.add_column("finding", overflow="fold")
    table.add_column("what the games say", overflow="fold")
    table.add_column("games", overflow="fold")
    for f in analysis.findings():
        text = " ".join((*f.lines, reference_line(analysis, f))).strip()
        table.add_row(f.title, text, ", ".join(str(e.index) for e in f.examples) or "-")
    return table


def replay_hint(analysis) -> str | None:
    """The command that replays game N of the analysis (printed whole, never wrapped, to be copied)."""
    return f"replay game N: {analysis.replay.format(index='N')}" if analysis.replay else None
