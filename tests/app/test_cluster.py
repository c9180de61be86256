"""Several server processes (here: several servers in one process) sharing one Redis."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import pytest
from live import drop_prefix, running_server, seeded_room
from test_full_game import bot_action
from test_socket import SETUP

pytestmark = pytest.mark.redis


async def test_sockets_on_two_nodes_share_one_room(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with (
            running_server("redis", tmp_path, prefix=prefix) as a,
            running_server("redis", tmp_path, prefix=prefix) as b,
        ):
            room = await a.create(seats=3)
            seats = [await a.join(room["roomId"], "x"), await b.join(room["roomId"], "y")]
            await b.start(room["roomId"], room["hostToken"])
            on_a = await a.connect(room["roomId"], seats[0]["token"])
            on_b = await b.connect(room["roomId"], seats[1]["token"])
            watcher = await b.connect(room["roomId"])
            await on_a.wait_seq(on_b.seq)
            actor = on_a if on_a.view["turn"] == 0 else on_b
            ref = await actor.act(bot_action(actor.view, random.Random(1)))
            ack = await actor.outcome(ref)
            assert ack["type"] == "ack"
            for client in (on_a, on_b, watcher):
                await client.wait_seq(ack["seq"])
            assert on_a.view["players"] == on_b.view["players"] == watcher.view["players"]
            for client in (on_a, on_b, watcher):
                await client.close()
    finally:
        await drop_prefix(prefix)


async def test_a_dead_writers_room_is_taken_over_when_its_lease_runs_out(tmp_path: Any) -> None:
    async with running_server("redis", tmp_path, lease_ttl_ms=600) as server:
        room_id, tokens = await seeded_room(server, 3, {}, SETUP)
        store = server.app.state.store
        # A node that took the lease and died: nobody renews it.
        assert await store.acquire(room_id, "dead-node", 600)
        client = await asyncio.wait_for(server.connect(room_id, tokens[0]), timeout=10)
        ref = await client.act({"type": "play", "cards": ["R1"]})
        assert (await client.outcome(ref, timeout=10))["type"] == "ack"
        assert client.view["hand"] == ["R2", "G3"]
        await client.close()


async def test_shutdown_closes_sockets_with_service_restart(tmp_path: Any) -> None:
    async with running_server("memory", tmp_path) as server:
        room, seats = await server.table(2)
        client = await server.connect(room["roomId"], seats[0]["token"])
        server.uvicorn.should_exit = True
        await asyncio.wait_for(client._reader, timeout=10)
        assert client.ws.close_code == 1012


async def _idle(node: Any, room_id: str) -> None:
    """Until ``node`` runs no writer of the room."""
    async with asyncio.timeout(10):
        while room_id in node.app.state.rooms._writers:
            await asyncio.sleep(0.02)


async def test_sockets_follow_the_room_as_its_writer_moves_between_nodes(tmp_path: Any) -> None:
    """A node's own writer hands changes to its sockets directly; once it gives the room
    up, the node receives the next writer's changes (on another node) from Redis."""
    prefix = f"t{secrets.token_hex(4)}"

    try:
        async with (
            running_server("redis", tmp_path, prefix=prefix, writer_idle_seconds=0.2) as a,
            running_server("redis", tmp_path, prefix=prefix, writer_idle_seconds=0.2) as b,
        ):
            room_id, tokens = await seeded_room(a, 3, {}, SETUP)
            on_a = await a.connect(room_id, tokens[0])
            on_b = await b.connect(room_id, tokens[1])
            for client in (on_a, on_b):
                await client.wait_seq(2)
            await _idle(a, room_id)
            await _idle(b, room_id)
            # Seat 0 acts through node a: a writes the room.
            ref = await on_a.act({"type": "play", "cards": ["R1"]})
            ack = await on_a.outcome(ref)
            assert ack["type"] == "ack" and room_id in a.app.state.rooms._writers
            for client in (on_a, on_b):
                await client.wait_seq(ack["seq"])
            await _idle(a, room_id)
            # Seat 1 acts through node b: b writes the room now; a's socket still follows.
            ref = await on_b.act({"type": "draw"})
            ack = await on_b.outcome(ref)
            assert ack["type"] == "ack" and room_id in b.app.state.rooms._writers
            for client in (on_a, on_b):
                await client.wait_seq(ack["seq"])
            assert on_a.view["players"] == on_b.view["players"]
            assert on_a.view["players"][1]["cards"] == 4
            for client in (on_a, on_b):
                await client.close()
    finally:
        await drop_prefix(prefix)


