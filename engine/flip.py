"""UNO Flip's side turn: the Flip card turns everything over.

Every card has a light and a dark face (``engine.cards``: a Flip code ``"R1|P1"`` names
both); ``state.side`` says which is up, and every rule reads a card by its face on that
side (``FACES[state.side]``), so after a flip the same cards match, score and act as
their other faces. The side goes back to light at every new deal (engine.deal).
"""

from __future__ import annotations

from engine.cards import FACES
from engine.events import Event
from engine.state import State
from engine.turns import next_seat


def flip(new: State, seat: int, events: list[Event]) -> None:
    """A Flip card turns everything over: hands, the draw pile and the discard pile.

    Turning a pile over puts its bottom card on top (``flipPiles: turnOver``); under
    ``flipInPlace`` each card shows its other face where it lies. Play follows the card
    now on top; if that is a wild, the player who flipped names the colour.
    """
    new.side = "dark" if new.side == "light" else "light"
    if new.rules.flip_piles == "turnOver":
        new.discard = new.discard[::-1]
        new.draw_pile = new.draw_pile[::-1]
    top = FACES[new.side][new.discard[-1]]
    new.color = top.color
    events.append({"type": "flip", "seat": seat, "side": new.side, "top": new.discard[-1]})
    following = next_seat(new, seat, 1)
    if top.is_wild:
        new.phase = "chooseColor"
        new.turn = seat
        new.after_color = following
    else:
        new.turn = following
