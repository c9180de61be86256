"""Two-seat tables played by test clients on a server whose store is a Redis Cluster, for
the shard-down and failover tests: which shard a room lives on, one move at a time, and
coming back after an outage the way a client does (reconnect, act again)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import websockets
from live import Client, Server
from own_cluster import OwnCluster
from test_full_game import bot_action


@dataclass
class Table:
    server: Server
    room_id: str
    tokens: list[str]
    clients: list[Client | None] = field(default_factory=list)
    # The seq of every change acknowledged to its sender.
    acked: list[int] = field(default_factory=list)

    def shard(self, cluster: OwnCluster) -> int:
        """The port of the master serving the room's slot."""
        store = self.server.app.state.store
        return cluster.master_of_slot(store._cluster.keyslot(store._key(self.room_id, "room"))).port

    async def connect(self) -> None:
        self.clients = [await self.server.connect(self.room_id, t) for t in self.tokens]

    async def move(self, rng: random.Random, timeout: float = 5.0) -> dict[str, Any]:
        """One action by the seat to move: its ack or error (``closed`` if the socket was
        closed before an answer)."""
        clients = [c for c in self.clients if c is not None]
        seq = max(c.seq for c in clients)
        for client in clients:
            await client.wait_seq(seq, timeout)
        view = clients[0].view
        assert view is not None
        actor = next(c for c in clients if c.view is not None and c.view["you"] == view["turn"])
        action = bot_action(actor.view, rng)  # type: ignore[arg-type]
        assert action is not None
        closed = {"type": "error", "code": "closed"}
        try:
            ref = await actor.act(action)
            async with asyncio.timeout(timeout):
                while ref not in actor.acks and ref not in actor.errors:
                    if actor._reader.done():  # closed by the server (1013: come back)
                        return closed
                    await asyncio.sleep(0.01)
        except (websockets.ConnectionClosed, TimeoutError):
            return closed
        outcome = actor.acks.get(ref) or actor.errors[ref][0]
        if outcome["type"] == "ack":
            self.acked.append(outcome["seq"])
        return outcome

    async def resume(self, rng: random.Random, timeout: float = 60.0) -> int:
        """Reconnect and act until an action is acknowledged, as a client retries; returns
        the seq of the first snapshot that came back (to compare with what was acked)."""
        first_seq: int | None = None
        async with asyncio.timeout(timeout):
            while True:
                try:
                    for client in self.clients:
                        if client is not None:
                            await client.close()
                    await self.connect()
                except (OSError, websockets.InvalidStatus, websockets.ConnectionClosed):
                    await asyncio.sleep(0.2)
                    continue
                except AssertionError:
                    await asyncio.sleep(0.2)
                    continue
                if first_seq is None:
                    first_seq = min(c.seq for c in self.clients if c is not None)
                outcome = await self.move(rng)
                if outcome["type"] == "ack":
                    return first_seq
                await asyncio.sleep(0.2)

    async def close(self) -> None:
        for client in self.clients:
            if client is not None:
                try:
                    await client.close()
                except Exception:
                    pass


async def open_tables(server: Server, count: int) -> list[Table]:
    tables = []
    for _ in range(count):
        room, seats = await server.table(2, rules={"targetScore": 1000})
        table = Table(server, room["roomId"], [s["token"] for s in seats])
        await table.connect()
        tables.append(table)
    return tables
