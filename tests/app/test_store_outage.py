"""When the room store fails, nothing wedges: a socket whose gap-repairing snapshot cannot
be read retries it, then closes with 1013 so that its client reconnects; during a Redis
outage every REST route answers ``503 unavailable`` and sockets close with 1013, without
tracebacks or never-retrieved futures in the log. Real Redis: the shared one under a key
prefix for a room broken on purpose, and one of the test's own for the outage."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis
import websockets
from live import REDIS_URL, Server, running_server
from own_redis import own_redis

from app.store.base import Commit

pytestmark = pytest.mark.redis


async def _idle(server: Server, room_id: str) -> None:
    """Until the node's writer gave the room up: changes then come through Redis."""
    async with asyncio.timeout(10):
        while room_id in server.app.state.rooms._writers:
            await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def unreadable_room(server: Server, room_id: str) -> Any:
    """The room's deal log replaced by a string: every read of the room fails (WRONGTYPE)
    until the block ends and the log is put back."""
    admin = aioredis.Redis.from_url(REDIS_URL)
    deal = f"{server.settings.redis_prefix}:{{{room_id}}}:deal"
    await admin.rename(deal, deal + ":kept")
    await admin.set(deal, "not a list")
    try:
        yield
    finally:
        await admin.delete(deal)
        await admin.rename(deal + ":kept", deal)
        await admin.aclose()


async def a_change_this_socket_cannot_patch(server: Server, room_id: str) -> int:
    """Another writer commits a change without this audience's message, so the socket must
    resync from a snapshot. Returns its seq."""
    store = server.app.state.store
    record = await store.load(room_id)
    seq = record.seq + 1
    assert await store.acquire(room_id, "other-node", 5000)
    change = {"seq": seq, "ts": 0, "m": {}, "removed": []}
    commit = Commit(seq=seq, doc=record.doc, log_id=record.log_id, change=orjson.dumps(change))
    return seq, commit  # type: ignore[return-value]


async def test_a_failed_resync_is_retried_and_patches_flow_again(tmp_path: Path) -> None:
    async with running_server("redis", tmp_path, writer_idle_seconds=0.2) as server:
        room, seats = await server.table(2)
        room_id = room["roomId"]
        client = await server.connect(room_id, seats[0]["token"])
        await _idle(server, room_id)
        store = server.app.state.store
        seq, commit = await a_change_this_socket_cannot_patch(server, room_id)
        async with unreadable_room(server, room_id):
            await store.commit(room_id, "other-node", commit)
            await asyncio.sleep(0.4)  # a few failed snapshots
            assert client.seq == seq - 1
        await store.release(room_id, "other-node")
        await client.wait_seq(seq)  # the retried snapshot
        other = await server.connect(room_id, seats[1]["token"])  # a change after it
        await client.wait_seq(other.seq)
        assert client.view["players"] == other.view["players"]
        assert client.ws.close_code is None
        await other.close()
        await client.close()


async def test_a_resync_that_keeps_failing_closes_the_socket_with_1013(tmp_path: Path) -> None:
    async with running_server("redis", tmp_path, writer_idle_seconds=0.2) as server:
        room, seats = await server.table(2)
        room_id = room["roomId"]
        client = await server.connect(room_id, seats[0]["token"])
        await _idle(server, room_id)
        seq, commit = await a_change_this_socket_cannot_patch(server, room_id)
        async with unreadable_room(server, room_id):
            await server.app.state.store.commit(room_id, "other-node", commit)
            await asyncio.wait_for(client._reader, timeout=10)
        assert client.ws.close_code == 1013
        assert client.errors[None][-1]["code"] == "unavailable"


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def log_lines() -> Iterator[list[str]]:
    """Every warning or error logged meanwhile (uvicorn's loggers do not propagate)."""
    handler = _Lines()
    loggers = [logging.getLogger(n) for n in ("", "uvicorn", "uvicorn.error", "asyncio")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.lines
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


async def test_a_redis_outage_answers_503_unavailable_and_closes_sockets_with_1013(
    tmp_path: Path,
) -> None:
    with own_redis(tmp_path / "redis") as url, log_lines() as lines:
        async with running_server("redis", tmp_path, redis_url=url, lease_ttl_ms=1500) as server:
            room, seats = await server.table(2)
            room_id, host = room["roomId"], {"Authorization": f"Bearer {room['hostToken']}"}
            playing = await server.connect(room_id, seats[0]["token"])
            watching = await server.connect(room_id)
            admin = aioredis.Redis.from_url(url)
            with contextlib.suppress(Exception):
                await admin.shutdown(nosave=True)
            await admin.aclose()

            ref = await playing.act({"type": "draw"})
            routes: list[tuple[str, str, dict[str, Any] | None]] = [
                ("POST", "/api/rooms", {"name": "more"}),
                ("GET", "/api/rooms", None),
                ("GET", f"/api/rooms/{room_id}", None),
                ("POST", f"/api/rooms/{room_id}/join", {"name": "late"}),
                ("POST", "/api/rooms/join", {"name": "late", "code": room["code"]}),
                ("POST", f"/api/rooms/{room_id}/start", None),
                ("POST", f"/api/rooms/{room_id}/kick", {"seat": 1}),
                ("PATCH", f"/api/rooms/{room_id}", {"name": "renamed"}),
                ("GET", "/healthz", None),
            ]
            for method, path, body in routes:
                r = await server.http.request(method, path, json=body, headers=host)
                assert r.status_code == 503, (method, path, r.status_code, r.text)
                assert r.headers["content-type"] == "application/json", (method, path)
                assert r.json()["code"] == "unavailable", (method, path, r.text)
            r = await server.http.post(
                f"/api/rooms/{room_id}/leave",
                headers={"Authorization": f"Bearer {seats[1]['token']}"},
            )
            assert (r.status_code, r.json()["code"]) == (503, "unavailable"), r.text

            for client in (playing, watching):
                await asyncio.wait_for(client._reader, timeout=10)
                assert client.ws.close_code == 1013
            assert ref not in playing.acks
            async with websockets.connect(f"{server.ws_base}/ws/rooms/{room_id}") as ws:
                assert orjson.loads(await ws.recv())["code"] == "unavailable"
                with pytest.raises(websockets.ConnectionClosed):
                    await ws.recv()
                assert ws.close_code == 1013
        gc.collect()  # a future dropped with its exception unretrieved is reported now
        await asyncio.sleep(0)
    for bad in (
        "Future exception was never retrieved",
        "Task exception was never retrieved",
        "Exception in ASGI application",
        "socket handler failed",
    ):
        assert not [line for line in lines if bad in line], (bad, lines)
