"""A change's ``patch`` messages, per audience, from what changed.

A view is its audience's own part (a hand, ``legal``) with the part every audience shares
(the table, the room: app.rooms.views.build_parts). So a change's patch is the public
delta, the diff of the shared parts, made once per change (as the shared part is built)
and serialised once, with each audience's private delta, the diff of its own small part.
An audience whose own part did not change and which sees the change's events as everyone
does gets the public message: one text, the same object for all of them, published once
(``p``) and named by ``None`` in the change's ``m``.

When the shared part's keys change (the lobby's view becomes a game's: ``hand`` and
``legal`` move from the shared part to the seats'), a key may leave one part for the
other, and the patch is the diff of whole views, as it always was. Either way the ops turn
each audience's view at ``seq - 1`` into its view at ``seq`` (tests/app/test_deltas.py
holds them to that, for every preset and variant).
"""

from __future__ import annotations

from typing import Any

import orjson

import engine
from app.rooms.diff import diff
from app.rooms.shared_part import Shared
from app.rooms.views import Parts


def patches(
    before: Parts,
    after: Parts,
    seq: int,
    ts: int,
    events: list[dict[str, Any]],
    public_events: list[dict[str, Any]],
) -> tuple[dict[str, str | None], str | None]:
    """Each audience's ``patch`` message of the change from ``before`` to ``after``
    (serialised; None: the public message), and the public message (None if no audience
    gets it). ``events``: the engine's, each seen as ``engine.event_for`` lets an
    audience see it; ``public_events``: the room's, seen alike by everyone."""
    old_parts, old_shared = before
    parts, shared = after
    by_parts = bool(old_shared) and old_shared.keys() == shared.keys()
    public_ops = orjson.dumps(_public_delta(old_shared, shared))[1:-1] if by_parts else b""
    head = b'{"type":"patch","seq":%d,"ts":%d,"ops":[' % (seq, ts)
    common = _seen(events, None, public_events)
    common_json = orjson.dumps(common)
    # Only a seat an event has a private part for sees the events otherwise than a
    # spectator does: every other audience's are ``common``, unfiltered again.
    privy = {seat for seat in map(engine.private_to, events) if seat is not None}
    messages: dict[str, str | None] = {}
    for audience, part in parts.items():
        seat = part.get("you")
        seen = _seen(events, seat, public_events) if seat in privy else common
        same_events = seen is common or seen == common
        old = old_parts.get(audience)
        if old is None:
            # A new audience (a seat just taken) has no previous view to patch: its
            # sockets, if any, resync from a snapshot.
            ops = orjson.dumps([{"op": "replace", "path": "", "value": {**part, **shared}}])[1:-1]
        elif not by_parts:
            ops = orjson.dumps(diff({**old, **old_shared}, {**part, **shared}))[1:-1]
        else:
            # Most audiences' parts are as they were: one comparison of the whole says so
            # for less than a diff does (equal containers: see app.rooms.diff).
            own = [] if old == part else diff(old, part)
            if not own and same_events:
                messages[audience] = None
                continue
            ops = _joined(orjson.dumps(own)[1:-1], public_ops) if own else public_ops
        seen_json = common_json if same_events else orjson.dumps(seen)
        messages[audience] = _message(head, ops, seen_json)
    if None not in messages.values():
        return messages, None
    return messages, _message(head, public_ops, common_json)


def _public_delta(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """The diff of the shared parts: the one made as ``new`` was built against ``old``
    (app.rooms.views.build_parts), if it was."""
    made = new.made_of.get("delta") if isinstance(new, Shared) else None
    if made is not None and made[0]() is old:
        ops: list[dict[str, Any]] = made[1]
        return ops
    return diff(old, new)


def _seen(
    events: list[dict[str, Any]], seat: int | None, public_events: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    seen = [e for e in (engine.event_for(ev, seat) for ev in events) if e]
    seen.extend(public_events)
    return seen


def _joined(first: bytes, second: bytes) -> bytes:
    """Two lists' JSON items (without brackets) as one list's."""
    return first + b"," + second if first and second else first or second


def _message(head: bytes, ops: bytes, events: bytes) -> str:
    # The bytes orjson makes of app.wire.messages.PatchMessage.build(seq, ts, ops, events).
    return (head + ops + b'],"events":' + events + b"}").decode()
