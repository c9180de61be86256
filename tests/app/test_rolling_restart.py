"""A rolling restart on real processes and a real Redis (docs/deploy.md): a replica
stopped with SIGTERM mid-game closes its sockets with 1012 and gives its rooms' leases
up; the clients reconnect to the other replica, which carries the rooms on, and no
acknowledged action is lost."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from live import Client
from own_redis import own_redis
from processes import AppProcess, connect, table
from test_full_game import bot_action

pytestmark = pytest.mark.redis

DURABLE = ("--appendonly", "yes", "--save", "", "--maxmemory-policy", "noeviction")


def mover_of(clients: list[Client]) -> Client:
    return next(c for c in clients if c.view is not None and c.view["turn"] == c.view["you"])


async def settle(clients: list[Client]) -> None:
    """Every client at the same seq."""
    async with asyncio.timeout(10):
        while len({c.seq for c in clients}) > 1:
            await asyncio.sleep(0.01)


async def play(
    clients: list[Client],
    moves: int,
    rng: random.Random,
    acked: dict[str, tuple[int, dict[str, Any], int]],
) -> None:
    """``moves`` bot actions, each acknowledged: ref -> (seat, action, seq) into ``acked``."""
    for _ in range(moves):
        await settle(clients)
        mover = mover_of(clients)
        action = bot_action(mover.view, rng)
        assert action is not None
        ref = await mover.act(action)
        outcome = await mover.outcome(ref, timeout=10)
        assert outcome["type"] == "ack", outcome
        acked[ref] = (mover.view["you"], action, outcome["seq"])
        for c in clients:
            await c.wait_seq(outcome["seq"], timeout=10)


async def answered_once(
    clients: list[Client],
    in_flight: tuple[int, dict[str, Any], str],
    first_answer: dict[str, Any] | None,
    acked: dict[str, tuple[int, dict[str, Any], int]],
) -> None:
    """After the room's replica went away: the action in flight (seat, action, ref), sent
    again with its id, is applied once, whether or not the gone replica had applied (and
    acknowledged) it; every acknowledged action is in the room, and sent again each is
    answered with its first ack and not applied twice."""
    seat, action, ref = in_flight
    retried = await clients[seat].outcome(await clients[seat].act(action, ref), timeout=20)
    assert retried["type"] == "ack", retried
    if first_answer is not None:
        assert retried["seq"] == first_answer["seq"]
    acked[ref] = (seat, action, retried["seq"])
    seq_now = clients[0].seq
    for old_ref, (old_seat, old_action, old_seq) in acked.items():
        client = clients[old_seat]
        client.acks.pop(old_ref, None)
        again = await client.outcome(await client.act(old_action, old_ref), timeout=10)
        assert (again["type"], again["seq"]) == ("ack", old_seq), again
    assert clients[0].seq == seq_now


async def test_a_replica_stopped_mid_game_hands_its_rooms_to_the_other(tmp_path: Path) -> None:
    with own_redis(tmp_path / "redis", *DURABLE) as url:
        nodes = [
            AppProcess(
                tmp_path / name,
                "--redis",
                url,
                "--database",
                f"sqlite+aiosqlite:///{tmp_path / name}.db",
            )
            for name in ("a", "b")
        ]
        a, b = nodes
        try:
            await asyncio.gather(a.healthy(timeout=60), b.healthy(timeout=60))
            async with asyncio.timeout(60):  # the game and the restart
                async with httpx.AsyncClient(base_url=a.base, timeout=10) as http:
                    room_id, tokens = await table(http)
                on_a = [await connect(a.base.replace("http", "ws"), room_id, t) for t in tokens]
                rng = random.Random(11)
                acked: dict[str, tuple[int, dict[str, Any], int]] = {}
                await play(on_a, 5, rng, acked)

                # One more action in flight while the replica that writes the room stops.
                await settle(on_a)
                mover = mover_of(on_a)
                seat, action = mover.view["you"], bot_action(mover.view, rng)
                assert action is not None
                ref = await mover.act(action)
                a.terminate()
                for c in on_a:
                    await asyncio.wait_for(c._reader, timeout=20)
                    assert c.ws.close_code == 1012  # service restart: reconnect elsewhere
                assert await a.exited() in (0, -signal.SIGTERM)  # uvicorn re-raises it
                assert "Application shutdown complete." in a.log()  # graceful, not killed
                first_answer = mover.acks.get(ref)

                on_b = [await connect(b.base.replace("http", "ws"), room_id, t) for t in tokens]
                last = max(seq for _, _, seq in acked.values())
                assert all(c.seq > last for c in on_b)  # each snapshot holds every ack
                await answered_once(on_b, (seat, action, ref), first_answer, acked)

                # The game goes on there.
                await play(on_b, 5, rng, acked)
                fresh = await connect(b.base.replace("http", "ws"), room_id, tokens[0])
                await settle([*on_b, fresh])
                assert fresh.view == on_b[0].view
                for c in [*on_b, fresh]:
                    await c.close()
                b.terminate()
                await b.exited()
        finally:
            for node in nodes:
                node.kill()
