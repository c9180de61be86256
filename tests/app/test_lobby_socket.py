"""/ws/lobby pushes public rooms appearing, filling, starting and ending, numbered with
seq within an epoch, and serves resume."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import websockets
from live import Server, running_server
from schema_check import _check, _validator

MESSAGES = {"snapshot": "LobbySnapshot", "lobby": "LobbyMessage"}


class Lobby:
    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        message = orjson.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if message["type"] in MESSAGES:
            _check(_validator(MESSAGES[message["type"]]), message, "lobby message")
        return message

    async def change(self, room_id: str, op: str) -> dict[str, Any]:
        async with asyncio.timeout(5):
            while True:
                message = await self.next()
                for change in message.get("changes", []):
                    if change["roomId"] == room_id and change["op"] == op:
                        return {**change, "seq": message["seq"]}


@pytest.fixture
async def quick(store_kind: str, tmp_path: Any) -> Any:
    async with running_server(store_kind, tmp_path, lobby_poll_seconds=0.05) as live:
        yield live


async def _lobby(server: Server) -> tuple[Lobby, dict[str, Any]]:
    ws = await websockets.connect(f"{server.ws_base}/ws/lobby", subprotocols=["uno.v1"])
    lobby = Lobby(ws)
    return lobby, await lobby.next()


async def test_the_lobby_pushes_rooms_appearing_filling_starting(quick: Server) -> None:
    before = await quick.create(seats=3)
    lobby, snapshot = await _lobby(quick)
    assert snapshot["type"] == "snapshot" and snapshot["protocol"] == "uno.v1"
    assert before["roomId"] in {r["roomId"] for r in snapshot["rooms"]}
    room = await quick.create(seats=2)
    added = await lobby.change(room["roomId"], "add")
    assert added["room"]["players"] == [] and added["seq"] == snapshot["seq"] + 1
    await quick.join(room["roomId"], "Ann")
    updated = await lobby.change(room["roomId"], "update")
    assert [p["name"] for p in updated["room"]["players"]] == ["Ann"]
    await quick.join(room["roomId"], "Ben")
    assert (await lobby.change(room["roomId"], "remove"))["reason"] == "full"
    await quick.join(before["roomId"], "Cy")
    await quick.join(before["roomId"], "Di")
    await quick.start(before["roomId"], before["hostToken"])
    assert (await lobby.change(before["roomId"], "remove"))["reason"] in ("started", "full")
    await lobby.ws.close()


async def test_a_lobby_resume_replays_the_changes_or_snapshots(quick: Server) -> None:
    lobby, snapshot = await _lobby(quick)
    await lobby.ws.close()
    room = await quick.create(seats=2)
    await asyncio.sleep(0.1)
    again, fresh = await _lobby(quick)  # the feed saw the room when this socket opened
    assert room["roomId"] in {r["roomId"] for r in fresh["rooms"]}
    await again.ws.send(
        orjson.dumps(
            {"type": "resume", "lastSeq": snapshot["seq"], "epoch": snapshot["epoch"]}
        ).decode()
    )
    replayed = await again.next()
    assert replayed["type"] == "lobby" and replayed["seq"] == snapshot["seq"] + 1
    assert replayed["changes"][0]["roomId"] == room["roomId"]
    await again.ws.send(orjson.dumps({"type": "resume", "lastSeq": 0, "epoch": "other"}).decode())
    assert (await again.next())["type"] == "snapshot"
    await again.ws.send(orjson.dumps({"type": "resume", "lastSeq": "1"}).decode())
    assert (await again.next())["code"] == "bad_message"
    await again.ws.send(orjson.dumps({"type": "ping"}).decode())
    assert (await again.next())["type"] == "pong"
    await again.ws.close()
