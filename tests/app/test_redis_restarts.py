"""After Redis is killed and restarted, a node's store listens again: every channel it was
subscribed to (its node channel, rooms' changes and wake-ups) is subscribed on the new
connection, new subscriptions are confirmed, and only one coroutine reads that connection.
A socket closed while Redis was down stops counting on its seat once Redis is back.
A Redis of the test's own on a free port, killed with SIGKILL twice."""

from __future__ import annotations

import asyncio
import logging
import shutil
import signal
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from live import Server, running_server

from app.store import OUTAGE
from app.store.redis import RedisStore
from reliability.processes import RedisServer

pytestmark = pytest.mark.redis


async def _until_delivered(
    url: str, channel: str, got: asyncio.Queue[bytes], payload: bytes = b"hello"
) -> bytes:
    """Publish on ``channel`` until the store hands a message over (it resubscribes
    within a second or so of Redis being back)."""
    admin = aioredis.Redis.from_url(url)
    try:
        async with asyncio.timeout(10):
            while True:
                await admin.publish(channel, payload)
                try:
                    return await asyncio.wait_for(got.get(), timeout=0.2)
                except TimeoutError:
                    continue
    finally:
        await admin.aclose()


async def _churn(store: RedisStore, prefix: str) -> None:
    """Subscribe and unsubscribe rooms without pause (failures ignored)."""
    for i in range(10_000):
        try:
            await store.subscribe(f"{prefix}-{i}")
            await store.unsubscribe(f"{prefix}-{i}")
        except Exception:
            await asyncio.sleep(0.01)


async def test_subscriptions_survive_redis_restarts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path)
    server.start()
    changes: asyncio.Queue[bytes] = asyncio.Queue()
    wakes: asyncio.Queue[bytes] = asyncio.Queue()
    direct: asyncio.Queue[bytes] = asyncio.Queue()

    def on_message(room_id: str | None, data: bytes) -> None:
        (direct if room_id is None else changes).put_nowait(data)

    store = await RedisStore.connect(server.url, prefix="t")
    caplog.set_level(logging.WARNING)
    try:
        await store.start("n1", on_message, lambda room: wakes.put_nowait(room.encode()))
        await store.subscribe("r1")
        await store.watch_log("r1")
        for restart in range(2):
            # Rooms' sockets keep subscribing while Redis is down and as it comes back.
            churn = asyncio.create_task(_churn(store, f"c{restart}"))
            server.kill()
            await asyncio.sleep(0.3)
            server.start()
            await asyncio.sleep(1.5)
            churn.cancel()
            await asyncio.gather(churn, return_exceptions=True)
            assert await _until_delivered(server.url, "t:{r1}:changes", changes) == b"hello"
            assert await _until_delivered(server.url, "t:{r1}:wake", wakes, b"r1") == b"r1"
            assert await _until_delivered(server.url, "t:node:n1", direct) == b"hello"
            # A room subscribed after the restart is confirmed (and delivered).
            room = f"r{restart + 2}"
            async with asyncio.timeout(10):
                while True:
                    try:
                        await store.subscribe(room)
                        break
                    except Exception:
                        await asyncio.sleep(0.2)
            channel = f"t:{{{room}}}:changes"
            assert await _until_delivered(server.url, channel, changes) == b"hello"
        # Unsubscribed: no longer delivered.
        await store.unsubscribe("r1")
        admin = aioredis.Redis.from_url(server.url)
        await asyncio.sleep(0.1)
        assert await admin.publish("t:{r1}:changes", b"x") == 0
        await admin.aclose()
    finally:
        await store.close()
        server.stop()
    assert not [r for r in caplog.records if "another coroutine" in r.getMessage()]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def _seat_sockets(server: Server, room_id: str, seat: int) -> int | None:
    """The seat's count of open sockets in the stored room (None while Redis is down)."""
    try:
        record = await server.app.state.store.load(room_id)
    except Exception:
        return None
    assert record is not None
    player = next(p for p in record.doc["players"] if p["seat"] == seat)
    return int(player["conn"])


async def test_a_socket_closed_while_redis_is_down_is_uncounted_when_it_is_back(
    tmp_path: Path,
) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    try:
        async with running_server(
            "redis",
            tmp_path,
            redis_url=redis_server.url,
            max_sockets_per_seat=1,
            writer_idle_seconds=0.2,
        ) as server:
            room, seats = await server.table(2)
            room_id = room["roomId"]
            client = await server.connect(room_id, seats[0]["token"])
            assert await _seat_sockets(server, room_id, 0) == 1
            async with asyncio.timeout(10):  # no writer: the closing goes to the log
                while room_id in server.app.state.rooms._writers:
                    await asyncio.sleep(0.02)
            redis_server.kill()
            await client.ws.close()
            await asyncio.sleep(1.0)  # the server's handler ends; its disconnect fails
            redis_server.start()
            async with asyncio.timeout(15):
                while await _seat_sockets(server, room_id, 0) != 0:
                    await asyncio.sleep(0.2)
            # The seat's one socket is free again: its client gets back in.
            again = await server.connect(room_id, seats[0]["token"])
            await again.ws.close()
    finally:
        redis_server.stop()


async def test_a_closing_lost_with_its_writers_commit_is_uncounted_when_redis_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The socket's closing goes straight to the room's writer on its own node (no log
    entry) while Redis hangs (stopped), goes unanswered in time, and dies with Redis
    (killed): it is sent again by the socket's id until it lands, and counts once. The
    outage's failures are logged as warnings, without tracebacks."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    try:
        async with running_server(
            "redis",
            tmp_path,
            redis_url=redis_server.url,
            max_sockets_per_seat=1,
            command_timeout_seconds=0.5,
            # Renewals every 2 s: the writer is still running when the closing reaches it.
            lease_ttl_ms=6000,
        ) as server:
            room, seats = await server.table(2)
            room_id = room["roomId"]
            client = await server.connect(room_id, seats[0]["token"])
            assert await _seat_sockets(server, room_id, 0) == 1
            assert room_id in server.app.state.rooms._writers
            assert redis_server.process is not None
            redis_server.process.send_signal(signal.SIGSTOP)
            await client.ws.close()
            # Handed to the writer, whose store call hangs; unanswered after 0.5 s, told
            # "timeout" at the next look of the pending commands (every 3 s).
            await asyncio.sleep(4.0)
            redis_server.kill()  # what it had not read is gone with it
            await asyncio.sleep(3.0)  # longer than redis-py's own retries of the commit
            redis_server.start()
            async with asyncio.timeout(20):
                while await _seat_sockets(server, room_id, 0) != 0:
                    await asyncio.sleep(0.2)
            again = await server.connect(room_id, seats[0]["token"])
            assert await _seat_sockets(server, room_id, 0) == 1  # counted off once, not twice
            await again.ws.close()
    finally:
        redis_server.stop()
    assert not [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], OUTAGE)]
    assert any("the store cannot be reached" in r.getMessage() for r in caplog.records)
