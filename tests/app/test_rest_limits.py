"""Rate limits on REST writes per client address, against a live server, for each store."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
from live import running_server
from own_cluster import OwnCluster

from app.limits import RestLimits


async def test_room_creation_past_its_limit_answers_429_with_a_code(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, room_create_rate="3/minute") as server:
        for _ in range(3):
            await server.create()
        r = await server.http.post("/api/rooms", json={"name": "one too many"})
        assert r.status_code == 429
        assert r.json()["code"] == "rate_limited" and r.json()["message"]
        assert 1 <= int(r.headers["retry-after"]) <= 60
        # Refused before anything happened: no fourth room in the lobby.
        names = [room["name"] for room in (await server.http.get("/api/rooms")).json()]
        assert names == ["table"] * 3
        # Reads are not limited.
        assert (await server.http.get("/api/rooms")).status_code == 200


async def test_every_write_counts_against_the_address_write_limit(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, rest_write_rate="4/minute") as server:
        room = await server.create(seats=10)  # 1
        for name in ("a", "b", "c"):  # 2, 3, 4
            await server.join(room["roomId"], name)
        r = await server.http.post(f"/api/rooms/{room['roomId']}/join", json={"name": "d"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
        assert [p["name"] for p in info["players"]] == ["a", "b", "c"]


async def test_limits_are_counted_per_client_address(store_kind: str, tmp_path: Any) -> None:
    async with running_server(store_kind, tmp_path, room_create_rate="1/minute") as server:
        await server.create()
        assert (await server.http.post("/api/rooms", json={"name": "x"})).status_code == 429
        # Another address of this machine: its own count.
        other = httpx.AsyncClient(
            base_url=server.base, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        )
        async with other:
            r = await other.post("/api/rooms", json={"name": "y"})
            assert r.status_code == 201, r.text


async def test_the_429_is_in_the_openapi_of_every_write(server: Any) -> None:
    spec = (await server.http.get("/openapi.json")).json()
    create = spec["paths"]["/api/rooms"]["post"]["responses"]
    assert "429" in create
    assert "429" not in spec["paths"]["/api/rooms"]["get"]["responses"]


async def test_nodes_on_one_redis_cluster_count_an_address_together(
    redis_cluster: OwnCluster,
) -> None:
    """With rooms on a Redis Cluster (and no UNO_REDIS_URL), the counters live on it: a
    second node sees the first one's count."""
    prefix = f"t{secrets.token_hex(4)}"
    nodes = [
        RestLimits("", "2/minute", prefix=prefix, redis_cluster=redis_cluster.seeds)
        for _ in range(2)
    ]
    try:
        assert await nodes[0].retry_after("10.0.0.1", "POST", "/api/rooms") is None
        assert await nodes[1].retry_after("10.0.0.1", "POST", "/api/rooms") is None
        wait = await nodes[0].retry_after("10.0.0.1", "POST", "/api/rooms")
        assert wait is not None and 1 <= wait <= 60
        assert await nodes[1].retry_after("10.0.0.2", "POST", "/api/rooms") is None
    finally:
        for node in nodes:
            await node.close()
