"""Follow the colour (``drawFourFollowColor``): the victim of a Wild Draw Four draws the
penalty and keeps the turn, owing its colour: holding the colour they must play it;
lacking it they draw one card at a time, up to three, then pass (earlier when nothing is
left to draw).

``State.follow`` counts it: 0 when no colour is owed, else 1 + the draws still allowed.
The listing (engine.legal) and apply (engine.transition) both ask this module.
"""

from __future__ import annotations

from engine.cards import FACES, CardInfo
from engine.errors import IllegalAction
from engine.events import Event
from engine.rules import Rules
from engine.stacking import STACK_FAMILY
from engine.state import State
from engine.turns import draw_cards

# 1 + the three draws a player lacking the colour may make.
FOLLOW_START = 4


def owes_color(rules: Rules, kind: str | None) -> bool:
    """Does the victim of a penalty of ``kind`` (a rank or a pending kind) owe its colour
    once it is drawn? (The Wild Draw Four's stacking family, a Wild Draw Eight with it.)"""
    return rules.draw_four_follow_color and STACK_FAMILY.get(kind or "") == "W+4"


def owe_color(new: State, victim: int) -> None:
    """The Wild Draw Four's penalty is drawn: ``victim`` keeps the turn, owing its colour."""
    new.turn = victim
    new.follow = FOLLOW_START


def holds_color(state: State, seat: int) -> bool:
    color = state.color
    faces = FACES[state.side]
    return any(faces[c].color == color for c in state.hands[seat])


def follow_problem(state: State, info: CardInfo) -> str | None:
    """While the colour is owed, only a card of that colour may be played."""
    return None if info.color == state.color else "must_follow_color"


def may_draw(state: State, seat: int) -> bool:
    """Lacking the colour, with draws left."""
    return state.follow > 1 and not holds_color(state, seat)


def pass_problem(state: State, seat: int) -> str | None:
    """Why the player owing the colour may not pass now, or None."""
    if holds_color(state, seat):
        return "must_follow_color"
    nothing_left = not state.draw_pile and len(state.discard) <= 1
    return None if state.follow == 1 or nothing_left else "cannot_pass"


def draw_to_follow(state: State, seat: int) -> tuple[State, list[Event]]:
    """Lacking the colour, draw one card (three at most)."""
    if holds_color(state, seat):
        raise IllegalAction("must_follow_color", "you hold the colour: play it")
    if state.follow <= 1:
        raise IllegalAction("no_draws_left", "you have drawn three cards: pass")
    new = state.moved()
    new.follow = state.follow - 1
    events: list[Event] = []
    draw_cards(new, seat, 1, events, reason="followColor")
    return new, events
