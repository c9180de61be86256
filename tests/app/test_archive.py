"""The SQL archive of finished deals runs off the room's critical path: a deal-ending change
puts the deal's record into the room's outbox with the same commit; the archiver stores it
in SQL afterwards, retrying while SQL fails, and nothing waits for it meanwhile."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from typing import Any

import pytest
import redis.asyncio as aioredis
from live import REDIS_URL, Server, drop_prefix, running_server, seeded_room

# Seat 0 plays its last card: the deal ends (a match to 1000 goes on to a next deal).
LAST_CARD = {
    "hands": [["R1"], ["G2", "B4", "Y5"]],
    "discard": ["R5"],
    "color": "R",
    "drawPile": ["Y1", "Y2", "Y3", "Y4", "Y6", "Y8"],
    "turn": 0,
    "direction": 1,
}


async def _sql(server: Server, statement: str) -> None:
    """Run a statement on the server's SQLite file from a connection of our own (in a
    thread: the server shares this event loop and must finish its own transactions)."""
    path = server.settings.database_url.split("///", 1)[1]

    def run() -> None:
        with sqlite3.connect(path, timeout=30) as db:
            db.execute(statement)

    await asyncio.to_thread(run)


async def _until(check: Any, timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.05)


async def _deal_left_in_the_outbox(server: Server) -> tuple[str, list[str], str]:
    """A room whose finished deal could not be archived, on a node whose archiver then
    stopped, and which no writer holds any more: (room id, seat tokens, match id)."""
    store = server.app.state.store
    service = server.app.state.rooms
    room_id, tokens = await seeded_room(server, 2, {"targetScore": 1000}, LAST_CARD)
    match_id = (await store.load(room_id)).doc["matchId"]
    client = await server.connect(room_id, tokens[0])
    await _sql(server, "ALTER TABLE deals RENAME TO deals_away")
    ref = await client.act({"type": "play", "cards": ["R1"]})
    assert (await client.outcome(ref))["type"] == "ack"
    await client.close()
    await service.archiver.close(timeout=0)

    async def idle() -> bool:
        return room_id not in service._writers and not await store.leased(room_id)

    await _until(idle)
    await _sql(server, "ALTER TABLE deals_away RENAME TO deals")
    assert [key for key, _ in await store.outbox(room_id)] == [f"{match_id}:1"]
    return room_id, tokens, match_id


async def test_a_deal_is_archived_once_sql_recovers_and_the_room_goes_on_meanwhile(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, rate_per_second=1000.0) as server:
        store = server.app.state.store
        room_id, tokens = await seeded_room(server, 2, {"targetScore": 1000}, LAST_CARD)
        match_id = (await store.load(room_id)).doc["matchId"]
        clients = [await server.connect(room_id, t) for t in tokens]
        # SQL fails: the table of deals is gone.
        await _sql(server, "ALTER TABLE deals RENAME TO deals_away")
        ref = await clients[0].act({"type": "play", "cards": ["R1"]})
        assert (await clients[0].outcome(ref))["type"] == "ack"
        assert [key for key, _ in await store.outbox(room_id)] == [f"{match_id}:1"]
        # The room does not wait for the archive: the next deal is dealt and played.
        ref = await clients[0].act({"type": "nextDeal"})  # the host deals on
        ack = await clients[0].outcome(ref)
        assert ack["type"] == "ack"
        await clients[0].wait_seq(ack["seq"])
        assert clients[0].view["deal"] == 2
        assert await store.outbox(room_id) != []  # still not in SQL
        # SQL is back: the archiver's retry stores the deal and empties the outbox.
        await _sql(server, "ALTER TABLE deals_away RENAME TO deals")

        async def archived() -> bool:
            return await store.outbox(room_id) == []

        await _until(archived)
        match = (await server.http.get(f"/api/matches/{match_id}")).json()
        assert [d["number"] for d in match["deals"]] == [1]
        assert match["deals"][0]["actions"] == 1
        for client in clients:
            await client.close()


async def test_a_new_writer_archives_what_the_last_one_left_in_the_outbox(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, writer_idle_seconds=0.2) as server:
        store = server.app.state.store
        service = server.app.state.rooms
        room_id, tokens, match_id = await _deal_left_in_the_outbox(server)
        # A new archiver, and a writer for the room (a socket connecting): it finds the
        # deal in the outbox and stores it.
        service.archiver.start()
        client = await server.connect(room_id, tokens[1])

        async def archived() -> bool:
            return await store.outbox(room_id) == []

        await _until(archived)
        match = (await server.http.get(f"/api/matches/{match_id}")).json()
        assert [d["number"] for d in match["deals"]] == [1]
        await client.close()


async def test_an_archiver_stores_what_rooms_without_a_writer_left_in_their_outbox(
    store_kind: str, tmp_path: Any
) -> None:
    """No command reaches the room again: the archiver's own look at the outboxes (at start,
    then every minute) finds the deal."""
    async with running_server(store_kind, tmp_path, writer_idle_seconds=0.2) as server:
        store = server.app.state.store
        service = server.app.state.rooms
        room_id, _, match_id = await _deal_left_in_the_outbox(server)
        service.archiver.start()

        async def archived() -> bool:
            return await store.outbox(room_id) == []

        await _until(archived)
        assert room_id not in service._writers
        match = (await server.http.get(f"/api/matches/{match_id}")).json()
        assert [d["number"] for d in match["deals"]] == [1]


@pytest.mark.redis
async def test_a_fresh_node_archives_the_outbox_a_stopped_node_left(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    database_url = f"sqlite+aiosqlite:///{tmp_path}/shared.db"
    try:
        async with running_server(
            "redis", tmp_path, prefix=prefix, database_url=database_url, lease_ttl_ms=1000
        ) as first:
            store = first.app.state.store
            room_id, tokens = await seeded_room(first, 2, {"targetScore": 1000}, LAST_CARD)
            match_id = (await store.load(room_id)).doc["matchId"]
            client = await first.connect(room_id, tokens[0])
            await _sql(first, "ALTER TABLE deals RENAME TO deals_away")
            ref = await client.act({"type": "play", "cards": ["R1"]})
            assert (await client.outcome(ref))["type"] == "ack"
            await client.close()
            # The node stops with the deal still in the room's outbox.
        await _sql(first, "ALTER TABLE deals_away RENAME TO deals")
        left = aioredis.Redis.from_url(REDIS_URL)
        try:
            assert await left.hkeys(f"{prefix}:{{{room_id}}}:outbox") == [f"{match_id}:1".encode()]
        finally:
            await left.aclose()
        async with running_server(
            "redis", tmp_path, prefix=prefix, database_url=database_url
        ) as fresh:
            store = fresh.app.state.store

            async def archived() -> bool:
                return await store.outbox(room_id) == []

            await _until(archived)
            match = (await fresh.http.get(f"/api/matches/{match_id}")).json()
            assert [d["number"] for d in match["deals"]] == [1]
            assert room_id not in fresh.app.state.rooms._writers
    finally:
        await drop_prefix(prefix)
