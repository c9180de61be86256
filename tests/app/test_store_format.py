"""The room document's two stored formats (docs/architecture.md, "The room document's
format"), on one Redis and on the Redis Cluster: a room written in format 1 (by this
version or the one before) is read by every node, rooms move between nodes writing
either format, and the cold fields written apart are never stale."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
import pytest
from live import REDIS_URL, drop_prefix, require_redis
from own_cluster import OwnCluster, drop_cluster_prefix

from app.store.base import Commit
from app.store.redis import RedisStore
from app.store.redis_common import COLD_FIELDS, cold_digest, read_doc, split_doc

pytestmark = pytest.mark.redis

Connect = Callable[[int], Any]


@pytest.fixture(params=["redis", "cluster"])
async def connect(request: pytest.FixtureRequest) -> AsyncIterator[Connect]:
    """Nodes of one store (one key prefix), each writing the format it is given."""
    prefix = f"t{secrets.token_hex(4)}"
    made: list[RedisStore] = []
    if request.param == "cluster":
        from app.store.redis_cluster import RedisClusterStore

        cluster: OwnCluster = request.getfixturevalue("redis_cluster")

        async def node(room_format: int) -> RedisStore:
            store = await RedisClusterStore.connect(
                cluster.seeds, prefix=prefix, room_format=room_format
            )
            made.append(store)
            return store
    else:
        await require_redis()

        async def node(room_format: int) -> RedisStore:
            store = await RedisStore.connect(REDIS_URL, prefix=prefix, room_format=room_format)
            made.append(store)
            return store

    try:
        yield node
    finally:
        for store in made:
            await store.close()
        if request.param == "cluster":
            drop_cluster_prefix(cluster, prefix)
        else:
            await drop_prefix(prefix)


def _doc(**changes: Any) -> dict[str, Any]:
    doc = {
        "id": "r1",
        "createdAt": 1,
        "status": "playing",
        "players": [{"seat": 0, "name": "Ann"}],
        "rules": {"preset": "classic", "stacking": False},
        "shuffle": {"secret": "ab" * 32, "entropy": {}},
        "deals": [],
        "n": 0,
    }
    doc.update(changes)
    return doc


async def _commit(store: RedisStore, seq: int, owner: str, doc: dict[str, Any]) -> None:
    assert await store.acquire("r1", owner, 10_000)
    change = orjson.dumps({"seq": seq, "ts": 0, "m": {}, "removed": []})
    await store.commit("r1", owner, Commit(seq=seq, doc=doc, log_id="0-0", change=change))
    await store.release("r1", owner)


async def _fields(store: RedisStore) -> set[bytes]:
    return set(await store._redis.hkeys(store._key("r1", "room")))


async def test_a_room_written_in_format_1_is_read_and_carried_on(connect: Connect) -> None:
    new = await connect(2)
    # As the version before this one wrote a room: the whole document in ``doc``.
    await new._redis.hset(
        new._key("r1", "room"), mapping={"doc": orjson.dumps(_doc()), "seq": 0, "log": "0-0"}
    )
    record = await new.load("r1")
    assert record is not None and record.doc == _doc() and record.seq == 0
    await _commit(new, 1, "w2", _doc(n=1))
    assert {b"cold", b"cd", b"fmt"} <= await _fields(new)
    assert b"rules" not in await new._redis.hget(new._key("r1", "room"), "doc")
    for reader in (new, await connect(1)):
        record = await reader.load("r1")
        assert record is not None and record.doc == _doc(n=1) and record.seq == 1
    assert [d["id"] for d in await new.listed(10)] == []  # not listed; listed() reads both:
    await new._redis.zadd(new._global("lobby"), {"r1": 1})
    assert await new.listed(10) == [_doc(n=1)]


async def test_nodes_writing_either_format_never_read_stale_cold_fields(connect: Connect) -> None:
    a, b, old = await connect(2), await connect(2), await connect(1)
    await a.create("r1", _doc(), None, False)
    await _commit(a, 1, "a", _doc(n=1))
    # Another node changes the rules (a node's own memory of them is now stale) ...
    await _commit(b, 2, "b", _doc(n=2, rules={"preset": "house"}))
    # ... and the first, writing the old rules again, has its commit asked for them.
    await _commit(a, 3, "a", _doc(n=3))
    assert (await b.load("r1")).doc == _doc(n=3)  # type: ignore[union-attr]
    # A node still writing format 1 writes the whole document and drops the cold fields.
    await _commit(old, 4, "old", _doc(n=4, deals=[{"deal": 1}]))
    assert not {b"cold", b"cd", b"fmt"} & await _fields(old)
    await _commit(a, 5, "a", _doc(n=5, deals=[{"deal": 1}]))
    for reader in (a, b, old):
        assert (await reader.load("r1")).doc == _doc(n=5, deals=[{"deal": 1}])  # type: ignore[union-attr]


async def test_cold_fields_changed_in_place_between_commits_are_written(
    connect: Connect,
) -> None:
    writer, reader = await connect(2), await connect(2)
    doc = _doc(tally=[])
    await writer.create("r1", doc, None, False)
    assert await writer.acquire("r1", "w", 10_000)
    changes: list[Callable[[dict[str, Any]], None]] = [
        lambda d: d["rules"].update(stacking=True),
        lambda d: d["shuffle"].__setitem__("secret", "cd" * 32),
        lambda d: d["shuffle"]["entropy"].__setitem__("0", "e1"),
        lambda d: d["deals"].append({"deal": 1, "points": [3, 0]}),
        lambda d: d["deals"][0]["points"].__setitem__(1, 7),
        lambda d: d["tally"].append({"seat": 0, "total": 3}),
        lambda d: d["rules"].__setitem__("stacking", 1),  # == True, and not the same
        lambda d: d["rules"].pop("preset"),
    ]
    for seq, change in enumerate(changes, start=1):
        change(doc)  # the same objects the last commit wrote, changed in place
        doc["n"] = seq
        record = orjson.dumps({"seq": seq, "ts": 0, "m": {}, "removed": []})
        await writer.commit("r1", "w", Commit(seq=seq, doc=doc, log_id="0-0", change=record))
        stored = await reader.load("r1")
        assert stored is not None
        # As JSON (True == 1 in Python), in either's order of keys.
        assert _sorted(stored.doc) == _sorted(doc), change


def _sorted(doc: dict[str, Any]) -> bytes:
    return orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)


async def test_a_format_newer_than_the_servers_is_refused_not_misread(connect: Connect) -> None:
    store = await connect(2)
    await store._redis.hset(
        store._key("r1", "room"),
        mapping={"doc": b"{}", "cold": b"{}", "fmt": 3, "seq": 0, "log": "0-0"},
    )
    with pytest.raises(ValueError, match="format 3"):
        await store.load("r1")


async def test_a_store_writes_only_the_formats_it_knows() -> None:
    with pytest.raises(ValueError, match="room format 3"):
        RedisStore(object(), room_format=3)  # type: ignore[arg-type]


def test_the_split_keeps_the_hot_part_in_the_documents_order_and_reads_back_whole() -> None:
    doc = _doc(tally=[{"seat": 0, "total": 3}], ts=5, listed=True)
    hot, cold = split_doc(doc)
    assert hot == orjson.dumps({k: v for k, v in doc.items() if k not in COLD_FIELDS})
    assert orjson.loads(cold) == {k: doc[k] for k in COLD_FIELDS if k in doc}
    assert read_doc({b"doc": hot, b"cold": cold, b"fmt": b"2"}) == doc
    # A document without some of the cold fields (a lobby's has no tally yet).
    bare = {"id": "r1", "rules": {}, "n": 1}
    hot, cold = split_doc(bare)
    assert orjson.loads(hot) == {"id": "r1", "n": 1} and orjson.loads(cold) == {"rules": {}}


async def test_cold_fields_stored_in_another_order_are_carried_on(connect: Connect) -> None:
    """A room whose ``cold`` holds the fields in the document's order (as the version
    before this one wrote them): its next commit sends them again, in this version's
    order, and every node reads the document as committed."""
    writer, reader = await connect(2), await connect(2)
    doc = _doc(tally=[{"seat": 0, "total": 3}])
    cold = orjson.dumps({k: doc[k] for k in ("rules", "shuffle", "deals", "tally")})
    hot = orjson.dumps({k: v for k, v in doc.items() if k not in COLD_FIELDS})
    fields = {"doc": hot, "cold": cold, "cd": cold_digest(cold), "fmt": 2, "seq": 0, "log": "0-0"}
    await writer._redis.hset(writer._key("r1", "room"), mapping=fields)
    record = await writer.load("r1")
    assert record is not None and record.doc == doc
    await _commit(writer, 1, "w", _doc(n=1, tally=[{"seat": 0, "total": 3}]))
    stored = await reader._redis.hget(reader._key("r1", "room"), "cold")
    assert stored == split_doc(_doc(tally=[{"seat": 0, "total": 3}]))[1] != cold
    record = await reader.load("r1")
    assert record is not None and record.doc == _doc(n=1, tally=[{"seat": 0, "total": 3}])


def test_the_commit_keys_of_at_most_ten_thousand_rooms_are_kept() -> None:
    import redis.asyncio as aioredis

    store = RedisStore(aioredis.Redis(), prefix="uno", room_format=2)  # never connects
    keys, changes = store._commit_keys("r0")
    parts = ("room", "lease", "hist", "log", "deal", "outbox")
    assert keys == tuple(f"uno:{{r0}}:{part}" for part in parts)
    assert changes == "uno:{r0}:changes"
    for i in range(1, 10_001):
        store._commit_keys(f"r{i}")
    assert len(store._room_keys) == 10_000 and "r0" not in store._room_keys
    assert store._commit_keys("r0") == (keys, changes)  # made again, the same
