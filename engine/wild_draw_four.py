"""The Wild Draw Four's restriction and challenge (and Flip's Wild Draw Two and Wild Draw
Colour, which follow the same rule).

The restriction (``wildDrawFourRestriction``): the card may only be played when its
player holds no card of the colour in force (``noMatchingColor``), or no card that matches
the top card at all (``noMatchingCard``). With ``wildDrawFourChallenge`` on, a bluff is
allowed and the penalty waits (``state.wd4`` records who played it and whether it was a
bluff): the next player either takes it or challenges (the action: engine.challenge).
With the challenge off, a play that breaks the restriction is refused
(``wild_draw_four_restricted``).

The listing (engine.legal) and apply (engine.transition, engine.challenge) both ask
:func:`challenge_problem` and :func:`restricted_play_refused`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import FACES, CardInfo
from engine.matching import plain_match
from engine.rules import Rules
from engine.state import State

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


def challengeable(rules: Rules, rank: str) -> bool:
    """Does the penalty of a card of ``rank`` wait for its victim to take or challenge it?"""
    return rank in RESTRICTED and rules.wild_draw_four_challenge


def pending_player(rank: str, seat: int, bluff: bool) -> tuple[int, bool] | None:
    """What a pending penalty keeps of the card laid last (``State.wd4``): for a
    restricted card its player and whether it was a bluff (the challenge and
    ``wildDrawFourPlaysAgain`` ask), for any other nothing."""
    return (seat, bluff) if rank in RESTRICTED else None


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
