"""The single-Redis store's lean wire (app.store.redis_wire) on real Redis: each caller
gets its own reply in order, an error reply fails its command alone, a connection lost
mid-batch fails what was not answered and the next batch connects again, a script Redis
forgot is loaded again, and AUTH, SELECT and unix sockets are as the URL says."""

from __future__ import annotations

import asyncio
import secrets
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest
import redis
import redis.asyncio as aioredis
from live import REDIS_URL, drop_prefix, require_redis
from own_redis import own_redis

from app.store.base import Commit
from app.store.redis import RedisStore
from app.store.redis_common import Batcher
from app.store.redis_config import open_client
from app.store.redis_wire import LeanBatcher, address_of, batcher_for

pytestmark = pytest.mark.redis


@pytest.fixture
async def wire() -> AsyncIterator[tuple[LeanBatcher, str]]:
    """A lean batcher on the shared Redis, and a key prefix of the test's own."""
    await require_redis()
    prefix = f"t{secrets.token_hex(4)}"
    client = await open_client(REDIS_URL, 5.0, 4)
    batch = batcher_for(client)
    assert isinstance(batch, LeanBatcher)
    try:
        yield batch, prefix
    finally:
        await batch.close()
        await client.aclose()
        await drop_prefix(prefix)


async def test_each_caller_gets_its_own_reply_in_order(wire: tuple[LeanBatcher, str]) -> None:
    batch, prefix = wire
    calls = [batch.call("SET", f"{prefix}:k{i}", i) for i in range(50)]
    calls += [batch.call("GET", f"{prefix}:k{i}") for i in range(50)]
    calls.append(batch.call("XADD", f"{prefix}:log", "1-1", "c", b"x"))
    calls.append(batch.call("XRANGE", f"{prefix}:log", "-", "+"))
    calls.append(batch.call("PEXPIRE", f"{prefix}:log", 60_000))
    replies = await asyncio.gather(*calls)
    # SET, XRANGE and PEXPIRE parsed as redis-py's own pipeline parses them.
    assert replies[:50] == [True] * 50
    assert replies[50:100] == [str(i).encode() for i in range(50)]
    assert replies[100:] == [b"1-1", [(b"1-1", {b"c": b"x"})], True]
    assert batch.sent == len(calls)


async def test_an_error_reply_fails_its_own_command_only(wire: tuple[LeanBatcher, str]) -> None:
    batch, prefix = wire
    first = batch.call("SET", f"{prefix}:s", "v")
    wrong = batch.call("LPUSH", f"{prefix}:s", "x")  # a string, not a list
    unknown = batch.call("EVALSHA", "0" * 40, 0)
    last = batch.call("GET", f"{prefix}:s")
    assert await first is True
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        await wrong
    with pytest.raises(redis.exceptions.NoScriptError):
        await unknown
    assert await last == b"v"
    with pytest.raises(TypeError):  # cannot be sent: refused to its caller at once
        batch.call("GET", None)
    assert await batch.call("GET", f"{prefix}:s") == b"v"


async def test_a_connection_lost_mid_batch_fails_what_was_not_answered_and_reconnects(
    wire: tuple[LeanBatcher, str],
) -> None:
    batch, prefix = wire
    own_id = await batch.call("CLIENT", "ID")
    answered = batch.call("SET", f"{prefix}:a", 1)
    blocked = batch.call("BLPOP", f"{prefix}:never", 60)  # Redis holds the rest back
    behind = batch.call("GET", f"{prefix}:a")
    assert await answered is True
    killer = aioredis.Redis.from_url(REDIS_URL)
    try:
        assert await killer.execute_command("CLIENT", "KILL", "ID", own_id) == 1
    finally:
        await killer.aclose()
    for call in (blocked, behind):
        with pytest.raises(redis.ConnectionError):
            await call
    # The next batch has a connection of its own again.
    again = await asyncio.gather(batch.call("GET", f"{prefix}:a"), batch.call("CLIENT", "ID"))
    assert again[0] == b"1" and again[1] != own_id


async def test_urls_the_lean_wire_does_not_serve_keep_the_pipeline() -> None:
    for url in (
        "rediss://127.0.0.1:6379/0",
        "redis://127.0.0.1:6379/0?protocol=3",
        "redis://127.0.0.1:6379/0?socket_timeout=3",
    ):
        client = aioredis.Redis.from_url(url)
        try:
            assert address_of(client) is None
            assert type(batcher_for(client)) is Batcher
        finally:
            await client.aclose()


async def _append_and_read(store: RedisStore) -> None:
    """A room's command appended and read back through the store's batches."""
    entry = await store.append("r1", {"type": "play", "n": 1})
    assert await store.read_log("r1", "0-0", 10) == [(entry, {"type": "play", "n": 1})]


async def _served(url: str, db: int) -> None:
    """A store at ``url`` has its batches on the lean wire, in database ``db``."""
    store = await RedisStore.connect(url)
    try:
        assert isinstance(store._batch, LeanBatcher)
        await _append_and_read(store)
        assert f" db={db} ".encode() in await store._batch.call("CLIENT", "INFO")
    finally:
        await store.close()


async def test_a_script_redis_forgot_is_loaded_again(tmp_path: Path) -> None:
    with own_redis(tmp_path / "redis") as url:
        store = await RedisStore.connect(url, room_format=2)
        try:
            assert isinstance(store._batch, LeanBatcher)
            await store.create("r1", {"id": "r1", "rules": {}, "n": 0}, None, False)
            assert await store.acquire("r1", "w", 10_000)
            await store._redis.script_flush()
            change = orjson.dumps({"seq": 1, "ts": 0, "m": {}, "removed": []})
            doc = {"id": "r1", "rules": {}, "n": 1}
            await store.commit("r1", "w", Commit(seq=1, doc=doc, log_id="0-0", change=change))
            record = await store.load("r1")
            assert record is not None and record.doc == doc and record.seq == 1
            await store._redis.script_flush()
            await _append_and_read(store)
        finally:
            await store.close()


async def test_auth_and_the_database_are_as_the_url_says(tmp_path: Path) -> None:
    with own_redis(tmp_path / "redis") as url:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        redis.Redis(port=port).config_set("requirepass", "s3cret")
        await _served(f"redis://:s3cret@127.0.0.1:{port}/3", 3)
        admin = redis.Redis(port=port, password="s3cret", db=3)
        assert admin.exists("uno:{r1}:log") == 1
        admin.close()


async def test_a_unix_socket_url_is_served(tmp_path: Path) -> None:
    # A short path: a unix socket's path is limited to about 100 bytes.
    with tempfile.TemporaryDirectory(prefix="uno") as short:
        socket = f"{short}/redis.sock"
        options = ("--save", "", "--appendonly", "no", "--unixsocket", socket)
        with own_redis(tmp_path / "redis", *options):
            await _served(f"unix://{socket}?db=2", 2)
