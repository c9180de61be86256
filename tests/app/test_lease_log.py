"""A writer that loses its room's lease says so as loud as it matters: a warning when
another writer holds the room now, an info line when the lease only lapsed (as on a node
that is alone: nobody else could have taken the room)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from live import Client, Server, running_server


async def _turn_holder(server: Server, room_id: str, seats: list[dict[str, Any]]) -> Client:
    client = await server.connect(room_id, seats[0]["token"])
    if client.view["turn"] == client.view["you"]:
        return client
    await client.close()
    return await server.connect(room_id, seats[1]["token"])


def _lease_lines(caplog: pytest.LogCaptureFixture, room_id: str) -> list[tuple[int, str]]:
    return [
        (r.levelno, r.getMessage())
        for r in caplog.records
        if r.name == "app.rooms.writer" and room_id in r.getMessage() and "lease" in r.getMessage()
    ]


@pytest.mark.parametrize("taken", [True, False], ids=["taken", "lapsed"])
async def test_a_lost_lease_warns_only_when_another_writer_holds_the_room(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, taken: bool
) -> None:
    caplog.set_level(logging.INFO, logger="app.rooms.writer")
    async with running_server("memory", tmp_path, writer_idle_seconds=30) as server:
        room, seats = await server.table(2)
        room_id = room["roomId"]
        client = await _turn_holder(server, room_id, seats)
        store = server.app.state.store
        assert await store.leased(room_id)  # this node's writer holds it
        await store.release(room_id, server.app.state.rooms.node)
        if taken:
            assert await store.acquire(room_id, "other-node", 60_000)
        await client.act({"type": "draw"})
        async with asyncio.timeout(5):
            while not _lease_lines(caplog, room_id):
                await asyncio.sleep(0.01)
        lines = _lease_lines(caplog, room_id)
        level = logging.WARNING if taken else logging.INFO
        assert lines[0][0] == level, lines
        assert ("another node carries on" in lines[0][1]) is taken
        await client.close()
