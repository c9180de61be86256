"""What a node keeps in memory for a room lasts while the room is live on it: once the
room's sockets have closed and its writer has stopped, none of the room service's
per-room dicts and sets still names the room, so a node's memory follows the rooms it
serves now, not every room it ever served."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

from live import running_server

from app.store import RoomRecord


def _naming(owner: Any, room_id: str) -> list[str]:
    """The attributes of ``owner`` (dicts by key, sets by member) that name ``room_id``."""
    found = []
    for name, value in vars(owner).items():
        if isinstance(value, dict | set) and room_id in value:
            found.append(name)
    return found


async def test_a_room_whose_sockets_closed_and_writer_stopped_leaves_nothing_behind(
    store_kind: str, tmp_path: Any
) -> None:
    # Writers give an idle room up soon; the spectator count's refresh comes soon too.
    quick = {"writer_idle_seconds": 0.2, "watchers_refresh_seconds": 0.1}
    async with running_server(store_kind, tmp_path, **quick) as server:
        service = server.app.state.rooms
        room, seats = await server.table(2, start=False)
        room_id = room["roomId"]
        players = [await server.connect(room_id, s["token"]) for s in seats]
        watcher = await server.connect(room_id)
        await players[0].wait_seq(players[1].seq)
        for client in (*players, watcher):
            await client.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                while _naming(service, room_id):
                    await asyncio.sleep(0.05)
        assert _naming(service, room_id) == []


def _records_of(room_id: str) -> list[RoomRecord]:
    """The loaded copies of the room (document and deal log) still in memory."""
    gc.collect()
    return [o for o in gc.get_objects() if type(o) is RoomRecord and o.doc.get("id") == room_id]


async def test_open_sockets_and_a_running_writer_keep_no_loaded_copy_of_the_room(
    store_kind: str, tmp_path: Any
) -> None:
    """A socket lives for hours and a writer for as long as its room is busy: the room as
    they loaded it (at the handshake, at the writer's start) is of no use to them after,
    and kept, it would hold a stale copy of the document and the deal log per socket and
    per writer (the deal's start with the room's last 256 action ids, every action)."""
    async with running_server(store_kind, tmp_path) as server:
        service = server.app.state.rooms
        room, seats = await server.table(2)
        room_id = room["roomId"]
        players = [await server.connect(room_id, s["token"]) for s in seats]
        watcher = await server.connect(room_id)
        mover = next(p for p in players if p.view["legal"])
        await mover.outcome(await mover.act({"type": "draw"}))
        await watcher.wait_seq(mover.seq)
        assert room_id in service._writers  # the writer runs, the sockets are open
        assert _records_of(room_id) == []
        for client in (*players, watcher):
            await client.close()
