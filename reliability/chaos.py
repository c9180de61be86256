"""A cluster under attack: Redis, nodes, tables of bots, and the counts at the end.

``run_cluster`` starts a Redis of its own and the nodes, opens the tables and lets the
bots play while ``attack`` does its damage (kills, stops); then it brings everything back,
lets the bots finish, and counts what the bots were told against what the room stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from reliability.bots import Report, Table, forks, fresh_views_unequal, lost_and_doubled, record_of
from reliability.processes import Node, RedisServer, node_env

# Short matches (two deals), so that games finish and deals change writers often.
RULES: dict[str, Any] = {"preset": "classic", "roundLimit": 2}


@dataclass
class Cluster:
    directory: Path
    redis: RedisServer
    nodes: list[Node]
    database: Path
    tables: list[Table] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)
    log: list[str] = field(default_factory=list)
    excerpts: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.log.append(f"{time.strftime('%H:%M:%S')} {text}")

    async def redis_get(self, key: str) -> bytes | None:
        client = aioredis.Redis.from_url(self.redis.url)
        try:
            value: bytes | None = await client.get(key)
            return value
        finally:
            await client.aclose()


@dataclass
class Outcome:
    counts: Counter[str]
    cluster: Cluster
    seconds: float


Attack = Callable[[Cluster], Awaitable[None]]


async def run_cluster(
    attack: Attack,
    *,
    nodes: int = 2,
    rooms: int = 4,
    seats: int = 3,
    spectators: int = 0,
    fsync: str = "always",
    lease_ms: int = 2000,
    think: float = 0.0,
    settle: float = 2.0,
    seed: int | None = None,
    env: dict[str, str] | None = None,
    during: Callable[[Cluster], Awaitable[None]] | None = None,
    after: Callable[[Cluster], Awaitable[None]] | None = None,
    keep_frames: bool = False,
    rules: dict[str, Any] | None = None,
) -> Outcome:
    started = time.monotonic()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="uno-reliability-") as tmp:
        directory = Path(tmp)
        redis = RedisServer(directory, fsync)
        redis.start()
        database = directory / "archive.db"
        url = f"sqlite+aiosqlite:///{database}"
        settings = node_env(lease_ms, **(env or {}))
        cluster = Cluster(
            directory,
            redis,
            [Node(f"node{i}", directory, redis.url, url, settings) for i in range(nodes)],
            database,
            rng=rng,
        )
        try:
            # One at a time: the first migrates the fresh archive.
            for node in cluster.nodes:
                await asyncio.to_thread(node.start)
            cluster.note("nodes up")
            cluster.tables = [
                Table(cluster.nodes, random.Random(rng.random()), keep_frames) for _ in range(rooms)
            ]
            for i in range(0, rooms, 10):
                await asyncio.gather(
                    *(t.open(seats, rules or RULES, spectators) for t in cluster.tables[i : i + 10])
                )
            cluster.note("tables open")
            stop = asyncio.Event()
            players = [
                asyncio.create_task(bot.run(stop, think))
                for table in cluster.tables
                for bot in table.bots
                if not bot.spectator
            ]
            side = asyncio.create_task(during(cluster)) if during else None
            await attack(cluster)
            cluster.note("attack over")
            await heal(cluster)
            await asyncio.sleep(settle)
            for table in cluster.tables:
                table.stopping = True
            stop.set()
            # Answers still on their way get a moment; then the bots are stopped.
            _, pending = await asyncio.wait(players, timeout=5)
            for task in pending:
                task.cancel()
            if side is not None:
                side.cancel()
                with contextlib.suppress(BaseException):
                    await side
            cluster.note("bots stopped")
            counts = await count(cluster)
            cluster.note("counted")
            if after is not None:
                await after(cluster)
        finally:
            for table in cluster.tables:
                for bot in table.bots:
                    with contextlib.suppress(Exception):
                        await bot.drop()
            for node in cluster.nodes:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(node.stop)
            redis.stop()
            cluster.note("stopped")
        counts["seconds"] = round(time.monotonic() - started)
        return Outcome(counts, cluster, time.monotonic() - started)


async def heal(cluster: Cluster) -> None:
    """Everything up again: Redis, then every node (continued if stopped)."""
    if cluster.redis.process is None:
        await asyncio.to_thread(cluster.redis.start)
    for node in cluster.nodes:
        if node.alive:
            with contextlib.suppress(ProcessLookupError):
                node.resume()
        else:
            await asyncio.to_thread(node.start)


async def settled_record(cluster: Cluster, table: Table, end: float) -> dict[int, dict[str, Any]]:
    """The room's record once the archive has caught up (outbox drained) or at ``end``."""
    while True:
        try:
            record = await record_of(table, cluster.database, cluster.redis.url)
            client = aioredis.Redis.from_url(
                cluster.redis.url, socket_connect_timeout=30, socket_timeout=60
            )
            try:
                pending = await client.hlen(f"rel:{{{table.room_id}}}:outbox")
            finally:
                await client.aclose()
        except (aioredis.RedisError, OSError):
            # The script's Redis slow to answer on a loaded machine: read again.
            if time.monotonic() > end + 120:
                raise
            await asyncio.sleep(1)
            continue
        if not pending or time.monotonic() > end:
            return record
        await asyncio.sleep(0.5)


