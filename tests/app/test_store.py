"""The room store contract, run against both implementations (memory, real Redis)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import orjson
import pytest
from live import REDIS_URL, drop_prefix, require_redis
from own_cluster import OwnCluster, drop_cluster_prefix

from app.store import MemoryStore, RoomStore
from app.store.base import Commit, LeaseLost, LogAhead

# The Redis stores keep the contract writing either document format; the memory store
# keeps documents as they are.
_KINDS = [
    ("memory", 1),
    ("redis", 1),
    ("redis", 2),
    ("cluster", 1),
    ("cluster", 2),
]


@pytest.fixture(
    params=[
        pytest.param(
            (name, fmt),
            id=name if name == "memory" else f"{name}-format{fmt}",
            marks=[] if name == "memory" else [pytest.mark.redis],
        )
        for name, fmt in _KINDS
    ]
)
def store_kind(request: pytest.FixtureRequest) -> tuple[str, int]:
    """The contract runs on the Redis Cluster store too (the suite's own local cluster)."""
    kind: tuple[str, int] = request.param
    return kind


@pytest.fixture
async def store(
    store_kind: tuple[str, int], request: pytest.FixtureRequest
) -> AsyncIterator[RoomStore]:
    kind, room_format = store_kind
    if kind == "memory":
        yield MemoryStore(history_size=4)
        return
    prefix = f"t{secrets.token_hex(4)}"
    if kind == "cluster":
        from app.store.redis_cluster import RedisClusterStore

        cluster: OwnCluster = request.getfixturevalue("redis_cluster")
        cluster_store = await RedisClusterStore.connect(
            cluster.seeds, history_size=4, prefix=prefix, room_format=room_format
        )
        try:
            yield cluster_store
        finally:
            await cluster_store.close()
            drop_cluster_prefix(cluster, prefix)
        return
    await require_redis()
    from app.store.redis import RedisStore

    redis_store = await RedisStore.connect(
        REDIS_URL, history_size=4, prefix=prefix, room_format=room_format
    )
    try:
        yield redis_store
    finally:
        await redis_store.close()
        await drop_prefix(prefix)


def _doc(room_id: str = "r1", **extra: object) -> dict:
    return {"id": room_id, "createdAt": 1, **extra}


def _change(seq: int) -> bytes:
    return orjson.dumps({"seq": seq, "ts": 0, "m": {}, "removed": []})


async def _commit(store: RoomStore, seq: int, log_id: str, owner: str = "w1", **kw) -> None:
    await store.commit(
        "r1", owner, Commit(seq=seq, doc=_doc(n=seq), log_id=log_id, change=_change(seq), **kw)
    )


async def test_a_created_room_loads_at_seq_zero(store: RoomStore) -> None:
    await store.create("r1", _doc(name="x"), "ABCDEF", listed=True)
    record = await store.load("r1")
    assert record is not None and record.seq == 0 and record.doc["name"] == "x"
    assert await store.room_for_code("ABCDEF") == "r1"
    assert [d["id"] for d in await store.listed(10)] == ["r1"]
    assert await store.load("nope") is None


async def test_the_log_keeps_append_order(store: RoomStore) -> None:
    await store.create("r1", _doc(), None, listed=False)
    ids = [await store.append("r1", {"n": n}) for n in range(5)]
    entries = await store.read_log("r1", "0", 10)
    assert [e[1]["n"] for e in entries] == [0, 1, 2, 3, 4]
    assert [e[0] for e in entries] == ids
    later = await store.read_log("r1", ids[1], 2)
    assert [e[1]["n"] for e in later] == [2, 3]


async def test_an_append_takes_the_lease_only_if_nobody_holds_it(store: RoomStore) -> None:
    await store.create("r1", _doc(), None, listed=False)
    first, taken = await store.append_and_acquire("r1", {"n": 0}, "w1", 5000)
    assert taken
    second, taken = await store.append_and_acquire("r1", {"n": 1}, "w2", 5000)
    assert not taken  # w1 holds it: the entry is in the log all the same
    third, taken = await store.append_and_acquire("r1", {"n": 2}, "w1", 5000)
    assert taken  # the holder's own: extended
    entries = await store.read_log("r1", "0", 10)
    assert [(e[0], e[1]["n"]) for e in entries] == [(first, 0), (second, 1), (third, 2)]
    assert not await store.acquire("r1", "w2", 5000)


async def test_one_lease_holder_at_a_time_until_it_expires(store: RoomStore) -> None:
    await store.create("r1", _doc(), None, listed=False)
    assert await store.acquire("r1", "w1", 200)
    assert await store.acquire("r1", "w1", 200)  # renewal
    assert not await store.acquire("r1", "w2", 200)
    await asyncio.sleep(0.3)
    assert await store.acquire("r1", "w2", 200)
    await store.release("r1", "w1")  # not the holder: nothing happens
    assert not await store.acquire("r1", "w1", 200)
    await store.release("r1", "w2")
    assert await store.acquire("r1", "w1", 200)


async def test_commit_writes_state_seq_and_log_position_together(store: RoomStore) -> None:
    await store.create("r1", _doc(), None, listed=False)
    entry = await store.append("r1", {"n": 1})
    assert await store.acquire("r1", "w1", 5000)
    await _commit(store, 1, entry, deal_reset=True, deal_append=[{"start": 1}, {"a": 2}])
    record = await store.load("r1")
    assert record is not None
    assert (record.seq, record.log_id, record.doc["n"]) == (1, entry, 1)
    assert record.deal == [{"start": 1}, {"a": 2}]
    assert await store.read_log("r1", entry, 10) == []


async def test_commit_without_the_lease_or_out_of_order_writes_nothing(store: RoomStore) -> None:
    await store.create("r1", _doc(), None, listed=False)
    entry = await store.append("r1", {"n": 1})
    with pytest.raises(LeaseLost):
        await _commit(store, 1, entry)
    assert await store.acquire("r1", "w1", 5000)
    with pytest.raises(LeaseLost):
        await _commit(store, 2, entry)  # seq 1 is missing
    with pytest.raises(LeaseLost):
        await _commit(store, 1, entry, owner="w2")
    record = await store.load("r1")
    assert record is not None and record.seq == 0


async def test_history_is_bounded_and_says_when_it_cannot_cover(store: RoomStore) -> None:
    await store.create("r1", _doc(), None, listed=False)
    assert await store.acquire("r1", "w1", 5000)
    for seq in range(1, 7):
        entry = await store.append("r1", {"n": seq})
        await _commit(store, seq, entry)
    kept = await store.history("r1", 3)
    assert kept is not None and [orjson.loads(e)["seq"] for e in kept] == [4, 5, 6]
    assert await store.history("r1", 6) == []
    assert await store.history("r1", 1) is None  # 2 is no longer kept (history_size 4)


async def test_subscribers_get_changes_and_nodes_their_results(store: RoomStore) -> None:
    got: list[tuple[str | None, bytes]] = []
    woken: list[str] = []
    await store.start("n1", lambda room, payload: got.append((room, payload)), woken.append)
    await store.create("r1", _doc(), None, listed=True)
    await store.subscribe("r1")
    await store.watch_log("r1")
    entry = await store.append("r1", {"n": 1})
    assert await store.acquire("r1", "w1", 5000)
    await _commit(store, 1, entry, results=[("n1", b'{"cid": "c"}')], listed=False)
    async with asyncio.timeout(2):
        while len(got) < 2 or not woken:
            await asyncio.sleep(0.01)
    assert got == [("r1", _change(1)), (None, b'{"cid": "c"}')]
    assert woken == ["r1"]
    assert await store.listed(10) == []
    await store.unsubscribe("r1")
    await store.unwatch_log("r1")


async def test_a_missing_redis_fails_the_suite_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    import live

    monkeypatch.setattr(live, "REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="unreachable"):
        await live.require_redis()
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception):
        await live.require_redis()


async def test_a_commit_extends_the_writers_lease(store: RoomStore) -> None:
    await store.create("r1", _doc(), None, listed=False)
    entry = await store.append("r1", {"n": 1})
    assert await store.acquire("r1", "w1", 200)
    await _commit(store, 1, entry, lease_ttl_ms=5000)
    await asyncio.sleep(0.3)
    assert not await store.acquire("r1", "w2", 200)


async def test_a_commits_archive_record_stays_in_the_outbox_until_archived(
    store: RoomStore,
) -> None:
    await store.create("r1", _doc(), None, listed=False)
    assert await store.acquire("r1", "w1", 5000)
    entry = await store.append("r1", {"n": 1})
    await _commit(store, 1, entry, archive=("m:1", b'{"deal": 1}'))
    entry = await store.append("r1", {"n": 2})
    await _commit(store, 2, entry, archive=("m:2", b'{"deal": 2}'))
    assert sorted(await store.outbox("r1")) == [("m:1", b'{"deal": 1}'), ("m:2", b'{"deal": 2}')]
    await store.archived("r1", "m:1")
    assert await store.outbox("r1") == [("m:2", b'{"deal": 2}')]
    await store.archived("r1", "m:2")
    assert await store.outbox("r1") == []


async def test_rooms_with_outbox_entries_are_found_without_knowing_them(
    store: RoomStore,
) -> None:
    for room_id in ("r1", "r2"):
        await store.create(room_id, _doc(room_id), None, listed=False)
    assert await store.outbox_rooms() == []
    assert await store.acquire("r1", "w1", 5000)
    assert await store.leased("r1") and not await store.leased("r2")
    entry = await store.append("r1", {"n": 1})
    await _commit(store, 1, entry, archive=("m:1", b'{"deal": 1}'))
    await _commit(store, 2, entry)
    assert await store.outbox_rooms() == ["r1"]
    await store.outbox_settled("r1")  # not empty: stays
    assert await store.outbox_rooms() == ["r1"]
    await store.archived("r1", "m:1")
    await store.outbox_settled("r1")
    assert await store.outbox_rooms() == []
    await store.release("r1", "w1")
    assert not await store.leased("r1")


async def test_a_direct_commit_is_refused_while_the_log_holds_unapplied_entries(
    store: RoomStore,
) -> None:
    await store.create("r1", _doc(), None, listed=False)
    assert await store.acquire("r1", "w1", 5000)
    start = (await store.load("r1")).log_id
    entry = await store.append("r1", {"n": 1})
    with pytest.raises(LogAhead):
        await _commit(store, 1, start, direct=True)
    record = await store.load("r1")
    assert record is not None and (record.seq, record.log_id) == (0, start)
    await _commit(store, 1, entry)
    await _commit(store, 2, entry, direct=True)  # nothing after the entry: accepted
    record = await store.load("r1")
    assert record is not None and (record.seq, record.log_id) == (2, entry)


async def test_a_node_is_alive_while_its_heartbeat_is_renewed(store: RoomStore) -> None:
    assert await store.alive(["n1", "n2"]) == set()
    assert await store.heartbeat("n1", 200) is False  # the first one
    assert await store.heartbeat("n1", 200) is True
    assert await store.heartbeat("n2", 10_000) is False
    assert await store.alive(["n1", "n2", "n3"]) == {"n1", "n2"}
    async with asyncio.timeout(5):
        while "n1" in await store.alive(["n1"]):
            await asyncio.sleep(0.05)
    # A heartbeat after the TTL ran out says so: others may have taken the node for dead.
    assert await store.heartbeat("n1", 200) is False
    assert await store.alive(["n2"]) == {"n2"}
