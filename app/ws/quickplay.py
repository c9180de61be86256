"""``/ws/quickplay?ticket=``: a quick-play ticket's socket (subprotocol ``uno.v1``).

Every second while the ticket waits it gets ``{"type": "queued", "waitedSeconds",
"searching": true, "gap", "waiting", "fillSeconds"}`` (``gap``: the rating gap the ticket
accepts by now; ``waiting``: the players waiting in its pool, it included;
``fillSeconds``: the seconds before bots fill its table, as things stand), and once a
table is found ``{"type": "matched", "roomId", "seat", "token", "name"}`` (the seat token
for ``/ws/rooms/{roomId}``, the seat's name), after which the server closes the socket
(1000). Only a ticket whose socket is open is seated; one whose socket has been closed
(or never opened) for more than 10 s is dropped from the queue. An unknown ticket is
closed with 4004.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket

from app.deps import AppSettings, QuickplayQueue, Rooms
from app.quickplay.matcher import is_open
from app.quickplay.queue import Queue
from app.quickplay.tables import gap, outlook
from app.quickplay.tickets import seat_token, ticket_id
from app.ws.handshake import agree

router = APIRouter()

POLL_SECONDS = 1.0
NO_TICKET = 4004


async def _queued(queue: Queue, ticket: dict[str, Any], now: int, fill_ms: int) -> dict[str, Any]:
    waited = max(0, now - ticket["at"])
    tickets, seen = await queue.snapshot()
    open_now = [t for t in tickets if is_open(seen.get(t["ticket"]), now)]
    waiting, fill_ms_left = outlook(open_now, ticket, now, fill_ms)
    return {
        "type": "queued",
        "waitedSeconds": waited // 1000,
        "searching": ticket["state"] == "queued",
        "gap": gap(waited),
        "waiting": waiting,
        "fillSeconds": -(-fill_ms_left // 1000),
    }


@router.websocket("/ws/quickplay")
async def quickplay_socket(
    websocket: WebSocket, settings: AppSettings, rooms: Rooms, queue: QuickplayQueue
) -> None:
    agreed = await agree(websocket, settings)
    if agreed is None:
        return
    await websocket.accept(subprotocol=agreed.subprotocol)
    raw = websocket.query_params.get("ticket", "")
    key = ticket_id(raw)
    fill_ms = int(settings.quickplay_fill_seconds * 1000)
    reader = asyncio.create_task(_drain(websocket))
    try:
        while not reader.done():
            ticket = await queue.get(key)
            if ticket is None:
                await websocket.close(NO_TICKET, "no such ticket in the queue")
                return
            if ticket["state"] == "matched":
                matched = {**ticket["room"], "token": seat_token(raw), "name": ticket["name"]}
                await websocket.send_text(orjson.dumps({"type": "matched", **matched}).decode())
                await websocket.close(1000)
                return
            now = rooms.now_ms()
            await queue.see(key, now)
            message = await _queued(queue, ticket, now, fill_ms)
            await websocket.send_text(orjson.dumps(message).decode())
            await asyncio.wait({reader}, timeout=POLL_SECONDS)
    except Exception:
        with contextlib.suppress(Exception):
            await websocket.close(1011)
    finally:
        # Closed: the ticket is seated nowhere from now on (and dropped 10 s later).
        with contextlib.suppress(Exception):
            if (found := await queue.get(key)) is not None and found["state"] == "queued":
                await queue.see(key, -rooms.now_ms())
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it goes."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
