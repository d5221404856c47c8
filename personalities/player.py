"""The rule player: an agent of the game protocol driven by a personality.

It knows games only through a *view function* that turns an observation and
the legal actions into a `ClimbingView` (or an `ExchangeView` when the game
asks for cards to hand over), and maps the chosen play back to an action.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from recycle.kernel.beliefs import observation_belief
from recycle.kernel.protocol import Agent, Decision, GameError, Observation
from recycle.kernel.protocol import decide as ask_agent

from personalities.evaluator import decide, draws_random, explain, situation_summary
from personalities.syntax import Personality
from personalities.trace import DecisionTrace
from personalities.view import JOKER, TWO, ClimbingView, ExchangeView, cards_text, hand_text

#: (observation, legal actions) -> the view to decide on, or None where the rules have nothing to say.
ViewFunction = Callable[[Any, Sequence[Any]], "ClimbingView | ExchangeView | None"]

EXCHANGE_NOTE = ("exchange: gave my lowest cards, never a two or a joker unless nothing else is left "
                 "(.rul files have no exchange rules; this is the documented default)")


class RulePlayer:
    """Plays from a `Personality`; `reload()` swaps in an edited one between decisions.

    Where the view function has no climbing view for a decision (a bet or a
    discard in a RECYCLE game: it returns None), the `fallback` agent decides.
    """

    def __init__(self, personality: Personality, view: ViewFunction, name: str | None = None,
                 fallback: Agent | None = None) -> None:
        self.personality = personality
        self.view = view
        self.name = name or personality.name
        self.fallback = fallback

    def reload(self, personality: Personality) -> None:
        self.personality = personality

    @property
    def draws_nothing_when_forced(self) -> bool:
        """With one legal action (a third of a President table's turns, mostly passes when nothing
        beats the upcards) every rule resolves to it or to nothing, so the walk would choose it;
        without a `Random` condition nothing is drawn, and without a fallback no other agent is
        asked. Then the game loop need not ask (`Agent`), nor `choose` walk the rules. `explain`
        still walks them, for the trace."""
        return self.fallback is None and not draws_random(self.personality)

    def choose(self, observation: Observation, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if len(legal_actions) == 1 and self.draws_nothing_when_forced:
            return legal_actions[0]
        view = self.view(observation, legal_actions)
        if view is None:
            return self._fallback().choose(observation, legal_actions, rng)
        if isinstance(view, ExchangeView):
            return view.actions[exchange_choice(view)]
        play, _, _, _ = decide(self.personality, view, rng)
        return view.action(play)

    def explain(self, observation: Observation, legal_actions: Sequence[Any], rng: random.Random) -> Decision:
        view = self.view(observation, legal_actions)
        if view is None:
            return ask_agent(self._fallback(), observation, legal_actions, rng, explain=True)
        player = observation.player
        if isinstance(view, ExchangeView):
            gift = exchange_choice(view)
            text = " ".join(cards_text(v, 1) for v in gift)
            hand = hand_text(view.hand, view.order)
            trace = DecisionTrace(self.personality.name, player, {"hand": hand, "upcards": None, "give": view.count},
                                  (), f"give {text}", None, EXCHANGE_NOTE, kind="exchange")
            return Decision(view.actions[gift], trace, observation_belief(observation))
        play, trace = explain(self.personality, view, rng, player)
        # its belief: the uniform deal FollowOdds assumes (drawn on its own rng: the decision's is untouched)
        return Decision(view.action(play), trace, observation_belief(observation))

    def _fallback(self) -> Agent:
        if self.fallback is None:
            raise GameError(f"{self.name} has no rule for this decision and no fallback agent")
        return self.fallback

    def __repr__(self) -> str:
        extra = f", fallback={self.fallback.name!r}" if self.fallback is not None else ""
        return f"RulePlayer({self.personality.name!r}{extra})"


def exchange_choice(view: ExchangeView) -> tuple[int, ...]:
    """The `count` lowest cards, twos and jokers only when nothing else is left."""
    return gift_of(view.hand, view.count, view.order)


def gift_of(hand: Sequence[int], count: int, order: Sequence[int] = ExchangeView.order) -> tuple[int, ...]:
    """`exchange_choice` of a hand (cards per value) giving `count` cards, values in `order`."""
    preference = [v for v in order if v != TWO] + [TWO, JOKER]
    gift: list[int] = []
    for v in preference:
        take = min(hand[v], count - len(gift))
        gift.extend([v] * take)
        if len(gift) == count:
            break
    return tuple(sorted(gift))


__all__ = ["RulePlayer", "ClimbingView", "ExchangeView", "exchange_choice", "situation_summary"]
