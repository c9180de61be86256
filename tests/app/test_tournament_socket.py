"""``/ws/tournaments/{id}`` against a live server, for each store: a snapshot on connect,
then registrations, round starts, table results and standings as numbered events; a
reconnecting socket's ``resume`` gets what it missed (from another node too)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
import websockets
from live import Server, drop_prefix, running_server
from tournament_play import ROUND_SETTINGS, host, new_tournament, register_all


@pytest.fixture
async def quick(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server(store_kind, tmp_path, **ROUND_SETTINGS) as live:
        yield live


class Feed:
    def __init__(self, ws: Any) -> None:
        self.ws = ws

    @classmethod
    async def open(cls, server: Server, tid: str) -> Feed:
        url = f"{server.ws_base}/ws/tournaments/{tid}"
        return cls(await websockets.connect(url, subprotocols=["uno.v1"]))

    async def next(self, timeout: float = 20.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            return dict(orjson.loads(await self.ws.recv()))

    async def until(self, kind: str, timeout: float = 20.0) -> list[dict[str, Any]]:
        """Every event message up to and with the first event of ``kind``."""
        got = []
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next()
                got.append(message)
                if message["type"] == "event" and message["event"]["type"] == kind:
                    return got

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(orjson.dumps(message).decode())


async def test_the_socket_pushes_registrations_rounds_results_and_standings(quick: Server) -> None:
    made = await new_tournament(quick, tableStartSeconds=0, rounds=1)
    tid = made["tournamentId"]
    feed = await Feed.open(quick, tid)
    first = await feed.next()
    assert first["type"] == "snapshot" and first["protocol"] == "uno.v1"
    assert first["seq"] == 0 and first["tournament"]["players"] == [] and first["standings"] == []
    await register_all(quick, tid, 3)
    got = await feed.until("registered")
    assert got[-1]["seq"] == 1 and got[-1]["event"]["name"] == "P00"
    assert (await host(quick, made, "/start")).status_code == 200
    # Nobody comes: the autopilot plays the table out; its result and the standings follow.
    got = await feed.until("over", timeout=60)
    kinds = [m["event"]["type"] for m in got]
    assert kinds.index("started") < kinds.index("roundStarted") < kinds.index("tableResult")
    seqs = [m["seq"] for m in got]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    standings = next(m["event"] for m in got if m["event"]["type"] == "standings")
    assert sorted(r["rank"] for r in standings["rows"]) == [1, 2, 3]
    # A reconnect that resumes from before the start gets the same events again.
    again = await Feed.open(quick, tid)
    assert (await again.next())["type"] == "snapshot"
    await again.send({"type": "resume", "lastSeq": 3})
    replayed = await again.until("over")
    assert [m["seq"] for m in replayed] == list(range(4, seqs[-1] + 1))
    await again.send({"type": "resume", "lastSeq": 999})
    assert (await again.next())["type"] == "snapshot"
    await again.send({"type": "nope"})
    assert (await again.next())["code"] == "unknown_type"
    await feed.ws.close()
    await again.ws.close()


async def test_an_unknown_tournament_is_refused_at_the_handshake(quick: Server) -> None:
    with pytest.raises(websockets.InvalidStatus) as refused:
        await Feed.open(quick, "nope")
    assert refused.value.response.status_code == 404


@pytest.mark.redis
async def test_a_socket_on_another_node_sees_the_same_numbered_events(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with (
            running_server("redis", tmp_path, prefix=prefix, **ROUND_SETTINGS) as one,
            running_server("redis", tmp_path, prefix=prefix, **ROUND_SETTINGS) as two,
        ):
            made = await new_tournament(one)
            tid = made["tournamentId"]
            feed = await Feed.open(two, tid)
            assert (await feed.next())["type"] == "snapshot"
            await register_all(one, tid, 2)
            got = await feed.until("registered")
            got += await feed.until("registered")
            assert [m["seq"] for m in got] == [1, 2]
            await feed.ws.close()
    finally:
        await drop_prefix(prefix)
