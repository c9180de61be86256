"""The lease follows the sockets (docs/architecture.md): a writer whose commands all come
from another node, and whose own node holds none of the room's sockets, gives the room up;
the node of the sockets takes it with its next command. On one Redis and on a Redis
Cluster, with two server nodes: every action is answered once, in one gapless order."""

from __future__ import annotations

import collections
import contextlib
import re
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Client, Server, drop_prefix, running_server
from own_cluster import OwnCluster, drop_cluster_prefix

from app.rooms.writer import HAND_OVER_AFTER

pytestmark = pytest.mark.redis


def writes(server: Server, room_id: str) -> bool:
    return room_id in server.app.state.rooms._writers


async def handovers(*servers: Server) -> tuple[float, ...]:
    """Each node's count of rooms its writers handed over (its /metrics)."""
    counts = []
    for server in servers:
        text = (await server.http.get("/metrics")).text
        counts.append(float(re.search(r"^uno_writer_handovers_total (\S+)$", text, re.M)[1]))  # type: ignore[index]
    return tuple(counts)


def quiet_action(view: dict[str, Any]) -> dict[str, Any]:
    """A legal action that keeps the deal going (a draw or a pass before a play): the test
    needs many actions, not a finished deal."""
    legal = view["legal"]
    action = dict(next((a for a in legal if a["type"] != "play"), legal[0]))
    if action["type"] == "play" and action["cards"][0].startswith("W"):
        action["color"] = "R"
    return action


async def take_turns(clients: list[Client], moves: int) -> list[tuple[str, int]]:
    """``moves`` actions of the seat whose turn it is, each acknowledged before the next:
    (ref, seq) of each."""
    done = []
    for _ in range(moves):
        seq = max(c.seq for c in clients)
        for client in clients:
            await client.wait_seq(seq, timeout=10)
        mover = next(c for c in clients if c.view is not None and c.view["turn"] == c.view["you"])
        ref = await mover.act(quiet_action(mover.view))
        outcome = await mover.outcome(ref, timeout=10)
        assert outcome["type"] == "ack", outcome
        done.append((ref, outcome["seq"]))
    return done


async def lease_moves_to_the_sockets(a: Server, b: Server) -> None:
    # Made and started over REST on a: a writes the room.
    room = await a.create(seats=2, rules={"targetScore": 1000})
    room_id = room["roomId"]
    seats = [await a.join(room_id, f"p{i}") for i in range(2)]
    await a.start(room_id, room["hostToken"])
    assert writes(a, room_id)
    # Every socket on b (as after a failover, or with a's REST calls routed there).
    clients = [await b.connect(room_id, s["token"]) for s in seats]
    # The sockets' connects count as commands from b as well: HAND_OVER_AFTER actions are
    # more than a needs before it lets go; b takes the room with its next command.
    acted = await take_turns(clients, HAND_OVER_AFTER + 1)
    assert writes(b, room_id) and not writes(a, room_id)
    assert await handovers(a, b) == (1, 0)
    # b keeps it: its own sockets' actions skip the log now.
    acted += await take_turns(clients, 4)
    assert writes(b, room_id) and await handovers(a, b) == (1, 0)

    # One order: acks in the order sent, each seq once; each action answered once.
    seqs = [seq for _, seq in acted]
    assert seqs == sorted(set(seqs))
    answers: collections.Counter[str] = collections.Counter()
    for client in clients:
        for message in client.messages:
            if message["type"] == "ack":
                answers[message["ref"]] += 1
            elif message["type"] == "patch" and "ack" in message:
                answers[message["ack"]] += 1
    assert answers == {ref: 1 for ref, _ in acted}
    # What the sockets were sent adds up to the room as stored (a fresh snapshot).
    fresh = await a.connect(room_id, seats[0]["token"])
    await fresh.wait_seq(clients[0].seq)
    await clients[0].wait_seq(fresh.seq)
    assert fresh.view == clients[0].view
    for client in [*clients, fresh]:
        await client.close()


@contextlib.asynccontextmanager
async def two_nodes(
    store: str, tmp_path: Any, **settings: Any
) -> AsyncIterator[tuple[Server, Server]]:
    async with (
        running_server(store, tmp_path, **settings) as a,
        running_server(store, tmp_path, **settings) as b,
    ):
        yield a, b


async def test_a_writer_without_sockets_hands_the_room_to_their_node(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with two_nodes("redis", tmp_path, prefix=prefix) as (a, b):
            await lease_moves_to_the_sockets(a, b)
    finally:
        await drop_prefix(prefix)


async def test_on_the_cluster_a_writer_without_sockets_hands_the_room_over(
    redis_cluster: OwnCluster, tmp_path: Any
) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with two_nodes(
            "cluster", tmp_path, prefix=prefix, redis_cluster=redis_cluster.seeds
        ) as (a, b):
            await lease_moves_to_the_sockets(a, b)
    finally:
        drop_cluster_prefix(redis_cluster, prefix)


async def test_sockets_on_both_nodes_keep_the_room_where_it_is(tmp_path: Any) -> None:
    """Split sockets: the writer's node holds some, so the room stays (no back and forth)."""
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with two_nodes("redis", tmp_path, prefix=prefix) as (a, b):
            room = await a.create(seats=2, rules={"targetScore": 1000})
            room_id = room["roomId"]
            seats = [await a.join(room_id, f"p{i}") for i in range(2)]
            await a.start(room_id, room["hostToken"])
            watcher = await a.connect(room_id)  # a spectator on a
            clients = [await b.connect(room_id, s["token"]) for s in seats]
            await take_turns(clients, HAND_OVER_AFTER + 4)
            assert writes(a, room_id) and not writes(b, room_id)
            assert await handovers(a, b) == (0, 0)
            await watcher.wait_seq(clients[0].seq)
            assert watcher.view["players"] == clients[0].view["players"]
            for client in [*clients, watcher]:
                await client.close()
    finally:
        await drop_prefix(prefix)
