"""Showing a tournament summary (`Tally.summary()`): rich tables, CSV rows, a plot.

Game-agnostic: a game passes its names for the first and last place (President
and Loser) and for every place.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from rich.table import Table

INTERVALS = ("95% intervals over per-deal totals (deals are the independent unit): "
             "Wilson score with design-effect n for rates, Student t for means")


def ranked(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Bots best first: by OpenSkill ordinal (mu - 3 sigma), else by mean points."""
    def key(bot: dict[str, Any]) -> float:
        if bot["rating"]:
            return -bot["rating"]["ordinal"]
        return -(bot["mean_points"]["value"] or 0.0)
    return sorted(summary["bots"], key=key)


def _pct(est: dict[str, Any]) -> str:
    value, (lo, hi) = est["value"], est["ci95"]
    if value is None:
        return "-"
    return f"{100 * value:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})" if lo is not None else f"{100 * value:.1f}%"


def _mean(est: dict[str, Any]) -> str:
    value, (lo, hi) = est["value"], est["ci95"]
    if value is None:
        return "-"
    return f"{value:.3f} ± {(hi - lo) / 2:.3f}" if lo is not None else f"{value:.3f}"


def bot_table(summary: dict[str, Any], title: str, first: str = "first", last: str = "last") -> Table:
    table = Table(title=title, caption=INTERVALS)
    for name, justify in (("#", "right"), ("bot", "left"), ("rounds", "right"), (f"{first} rate", "right"),
                          (f"{last} rate", "right"), ("mean place", "right"), ("points/round", "right"),
                          ("rating μ ± σ", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for i, bot in enumerate(ranked(summary), start=1):
        rating = bot["rating"]
        table.add_row(str(i), bot["bot"], f"{bot['rounds']:,}", _pct(bot["first_rate"]), _pct(bot["last_rate"]),
                      _mean(bot["mean_place"]), _mean(bot["mean_points"]),
                      f"{rating['mu']:.2f} ± {rating['sigma']:.2f}" if rating else "-")
    return table


def head_to_head_table(summary: dict[str, Any]) -> Table:
    """Row A, column B: share of shared rounds A finished above B (95% interval)."""
    names = [bot["bot"] for bot in ranked(summary)]
    cells = {(h["bot"], h["other"]): h for h in summary["head_to_head"]}
    table = Table(title="head to head: how often the row bot finished above the column bot",
                  caption="share of the rounds both played at one table, 95% interval")
    table.add_column("", no_wrap=True)
    for name in names:
        table.add_column(name, justify="right")
    for a in names:
        row = [_pct(cells[a, b]) if (a, b) in cells else "-" for b in names]
        table.add_row(a, *row)
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
    """One row per bot, best first."""
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