async def test_a_room_whose_log_holds_only_refusals_rests_once_its_writer_idles(
    tmp_path: Any,
) -> None:
    """A command from another node that changes nothing (a refused play, a socket's delay
    measurement) is read from the log but is in no commit: the writer records that it was
    read when it goes idle, or the room's next writer would be called for it again and
    again."""
    prefix = f"t{secrets.token_hex(4)}"

    try:
        async with (
            running_server("redis", tmp_path, prefix=prefix, writer_idle_seconds=0.2) as a,
            running_server("redis", tmp_path, prefix=prefix, writer_idle_seconds=0.2) as b,
        ):
            room_id, tokens = await seeded_room(a, 3, {}, SETUP)
            on_a = await a.connect(room_id, tokens[0])
            on_b = await b.connect(room_id, tokens[1])
            ref = await on_a.act({"type": "play", "cards": ["R1"]})
            assert (await on_a.outcome(ref))["type"] == "ack"
            # Seat 1 plays a card it does not hold while a writes the room: refused.
            ref = await on_b.act({"type": "play", "cards": ["Y9"]})
            assert (await on_b.outcome(ref))["type"] == "error"
            await _idle(a, room_id)
            await _idle(b, room_id)
            for _ in range(75):  # 1.5 s: the room stays at rest
                assert room_id not in a.app.state.rooms._writers
                assert room_id not in b.app.state.rooms._writers
                await asyncio.sleep(0.02)
            for client in (on_a, on_b):
                await client.close()
    finally:
        await drop_prefix(prefix)


async def test_commands_from_both_nodes_interleave_in_one_order(tmp_path: Any) -> None:
    """The writer's own node hands its commands over directly, the other node's go through
    the log: every socket still sees one gapless order, the same on both nodes."""
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with (
            running_server("redis", tmp_path, prefix=prefix, rate_per_second=1000.0) as a,
            running_server("redis", tmp_path, prefix=prefix, rate_per_second=1000.0) as b,
        ):
            room = await a.create(seats=2, rules={"targetScore": 1000})
            seats = [await a.join(room["roomId"], "x"), await a.join(room["roomId"], "y")]
            await a.start(room["roomId"], room["hostToken"])
            on_a = await a.connect(room["roomId"], seats[0]["token"])
            on_b = await b.connect(room["roomId"], seats[1]["token"])
            watcher_a = await a.connect(room["roomId"])
            watcher_b = await b.connect(room["roomId"])
            clients = [on_a, on_b, watcher_a, watcher_b]
            rng = random.Random(7)
            for _ in range(40):
                await on_a.wait_seq(on_b.seq)
                await on_b.wait_seq(on_a.seq)
                view = on_a.view
                if view["phase"] != "playing":
                    break
                actor = on_a if view["turn"] == on_a.view["you"] else on_b
                # Both sockets send at once: the actor's move and the other's (refused,
                # or a jump-in) race between the log and the direct path.
                other = on_b if actor is on_a else on_a
                refs = await asyncio.gather(
                    actor.act(bot_action(actor.view, rng)),
                    other.act({"type": "draw"}),
                )
                outcomes = [await c.outcome(r) for c, r in zip((actor, other), refs, strict=True)]
                assert outcomes[0]["type"] == "ack" or outcomes[1]["type"] == "ack"
            last = max(c.seq for c in clients)
            for client in clients:
                await client.wait_seq(last)
            assert on_a.view["players"] == on_b.view["players"] == watcher_b.view["players"]
            assert watcher_a.view == watcher_b.view
            for client in clients:
                await client.close()
    finally:
        await drop_prefix(prefix)