async def count(cluster: Cluster) -> Counter[str]:
    counts: Counter[str] = Counter()
    end = time.monotonic() + 20  # for the archive to catch up (the outbox covers the rest)
    for table in cluster.tables:
        record = await settled_record(cluster, table, end)
        lost, doubled, checked = lost_and_doubled(table, record)
        counts["acked_checked"] += checked
        counts["acked_lost"] += lost
        counts["applied_twice"] += doubled
        counts["forks"] += forks(table)
        counts["games_finished"] += table.finished
        counts.update({f"stat_{k}": v for k, v in table.stats.items() if k != "late_max_s"})
        counts["stat_late_max_s"] = max(counts["stat_late_max_s"], table.stats["late_max_s"])
        counts.update({f"refused_{k}": v for k, v in table.refusals.items()})
        counts.update({f"close_{k}": v for k, v in table.closes.items()})
    counts["views_unequal"] += sum(
        await asyncio.gather(*(fresh_views_unequal(table) for table in cluster.tables))
    )
    for node in cluster.nodes:
        counts.update({f"log_{k}": v for k, v in node.problems().items()})
        cluster.excerpts += node.log_excerpt()
    return counts


def node_of(cluster: Cluster, node_id: bytes | None) -> Node | None:
    if node_id is None:
        return None
    return next((n for n in cluster.nodes if n.node_id == node_id.decode()), None)


def chaos_report(title: str, outcome: Outcome, attacks: int, resumed_name: str) -> Report:
    c = outcome.counts
    report = Report(title)
    report.add(
        resumed_name, f"{c['resumed']}/{attacks}", f"{attacks}/{attacks}", c["resumed"] == attacks
    )
    report.add("games finished", c["games_finished"])
    report.add("acked actions checked", c["acked_checked"], "> 0", c["acked_checked"] > 0)
    report.add("acked actions lost", c["acked_lost"], "0", c["acked_lost"] == 0)
    report.add("applied twice", c["applied_twice"], "0", c["applied_twice"] == 0)
    report.add(
        "views unequal to a fresh snapshot", c["views_unequal"], "0", c["views_unequal"] == 0
    )
    report.add("seq forks (two changes under one seq)", c["forks"], "0", c["forks"] == 0)
    report.add("sockets wedged (no patch while the room moved)", c["stat_wedged"])
    report.add("sockets late (a change 6-16 s after another socket)", c["stat_late"])
    report.add("retries refused instead of acked", c["stat_retries_refused"])
    report.add("reconnects", c["stat_connects"])
    report.add("tracebacks in server logs", c["log_traceback"])
    report.add("seconds", c["seconds"])
    if c["stat_probes_without_snapshot"]:
        report.notes.append(f"{c['stat_probes_without_snapshot']} fresh sockets got no snapshot")
    for table in outcome.cluster.tables:
        report.notes += [f"unequal view in room {table.room_id}: {why}" for why in table.unequal]
        report.notes += [f"wedged in room {table.room_id}: {why}" for why in table.wedges]
    closes = ", ".join(f"{k[6:]}: {v}" for k, v in sorted(c.items()) if k.startswith("close_"))
    report.notes.append(f"socket closes by code: {closes}")
    report.notes += [f"log: {line}" for line in outcome.cluster.excerpts]
    return report
