"""Answering a pending draw penalty: stacking, cross-stacking and deflecting.

Which card may be laid on a pending Draw Two, Wild Draw Four (or a Flip draw card), and
whether a draw card's penalty waits for its victim to answer it at all, are decided here
and nowhere else:

- ``stacking``: a card of the same family (Draw Two on Draw Two; with
  ``stackWildDrawFour`` also Wild Draw Four on Wild Draw Four and Flip's draw cards);
- ``stackDrawFour``: Wild Draw Four (or Eight) on Wild Draw Four, with or without
  ``stacking``;
- ``crossStack``: a Draw Two on a Wild Draw Four (``drawTwoOnDrawFour``), a Wild Draw Four
  on a Draw Two (``drawFourOnDrawTwo``), or both;
- ``reverseDeflect`` / ``skipDeflect``: a Reverse sends the penalty back the way it came,
  a Skip passes it on past its player; the card must match the colour in force or the
  top card's symbol, as any play does.
"""

from __future__ import annotations

from engine.cards import FACES, CardInfo
from engine.events import Event
from engine.matching import plain_match
from engine.rules import Rules
from engine.state import State
from engine.turns import next_seat

# Draw penalties: the family a card stacks in, and how many cards it makes the next draw.
# Flip's Wild Draw Colour has no count: its victim draws until the named colour comes.
STACK_FAMILY = {"+2": "+2", "W+4": "W+4", "W+8": "W+4", "+1": "+1", "+5": "+5", "W+2": "W+2"}
PENALTY = {"+2": 2, "W+4": 4, "W+8": 8, "+1": 1, "+5": 5, "W+2": 2, "WDC": 1}
# The cards that deflect a pending penalty, under the option that lets them.
DEFLECTORS = frozenset({"S", "R"})
_CROSS = {
    ("W+4", "+2"): ("drawTwoOnDrawFour", "both"),
    ("+2", "W+4"): ("drawFourOnDrawTwo", "both"),
}


def answers_pending(state: State, info: CardInfo) -> bool:
    """May the turn holder lay ``info`` on the penalty pending against them?"""
    rules = state.rules
    kind = state.pending_kind
    family = STACK_FAMILY.get(info.rank)
    if family is not None:
        if family == kind:
            if rules.stacking and (family == "+2" or rules.stack_wild_draw_four):
                return True
            return family == "W+4" and rules.stack_draw_four
        return rules.cross_stack in _CROSS.get((kind or "", family), ())
    if info.rank in DEFLECTORS and (
        rules.reverse_deflect if info.rank == "R" else rules.skip_deflect
    ):
        return plain_match(info, state.color, FACES[state.side][state.discard[-1]].rank)
    return False


def penalty_waits(rules: Rules, rank: str) -> bool:
    """Does a draw card of ``rank`` leave its penalty pending for the victim to answer
    (some card could answer it), rather than being drawn at once? (A challengeable card
    also waits while the challenge is on: that is the challenge's rule.)"""
    if rules.stacking and rank in STACK_FAMILY:
        return True
    if rules.deflects and rank in PENALTY:
        return True
    family = STACK_FAMILY.get(rank)
    if family == "W+4" and rules.stack_draw_four:
        return True
    # A cross-stack answers the family named first in its key.
    cross = rules.cross_stack
    return any(family == held and cross in names for (held, _), names in _CROSS.items())


def deflect(new: State, seat: int, rank: str, count: int, events: list[Event]) -> int:
    """A Reverse sends the pending penalty back (the direction turns, once per card), a
    Skip passes it on (one seat further per card); the penalty is no longer challengeable.
    Returns its new victim, who now holds the turn."""
    if rank == "R":
        if count % 2:
            new.direction = -new.direction
        victim = next_seat(new, seat, 1)
    else:
        victim = next_seat(new, seat, count)
    new.wd4 = None
    new.turn = victim
    events.append(
        {"type": "deflect", "seat": seat, "card": rank, "target": victim, "pending": new.pending}
    )
    return victim
