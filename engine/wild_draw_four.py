"""The Wild Draw Four's restriction and challenge (and Flip's Wild Draw Two and Wild Draw
Colour, which follow the same rule).

The restriction (``wildDrawFourRestriction``): the card may only be played when its
player holds no card of the colour in force (``noMatchingColor``), or no card that matches
the top card at all (``noMatchingCard``). With ``wildDrawFourChallenge`` on, a bluff is
allowed and the penalty waits (``state.wd4`` records who played it and whether it was a
bluff): the next player either takes it or challenges. A guilty player draws the penalty
instead; an innocent one sees the challenger draw it plus two. With the challenge off, a
play that breaks the restriction is refused (``wild_draw_four_restricted``).

The listing (engine.legal) and apply (engine.game) both ask :func:`challenge_problem` and
:func:`restricted_play_refused`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action
from engine.cards import FACES, CardInfo
from engine.errors import IllegalAction
from engine.events import Event
from engine.plays import plain_match
from engine.plays_again import play_again, plays_again
from engine.rules import Rules
from engine.state import State
from engine.turns import draw_cards, draw_until_color, next_seat

# Wild draw cards that may only be played without a card of the colour in force, and whose
# penalty may be challenged.
RESTRICTED = frozenset({"W+4", "W+2", "WDC"})


def wd4_is_bluff(state: State, hand: tuple[str, ...], card: str) -> bool:
    """Would playing ``card`` (a Wild Draw Four, or Flip's Wild Draw Two or Colour) from
    ``hand`` break the restriction in force?"""
    faces = FACES[state.side]
    top_rank = faces[state.discard[-1]].rank
    return breaks_restriction(state.rules, faces, state.color, top_rank, hand, card)


def breaks_restriction(
    rules: Rules,
    faces: Mapping[str, CardInfo],
    color: str | None,
    top_rank: str | None,
    hand: Sequence[str],
    card: str,
) -> bool:
    """:func:`wd4_is_bluff` from the parts of a position (what a seat's view shows too):
    the colour in force, the top card's rank, the hand holding ``card``."""
    restriction = rules.wild_draw_four_restriction
    if restriction == "none":
        return False
    others = list(hand)
    others.remove(card)
    if restriction == "noMatchingColor":
        # One list and one `in`: about half the cost of any() over a generator.
        return color in [faces[c].color for c in others]
    rank = faces[card].rank
    return any(
        faces[c].rank != rank and plain_match(faces[c], color, top_rank or "") for c in others
    )


def restricted_play_refused(state: State, hand: tuple[str, ...], card: str, rank: str) -> bool:
    """Is ``card`` (of ``rank``) refused for the restriction: a bluff, with no challenge
    to catch it?"""
    return (
        rank in RESTRICTED
        and not state.rules.wild_draw_four_challenge
        and wd4_is_bluff(state, hand, card)
    )


def challenge_problem(state: State, seat: int) -> str | None:
    """Why ``seat`` may not challenge now (an error code), or None: only the turn holder
    facing the penalty of a challengeable card, in a room that plays the challenge."""
    if (
        state.phase != "playing"
        or seat != state.turn
        or state.wd4 is None
        or not state.pending
        or not state.rules.wild_draw_four_challenge
    ):
        return "nothing_to_challenge"
    return None


def challenge(state: State, seat: int, act: Action) -> tuple[State, list[Event]]:
    """The ``challenge`` action: the offender's hand is shown to the challenger and the
    penalty goes to whoever the challenge proves wrong."""
    if challenge_problem(state, seat) is not None:
        raise IllegalAction(
            "nothing_to_challenge", "there is no Wild Draw Four for you to challenge"
        )
    assert state.wd4 is not None
    rules = state.rules
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
    penalty = state.pending
    new.pending = 0
    new.pending_kind = None
    new.wd4 = None
    until_color = state.pending_kind == "WDC"
    if bluff:
        # Guilty: the offender draws instead, and the challenger takes a normal turn.
        if until_color:
            draw_until_color(new, offender, events)
        else:
            draw_cards(new, offender, penalty, events, reason="challengeLost")
    else:
        if until_color:
            draw_until_color(new, seat, events, extra=2)
        else:
            draw_cards(new, seat, penalty + 2, events, reason="challengeLost")
        if plays_again(rules, state.pending_kind):
            play_again(new, offender)
        else:
            new.turn = next_seat(new, seat, 1)
    return new, events
