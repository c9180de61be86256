"""``/ws/quickplay?ticket=``: a quick-play ticket's socket (subprotocol ``uno.v1``).

Every second while the ticket waits it gets ``{"type": "queued", "waitedSeconds",
"searching": true, "gap"}`` (``gap``: the rating gap the ticket accepts by now), and once
a table is found ``{"type": "matched", "roomId", "seat", "token"}`` (the seat token for
``/ws/rooms/{roomId}``), after which the server closes the socket (1000). An open socket
keeps the ticket: a ticket whose socket has been closed (or never opened) for more than
10 s is dropped from the queue. An unknown ticket is closed with 4004.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket

from app.deps import AppSettings, QuickplayQueue, Rooms
from app.quickplay.tables import gap
from app.ws.handshake import agree

router = APIRouter()

POLL_SECONDS = 1.0
NO_TICKET = 4004


def _queued(ticket: dict[str, Any], now: int) -> dict[str, Any]:
    waited = max(0, now - ticket["at"])
    return {
        "type": "queued",
        "waitedSeconds": waited // 1000,
        "searching": ticket["state"] == "queued",
        "gap": gap(waited),
    }


@router.websocket("/ws/quickplay")
async def quickplay_socket(
    websocket: WebSocket, settings: AppSettings, rooms: Rooms, queue: QuickplayQueue
) -> None:
    agreed = await agree(websocket, settings)
    if agreed is None:
        return
    await websocket.accept(subprotocol=agreed.subprotocol)
    ticket_id = websocket.query_params.get("ticket", "")
    reader = asyncio.create_task(_drain(websocket))
    try:
        while not reader.done():
            ticket = await queue.get(ticket_id)
            if ticket is None:
                await websocket.close(NO_TICKET, "no such ticket in the queue")
                return
            if ticket["state"] == "matched":
                await websocket.send_text(
                    orjson.dumps({"type": "matched", **ticket["room"]}).decode()
                )
                await websocket.close(1000)
                return
            now = rooms.now_ms()
            await queue.see(ticket_id, now)
            await websocket.send_text(orjson.dumps(_queued(ticket, now)).decode())
            await asyncio.wait({reader}, timeout=POLL_SECONDS)
    except Exception:
        with contextlib.suppress(Exception):
            await websocket.close(1011)
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it goes."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
