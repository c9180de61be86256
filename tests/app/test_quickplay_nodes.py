"""Quick play on two real server processes sharing a Redis of the test's own: the node
holding the matching lease is killed (SIGKILL) while tickets arrive and tables are being
made; every ticket is still seated, and each exactly once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import redis.asyncio as aioredis
import websockets
from own_redis import own_redis
from processes import AppProcess

pytestmark = pytest.mark.redis

LEASE = "uno:{quickplay}:lease"


async def _matched(ws: Any) -> dict[str, Any]:
    async with asyncio.timeout(40):
        while True:
            message = orjson.loads(await ws.recv())
            if message["type"] == "matched":
                return dict(message)


async def test_killing_the_matching_node_loses_no_ticket_and_seats_nobody_twice(
    tmp_path: Path,
) -> None:
    with own_redis(tmp_path / "redis") as url:
        args = ("--redis", url, "--database", f"sqlite+aiosqlite:///{tmp_path}/uno.db")
        # Twelve tickets from one address: past the default cap of open rooms.
        env = {"UNO_QUICKPLAY_FILL_SECONDS": "60", "UNO_MAX_OPEN_LOBBIES_PER_ADDRESS": "100"}
        # One after the other: the first migrates the database the second then finds.
        nodes = [AppProcess(tmp_path / "n0", *args, env=env)]
        try:
            ids = [await nodes[0].healthy()]
            nodes.append(AppProcess(tmp_path / "n1", *args, env=env))
            ids.append(await nodes[1].healthy())
            client = aioredis.from_url(url)
            try:
                async with asyncio.timeout(20):
                    while (holder := await client.get(LEASE)) is None:
                        await asyncio.sleep(0.1)
            finally:
                await client.aclose()
            doomed = nodes[ids.index(holder.decode())]
            survivor = nodes[1 - nodes.index(doomed)]
            sockets, tickets = [], []
            async with httpx.AsyncClient(base_url=survivor.base, timeout=10) as http:
                for i in range(12):
                    r = await http.post("/api/quickplay", json={"name": f"p{i}"})
                    assert r.status_code == 202, r.text
                    tickets.append(r.json()["ticket"])
                    ws_url = f"ws://127.0.0.1:{survivor.port}/ws/quickplay?ticket={tickets[-1]}"
                    sockets.append(await websockets.connect(ws_url, subprotocols=["uno.v1"]))
                    if i == 5:
                        doomed.kill()  # mid-stream: the first tables may be in the making
                matched = await asyncio.gather(*(_matched(ws) for ws in sockets))
                seats = [(m["roomId"], m["seat"]) for m in matched]
                assert len(set(seats)) == 12  # nobody seated twice
                rooms = {room for room, _ in seats}
                assert len(rooms) == 3
                for room_id in rooms:
                    room = (await http.get(f"/api/rooms/{room_id}")).json()
                    assert room["status"] == "playing" and len(room["players"]) == 4
                    names = sorted(p["name"] for p in room["players"])
                    mine = sorted(
                        f"p{tickets.index(t)}"
                        for t, s in zip(tickets, seats, strict=True)
                        if s[0] == room_id
                    )
                    assert names == mine
            for ws in sockets:
                await ws.close()
        finally:
            for node in nodes:
                node.kill()
