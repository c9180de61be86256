"""A change's way from the node to its sockets (app.ws.connection ``on_change``), for each
room store: a frame written straight to a socket and one that waits in its queue (its
transport paused) are the same bytes, in the same order; a socket that cannot keep up is
closed with 4008."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import websockets
from live import SETUP, Server, seeded_room

from app.ws.connection import CLOSE_SLOW, Connection


async def _spectator(server: Server, room_id: str) -> tuple[Any, Connection]:
    """A spectator's socket, its snapshot read, and the server's connection of it."""
    ws = await websockets.connect(f"{server.ws_base}/ws/rooms/{room_id}", compression=None)
    await ws.recv()  # the snapshot
    port = ws.local_address[1]
    service = server.app.state.rooms
    async with asyncio.timeout(5):
        while True:
            for listener in service._listeners.get(room_id, ()):
                client = listener.websocket.client
                if client is not None and client.port == port:
                    return ws, listener
            await asyncio.sleep(0.01)


async def _patches(ws: Any, count: int) -> list[str]:
    """The texts of the next ``count`` patches ``ws`` receives, as they came."""
    texts: list[str] = []
    async with asyncio.timeout(5):
        while len(texts) < count:
            text = str(await ws.recv())
            if '"type":"patch"' in text:
                texts.append(text)
    return texts


async def test_a_paused_socket_gets_the_same_bytes_through_its_queue_in_order(
    server: Server,
) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    straight, _ = await _spectator(server, room_id)
    paused, connection = await _spectator(server, room_id)
    connection._protocol.pause_writing()  # as the transport asks when its buffer is full
    seats = [await server.connect(room_id, token) for token in tokens[1:]]  # two changes
    first = await _patches(straight, 2)
    await asyncio.sleep(0.1)
    assert connection.queued > 0 or not connection._idle  # held: nothing written
    connection._protocol.resume_writing()
    assert await _patches(paused, 2) == first
    # Written straight again once its queue is empty.
    await seats[0].close()
    assert await _patches(paused, 1) == await _patches(straight, 1)
    for ws in (straight, paused):
        await ws.close()
    for seat in seats[1:]:
        await seat.close()


async def test_a_socket_that_does_not_keep_up_is_closed_with_4008(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    slow, connection = await _spectator(server, room_id)
    connection._max_queue = 1
    connection._protocol.pause_writing()
    # Three changes: the sender holds the first, the queue the second, the third overflows.
    seats = [await server.connect(room_id, token) for token in tokens]
    connection._protocol.resume_writing()
    async with asyncio.timeout(5):
        with contextlib.suppress(websockets.ConnectionClosed):
            async for _ in slow:
                pass
    assert slow.close_code == CLOSE_SLOW
    for seat in seats:
        await seat.close()
