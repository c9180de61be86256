"""Bomb (``bomb``, under ``multiPlay``): three or more cards of one number played
together make every other player still in the match draw one card. The bomb goes off
before the number's own effect (a 0 pass, a 7 swap) and before a finishing play's hands
are scored."""

from __future__ import annotations

from engine.cards import FACES
from engine.events import Event
from engine.state import State
from engine.turns import draw_cards

SIZE = 3


def is_bomb(new: State, cards: tuple[str, ...]) -> bool:
    if not new.rules.bomb or len(cards) < SIZE:
        return False
    faces = FACES[new.side]
    first = faces[cards[0]]
    return first.is_number and all(faces[c].rank == first.rank for c in cards)


def explode(new: State, seat: int, cards: tuple[str, ...], events: list[Event]) -> None:
    """Every other active seat draws one card (a working copy)."""
    events.append({"type": "bomb", "seat": seat, "count": len(cards)})
    for other in new.active_seats():
        if other != seat:
            draw_cards(new, other, 1, events, reason="bomb")
