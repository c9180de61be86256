"""The tournament store beside each room store (memory, one Redis, the Redis Cluster): the
compare-and-set, the two indexes, and their repair when a tournament is gone."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from conftest import STORES
from live import REDIS_URL, drop_prefix, require_redis
from own_cluster import OwnCluster, drop_cluster_prefix
from redis.crc import key_slot

from app.store import MemoryStore, RoomStore
from app.tournaments.runner import TournamentRunner
from app.tournaments.store import TournamentStore, VersionConflict, tournaments_beside


@pytest.fixture(params=[*STORES, pytest.param("cluster", marks=pytest.mark.redis)])
async def rooms(request: pytest.FixtureRequest) -> AsyncIterator[RoomStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    prefix = f"t{secrets.token_hex(4)}"
    if request.param == "cluster":
        from app.store.redis_cluster import RedisClusterStore

        cluster: OwnCluster = request.getfixturevalue("redis_cluster")
        on_cluster = await RedisClusterStore.connect(cluster.seeds, prefix=prefix)
        try:
            yield on_cluster
        finally:
            await on_cluster.close()
            drop_cluster_prefix(cluster, prefix)
        return
    await require_redis()
    from app.store.redis import RedisStore

    on_redis = await RedisStore.connect(REDIS_URL, prefix=prefix)
    try:
        yield on_redis
    finally:
        await on_redis.close()
        await drop_prefix(prefix)


async def test_tournaments_live_beside_the_rooms_and_their_indexes_mend(rooms: RoomStore) -> None:
    store = tournaments_beside(rooms)
    await store.create("t1", {"createdAt": 1, "n": 0})
    await store.create("t2", {"createdAt": 2, "n": 0})
    assert await store.load("t1") == ({"createdAt": 1, "n": 0}, 1)
    assert await store.replace("t1", {"createdAt": 1, "n": 1}, 1) == 2
    with pytest.raises(VersionConflict):
        await store.replace("t1", {"createdAt": 1, "n": 9}, 1)
    assert await store.load("t1") == ({"createdAt": 1, "n": 1}, 2)
    assert await store.recent(10) == ["t2", "t1"]
    assert await store.replace("t1", {"createdAt": 1, "n": 2}, 2, running=True) == 3
    await store.create("gone", {"createdAt": 0})
    await store.replace("gone", {"createdAt": 0}, 1, running=True)
    await _forget(rooms, store, "gone")  # an entry whose tournament is not there
    assert await store.running() == ["gone", "t1"]
    if not isinstance(rooms, MemoryStore):
        redis: Any = rooms._redis  # type: ignore[attr-defined]
        keys = [k.decode() async for k in redis.scan_iter(match=f"{rooms.prefix}:*tournament*")]  # type: ignore[attr-defined]
        indexes = [k for k in keys if "tournaments" in k]
        assert len(indexes) == 2 and len(keys) == 4, keys  # (t1, t2 and the indexes)
        assert set(indexes) == {
            rooms.index_key("tournaments"),
            rooms.index_key("tournaments:running"),
        }  # type: ignore[attr-defined]
        # On a cluster the indexes share the slot of the store's own ({index}).
        lobby = rooms.index_key("lobby")  # type: ignore[attr-defined]
        assert "{index}" not in lobby or {key_slot(k.encode()) for k in indexes} == {
            key_slot(lobby.encode())
        }
    # The runner's look at a running entry with no tournament drops it.
    runner = TournamentRunner(_Service(store), rooms=None, db=None, poll_seconds=1)  # type: ignore[arg-type]
    await runner.look("gone")
    assert await store.running() == ["t1"]


async def _forget(rooms: RoomStore, store: TournamentStore, tournament_id: str) -> None:
    """The tournament's document goes (as at its expiry), its index entries stay."""
    await store.expire(tournament_id, 1)
    await asyncio.sleep(0.01)
    assert await store.load(tournament_id) is None


