"""Rooms expire: every key of a room has a TTL, refreshed by each commit; nothing of an
expired room stays behind (lobby, join codes), except outbox entries until archived.
Against both stores (memory, real Redis), through the store and through a live server."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
from live import REDIS_URL, Server, drop_prefix, require_redis, running_server

from app.store import MemoryStore, RoomStore
from app.store.base import Commit

TTLS = {"room_ttl_seconds": 1, "finished_room_ttl_seconds": 1, "sweep_seconds": 3600.0}


@pytest.fixture
async def store(store_kind: str) -> AsyncIterator[RoomStore]:
    if store_kind == "memory":
        yield MemoryStore(**TTLS)
        return
    await require_redis()
    from app.store.redis import RedisStore

    prefix = f"t{secrets.token_hex(4)}"
    redis_store = await RedisStore.connect(REDIS_URL, prefix=prefix, **TTLS)
    try:
        yield redis_store
    finally:
        await redis_store.close()
        await drop_prefix(prefix)


async def _keys_of(store: RoomStore, room_id: str) -> dict[str, int]:
    """Every Redis key naming the room, with its TTL in ms (-1: none)."""
    redis: Any = store._redis  # type: ignore[attr-defined]
    prefix = store.prefix  # type: ignore[attr-defined]
    keys = [k async for k in redis.scan_iter(match=f"{prefix}:*{{{room_id}}}*")]
    return {k.decode(): await redis.pttl(k) for k in keys}


async def _indexed(store: RoomStore, room_id: str) -> list[str]:
    """The cross-room indexes that still mention the room."""
    found = []
    if isinstance(store, MemoryStore):
        if room_id in store._rooms:
            found.append("rooms")
        if room_id in store._listed:
            found.append("lobby")
        if room_id in store._codes.values():
            found.append("codes")
        return found
    redis: Any = store._redis  # type: ignore[attr-defined]
    prefix = store.prefix  # type: ignore[attr-defined]
    if await redis.zscore(f"{prefix}:lobby", room_id) is not None:
        found.append("lobby")
    if room_id.encode() in await redis.hvals(f"{prefix}:codes"):
        found.append("codes")
    if await redis.sismember(f"{prefix}:outboxes", room_id):
        found.append("outboxes")
    return found


def _commit(seq: int, status: str = "lobby", **kw: Any) -> Commit:
    doc = {"id": "r1", "createdAt": 1, "status": status, "code": "ABCDEF"}
    change = orjson.dumps({"seq": seq, "ts": 0, "m": {}, "removed": []})
    return Commit(seq=seq, doc=doc, log_id=f"0-{seq}", change=change, **kw)


async def test_every_key_of_a_room_expires_and_each_commit_sets_it_again(
    store: RoomStore,
) -> None:
    store.room_ttl_seconds = 2
    await store.create("r1", {"id": "r1", "createdAt": 1, "code": "ABCDEF"}, "ABCDEF", True)
    await store.append("r1", {"k": "x"})
    assert await store.acquire("r1", "w1", 5000)
    deal = [{"start": {"n": 1}}]
    await store.commit("r1", "w1", _commit(1, deal_reset=True, deal_append=deal))
    if not isinstance(store, MemoryStore):
        keys = await _keys_of(store, "r1")
        assert {k.rsplit(":", 1)[1] for k in keys} == {"room", "log", "deal", "hist", "lease"}
        assert all(0 < ttl <= 5000 for ttl in keys.values()), keys
    await asyncio.sleep(1.2)
    await store.commit("r1", "w1", _commit(2, lease_ttl_ms=5000))  # sets the TTL again
    await asyncio.sleep(1.2)
    assert await store.load("r1") is not None
    await asyncio.sleep(1.0)
    assert await store.load("r1") is None
    assert await store.room_for_code("ABCDEF") is None
    assert await store.listed(10) == []
    await store.sweep()
    assert await _indexed(store, "r1") == []
    if not isinstance(store, MemoryStore):
        assert set(await _keys_of(store, "r1")) <= {f"{store.prefix}:{{r1}}:lease"}  # type: ignore[attr-defined]


async def test_a_finished_match_expires_sooner(store: RoomStore) -> None:
    store.room_ttl_seconds, store.finished_room_ttl_seconds = 60, 1
    await store.create("r1", {"id": "r1", "createdAt": 1}, None, False)
    assert await store.acquire("r1", "w1", 60_000)
    await store.commit("r1", "w1", _commit(1))
    await asyncio.sleep(1.2)
    assert await store.load("r1") is not None
    await store.commit("r1", "w1", _commit(2, status="over"))
    await asyncio.sleep(1.2)
    assert await store.load("r1") is None


async def test_a_finished_deal_outlives_its_expired_room_until_archived(
    store: RoomStore,
) -> None:
    await store.create("r1", {"id": "r1", "createdAt": 1}, None, False)
    assert await store.acquire("r1", "w1", 5000)
    await store.commit("r1", "w1", _commit(1, archive=("m:1", b"record")))
    await asyncio.sleep(1.2)
    assert await store.load("r1") is None
    # Nothing accepted is lost: the deal is still there for an archiver's drain.
    assert "r1" in await store.outbox_rooms()
    assert await store.outbox("r1") == [("m:1", b"record")]
    await store.archived("r1", "m:1")
    await store.outbox_settled("r1")
    assert await store.outbox("r1") == []
    assert await _indexed(store, "r1") == []
    if not isinstance(store, MemoryStore):
        assert list(await _keys_of(store, "r1")) == [f"{store.prefix}:{{r1}}:lease"]  # type: ignore[attr-defined]


async def test_expire_room_now_drops_the_room_its_lobby_entry_and_its_code(
    store: RoomStore,
) -> None:
    store.room_ttl_seconds = 60
    await store.create("r1", {"id": "r1", "createdAt": 1, "code": "ABCDEF"}, "ABCDEF", True)
    await store.create("r2", {"id": "r2", "createdAt": 2, "code": "GHIJKL"}, "GHIJKL", True)
    await store.expire_room("r1", 0)
    assert await store.load("r1") is None
    assert [d["id"] for d in await store.listed(10)] == ["r2"]
    assert await store.room_for_code("ABCDEF") is None
    assert await store.room_for_code("GHIJKL") == "r2"
    assert await _indexed(store, "r1") == []
    if not isinstance(store, MemoryStore):
        assert await _keys_of(store, "r1") == {}


async def test_an_abandoned_lobby_room_is_gone_from_every_route(
    store_kind: str, tmp_path: Any
) -> None:
    ttls = {"room_ttl_seconds": 1, "store_sweep_seconds": 0.3}
    async with running_server(store_kind, tmp_path, **ttls) as server:
        room = await server.create(name="left", seats=3)
        await server.join(room["roomId"], "Ann")
        code = await _code_of(server, room["roomId"])
        # A room that is used stays: each change sets its TTL again.
        kept = await server.create(name="kept", seats=3)
        for name in ("a", "b", "c", "d"):
            await asyncio.sleep(0.4)
            if name != "d":
                await server.join(kept["roomId"], name)
        assert (await server.http.get(f"/api/rooms/{room['roomId']}")).status_code == 404
        assert (await server.http.get(f"/api/rooms/{kept['roomId']}")).status_code == 200
        r = await server.http.post("/api/rooms/join", json={"name": "Ben", "code": code})
        assert r.status_code == 404 and r.json()["code"] == "bad_code"
        assert room["roomId"] not in {
            r["roomId"] for r in (await server.http.get("/api/rooms")).json()
        }
        # The sweep found the lobby entry and the code without anyone asking.
        ghost = await server.create(name="ghost", seats=3)
        ghost_code = await _code_of(server, ghost["roomId"])
        await asyncio.sleep(1.8)
        store = server.app.state.store
        assert await _indexed(store, ghost["roomId"]) == []
        assert ghost_code not in str(await _codes(store))
        if store_kind == "redis":
            # Only what a writer still running holds (its lease and beat), which go with it.
            assert set(await _keys_of(store, room["roomId"])) <= {
                f"{store.prefix}:{{{room['roomId']}}}:{key}" for key in ("lease", "beat")
            }


async def _code_of(server: Server, room_id: str) -> str:
    record = await server.app.state.store.load(room_id)
    code: str = record.doc["code"]
    return code


async def _codes(store: RoomStore) -> Any:
    if isinstance(store, MemoryStore):
        return store._codes
    return await store._redis.hgetall(f"{store.prefix}:codes")  # type: ignore[attr-defined]


async def test_keys_a_commit_makes_get_their_ttl_though_the_rooms_are_not_due(
    store: RoomStore,
) -> None:
    """The commit sets a room's TTLs again only when they run low (docs/architecture.md,
    "Expiry"); a key it creates (a deal list after a reset, a history that expired) gets one
    at once, and TTLs that expire_room shortened are set again by the next commit."""
    if isinstance(store, MemoryStore):
        pytest.skip("TTLs of Redis keys")
    store.room_ttl_seconds = 60
    await store.create("r1", {"id": "r1", "createdAt": 1}, None, False)
    assert await store.acquire("r1", "w1", 60_000)
    deal = [{"start": {"n": 1}}]
    await store.commit("r1", "w1", _commit(1, deal_reset=True, deal_append=deal))
    await store.commit("r1", "w1", _commit(2, deal_reset=True, deal_append=deal))
    await store._redis.delete(f"{store.prefix}:{{r1}}:hist")  # type: ignore[attr-defined]
    await store.commit("r1", "w1", _commit(3))
    keys = await _keys_of(store, "r1")
    assert {k.rsplit(":", 1)[1] for k in keys} == {"room", "deal", "hist", "lease"}
    assert all(ttl > 0 for ttl in keys.values()), keys
    await store.expire_room("r1", 500)
    await store.commit("r1", "w1", _commit(4))
    keys = await _keys_of(store, "r1")
    assert all(ttl > 50_000 for k, ttl in keys.items() if not k.endswith("hist")), keys


async def test_nothing_of_a_finished_tournament_stays_in_redis(tmp_path: Any) -> None:
    from tournament_play import ROUND_SETTINGS, host, new_tournament, register_all, wait_for

    ttls = {
        "finished_room_ttl_seconds": 2,
        "store_sweep_seconds": 0.3,
        # A table's writer gives its room up when idle, and then the archiver's drain
        # drops the room from the set of rooms with outbox entries.
        "writer_idle_seconds": 1.0,
        "outbox_drain_seconds": 0.3,
        **ROUND_SETTINGS,
    }
    async with running_server("redis", tmp_path, **ttls) as server:
        made = await new_tournament(server, tableStartSeconds=0, rounds=1)
        tid = made["tournamentId"]
        await register_all(server, tid, 4)
        # One ended before it ever ran goes too.
        never = await new_tournament(server)
        assert (await host(server, never, "/end")).status_code == 200
        assert (await host(server, made, "/start")).status_code == 200
        # Nobody comes: the autopilot plays the table to the end.
        doc = await wait_for(server, tid, lambda d: d["status"] == "over")
        rooms = [t["roomId"] for t in doc["roundLog"][0]["tables"]]
        store = server.app.state.store
        redis: Any = store._redis
        names = [tid, never["tournamentId"], *rooms]

        async def left() -> dict[str, int]:
            """Every key naming the tournaments or their rooms, with its TTL (-1: none)."""
            keys = [k async for k in redis.scan_iter(match=f"{store.prefix}:*")]
            return {
                k.decode(): await redis.pttl(k)
                for k in keys
                if any(name in k.decode() for name in names)
            }

        async with asyncio.timeout(20):
            # Archived in SQL, then set to expire: every key has its TTL.
            while (await server.http.get(f"/api/tournaments/{tid}/export.json")).status_code != 200:
                await asyncio.sleep(0.1)
            while -1 in (await left()).values():
                await asyncio.sleep(0.1)
            assert await left()
            # They expire, and the sweeps drop their index entries.
            while await left() or await _in_index(store, names):
                await asyncio.sleep(0.2)
        # Its GETs are answered from SQL.
        assert (await server.http.get(f"/api/tournaments/{tid}")).json()["status"] == "over"
        listed = (await server.http.get("/api/tournaments")).json()
        assert tid not in {t["tournamentId"] for t in listed}


async def _in_index(store: Any, names: list[str]) -> list[str]:
    """The store's keys (sets, sorted sets, hashes) whose members or values name any of
    ``names``."""
    redis = store._redis
    found = []
    for key in [k async for k in redis.scan_iter(match=f"{store.prefix}:*")]:
        kind = (await redis.type(key)).decode()
        members = {
            "zset": lambda k: redis.zrange(k, 0, -1),
            "set": redis.smembers,
            "hash": redis.hvals,
        }.get(kind)
        if members is not None and {m.decode() for m in await members(key)} & set(names):
            found.append(key.decode())
    return found
