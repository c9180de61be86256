"""Faults of a Redis Cluster under a live server: a shard down (its master and its replica
killed) refuses its rooms' actions with ``unavailable`` while the other shards' rooms go on;
a master killed (kill -9) mid-game fails over to its replica, and its rooms resume once it
is promoted, their clients reconnecting. Each test makes a cluster of its own (2 s
``cluster-node-timeout``). The long run with counts is ``reliability/cluster_failover.py``."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
import websockets
from cluster_tables import Table, open_tables
from live import Server, running_server
from own_cluster import own_cluster

pytestmark = pytest.mark.redis


async def refused_as_unavailable(server: Server, table: Table) -> bool:
    """Whether a new socket to the table's room is refused as ``unavailable``."""
    url = f"{server.ws_base}/ws/rooms/{table.room_id}?token={table.tokens[0]}"
    try:
        async with websockets.connect(url, compression=None) as ws:
            async with asyncio.timeout(15):
                while True:
                    message = orjson.loads(await ws.recv())
                    if message["type"] != "ping":
                        return message["type"] == "error" and message["code"] == "unavailable"
    except websockets.InvalidStatus as err:
        return err.response.status_code == 503
    except websockets.ConnectionClosed:
        return False


def _by_shard(tables: list[Table], cluster: Any) -> dict[int, list[Table]]:
    shards: dict[int, list[Table]] = {}
    for table in tables:
        shards.setdefault(table.shard(cluster), []).append(table)
    return shards


async def test_a_shard_down_refuses_its_rooms_and_the_other_shards_rooms_go_on(
    tmp_path: Path,
) -> None:
    rng = random.Random(5)
    with own_cluster(tmp_path / "cluster", "--cluster-require-full-coverage", "no") as cluster:
        async with running_server(
            "cluster",
            tmp_path,
            prefix=f"t{secrets.token_hex(4)}",
            redis_cluster=cluster.seeds,
            command_timeout_seconds=2.0,
        ) as server:
            store = server.app.state.store
            index = cluster.master_of_slot(store._cluster.keyslot(store._global("lobby")))
            tables = await open_tables(server, 9)
            shards = _by_shard(tables, cluster)
            victims = [port for port in shards if port != index.port]
            assert victims, "every room on the index shard (1 in 3**8)"
            down = shards[victims[0]]
            up = [t for port, ts in shards.items() if port != victims[0] for t in ts]
            for table in tables:
                assert (await table.move(rng))["type"] == "ack"
            master = next(n for n in cluster.nodes if n.port == victims[0])
            for replica in cluster.replicas_of(master):
                cluster.kill(replica)  # no failover: the shard is down
            cluster.kill(master)
            for table in down[:2]:  # (each waits for its in-flight commit's timeout)
                # The commit in flight when the shard went has an unknown outcome: timeout
                # (retried with its id, applied once); then the room is refused.
                outcome = await table.move(rng, timeout=15)
                assert outcome["type"] == "error"
                assert outcome["code"] in ("unavailable", "timeout", "closed"), outcome
                assert await refused_as_unavailable(server, table)
            for table in up:
                for _ in range(2):
                    assert (await table.move(rng, timeout=15))["type"] == "ack"
            for table in tables:
                await table.close()


async def test_a_killed_master_fails_over_and_its_rooms_resume_with_nothing_acked_lost(
    tmp_path: Path,
) -> None:
    """The short version: moves acknowledged and replicated, then the master of the shard
    with the most rooms is killed (kill -9); once its replica is promoted, every room on it
    resumes from where it was, its clients reconnecting and acting again."""
    rng = random.Random(9)
    with own_cluster(tmp_path / "cluster") as cluster:
        async with running_server(
            "cluster",
            tmp_path,
            prefix=f"t{secrets.token_hex(4)}",
            redis_cluster=cluster.seeds,
            command_timeout_seconds=3.0,
        ) as server:
            tables = await open_tables(server, 6)
            for _ in range(3):
                for table in tables:
                    assert (await table.move(rng))["type"] == "ack"
            shards = _by_shard(tables, cluster)
            port = max(shards, key=lambda p: len(shards[p]))
            victim = next(n for n in cluster.nodes if n.port == port)
            await asyncio.to_thread(cluster.wait_replicated, victim)  # nothing in flight
            acked = {table.room_id: max(table.acked) for table in shards[port]}
            cluster.kill(victim)
            await asyncio.to_thread(cluster.wait_ok, 30.0)  # its replica promoted
            lost = 0
            for table in shards[port]:
                first_seq = await table.resume(rng)
                lost += max(0, acked[table.room_id] - first_seq)
            assert lost == 0
            # With cluster-require-full-coverage yes (Redis's default) the whole cluster
            # refused commands until the promotion: every node's sockets were closed
            # (1013), and the other shards' rooms come back the same way.
            for table in tables:
                if table not in shards[port]:
                    await table.resume(rng)
                await table.close()


async def test_with_wait_replicas_no_action_is_acked_that_no_replica_has(tmp_path: Path) -> None:
    """UNO_REDIS_WAIT_REPLICAS=1: a shard whose replica is down refuses its rooms' moves
    (the commit is not confirmed: never acknowledged), and acknowledges again once the
    replica is back."""
    rng = random.Random(4)
    with own_cluster(tmp_path / "cluster") as cluster:
        async with running_server(
            "cluster",
            tmp_path,
            prefix=f"t{secrets.token_hex(4)}",
            redis_cluster=cluster.seeds,
            redis_wait_replicas=1,
            # Long enough for a replica on a busy machine (the suite runs on four
            # workers) to confirm a commit while it is up.
            redis_wait_timeout_ms=1000,
            command_timeout_seconds=5.0,
        ) as server:
            (table,) = await open_tables(server, 1)
            assert (await table.move(rng))["type"] == "ack"
            master = next(n for n in cluster.nodes if n.port == table.shard(cluster))
            (replica,) = cluster.replicas_of(master)
            cluster.kill(replica)
            await asyncio.to_thread(_replica_gone, master)
            outcome = await table.move(rng, timeout=15)
            assert outcome["type"] == "error", outcome
            assert outcome["code"] in ("unavailable", "timeout", "closed")
            cluster.restart(replica)
            await asyncio.to_thread(cluster.wait_replicated, master)
            await table.resume(rng)
            await table.close()


def _replica_gone(master: Any, timeout: float = 15.0) -> None:
    """Until the master itself counts no connected replica (a kill is seen a moment later)."""
    deadline = time.monotonic() + timeout
    while master.client().info("replication")["connected_slaves"] and time.monotonic() < deadline:
        time.sleep(0.05)
