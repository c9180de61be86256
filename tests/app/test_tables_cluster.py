"""Room timers across nodes: a timer outlives the node it fired on, and a room's clock
gives back the time no writer held it."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest
from live import SETUP, drop_prefix, running_server
from test_tables import events, seat_room, until

from app.store.base import Commit

pytestmark = pytest.mark.redis

_STORE_CALLS = (
    "commit",
    "acquire",
    "release",
    "append",
    "read_log",
    "beat",
    "set_due",
    "due_rooms",
    "heartbeat",
    "deliver",
    "leased",
    "alive",
)


async def _hang(*_: Any, **__: Any) -> Any:
    await asyncio.Event().wait()


def freeze(store: Any) -> dict[str, Any]:
    """The node stops dead (as if killed): every store call it makes from now on hangs, so
    it never commits, renews its lease or beats its heartbeat again."""
    saved = {name: getattr(store, name) for name in _STORE_CALLS}
    for name in _STORE_CALLS:
        setattr(store, name, _hang)
    return saved


async def test_a_timer_that_fires_on_a_node_then_killed_fires_once_on_the_next(
    tmp_path: Any,
) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    options = {"lease_ttl_ms": 600, "timer_poll_seconds": 0.1, "prefix": prefix}
    try:
        async with (
            running_server("redis", tmp_path, **options) as a,
            running_server("redis", tmp_path, **options) as b,
        ):
            room_id, seat_tokens, _ = await seat_room(a, SETUP, turnSeconds=1, timeBank=0)
            on_a = await a.connect(room_id, seat_tokens[2])  # node a writes the room
            assert room_id in a.app.state.rooms._writers
            watcher = await b.connect(room_id, seat_tokens[1])
            store_a = a.app.state.store
            real_commit = store_a.commit
            fired = asyncio.Event()
            saved: dict[str, Any] = {}

            async def commit(room: str, owner: str, change: Commit) -> None:
                if any(entry.get("by") == "timeout" for entry in change.deal_append):
                    # The timer fired on node a and judged the timeout: a dies before
                    # anything of it is stored.
                    saved.update(freeze(store_a))
                    fired.set()
                    await _hang()
                await real_commit(room, owner, change)

            store_a.commit = commit
            await asyncio.wait_for(fired.wait(), timeout=10)
            saved["commit"] = real_commit
            # Node b takes the room over (the lease runs out), gives the outage back to
            # the clock, and fires the timer itself, once.
            await until(lambda: events(watcher, "timeout"), timeout=15)
            await asyncio.sleep(0.5)
            seat0 = [e for e in events(watcher, "timeout") if e["seat"] == 0]
            assert seat0 == [{"type": "timeout", "seat": 0}]
            resumed = events(watcher, "clockResumed")
            assert len(resumed) == 1 and resumed[0]["seat"] == 0 and resumed[0]["added"] > 200
            assert room_id in b.app.state.rooms._writers
            record = await b.app.state.store.load(room_id)
            by_timer = [e for e in record.deal if e.get("by") == "timeout"]
            assert [e["action"]["type"] for e in by_timer] == ["draw"]
            assert watcher.view["players"][0]["cards"] == 4
            # Node a comes back to life only to shut down: its stuck writer goes first.
            for name, method in saved.items():
                setattr(store_a, name, method)
            for task in list(a.app.state.rooms._tasks):
                task.cancel()
            await watcher.close()
            await on_a.close()
    finally:
        await drop_prefix(prefix)


async def test_a_room_left_by_a_dead_writer_gets_its_time_back(tmp_path: Any) -> None:
    async with running_server("redis", tmp_path, lease_ttl_ms=600) as server:
        now = server.app.state.rooms.now_ms()
        clock = {"seat": 0, "deal": 1, "start": now - 1000, "turn": 30000, "deadline": now + 29000}
        room_id, seat_tokens, _ = await seat_room(server, SETUP, turnSeconds=30, clock=clock)
        # Its writer beat last 20 s ago, then died: the seat gets those 20 s back.
        await server.app.state.store.beat(room_id, now - 20_000)
        client = await server.connect(room_id, seat_tokens[0])
        # (The change that gave the time back came before this socket's connection.)
        deadline = client.view["deadline"]
        assert clock["deadline"] + 20_000 <= deadline < clock["deadline"] + 25_000
        await client.close()
