"""Events: what happened in a transition, and who may see which part of it.

An event is a plain dict with a ``type``. A part only one seat may see (the cards it drew,
the hand a challenge showed it) sits under ``private``, and ``to`` names that seat. Only
:func:`event_for` decides visibility, so no other code can leak a hidden card.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def event_for(event: Event, viewer: int | None) -> Event:
    """The copy of ``event`` that ``viewer`` (a seat, or None for a spectator) may see."""
    if "private" not in event:
        return event
    public = {k: v for k, v in event.items() if k not in ("private", "to")}
    if viewer is not None and viewer == event.get("to"):
        public.update(event["private"])
    return public


def event_full(event: Event) -> Event:
    """Everything, private parts included (for logs and the scenario runner)."""
    if "private" not in event:
        return event
    full = {k: v for k, v in event.items() if k not in ("private", "to")}
    full.update(event["private"])
    return full
