"""Showing a tournament summary (`Tally.summary()`): rich tables, CSV rows, a plot.

Game-agnostic: a game passes its names for the first and last place (President
and Loser) and for every place.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from rich.table import Table
from rich.console import JustifyMethod

from recycle.kernel.tables import add_name_column

INTERVALS = ("95% intervals over per-deal totals (deals are the independent unit): "
             "Wilson score with design-effect n for rates, Student t for means")
#: The figure the bots are ranked by: the one every view of the table shows.
RANKED_BY = "mean_points"


@dataclass(frozen=True)
class Column:
    """One column of the bots' table: its header in words, the cell of a bot, and whether only `--wide` shows it."""

    header: str
    cell: Callable[[dict[str, Any]], str]
    wide_only: bool = False
    justify: JustifyMethod = "right"


def ranked(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Bots best first, by the figure the table shows (mean points a round); ties keep the command line's order."""
    return sorted(summary["bots"], key=lambda bot: -(bot[RANKED_BY]["value"] or 0.0))


def _pct(est: dict[str, Any]) -> str:
    """`30.0% (18-45)`: the space lets a narrow column put the interval on a second line."""
    value, (lo, hi) = est["value"], est["ci95"]
    if value is None:
        return "-"
    return f"{100 * value:.1f}% ({100 * lo:.0f}-{100 * hi:.0f})" if lo is not None else f"{100 * value:.1f}%"


def _mean(est: dict[str, Any]) -> str:
    """`2.400 ±0.310`: the value, then half the 95% interval (a second line in a narrow column)."""
    value, (lo, hi) = est["value"], est["ci95"]
    if value is None:
        return "-"
    return f"{value:.3f} ±{(hi - lo) / 2:.3f}" if lo is not None else f"{value:.3f}"


def _rating(bot: dict[str, Any]) -> str:
    rating = bot["rating"]
    return f"{rating['mu']:.2f} ±{rating['sigma']:.2f}" if rating else "-"


def bot_columns(first: str = "first", last: str = "last") -> list[Column]:
    """The columns of the bots' table after `#` and `bot`; a new figure is one more `Column` here."""
    return [Column("rounds", lambda bot: f"{bot['rounds']:,}"),
            Column(first, lambda bot: _pct(bot["first_rate"])),
            Column(last, lambda bot: _pct(bot["last_rate"])),
            Column("mean place", lambda bot: _mean(bot["mean_place"])),
            Column("points", lambda bot: _mean(bot["mean_points"])),
            Column("rating μ ±σ", _rating, wide_only=True)]


def bot_table(summary: dict[str, Any], title: str, first: str = "first", last: str = "last",
              wide: bool = False) -> Table:
    """One row per bot, ranked by points a round (the `#` column); the OpenSkill rating with `wide`."""
    columns = [c for c in bot_columns(first, last) if wide or not c.wide_only]
    table = Table(title=title, caption=f"ranked by points: the mean points a round. {first}, {last}: share of "
                                       "rounds finished first, last, in % (95% interval); means ± half their 95% "
                                       "interval. " + INTERVALS
                                       + ("" if wide else "; --wide adds the OpenSkill rating"))
    bots = ranked(summary)
    table.add_column("#", justify="right", no_wrap=True)
    add_name_column(table, "bot", [bot["bot"] for bot in bots])
    for column in columns:
        table.add_column(column.header, justify=column.justify)
    for i, bot in enumerate(bots, start=1):
        table.add_row(str(i), bot["bot"], *(column.cell(bot) for column in columns))
    return table


#: More bots than this make the head-to-head square too wide for 80 columns: one row per pair instead.
SQUARE_BOTS = 5


def head_to_head_table(summary: dict[str, Any], wide: bool = False) -> Table:
    """Row A, column B: share of shared rounds A finished above B (95% interval); columns numbered as the
    bots' table ranks them. Past `SQUARE_BOTS` bots (and without `wide`), one row per pair."""
    bots = ranked(summary)
    cells = {(h["bot"], h["other"]): h for h in summary["head_to_head"]}
    if len(bots) > SQUARE_BOTS and not wide:
        return _head_to_head_pairs([b["bot"] for b in bots], cells)
    table = Table(title="head to head: how often the row bot finished above the column bot",
                  caption="share of the rounds both played at one table, in % (95% interval); "
                          "columns numbered as the rows")
    add_name_column(table, "bot", [b["bot"] for b in bots], extra=len(f"{len(bots)} "))
    for i, _ in enumerate(bots, start=1):
        table.add_column(str(i), justify="right")
    for i, a in enumerate(bots, start=1):
        row = [_pct(cells[a["bot"], b["bot"]]) if (a["bot"], b["bot"]) in cells else "-" for b in bots]
        table.add_row(f"{i} {a['bot']}", *row)
    return table


def _head_to_head_pairs(names: list[str], cells: dict[tuple[str, str], dict[str, Any]]) -> Table:
    table = Table(title="head to head: how often the first bot finished above the second",
                  caption="share of the rounds both played at one table, in % (95% interval); "
                          "--wide shows the square")
    add_name_column(table, "bot", names)
    add_name_column(table, "above", names)
    table.add_column("share", justify="right")
    for k, a in enumerate(names):
        for b in names[k + 1:]:
            if (a, b) in cells:
                table.add_row(a, b, _pct(cells[a, b]))
    return table


def ranking_table(summary: dict[str, Any]) -> Table | None:
    """Alpha-rank mass and Nash averaging per bot (`ranking.py`), best first by mass; None without them."""
    ar = summary.get("alpha_rank")
    if not ar:
        return None
    nash = summary.get("nash")
    table = Table(title="alpha-rank and Nash averaging",
                  caption=f"alpha={ar['alpha']:g}, m={ar['population']}; vs Nash: share above the Nash mix - 50%")
    table.add_column("bot", no_wrap=True)
    table.add_column("α-rank", justify="right")
    if nash:
        table.add_column("Nash mix", justify="right")
        table.add_column("vs Nash", justify="right")
    payoff = nash["payoff"] if nash else {}
    for name, mass in sorted(ar["mass"].items(), key=lambda item: (-item[1], -payoff.get(item[0], 0.0))):
        cells = [name, f"{mass:.3f}"]
        if nash:
            cells += [f"{nash['mix'][name]:.3f}", f"{100 * nash['payoff'][name]:+.1f}%"]
        table.add_row(*cells)
    return table


def duplicate_table(summary: dict[str, Any]) -> Table:
    """Points per round with the rounds' interval and the duplicate one (`--correction duplicate`)."""
    table = Table(title="points/round: duplicate deals as control variate",
                  caption="± plain: floored at independent rounds; ± dup: the deals' own spread "
                          "(same mean); deals÷: how many times fewer deals the same interval needs")
    for name, justify in (("bot", "left"), ("points/round", "right"), ("± plain", "right"), ("± dup", "right"),
                          ("deals÷", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for bot in ranked(summary):
        plain, dup = _half(bot["mean_points"]), _half(bot["mean_points_duplicate"])
        value = bot["mean_points"]["value"]
        saving = f"{(plain / dup) ** 2:.1f}" if plain and dup else "-"
        table.add_row(bot["bot"], "-" if value is None else f"{value:.3f}",
                      "-" if plain is None else f"{plain:.3f}", "-" if dup is None else f"{dup:.3f}", saving)
    return table


def _half(est: dict[str, Any]) -> float | None:
    lo, hi = est["ci95"]
    return None if lo is None else (hi - lo) / 2


def sprt_text(summary: dict[str, Any]) -> str | None:
    s = summary.get("sprt")
    if not s:
        return None
    share = s["a_above_b"] / s["rounds"] if s["rounds"] else float("nan")
    when = f" after {s['decided_after_games']} games" if s["decision"] else ""
    text = (f"SPRT {s['a']} above {s['b']}: H0 p={s['p0']:g} vs H1 p={s['p1']:g} of head-to-head rounds "
            f"(alpha={s['alpha']:g}, beta={s['beta']:g}): {s['rounds']:g} rounds, {100 * share:.1f}% above, "
            f"LLR {s['llr']:.3f} (bounds {s['lower']:.3f}, {s['upper']:.3f})")
    dup = s.get("duplicate_test")
    if s.get("stopped_by") == "duplicate" and dup:
        text += f", duplicate LLR {dup['llr']:.3f} over {dup['deals']} deals (the one that stops)"
    return f"{text} -> {s['verdict']}{when}"


def csv_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[object]]]:
    """One row per bot, best first (as the table ranks them)."""
    places = len(summary["bots"][0]["places"]) if summary["bots"] else 0
    header = ["rank", "bot", "rounds", *[f"place_{k + 1}" for k in range(places)]]
    for name in ("first_rate", "last_rate", "mean_place", "mean_points"):
        header += [name, f"{name}_lo", f"{name}_hi"]
    header += ["mu", "sigma", "ordinal"]
    rows = []
    for i, bot in enumerate(ranked(summary), start=1):
        row: list[object] = [i, bot["bot"], bot["rounds"], *bot["places"]]
        for name in ("first_rate", "last_rate", "mean_place", "mean_points"):
            row += [_num(bot[name]["value"]), *map(_num, bot[name]["ci95"])]
        rating = bot["rating"] or {}
        row += [_num(rating.get("mu")), _num(rating.get("sigma")), _num(rating.get("ordinal"))]
        rows.append(row)
    return header, rows


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.6g}"


def plot_places(path: str | Path, summary: dict[str, Any], place_labels: Sequence[str], title: str) -> None:
    """A stacked bar per bot: the share of its rounds finished in each place."""
    try:
        import matplotlib  # lazily: only --plot pays for it
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'president-rul[plot]'") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = list(reversed(ranked(summary)))  # best at the top of the chart
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.45 * len(bots)))
    left = [0.0] * len(bots)
    colours = plt.get_cmap("RdYlGn_r")
    for k, label in enumerate(place_labels):
        shares = [b["place_share"][k] for b in bots]
        ax.barh([b["bot"] for b in bots], shares, left=left, label=label,
                color=colours(k / max(1, len(place_labels) - 1)))
        left = [a + s for a, s in zip(left, shares)]
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of rounds")
    ax.set_title(title)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small", frameon=False, title="place")
    fig.savefig(path, dpi=120, bbox_inches="tight")  # "tight" keeps the legend outside the axes
    plt.close(fig)
