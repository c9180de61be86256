"""A Redis at its memory limit with ``maxmemory-policy noeviction`` refuses writes; the
server answers ``503 unavailable`` and loses nothing (a Redis of the test's own, made
full by a tiny ``maxmemory``)."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from live import running_server
from own_redis import own_redis
from test_full_game import bot_action

pytestmark = pytest.mark.redis


async def test_a_full_redis_refuses_with_503_unavailable_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    import random

    prefix = f"t{secrets.token_hex(4)}"
    with own_redis(tmp_path / "redis", "--save", "", "--maxmemory-policy", "noeviction") as url:
        admin = aioredis.Redis.from_url(url)
        async with (
            running_server("redis", tmp_path, prefix=prefix, redis_url=url) as a,
            running_server("redis", tmp_path, prefix=prefix, redis_url=url) as b,
        ):
            room, seats = await a.table(2)  # room's writer: node a
            room_id = room["roomId"]
            first = await a.connect(room_id, seats[0]["token"])
            turn = first.view["turn"]
            await first.close()
            # The player to move on node b: its commands cross to a through the log.
            mover = await b.connect(room_id, seats[turn]["token"])
            other = await a.connect(room_id, seats[1 - turn]["token"])
            await other.wait_seq(mover.seq)
            lobby = (await a.http.get("/api/rooms")).json()
            seq = mover.seq

            await admin.config_set("maxmemory", 1)  # full from now on
            created = await a.http.post("/api/rooms", json={"name": "more", "seats": 2})
            assert created.status_code == 503, created.text
            assert created.json()["code"] == "unavailable"
            joined = await b.http.post(f"/api/rooms/{room_id}/join", json={"name": "late"})
            assert (joined.status_code, joined.json()["code"]) == (503, "unavailable")
            action = bot_action(mover.view, random.Random(7))
            ref = await mover.act(action)
            refused = await mover.outcome(ref)
            assert refused["type"] == "error" and refused["code"] == "unavailable", refused
            assert mover.seq == seq  # nothing changed
            assert (await a.http.get("/api/rooms")).json() == lobby

            await admin.config_set("maxmemory", 0)  # room again
            mover.errors.pop(ref)
            retried = await mover.act(action, ref)  # the same action, the same id
            ack = await mover.outcome(retried)
            assert ack["type"] == "ack" and ack["seq"] == seq + 1, ack
            await other.wait_seq(ack["seq"])
            assert other.view["players"] == mover.view["players"]
            assert (await a.http.post("/api/rooms", json={"name": "more"})).status_code == 201
            await mover.close()
            await other.close()
        await admin.aclose()