async def _until(check: Any, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


async def test_the_sockets_of_a_node_that_dies_without_closing_them_are_disconnected(
    tmp_path: Any,
) -> None:
    """Node b stops its heartbeat and keeps its sockets open (as a node killed outright
    leaves them): the room's writer on node a finds b dead and disconnects b's sockets,
    each a change of its own, patched to every socket."""
    prefix = f"t{secrets.token_hex(4)}"
    try:
        fast = {"lease_ttl_ms": 600, "watchers_refresh_seconds": 0.2}
        async with running_server("redis", tmp_path, prefix=prefix, **fast) as a:
            room_id, tokens = await seeded_room(a, 3, {}, SETUP)
            store = a.app.state.store
            on_a = await a.connect(room_id, tokens[0])
            assert room_id in a.app.state.rooms._writers
            async with running_server("redis", tmp_path, prefix=prefix, **fast) as b:
                on_b = await b.connect(room_id, tokens[1])
                watcher = await b.connect(room_id)
                # Two connections, then the room's refresh of its spectator count.
                await on_a.wait_seq(3)
                assert [p["connected"] for p in on_a.view["players"]] == [True, True, False]
                assert on_a.view["room"]["watchers"] == 1
                assert on_a.events[-1] == {"type": "watchers", "count": 1}
                # b dies: its heartbeat stops, its sockets stay open.
                rooms_b = b.app.state.rooms
                rooms_b._heartbeat.cancel()
                await _until(lambda: on_a.seq == 4)
                connected = [p["connected"] for p in on_a.view["players"]]
                assert connected == [True, False, False]
                assert on_a.view["room"]["watchers"] == 0
                # The spectator gone first (no change of its own), then the seat.
                assert on_a.events[-1]["type"] == "disconnect"
                # b's sockets (still subscribed) got the same patches.
                await on_b.wait_seq(4)
                await watcher.wait_seq(4)
                assert on_b.view["players"] == on_a.view["players"]
                # b now shuts down: the disconnects its sockets send change nothing more.
            record = await store.load(room_id)
            assert record.seq == 4
            assert [p["conn"] for p in record.doc["players"]] == [1, 0, 0]
            assert record.doc["watchers"] == record.doc["watching"] == 0
            ref = await on_a.act({"type": "play", "cards": ["R1"]})
            assert (await on_a.outcome(ref))["seq"] == 5
            await on_a.close()
    finally:
        await drop_prefix(prefix)


async def test_a_new_writer_disconnects_the_sockets_of_dead_nodes(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path) as server:
        # The room as a node that died left it: seat 1 and a spectator connected there.
        room_id, tokens = await seeded_room(server, 3, {}, SETUP, watchers=1, watchAt={"gone": 1})
        store = server.app.state.store
        record = await store.load(room_id)
        record.doc["players"][1].update(conn=1, at={"gone": 1})
        await store.create(room_id, record.doc, None, False, record.deal)
        client = await server.connect(room_id, tokens[0])
        await client.wait_seq(2)  # a disconnect and a connect (the spectator: no change)
        assert [p["connected"] for p in client.view["players"]] == [True, False, False]
        assert client.view["room"]["watchers"] == 0
        await client.close()


async def test_a_node_whose_heartbeat_ran_out_closes_its_sockets(tmp_path: Any) -> None:
    """Other nodes may have taken the node for dead and disconnected its sockets: it closes
    them (1012), and its clients reconnect and count again."""
    async with running_server("redis", tmp_path, lease_ttl_ms=600) as server:
        room_id, tokens = await seeded_room(server, 3, {}, SETUP)
        client = await server.connect(room_id, tokens[0])
        store, node = server.app.state.store, server.app.state.rooms.node
        await store._redis.delete(store._alive_key(node))  # as if it had run out
        await asyncio.wait_for(client._reader, timeout=10)
        assert client.ws.close_code == 1012
        client = await server.connect(room_id, tokens[0])
        assert client.view["players"][0]["connected"] is True
        await client.close()