async def test_a_start_and_its_running_entry_are_one_write(rooms: RoomStore) -> None:
    store = tournaments_beside(rooms)
    await store.create("t1", {"createdAt": 1, "status": "registration"})
    assert await store.running() == []
    # A refused compare-and-set puts nothing in the index either.
    with pytest.raises(VersionConflict):
        await store.replace("t1", {"createdAt": 1, "status": "running"}, 7, running=True)
    assert await store.running() == []
    await store.replace("t1", {"createdAt": 1, "status": "running"}, 1, running=True)
    assert await store.running() == ["t1"]
    # A runner that loaded version 2 leaves the index alone once a newer write is there
    # (the next round started since), and drops the entry at the version it loaded.
    await store.replace("t1", {"createdAt": 1, "status": "running", "round": 2}, 2, running=True)
    await store.drop_running("t1", 2)
    assert await store.running() == ["t1"]
    await store.drop_running("t1", 3)
    assert await store.running() == []
    assert await store.repair() == 0  # dropped for good: no flag brings it back


async def test_the_cluster_repair_finds_a_running_tournament_whose_entry_was_lost(
    rooms: RoomStore,
) -> None:
    """On a cluster the running set is written after the tournament's own hash: a node
    that dies between them leaves the flag, from which every runner's repair mends the
    set. On one Redis and in memory the write is one, and the repair has nothing to do."""
    store = tournaments_beside(rooms)
    await store.create("t1", {"createdAt": 1})
    await store.create("t2", {"createdAt": 2})
    await store.replace("t1", {"createdAt": 1}, 1, running=True)
    await store.replace("t2", {"createdAt": 2}, 1, running=True)
    if isinstance(rooms, MemoryStore) or "{index}" not in rooms.index_key("x"):  # type: ignore[attr-defined]
        assert await store.repair() == 0
        return
    redis: Any = rooms._redis  # type: ignore[attr-defined]
    await redis.srem(rooms.index_key("tournaments:running"), "t2")  # type: ignore[attr-defined]
    assert await store.running() == ["t1"]
    assert await store.repair() == 1
    assert await store.running() == ["t1", "t2"]
    assert await store.repair() == 0


async def test_a_room_is_created_once_whoever_opens_it(rooms: RoomStore) -> None:
    doc = {"id": "r1", "createdAt": 1, "status": "lobby", "name": "first"}
    assert await rooms.create_once("r1", doc, "ABCDEF")
    assert not await rooms.create_once("r1", {**doc, "name": "second"}, "GHIJKL")
    record = await rooms.load("r1")
    assert record is not None and record.doc["name"] == "first" and record.seq == 0
    assert await rooms.room_for_code("ABCDEF") == "r1"
    assert await rooms.room_for_code("GHIJKL") is None


class _Service:
    def __init__(self, store: TournamentStore) -> None:
        self.store = store


async def test_a_tournament_set_to_expire_goes_with_its_index_entries(rooms: RoomStore) -> None:
    store = tournaments_beside(rooms)
    assert store.finished_ttl_ms == rooms.finished_room_ttl_seconds * 1000
    await store.create("t1", {"createdAt": 1})
    await store.create("t2", {"createdAt": 2})
    await store.replace("t1", {"createdAt": 1}, 1, running=True)
    await store.expire("t1", 300)
    if not isinstance(rooms, MemoryStore):
        redis: Any = rooms._redis  # type: ignore[attr-defined]
        key = f"{rooms.prefix}:tournament:{{t1}}"  # type: ignore[attr-defined]
        assert 0 < await redis.pttl(key) <= 300
    # A change after the end (a result corrected) keeps the expiry.
    assert await store.replace("t1", {"createdAt": 1, "fixed": True}, 2) == 3
    assert await store.sweep() == 0  # nothing is gone yet
    await asyncio.sleep(0.5)
    assert await store.load("t1") is None
    assert await store.sweep() == 2  # its entries in both indexes
    assert await store.recent(10) == ["t2"]
    assert await store.running() == [] and await store.load("t2") is not None
    if not isinstance(rooms, MemoryStore):
        assert not await redis.zscore(rooms.index_key("tournaments"), "t1")  # type: ignore[attr-defined]
        assert not await redis.exists(key)
