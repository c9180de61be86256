"""The room store on a Redis Cluster (3 masters, 3 replicas): server nodes share rooms on
it as on one Redis, and a cluster that cannot be reached at start is a clear exit."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from live import running_server
from own_cluster import OwnCluster, drop_cluster_prefix
from own_redis import free_port
from test_full_game import bot_action

from app.__main__ import check_store, parse_args, settings_from
from app.settings import Settings

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]


async def test_two_nodes_on_the_cluster_play_one_room_in_one_order(
    redis_cluster: OwnCluster, tmp_path: Any
) -> None:
    """Sockets on both nodes, commands from both (the writer's own node hands its over
    directly, the other node's go through the room's log and wake channel on its shard):
    every socket sees the same gapless order."""
    prefix = f"t{secrets.token_hex(4)}"
    seeds = redis_cluster.seeds
    try:
        async with (
            running_server("cluster", tmp_path, prefix=prefix, redis_cluster=seeds) as a,
            running_server("cluster", tmp_path, prefix=prefix, redis_cluster=seeds) as b,
        ):
            room = await a.create(seats=2, rules={"targetScore": 1000})
            seats = [await a.join(room["roomId"], "x"), await b.join(room["roomId"], "y")]
            await b.start(room["roomId"], room["hostToken"])
            on_a = await a.connect(room["roomId"], seats[0]["token"])
            on_b = await b.connect(room["roomId"], seats[1]["token"])
            watcher = await b.connect(room["roomId"])
            rng = random.Random(3)
            for _ in range(12):
                await on_a.wait_seq(on_b.seq)
                await on_b.wait_seq(on_a.seq)
                if on_a.view["phase"] != "playing":
                    break
                actor = on_a if on_a.view["turn"] == on_a.view["you"] else on_b
                ack = await actor.outcome(await actor.act(bot_action(actor.view, rng)))
                assert ack["type"] == "ack"
            last = max(c.seq for c in (on_a, on_b, watcher))
            for client in (on_a, on_b, watcher):
                await client.wait_seq(last)
            assert on_a.view["players"] == on_b.view["players"] == watcher.view["players"]
            for client in (on_a, on_b, watcher):
                await client.close()
    finally:
        drop_cluster_prefix(redis_cluster, prefix)


def _start(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    return subprocess.run(
        [sys.executable, "-m", "app", "--port", str(free_port()), *args],
        cwd=tmp_path,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_cluster_that_refuses_connections_at_start_is_a_clear_exit(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    done = _start(["--redis-cluster", f"127.0.0.1:{port}"], tmp_path)
    assert done.returncode == 1
    assert f"cannot reach the Redis Cluster at 127.0.0.1:{port}" in done.stderr


def test_a_cluster_seed_that_never_answers_is_an_exit_after_the_timeout() -> None:
    """A port that accepts connections and never replies (the check ``python -m app`` runs
    before serving, in this process)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        settings = Settings(redis_cluster=f"127.0.0.1:{port}", redis_connect_timeout_seconds=0.5)
        started = time.monotonic()
        with pytest.raises(SystemExit) as exited:
            check_store(settings)
        took = time.monotonic() - started
    assert "cannot reach the Redis Cluster" in str(exited.value.code)
    assert took < 30  # not a hang (a generous bound: a loaded machine is slow, not stuck)


def test_seeds_that_are_not_host_port_are_a_clear_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_REDIS_CLUSTER", "redis://127.0.0.1:6379")
    with pytest.raises(SystemExit) as exited:
        check_store(settings_from(parse_args([])))
    assert "not HOST:PORT" in str(exited.value.code)


async def test_the_lobby_and_join_codes_find_rooms_on_every_shard(
    redis_cluster: OwnCluster, tmp_path: Any
) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with running_server(
            "cluster", tmp_path, prefix=prefix, redis_cluster=redis_cluster.seeds
        ) as server:
            rooms = [await server.create(name=f"t{n}") for n in range(8)]
            private = await server.create(name="p", private=True)
            store = server.app.state.store
            slots = {store._cluster.keyslot(store._key(r["roomId"], "room")) for r in rooms}
            shards = {redis_cluster.master_of_slot(slot).port for slot in slots}
            assert len(shards) > 1  # 8 random rooms: all on one shard is 1 in 3**7
            listed = {r["roomId"] for r in (await server.http.get("/api/rooms")).json()}
            assert {r["roomId"] for r in rooms} <= listed
            code = private.get("code")
            if code is not None:
                assert await store.room_for_code(code) == private["roomId"]
            await asyncio.sleep(0)
    finally:
        drop_cluster_prefix(redis_cluster, prefix)
