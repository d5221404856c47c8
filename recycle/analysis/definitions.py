"""One sentence per figure of an analysis: the one place its definition lives in code.

The sentences follow the table of docs/analysis.md ("The figures" and "TAG's metrics");
the HTML report prints them beside each figure, so a reader needs no formula sheet.
"""
from __future__ import annotations

import re

#: figure name -> what it measures and the idea of its formula (np: number of players).
DEFINITIONS = {
    "fairness": "How close seat 0's win rate r in random play is to its fair share f = 1/np "
                "(r/f below it, (1-r)/(1-f) above; 1 is perfectly fair; a first place shared by k counts 1/k).",
    "meaningful_moves": "Mean spread of the estimating AI's decisions: its best option's estimated value "
                        "minus its worst (0: options never matter).",
    "drama": "Mean of sqrt(T - lead) over the winner's decisions where its lead was below T: how far behind "
             "winners were before they won (0 when never behind).",
    "decisiveness": "1 minus the mean share of the game left once the winner's lead first passes 4/5: "
                    "high when the outcome becomes clear only near the end.",
    "coolness": "1 minus the share of consecutive decisions (every player) where the player's lead dropped.",
    "total": "Weighted sum 0.5 fairness + 0.5 meaningful_moves + 0.25 drama + 0.4 decisiveness + 0.5 coolness.",
    "variance": "meaningful_moves plus 0.2 times the largest spread of any decision (a maximum: no interval).",
    "order": "How much better than chance the estimating AI at seat 0 wins against random players: "
             "(win rate - 1/np) / (1 - 1/np).",
    "convergence": "1 - (b/2 + 0.5), b the slope of options per decision against progress through a play: "
                   "0.5 level, above 0.5 the choices narrow as the game goes on.",
    "security": "1 minus the share of the estimating AI's decisions (seat 0, against random players) where "
                "its lead dropped from its previous one.",
    "first_player_win_rate": "Share of games whose first mover won the first episode.",
    "first_player_advantage": "First player's win rate minus the fair share 1/np.",
    "decisions": "Decisions per game in random play, forced ones included.",
    "choice_decisions": "Decisions per game with more than one option (a real choice).",
    "branching_factor": "Mean number of options per decision in random play.",
    "action_space": "Distinct options seen in a game of random play.",
    "turns": "Turns per game: runs of consecutive decisions by the same player.",
    "rounds": "Rounds per game (President).",
    "state_size": "Mean size of the state at a decision: cards, storages and non-empty locations.",
    "hidden_information": "Mean share of the cards the mover cannot see.",
    "score_spread": "Highest final score minus the lowest.",
    "ties": "Share of games with a first place shared by several players.",
    "called": "Share of games stopped at the choice limit.",
    "president_keeps_title": "How often the round's President is President again the next round.",
    "loser_climbs_out": "How often the round's Loser is not Loser the next round.",
    "exchange_worth": "The previous Loser's mean place minus the previous President's: what the card "
                      "exchange is worth.",
    "seat_advantage": "The most successful seat's share of the random games minus the fair share 1/np "
                      "(a finding of the report).",
    "lead_changes": "Times per play (a game, or a President round) that a tenth of the play is led by another "
                    "player than the last, the leader having the best summed estimated places over the tenth, "
                    "in the all-AI games (a finding of the report).",
    "late_decisions": "Share of all-AI plays whose winner is first clearly ahead (its estimated place above 4/5) "
                      "only in the last third of its decisions, or never (a finding of the report).",
    "one_real_option": "Share of all-AI decisions with a single legal option or options the estimator values "
                       "exactly alike (a finding of the report).",
    "copies_per_s": "Forward-model speed: state copies per second (a timing, varies between runs).",
    "option_lists_per_s": "Forward-model speed: option lists per second (a timing, varies between runs).",
    "actions_per_s": "Forward-model speed: actions per second (a timing, varies between runs).",
}

#: Figures numbered by seat, place or stretch of the game: (pattern, sentence with {k}).
NUMBERED = (
    (re.compile(r"score_seat_(\d+)"), "Mean final score of seat {k}."),
    (re.compile(r"mean_place_after_place_(\d+)"), "Mean finishing place the round after finishing {k} "
                                                  "(the place held through the exchange)."),
    (re.compile(r"branching_curve_(\d+)"), "Mean options per decision in stretch {k} of ten of the game."),
)


def definition(name: str) -> str:
    """The one-sentence definition of figure `name` ("" for a figure without one)."""
    if name in DEFINITIONS:
        return DEFINITIONS[name]
    for pattern, sentence in NUMBERED:
        m = pattern.fullmatch(name)
        if m:
            return sentence.format(k=m.group(1))
    return ""


def listing(width: int) -> str:
    """Every named figure with its definition, wrapped to `width` columns (the analyze commands' --help)."""
    import textwrap

    lines = ["figures (defined in docs/analysis.md):"]
    for name, sentence in DEFINITIONS.items():
        lines += textwrap.wrap(f"{name}: {sentence}", width, initial_indent="  ", subsequent_indent="      ")
    return "\n".join(lines)
