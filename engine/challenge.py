"""The ``challenge`` action: the victim of a pending Wild Draw Four (or Flip's Wild Draw
Two or Colour) challenges it instead of drawing. Whether the card was a bluff was judged
when it was played (engine.wild_draw_four). Guilty: its player draws the penalty and the
challenger takes a normal turn. Innocent: the challenger draws the penalty plus two, and
what follows is any drawn penalty's rule (engine.drawn_penalty).
"""

from __future__ import annotations

from engine.actions import Action
from engine.drawn_penalty import draw_penalty, take_penalty
from engine.errors import IllegalAction
from engine.events import Event
from engine.state import State
from engine.wild_draw_four import challenge_problem


def challenge(state: State, seat: int, act: Action) -> tuple[State, list[Event]]:
    """The offender's hand is shown to the challenger and the penalty goes to whoever the
    challenge proves wrong."""
    if challenge_problem(state, seat) is not None:
        raise IllegalAction(
            "nothing_to_challenge", "there is no Wild Draw Four for you to challenge"
        )
    assert state.wd4 is not None
    offender, bluff = state.wd4
    new = state.moved()
    events: list[Event] = [
        {
            "type": "challenge",
            "seat": seat,
            "target": offender,
            "guilty": bluff,
            "to": seat,
            "private": {"hand": list(state.hands[offender])},
        }
    ]
    new.pending = 0
    new.pending_kind = None
    new.wd4 = None
    kind, penalty = state.pending_kind, state.pending
    if bluff:
        # Guilty: the offender draws instead, and the challenger keeps the turn (a normal
        # one): no rule of a drawn penalty's victim applies to a caught bluffer.
        draw_penalty(new, offender, kind, penalty, events, reason="challengeLost")
    else:
        take_penalty(
            new, seat, kind, penalty, offender, events, reason="challengeLost", lost_challenge=True
        )
    return new, events
