"""The compose file's proxy for real: Debian's Caddy with deploy/Caddyfile (its upstreams
and port pointed at two ``python -m app`` processes on free ports) in front of both
replicas, one Redis of the test's own behind them. Docker itself is not run here."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from live import Client, in_ci
from own_redis import free_port, own_redis
from processes import AppProcess, connect, table
from test_full_game import bot_action
from test_rolling_restart import DURABLE, answered_once, mover_of, play, settle

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]


def caddy_config(port: int, upstreams: list[int]) -> str:
    """deploy/Caddyfile as it is, but on ``port`` and in front of ``upstreams``."""
    text = (ROOT / "deploy" / "Caddyfile").read_text()
    text, listen = re.subn(r"^:80 \{", f"http://127.0.0.1:{port} {{", text, flags=re.M)
    hosts = " ".join(f"127.0.0.1:{p}" for p in upstreams)
    text, proxied = re.subn(r"reverse_proxy app1:8000 app2:8000", f"reverse_proxy {hosts}", text)
    assert (listen, proxied) == (1, 2), "deploy/Caddyfile changed shape"
    # No admin endpoint here (it would take a fixed port on this machine).
    return "{\n\tadmin off\n}\n\n" + text


@contextlib.asynccontextmanager
async def running_caddy(tmp_path: Path, port: int, upstreams: list[int]) -> AsyncIterator[str]:
    binary = shutil.which("caddy")
    if binary is None:
        if in_ci():
            pytest.fail("CI=true but caddy is not installed (.ci/run installs it)")
        pytest.skip("caddy is not installed")
    config = tmp_path / "Caddyfile"
    config.write_text(caddy_config(port, upstreams))
    log = (tmp_path / "caddy.log").open("w")
    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    process = subprocess.Popen(
        [binary, "run", "--adapter", "caddyfile", "--config", str(config)],
        env={**os.environ, **home, "XDG_CONFIG_HOME": str(tmp_path / "config")},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(timeout=2) as http, asyncio.timeout(30):
            while True:
                assert process.poll() is None, (tmp_path / "caddy.log").read_text()
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(f"{base}/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@contextlib.asynccontextmanager
async def proxied_replicas(
    tmp_path: Path, **env: str
) -> AsyncIterator[tuple[str, dict[str, AppProcess]]]:
    """Two replicas on one Redis of the test's own behind Caddy: the proxy's address and
    the replicas by node id."""
    with own_redis(tmp_path / "redis", *DURABLE) as url:
        nodes: list[AppProcess] = []
        try:
            # The replicas believe X-Forwarded-For from the proxy (here: 127.0.0.1) only,
            # and take the proxy's address as the origin browsers use.
            port = free_port()
            public = {"UNO_PUBLIC_ORIGINS": f'["http://127.0.0.1:{port}"]', **env}
            nodes = [
                AppProcess(
                    tmp_path / name,
                    "--redis",
                    url,
                    "--database",
                    f"sqlite+aiosqlite:///{tmp_path / name}.db",
                    "--proxy-headers",
                    "--trusted-proxies",
                    "127.0.0.1",
                    env=public,
                )
                for name in ("a", "b")
            ]
            ids = await asyncio.gather(*(n.healthy(timeout=60) for n in nodes))
            async with running_caddy(tmp_path, port, [n.port for n in nodes]) as base:
                yield base, dict(zip(ids, nodes, strict=True))
        finally:
            for node in nodes:
                node.kill()


def node_of(nodes: list[AppProcess], room_id: str) -> AppProcess:
    """The one replica that served the room's requests (its log says so): the proxy sends
    them all to one, whatever token or path they carry."""
    served = [n for n in nodes if f"/rooms/{room_id}" in n.log()]
    assert len(served) == 1, [n.log() for n in nodes]
    return served[0]


async def test_one_port_in_front_of_both_replicas_through_a_rolling_restart(
    tmp_path: Path,
) -> None:
    async with proxied_replicas(tmp_path) as (base, by_id):
        await _through(base, list(by_id.values()), by_id)


async def _through(base: str, nodes: list[AppProcess], by_id: dict[str, AppProcess]) -> None:
    origin = {"origin": base}
    async with httpx.AsyncClient(base_url=base, timeout=10) as http, asyncio.timeout(60):
        # No stickiness: requests go to both replicas in turn (a replica that a health
        # check found slow on this busy machine comes back within seconds).
        seen: set[str] = set()
        for _ in range(100):
            seen.add((await http.get("/healthz")).json()["node"])
            if seen == set(by_id):
                break
            await asyncio.sleep(0.1)
        assert seen == set(by_id)
        assert (await http.get("/metrics")).status_code == 404  # not public

        # A client's own X-Forwarded-For does not pass the proxy: the replicas see the
        # address the proxy saw.
        spoofed = await http.get("/api/rooms/spoofed-probe", headers={"X-Forwarded-For": "6.6.6.6"})
        assert spoofed.status_code == 404
        probe = [line for n in nodes for line in n.log().splitlines() if "spoofed-probe" in line]
        assert probe and all(line.split()[1].startswith("127.0.0.1:") for line in probe), probe

        # REST and WebSockets through the one port.
        room_id, tokens = await table(http)
        ws_base = base.replace("http", "ws")
        clients = [await connect(ws_base, room_id, t, **origin) for t in tokens]
        rng = random.Random(5)
        acked: dict[str, tuple[int, dict[str, Any], int]] = {}
        await play(clients, 4, rng, acked)
        # Every request of the room (its joins, its start, each seat's socket) reached
        # one replica; other rooms hash to either.
        home = node_of(nodes, room_id)

        # Rolling restart: stop the room's replica; its sockets close with 1012, and their
        # clients reconnect to the same address, which now reaches the other replica.
        stopped = home
        stopped.terminate()
        await stopped.exited()
        for i, client in enumerate(clients):
            if client._reader.done():
                assert client.ws.close_code == 1012
                clients[i] = await _reconnect(ws_base, room_id, tokens[i], origin)
        await settle(clients)
        assert clients[0].seq > max(seq for _, _, seq in acked.values())
        await play(clients, 4, rng, acked)
        survivors = {(await http.get("/healthz")).json()["node"] for _ in range(4)}
        assert survivors == {i for i, n in by_id.items() if n is not stopped}
        for client in clients:
            await client.close()


async def test_a_rooms_replica_killed_mid_action_behind_the_proxy_loses_nothing(
    tmp_path: Path,
) -> None:
    """SIGKILL, not a rolling restart: the room's replica dies with an action in flight;
    the proxy sends the room to the other replica, which takes the lease once it runs out.
    The action sent again with its id is answered once, and no acknowledged action is
    lost or applied twice."""
    async with (
        proxied_replicas(tmp_path, UNO_LEASE_TTL_MS="1500") as (base, by_id),
        httpx.AsyncClient(base_url=base, timeout=10) as http,
        asyncio.timeout(90),
    ):
        origin = {"origin": base}
        ws_base = base.replace("http", "ws")
        room_id, tokens = await table(http)
        clients = [await connect(ws_base, room_id, t, **origin) for t in tokens]
        rng = random.Random(8)
        acked: dict[str, tuple[int, dict[str, Any], int]] = {}
        await play(clients, 4, rng, acked)
        home = node_of(list(by_id.values()), room_id)

        await settle(clients)
        mover = mover_of(clients)
        seat, action = mover.view["you"], bot_action(mover.view, rng)
        assert action is not None
        ref = await mover.act(action)
        home.kill()
        for client in clients:
            await asyncio.wait_for(client._reader, timeout=20)
        first_answer = mover.acks.get(ref)

        clients = [await _reconnect(ws_base, room_id, t, origin) for t in tokens]
        survivor = next(n for n in by_id.values() if n is not home)
        assert f"/ws/rooms/{room_id}" in survivor.log()  # the room hashes to the survivor now
        last = max(seq for _, _, seq in acked.values())
        assert all(c.seq > last for c in clients)  # each snapshot holds every ack
        await answered_once(clients, (seat, action, ref), first_answer, acked)
        await play(clients, 4, rng, acked)
        for client in clients:
            await client.close()


async def _reconnect(ws_base: str, room_id: str, token: str, origin: dict[str, str]) -> Client:
    """What a browser does after 1012: connect again (the proxy may still be finding out
    that the replica is gone, so a failed attempt is retried)."""
    async with asyncio.timeout(20):
        while True:
            try:
                return await connect(ws_base, room_id, token, **origin)
            except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed):
                await asyncio.sleep(0.2)
