"""Sign-in limits that hold, on real Redis: an attempt is counted before its password is
checked (so a burst on two nodes gets at most 5 wrong passwords checked), hashing has
threads of its own and a bounded queue (past it 503 ``account/busy``, while a live
room's socket is still answered), sign-ups have a limit of their own, and the limits
refuse (503) while their Redis is away."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from live import Server, running_server
from own_redis import own_redis

pytestmark = pytest.mark.redis

# Hashing at argon2's default cost, where the cost matters (live servers hash cheaply).
DEFAULT_COST = {"argon2_time_cost": 3, "argon2_memory_kib": 65536, "argon2_parallelism": 4}


def _from(server: Server, address: str) -> httpx.AsyncClient:
    """A client of ``server`` whose requests come from ``address`` (a loopback one)."""
    # No TLS here: without verify, no certificate store is loaded for each client.
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=False)
    return httpx.AsyncClient(base_url=server.base, transport=transport, timeout=60)


async def _sign_up(server: Server, name: str, password: str = "correct horse") -> None:
    r = await server.http.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text


async def test_forty_wrong_passwords_at_once_on_two_nodes_are_checked_five_times(
    tmp_path: Path,
) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    shared = {"database_url": f"sqlite+aiosqlite:///{tmp_path}/uno.db"}
    async with (
        running_server("redis", tmp_path, prefix=prefix, **shared) as one,
        running_server("redis", tmp_path, prefix=prefix, **shared) as two,
    ):
        await _sign_up(one, "Dora")
        wrong = {"name": "Dora", "password": "guessing wrong"}
        answers = await asyncio.gather(
            *((one, two)[i % 2].http.post("/api/sessions", json=wrong) for i in range(40))
        )
        assert Counter(r.status_code for r in answers) == {401: 5, 429: 35}
        refused = next(r for r in answers if r.status_code == 429)
        assert refused.json()["code"] == "account/too_many_failures"
        assert int(refused.headers["Retry-After"]) >= 1
        # The right password is refused too, on either node, while the name is held.
        right = {"name": "dora", "password": "correct horse"}
        for node in (one, two):
            r = await node.http.post("/api/sessions", json=right)
            assert r.status_code == 429 and r.json()["code"] == "account/too_many_failures"


async def test_right_passwords_give_their_place_back(tmp_path: Path) -> None:
    async with running_server("redis", tmp_path) as server:
        await _sign_up(server, "Emil")
        right = {"name": "Emil", "password": "correct horse"}
        for _ in range(4):
            assert (await server.http.post("/api/sessions", json=right)).status_code == 200
        wrong = {"name": "Emil", "password": "guessing wrong"}
        for _ in range(5):
            assert (await server.http.post("/api/sessions", json=wrong)).status_code == 401
        assert (await server.http.post("/api/sessions", json=right)).status_code == 429


async def test_sign_ins_past_the_hashing_queue_are_busy_and_a_live_room_is_answered(
    tmp_path: Path,
) -> None:
    # Hashing on one thread with two waiting: 32 sign-ins at once (from addresses of their
    # own, so that no failure limit stops them first) saturate it. The lease is long: on a
    # loaded machine, the test's own clients in this loop may stall it past a short one.
    async with running_server(
        "redis",
        tmp_path,
        password_hash_workers=1,
        password_hash_queue=2,
        lease_ttl_ms=60_000,
        **DEFAULT_COST,
    ) as server:
        clients = [_from(server, f"127.0.0.{10 + i}") for i in range(32)]
        room, seats = await server.table(2)
        player = await server.connect(room["roomId"], seats[0]["token"])
        try:
            burst = [
                asyncio.create_task(
                    c.post("/api/sessions", json={"name": f"nobody{i}", "password": "whatever1"})
                )
                for i, c in enumerate(clients)
            ]
            busy = None
            for done in asyncio.as_completed(burst):
                answer = await done
                if answer.status_code == 503:
                    busy = answer
                    break
            assert busy is not None
            assert busy.json()["code"] == "account/busy" and busy.headers["Retry-After"] == "1"
            # Hashing is saturated: the room's socket is answered all the same.
            await player.send({"type": "ping"})
            await player.expect("pong", timeout=30)
            assert server.app.state.passwords.under_way > 0
            answers = await asyncio.gather(*burst)
            assert {r.status_code for r in answers} <= {401, 503}
            assert sum(r.status_code == 401 for r in answers) >= 3
        finally:
            await player.close()
            for client in clients:
                await client.aclose()


async def test_sign_ups_from_one_address_have_a_limit_of_their_own(tmp_path: Path) -> None:
    async with running_server("redis", tmp_path, sign_up_rate="2/hour") as server:
        await _sign_up(server, "Finn")
        await _sign_up(server, "Gala")
        r = await server.http.post("/api/accounts", json={"name": "Hugo", "password": "a" * 8})
        assert r.status_code == 429 and r.json()["code"] == "account/too_many_sign_ups"
        assert int(r.headers["Retry-After"]) > 60
        # Nothing was made; another address may still sign up.
        async with _from(server, "127.0.0.2") as other:
            made = await other.post("/api/accounts", json={"name": "Hugo", "password": "a" * 8})
            assert made.status_code == 201


async def test_sign_in_is_refused_while_the_limits_redis_is_away(tmp_path: Path) -> None:
    with own_redis(tmp_path / "redis") as url:
        async with running_server(
            "redis", tmp_path, redis_url=url, command_timeout_seconds=2.0, sign_up_rate="10/hour"
        ) as server:
            await _sign_up(server, "Ines")
            client = aioredis.Redis.from_url(url)
            try:
                await client.shutdown(nosave=True)
            except Exception:  # the connection closes as the server stops
                pass
            await client.aclose()
            answers: list[dict[str, Any]] = []
            for body in (
                {"name": "Ines", "password": "correct horse"},
                {"name": "Ines", "password": "guessing wrong"},
            ):
                r = await server.http.post("/api/sessions", json=body)
                answers.append({"status": r.status_code, "code": r.json()["code"]})
            r = await server.http.post("/api/accounts", json={"name": "Jona", "password": "a" * 8})
            answers.append({"status": r.status_code, "code": r.json()["code"]})
            assert answers == [{"status": 503, "code": "unavailable"}] * 3
