"""Live rooms per client: an address keeps at most its cap of lobby rooms open (counted by
every node together), and an empty lobby whose host has gone ends soon."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import httpx
import pytest
from live import drop_prefix, running_server


async def _create(http: httpx.AsyncClient) -> httpx.Response:
    return await http.post("/api/rooms", json={"name": "lobby", "seats": 2})


async def test_an_address_keeps_at_most_its_cap_of_lobby_rooms_open(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, max_open_lobbies_per_address=2) as server:
        first = await server.create(seats=2)
        await server.create(seats=2)
        r = await _create(server.http)
        assert r.status_code == 429 and r.json()["code"] == "too_many_rooms", r.text
        # A room that starts is no lobby any more: its place is free.
        for name in ("a", "b"):
            await server.join(first["roomId"], name)
        await server.start(first["roomId"], first["hostToken"])
        assert (await _create(server.http)).status_code == 201
        assert (await _create(server.http)).status_code == 429
        # Another address has a cap of its own.
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=server.base, transport=transport) as other:
            assert (await _create(other)).status_code == 201


@pytest.mark.redis
async def test_the_cap_is_counted_by_every_node_together(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    settings = {"max_open_lobbies_per_address": 2, "prefix": prefix}
    try:
        async with (
            running_server("redis", tmp_path, **settings) as a,
            running_server("redis", tmp_path, **settings) as b,
        ):
            assert (await _create(a.http)).status_code == 201
            assert (await _create(b.http)).status_code == 201
            for node in (a, b):
                r = await _create(node.http)
                assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"
    finally:
        await drop_prefix(prefix)


async def test_an_empty_lobby_whose_host_left_ends_soon(store_kind: str, tmp_path: Any) -> None:
    async with running_server(
        store_kind, tmp_path, timer_poll_seconds=0.1, left_lobby_seconds=0.5
    ) as server:
        kept = await server.create(name="waiting")  # nobody sat in it yet
        left = await server.create(name="deserted")
        seat = await server.join(left["roomId"], "Ann")
        r = await server.http.post(
            f"/api/rooms/{left['roomId']}/leave",
            headers={"Authorization": f"Bearer {seat['token']}"},
        )
        assert r.status_code in (200, 204), r.text
        async with asyncio.timeout(20):
            while (await server.http.get(f"/api/rooms/{left['roomId']}")).status_code != 404:
                await asyncio.sleep(0.05)
        # The lobby nobody sat in yet keeps the empty lobby's own time (30 minutes).
        assert (await server.http.get(f"/api/rooms/{kept['roomId']}")).status_code == 200
