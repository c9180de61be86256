"""The DrukUNO drinking tally, and the beverage data clients show.

Sips are counted only when the room turned ``drinks`` on; every sip is recorded with its
reason (a card drawn, being skipped, a card left in hand at the end of a deal).
"""

from __future__ import annotations

from typing import Any

from engine.cards import FACES
from engine.events import Event
from engine.state import State

# Sips per card left in hand when a deal ends (DrukUNO "Drukregler").
_HAND_SIPS = {"+2": 2, "W+4": 4, "W+8": 8, "A+2": 2, "+5": 5, "W+2": 2, "WDC": 4}

# The seed's table of what may be drunk; a sip is the same share of any of them.
BEVERAGES: tuple[dict[str, Any], ...] = (
    {"id": "beer", "name": "Beer", "volumeCl": 33, "abv": 4.6},
    {"id": "draught", "name": "Draught beer", "volumeCl": 50, "abv": 4.6},
    {"id": "cider", "name": "Cider", "volumeCl": 33, "abv": 4.5},
    {"id": "wineGlass", "name": "Glass of wine", "volumeCl": 12, "abv": 12.0},
    {
        "id": "wineBottle",
        "name": "Bottle of wine",
        "volumeCl": 70,
        "abv": 12.0,
        "note": "6 glasses",
    },
    {"id": "shot", "name": "Shot of spirits", "volumeCl": 2, "abv": 37.0},
    {
        "id": "spiritsBottle",
        "name": "Bottle of spirits",
        "volumeCl": 70,
        "abv": 37.0,
        "note": "35 shots",
    },
)

SHOT_CL = 2.0
SHOT_ABV = 37.0


def low_strength_shot_cl(abv: float) -> float:
    """How much of a weaker spirit makes one shot: 2 cl x 37 / ABV (21 % -> 3.5 cl)."""
    if abv <= 0:
        raise ValueError(f"alcohol by volume must be positive, got {abv!r}")
    return round(SHOT_CL * SHOT_ABV / abv, 1)


def hand_sips(card: str, side: str = "light") -> int:
    """Sips one card left in hand costs at the end of a deal."""
    return _HAND_SIPS.get(FACES[side][card].rank, 1)


def end_of_deal_sips(state: State, winner: int, events: list[Event]) -> None:
    """Everyone but the winner drinks for the cards left in hand."""
    if state.drinks is None:
        return
    for seat in state.active_seats():
        if seat != winner and state.hands[seat]:
            count = sum(hand_sips(card, state.side) for card in state.hands[seat])
            sip(state, seat, count, "hand", events)


def sip(state: State, seat: int, count: int, reason: str, events: list[Event]) -> None:
    """Record ``count`` sips for ``seat`` (a working copy); nothing when drinks are off."""
    drinks = state.drinks
    if drinks is None or count <= 0:
        return
    state.drinks = drinks[:seat] + (drinks[seat] + count,) + drinks[seat + 1 :]
    state.sips = state.sips + ((seat, count, reason),)
    events.append({"type": "sip", "seat": seat, "count": count, "reason": reason})


def tally(state: State) -> list[dict[str, Any]] | None:
    """Per seat: the total and the sips by reason (None when drinks are off)."""
    if state.drinks is None:
        return None
    out: list[dict[str, Any]] = [{"total": t, "byReason": {}} for t in state.drinks]
    for seat, count, reason in state.sips:
        by_reason = out[seat]["byReason"]
        by_reason[reason] = by_reason.get(reason, 0) + count
    return out
