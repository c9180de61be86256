"""A draw penalty drawn, and what follows it: one rule, however the penalty came to be
drawn (at once, engine.effects; after it waited, engine.transition; by a challenger who lost,
engine.challenge), so the three cannot come to disagree.

In order: ``wildDrawFourPlaysAgain`` gives the turn back to a Wild Draw Four's player
(engine.plays_again; only when that player is known: a deflected or stacked-on penalty
keeps only a challengeable card's player); a challenger who lost loses the turn;
``drawFourFollowColor`` keeps the victim on turn owing the colour (engine.follow_color);
``penaltyDrawToMatch`` has the victim draw on to a playable card unless the penalty
brought one (engine.draw_to_match), once a colour is named; otherwise the turn passes on
from the victim.
"""

from __future__ import annotations

from engine.draw_to_match import after_penalty
from engine.events import Event
from engine.follow_color import owe_color, owes_color
from engine.plays_again import play_again, plays_again
from engine.stacking import PENALTY
from engine.state import State
from engine.turns import draw_cards, draw_until_color, next_seat


def take_penalty(
    new: State,
    victim: int,
    kind: str | None,
    amount: int,
    layer: int | None,
    events: list[Event],
    *,
    reason: str,
    lost_challenge: bool = False,
) -> None:
    """``victim`` draws a penalty of ``kind`` (a draw card's rank, or a pending penalty's
    kind) and ``amount`` cards, two more after a lost challenge; ``layer`` laid it (None
    when unknown). Then who moves."""
    drawn = draw_penalty(new, victim, kind, amount + 2 * lost_challenge, events, reason)
    rules = new.rules
    if layer is not None and plays_again(rules, kind):
        play_again(new, layer)
    elif lost_challenge:
        new.turn = next_seat(new, victim, 1)
    elif owes_color(rules, kind):
        owe_color(new, victim)
    elif rules.penalty_draw_to_match and new.color is not None:
        # (UNO Duo's first Wild Draw Four is drawn before its colour is named: nothing
        # could be drawn to match it, so its victim only draws the penalty.)
        new.turn = victim
        after_penalty(new, victim, len(drawn), events)
    else:
        new.turn = next_seat(new, victim, 1)


def draw_penalty(
    new: State, seat: int, kind: str | None, amount: int, events: list[Event], reason: str
) -> list[str]:
    """``seat`` draws ``amount`` cards; for a Wild Draw Colour, until its colour comes and
    then what ``amount`` adds to its one card. Returns the cards drawn."""
    if kind == "WDC":
        return draw_until_color(new, seat, events, extra=amount - PENALTY["WDC"])
    return draw_cards(new, seat, amount, events, reason=reason)
