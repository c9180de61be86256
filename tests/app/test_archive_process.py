"""The SQL archive in a process of its own (``python -m app.archiver``): nodes started with
``archiver = "external"`` leave the finished deals in the rooms' outboxes, and the archive
process stores each once and only then empties the outbox; a crash of either loses none.
On real Redis and SQLite; the archive process's loop (``app.archiver.run``) runs here in
the test's event loop, as it runs in its own process."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from live import REDIS_URL, Server, drop_prefix, running_server, seeded_room
from test_archive import LAST_CARD, _sql, _until

from app import archiver
from app.settings import Settings

pytestmark = pytest.mark.redis


@contextlib.asynccontextmanager
async def archive_process(settings: Settings) -> AsyncIterator[asyncio.Task[None]]:
    """The archive process's loop on the node's store and database, stopped at the end."""
    stop = asyncio.Event()
    task = asyncio.create_task(archiver.run(settings, stop))
    try:
        yield task
    finally:
        stop.set()
        if not task.done():
            await asyncio.wait_for(task, 30)


async def _deal_ended(server: Server) -> tuple[str, str]:
    """A room whose first deal was just ended by an accepted play: (room id, match id)."""
    store = server.app.state.store
    room_id, tokens = await seeded_room(server, 2, {"targetScore": 1000}, LAST_CARD)
    match_id = (await store.load(room_id)).doc["matchId"]
    client = await server.connect(room_id, tokens[0])
    ref = await client.act({"type": "play", "cards": ["R1"]})
    assert (await client.outcome(ref))["type"] == "ack"
    await client.close()
    return room_id, match_id


async def _deals(server: Server, match_id: str) -> list[int]:
    match = (await server.http.get(f"/api/matches/{match_id}")).json()
    return [d["number"] for d in match.get("deals", [])]


async def test_a_node_with_an_archive_process_leaves_the_deal_in_the_outbox(
    tmp_path: Any,
) -> None:
    async with running_server("redis", tmp_path, archiver="external") as server:
        service = server.app.state.rooms
        assert service.archiver.passive
        room_id, match_id = await _deal_ended(server)
        assert service.archiver.pending == 0
        assert [k for k, _ in await server.app.state.store.outbox(room_id)] == [f"{match_id}:1"]


async def test_the_archive_process_stores_a_finished_deal_once_and_empties_the_outbox(
    tmp_path: Any,
) -> None:
    async with running_server("redis", tmp_path, archiver="external") as server:
        store = server.app.state.store
        room_id, match_id = await _deal_ended(server)
        entries = await store.outbox(room_id)

        async def archived() -> bool:
            return await store.outbox(room_id) == []

        async with archive_process(server.settings):
            await _until(archived)
        assert await _deals(server, match_id) == [1]
        # The removal lost (a crash between the SQL write and it): the entry is back, and
        # the next archive process stores it again, which changes nothing.
        client = aioredis.Redis.from_url(REDIS_URL)
        try:
            key = f"{server.settings.redis_prefix}:{{{room_id}}}:outbox"
            await client.hset(key, mapping=dict(entries))
            await client.sadd(f"{server.settings.redis_prefix}:outboxes", room_id)
        finally:
            await client.aclose()
        async with archive_process(server.settings):
            await _until(archived)
        match = (await server.http.get(f"/api/matches/{match_id}")).json()
        assert [d["number"] for d in match["deals"]] == [1]
        assert match["deals"][0]["actions"] == 1


async def test_the_archive_process_stores_many_rooms_deals_together_and_empties_each_outbox(
    tmp_path: Any,
) -> None:
    async with running_server("redis", tmp_path, archiver="external") as server:
        store = server.app.state.store
        ended = [await _deal_ended(server) for _ in range(3)]

        async def archived() -> bool:
            return all([await store.outbox(room_id) == [] for room_id, _ in ended])

        async with archive_process(server.settings):
            await _until(archived)
        for _, match_id in ended:
            assert await _deals(server, match_id) == [1]


async def test_an_archive_process_that_dies_mid_write_loses_no_deal(tmp_path: Any) -> None:
    async with running_server("redis", tmp_path, archiver="external") as server:
        store = server.app.state.store
        await _sql(server, "ALTER TABLE deals RENAME TO deals_away")  # SQL fails
        room_id, match_id = await _deal_ended(server)
        stop = asyncio.Event()
        task = asyncio.create_task(archiver.run(server.settings, stop))
        await asyncio.sleep(1.0)  # it has tried, and is retrying
        task.cancel()  # stopped at once, in the middle of its retries
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert [k for k, _ in await store.outbox(room_id)] == [f"{match_id}:1"]
        await _sql(server, "ALTER TABLE deals_away RENAME TO deals")

        async def archived() -> bool:
            return await store.outbox(room_id) == []

        async with archive_process(server.settings):
            await _until(archived)
        assert await _deals(server, match_id) == [1]


async def test_a_deal_a_stopped_node_left_is_stored_by_the_archive_process(
    tmp_path: Any,
) -> None:
    """The node goes away with its deal in the outbox and no archive process running; one
    started later, with no node at all, stores it."""
    database_url = f"sqlite+aiosqlite:///{tmp_path}/shared.db"
    prefix = f"t{secrets.token_hex(4)}"
    shared = {"prefix": prefix, "database_url": database_url, "archiver": "external"}
    try:
        async with running_server("redis", tmp_path, **shared) as node:
            room_id, match_id = await _deal_ended(node)
            settings = node.settings
        async with archive_process(settings):
            async with running_server("redis", tmp_path, **shared) as reader:

                async def archived() -> bool:
                    return await reader.app.state.store.outbox(room_id) == []

                await _until(archived)
                assert await _deals(reader, match_id) == [1]
    finally:
        await drop_prefix(prefix)


def test_the_archive_process_refuses_to_start_without_a_redis_store() -> None:
    with pytest.raises(SystemExit) as exited:
        archiver.main([])
    assert "--redis" in str(exited.value)


async def test_a_node_on_the_in_process_store_archives_itself_whatever_it_is_told(
    tmp_path: Any,
) -> None:
    async with running_server("memory", tmp_path, archiver="process") as server:
        assert not server.app.state.rooms.archiver.passive
        room_id, match_id = await _deal_ended(server)

        async def archived() -> bool:
            return await server.app.state.store.outbox(room_id) == []

        await _until(archived)
        assert await _deals(server, match_id) == [1]
