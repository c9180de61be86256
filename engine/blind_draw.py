"""Blind draw (``blindDraw``): the drawer does not see the drawn card before it is played
or kept. Under it (and ``forcedPlayDrawn``, which it needs: nobody may decide about a card
they have not seen) a drawn card that can be played is played at once, in the same change
as the draw, so no view shows it to anyone before it lies on the discard pile.

A wild played so waits for its colour: the drawer names it (phase ``chooseColor``) and the
card's effect on the next player stands as played. A 7 played so under a seven-swap rule
swaps with nobody (no target was chosen): it acts as a plain 7. The play counts as called
UNO (the drawer had no say in it).
"""

from __future__ import annotations

from engine.cards import FACES
from engine.effects import play_cards
from engine.events import Event
from engine.state import State


def play_blind(new: State, seat: int, events: list[Event]) -> None:
    """Play ``new.drawn``, the card ``seat`` just drew (a working copy)."""
    card = new.drawn
    assert card is not None
    events.append({"type": "blindPlay", "seat": seat})
    play_cards(new, seat, (card,), None, True, None, events)
    if FACES[new.side][card].is_wild and new.phase == "playing":
        new.after_color = new.turn
        new.turn = seat
        new.phase = "chooseColor"
