"""Events: what happened in a transition, and who may see which part of it.

An event is a plain dict with a ``type``. A part only one seat may see (the cards it drew,
the hand a challenge showed it) sits under ``private``, and ``to`` names that seat. Only
:func:`event_for` decides visibility, so no other code can leak a hidden card.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, TypeGuard

# Some fifty kinds, each a dict literal where its rule happens, read by the bots and sent to
# clients as they are (their wire shapes: app/wire/content.py): only the kinds the app
# itself reads are declared below, and a reader asks for one with its guard.
Event = dict[str, Any]


class DealOver(TypedDict):
    """A deal ended. ``winner``: the seat that went out (None: first place shared); UNO
    Bottle's deals end on a drink and name none. (Each game adds its scores.)"""

    type: Literal["dealOver"]
    winner: NotRequired[int | None]


class Flip(TypedDict):
    """UNO Flip: every card turned over by ``seat``; ``side`` is now up, ``top`` the
    discard's top card."""

    type: Literal["flip"]
    seat: int
    side: Literal["light", "dark"]
    top: str


def is_deal_over(event: Event) -> TypeGuard[DealOver]:
    return event.get("type") == "dealOver"


def is_flip(event: Event) -> TypeGuard[Flip]:
    return event.get("type") == "flip"


def event_for(event: Event, viewer: int | None) -> Event:
    """The copy of ``event`` that ``viewer`` (a seat, or None for a spectator) may see."""
    if "private" not in event:
        return event
    public = {k: v for k, v in event.items() if k not in ("private", "to")}
    if viewer is not None and viewer == private_to(event):
        public.update(event["private"])
    return public


def private_to(event: Event) -> int | None:
    """The one seat :func:`event_for` shows more of ``event`` than any other viewer (its
    ``private`` part), or None: every viewer, spectators too, sees it alike."""
    to: int | None = event.get("to") if "private" in event else None
    return to


def event_full(event: Event) -> Event:
    """Everything, private parts included (for logs and the scenario runner)."""
    if "private" not in event:
        return event
    full = {k: v for k, v in event.items() if k not in ("private", "to")}
    full.update(event["private"])
    return full
