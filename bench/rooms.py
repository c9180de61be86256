"""A room driven through its own machine, without a server, as the benches record their
games: ``seats`` players joined and connected, nobody watching yet, not started."""

from __future__ import annotations

from typing import Any

import engine
from app.rooms import tokens
from app.rooms.doc import new_doc
from app.rooms.machine import RoomMachine


def seated(
    seats: int,
    rules: dict[str, Any] | None = None,
    *,
    room_id: str = "r1",
    spectators: bool = True,
    turn_seconds: int = 0,
    secret: str | None = None,
) -> RoomMachine:
    """The room's machine with players ``p0``... in its seats (``rules``: wire form;
    ``secret``: the shuffle's, for the same deals in every run)."""
    doc = new_doc(
        room_id=room_id,
        name="bench",
        code="ABCDEF",
        private=False,
        spectators=spectators,
        seats=seats,
        rules=engine.rules_from_json(rules or {}).to_json(),
        host_hash=tokens.hash_token("h"),
        now_ms=0,
        turn_seconds=turn_seconds,
    )
    if secret is not None:
        doc["shuffle"]["secret"] = secret
    machine = RoomMachine(doc, 0, [])
    for i in range(seats):
        machine.handle({"k": "join", "pid": f"p{i}", "name": f"P{i}", "token": f"t{i}"}, 0)
        machine.handle({"k": "connect", "pid": f"p{i}"}, 0)
    return machine
