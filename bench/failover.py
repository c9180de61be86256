"""Redis Cluster failover under play: acknowledged actions lost, with and without WAIT.

For each mode (``UNO_REDIS_WAIT_REPLICAS`` 0, then 1) the script makes a local cluster of
its own (3 masters, 3 replicas, 2 s ``cluster-node-timeout``; ``tests/app/own_cluster.py``),
runs one server on it (in this process) and ``--tables`` two-seat tables whose players
move as fast as the room answers. After ``--warmup`` s it kills (kill -9) the master of
the shard holding most tables, waits for its replica's promotion (with WAIT, it also
starts the killed node again, as a replica: a shard with no replica acknowledges
nothing), and plays on until every table has moved again. Per mode it reports the
actions/s before the kill (the cost of WAIT), the seconds until every table resumed, and
the acknowledged actions lost: acked before the kill, at a seq past the one the room
came back at.

    python bench/failover.py [--tables 12] [--warmup 8] [--modes 0,1] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "app")]

from cluster_tables import Table, open_tables  # noqa: E402
from live import running_server  # noqa: E402
from own_cluster import OwnCluster, own_cluster  # noqa: E402


class Player:
    """Plays one table until stopped, coming back after every outage as a client does."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.acks: list[tuple[float, int]] = []  # (when, seq)
        self.back_at: list[tuple[float, int]] = []  # (when, seq of the fresh snapshot)

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                outcome = await self.table.move(self.rng, timeout=5)
            except Exception:
                outcome = {"type": "error", "code": "closed"}
            if outcome["type"] == "ack":
                self.acks.append((time.monotonic(), outcome["seq"]))
                continue
            if outcome.get("code") in ("closed", "unavailable", "timeout"):
                await self._reconnect(stop)
            else:
                await asyncio.sleep(0.01)

    async def _reconnect(self, stop: asyncio.Event) -> None:
        await self.table.close()
        while not stop.is_set():
            try:
                await self.table.connect()
            except Exception:
                await asyncio.sleep(0.2)
                continue
            seq = min(c.seq for c in self.table.clients if c is not None)
            self.back_at.append((time.monotonic(), seq))
            return


async def one_mode(wait: int, args: argparse.Namespace, directory: Path) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with own_cluster(directory / f"wait{wait}") as cluster:
        async with running_server(
            "cluster",
            directory,
            prefix=f"f{secrets.token_hex(3)}",
            redis_cluster=cluster.seeds,
            redis_wait_replicas=wait,
            command_timeout_seconds=3.0,
            rate_per_second=10_000.0,
            rate_burst=10_000,
        ) as server:
            tables = await open_tables(server, args.tables)
            players = [Player(t, random.Random(rng.random())) for t in tables]
            stop = asyncio.Event()
            tasks = [asyncio.create_task(p.run(stop)) for p in players]
            started = time.monotonic()
            await asyncio.sleep(args.warmup)
            shards: dict[int, list[Player]] = {}
            for player in players:
                shards.setdefault(player.table.shard(cluster), []).append(player)
            port = max(shards, key=lambda p: len(shards[p]))
            victim = next(n for n in cluster.nodes if n.port == port)
            killed_at = time.monotonic()
            before = sum(len(p.acks) for p in players)
            cluster.kill(victim)
            await asyncio.to_thread(cluster.wait_ok, 60.0)
            promoted = time.monotonic() - killed_at
            if wait:
                cluster.restart(victim)
                new_master = cluster.master_of_slot(
                    tables[0].server.app.state.store._cluster.keyslot(
                        tables[0].server.app.state.store._key(shards[port][0].table.room_id, "room")
                    )
                )
                await asyncio.to_thread(cluster.wait_replicated, new_master, 60.0)
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and not all(
                any(when > killed_at for when, _ in p.acks) for p in players
            ):
                await asyncio.sleep(0.2)
            resumed = sum(any(when > killed_at for when, _ in p.acks) for p in players)
            resumed_after = time.monotonic() - killed_at
            stop.set()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task
            lost = acked = 0
            for player in shards[port]:
                back = [seq for when, seq in player.back_at if when > killed_at]
                acks = [seq for when, seq in player.acks if when <= killed_at]
                acked += len(acks)
                if back:
                    lost += sum(1 for seq in acks if seq > back[0])
            for table in tables:
                await table.close()
            return {
                "wait": wait,
                "rate": before / (killed_at - started),
                "promoted_s": promoted,
                "resumed": f"{resumed}/{len(players)}",
                "resumed_s": resumed_after,
                "on_shard": len(shards[port]),
                "acked_on_shard": acked,
                "lost": lost,
            }


def _cluster_ok(cluster: OwnCluster) -> None:
    cluster.wait_ok()


async def main_async(args: argparse.Namespace) -> None:
    results = []
    with tempfile.TemporaryDirectory(prefix="uno-failover-") as tmp:
        for wait in (int(m) for m in args.modes.split(",")):
            print(f"wait {wait} ...", file=sys.stderr, flush=True)
            results.append(await one_mode(wait, args, Path(tmp)))
            print(results[-1], file=sys.stderr, flush=True)
    print(
        f"{args.tables} two-seat tables played flat out, one server (in the load generator's "
        f"process), a local 3+3 cluster; the master with most tables killed after "
        f"{args.warmup:g} s.\n"
    )
    print(
        "| UNO_REDIS_WAIT_REPLICAS | actions/s before the kill | replica promoted after (s) "
        "| tables resumed | all resumed after (s) | tables on the killed shard "
        "| their acked actions | acked actions lost |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['wait']} | {r['rate']:.0f} | {r['promoted_s']:.1f} | {r['resumed']} "
            f"| {r['resumed_s']:.1f} | {r['on_shard']} | {r['acked_on_shard']} | {r['lost']} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--modes", default="0,1")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
