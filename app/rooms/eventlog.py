"""The room's public event history: what a client that reloads (or joins late) shows in
its log. It is the current deal's events, rebuilt from the deal log the room keeps anyway
(the deal's start, then every action applied since; the engine is deterministic), so no
change stores anything more for it.

Each event is the copy its viewer may see (``engine.event_for``: a seat sees the cards it
drew, anyone else only a count), with the ``seq`` and ``ts`` of the change that made it,
and for a deck with two faces (UNO Flip) ``faceUp``: the side in play when it happened, so
that a card is named by the face that was played.
"""

from __future__ import annotations

from typing import Any

import engine


def deal_events(deal_log: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The current deal's events as ``seat`` (None: a spectator) may see them, oldest
    first."""
    out: list[dict[str, Any]] = []
    for step in engine.replay_log(deal_log):
        entry, state = step.entry, step.after
        if state is None:
            continue  # an entry before any start: nothing happened
        if "start" in entry:
            out = [{"type": "deal", "deal": state.deal}]
            face = engine.face_up(state)
            if face is not None:
                out[0]["faceUp"] = face
            if state.top is not None:
                first: dict[str, Any] = {"type": "firstCard", "card": state.top}
                if face is not None:
                    first["faceUp"] = face
                out.append(first)
            continue
        face = None if step.before is None else engine.face_up(step.before)
        for event in step.events:
            seen = engine.event_for(event, seat)
            if not seen:
                continue
            item = {**seen, "seq": entry.get("seq"), "ts": entry.get("ts")}
            if face is not None:
                item["faceUp"] = face
            out.append(item)
            if engine.is_flip(event):
                face = event["side"]
    return out
