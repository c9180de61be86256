"""Heartbeats and round-trip pings, one timer each per node: every socket gets the node's
heartbeat (WebSocket ping frames; closed with 4408 when a pong does not come in time),
and only the seats of rooms with ``fairRaces`` on get the timed pings that measure their
round trips (``ping`` messages and ping frames beside them), following the setting as the
host changes it in the lobby. (That the round trips measured reach the race events:
tests/app/test_fair_races.py.)"""

from __future__ import annotations

import asyncio
import itertools
import weakref
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
import websockets
from live import Server, frames_until_close, raw_socket, running_server

from app.ws.heartbeat import SLICES, Heartbeat
from app.ws.transport import CLOSE_HEARTBEAT, heartbeat_of


@pytest.fixture
async def beating(tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server(
        "memory",
        tmp_path,
        heartbeat_interval_seconds=0.2,
        # Longer than the interval: a socket waiting for its pong is not pinged again.
        heartbeat_timeout_seconds=0.5,
        ping_seconds=0.2,
    ) as live:
        yield live


async def _room(server: Server, fair: bool, seats: int = 2) -> tuple[str, list[str]]:
    room = await server.create(rules={}, seats=seats, fairRaces=fair)
    joined = [await server.join(room["roomId"], f"p{i}") for i in range(seats)]
    return room["roomId"], [j["token"] for j in joined]


async def _messages_for(ws: Any, seconds: float) -> list[dict[str, Any]]:
    """What a socket got in ``seconds`` (its ``ping``s answered, as any client does)."""
    got: list[dict[str, Any]] = []
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(seconds):
            async for raw in ws:
                message = orjson.loads(raw)
                got.append(message)
                if message["type"] == "ping":
                    await ws.send(orjson.dumps({"type": "pong", "n": message["n"]}).decode())
    return got


async def _until(condition: Any) -> None:
    async with asyncio.timeout(5):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("fair", [True, False])
async def test_a_silent_socket_gets_heartbeats_and_is_closed_with_4408_and_pings_only_if_fair(
    beating: Server, fair: bool
) -> None:
    room_id, tokens = await _room(beating, fair)
    answering = await beating.connect(room_id, tokens[1])
    port = int(beating.base.rsplit(":", 1)[1])
    reader, writer = await raw_socket(port, f"/ws/rooms/{room_id}?token={tokens[0]}")
    async with asyncio.timeout(5):
        frames = await frames_until_close(reader)
    writer.close()
    assert 0x9 in [opcode for opcode, _ in frames]  # the heartbeat's ping frames
    assert int.from_bytes(frames[-1][1][:2]) == CLOSE_HEARTBEAT
    kinds = [orjson.loads(data)["type"] for opcode, data in frames if opcode == 0x1]
    assert ("ping" in kinds) is fair
    # The same rounds kept the socket that answers.
    await answering.send({"type": "ping"})
    await answering.expect("pong")
    await answering.close()


async def test_the_node_keeps_its_sockets_on_one_heartbeat_and_a_closed_one_leaves_it(
    beating: Server,
) -> None:
    room_id, tokens = await _room(beating, fair=False, seats=3)
    clients = [await beating.connect(room_id, token) for token in tokens]
    heartbeat = heartbeat_of(beating.uvicorn.config)
    assert heartbeat is not None and len(heartbeat) == 3
    # Answering its ping frames (its WebSocket library does), a socket outlives rounds of
    # the heartbeat and their timeouts.
    await asyncio.sleep(1.2)
    for client in clients:
        await client.send({"type": "ping"})
        await client.expect("pong")
    await clients[0].close()
    await _until(lambda: len(heartbeat) == 2)
    for client in clients[1:]:
        await client.close()
    await _until(lambda: len(heartbeat) == 0)


async def test_a_room_without_fair_races_gets_no_timed_pings(beating: Server) -> None:
    room_id, tokens = await _room(beating, fair=False)
    async with websockets.connect(f"{beating.ws_base}/ws/rooms/{room_id}?token={tokens[0]}") as ws:
        got = await _messages_for(ws, 1.0)
    assert [m["type"] for m in got] == ["snapshot"]
    assert len(beating.app.state.pinger) == 0


async def test_seats_of_a_fair_room_are_pinged_and_spectators_are_not(beating: Server) -> None:
    room_id, tokens = await _room(beating, fair=True)
    url = f"{beating.ws_base}/ws/rooms/{room_id}"
    async with (
        websockets.connect(f"{url}?token={tokens[0]}") as seat,
        websockets.connect(url) as spectator,
    ):
        seat_got, spectator_got = await asyncio.gather(
            _messages_for(seat, 1.0), _messages_for(spectator, 1.0)
        )
        assert len(beating.app.state.pinger) == 1  # the seat's socket only
    # Four in the first second of the socket.
    assert sum(m["type"] == "ping" for m in seat_got) >= 4
    assert "ping" not in [m["type"] for m in spectator_got]
    await _until(lambda: len(beating.app.state.pinger) == 0)


@pytest.mark.parametrize("store_kind", ["memory", "redis"])
async def test_the_seats_follow_fair_races_as_the_host_turns_it_off_and_on(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, ping_seconds=0.2) as server:
        room = await server.create(rules={}, seats=2, fairRaces=False)
        room_id, host = room["roomId"], {"Authorization": f"Bearer {room['hostToken']}"}
        tokens = [(await server.join(room_id, f"p{i}"))["token"] for i in range(2)]
        clients = [await server.connect(room_id, token) for token in tokens]
        pinger = server.app.state.pinger
        assert len(pinger) == 0
        for fair, measured in ((True, 2), (False, 0), (True, 2)):
            seq = clients[0].seq
            r = await server.http.patch(
                f"/api/rooms/{room_id}", json={"fairRaces": fair}, headers=host
            )
            assert r.status_code == 200, r.text
            # Once its socket delivered the change, every seat follows it.
            for client in clients:
                await client.wait_seq(seq + 1)
            assert len(pinger) == measured
        for client in clients:
            await client.close()
        await _until(lambda: len(pinger) == 0)


class _Clocked:
    """A measured socket that notes the loop time of each ping it is asked to send."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pinged: list[float] = []

    def ping(self) -> None:
        self.pinged.append(self.loop.time())


async def test_steady_pings_are_spread_over_the_interval_a_slice_per_tick() -> None:
    """A node's thousand sockets must not all queue a ping in one loop turn (their frames
    would hold up the rooms' changes): each tick pings a slice of the steady sockets, and
    each socket is still pinged once per interval."""
    from app.pinger import FIRST_PINGS, SLICES, Pinger

    loop = asyncio.get_running_loop()
    interval = 0.5
    pinger = Pinger(interval)
    sockets = [_Clocked(loop) for _ in range(40)]
    for socket in sockets:
        pinger.add(socket)
    await asyncio.sleep(FIRST_PINGS * 0.25 + 2 * interval)
    for socket in sockets:
        pinger.discard(socket)
    steady = [t for socket in sockets for t in socket.pinged[FIRST_PINGS:]]
    # Grouped by the loop turn (tick) that sent them: never more than a slice at once.
    per_tick: dict[float, int] = {}
    for at in steady:
        per_tick[at] = per_tick.get(at, 0) + 1
    assert steady and max(per_tick.values()) <= -(-len(sockets) // SLICES)
    for socket in sockets:
        gaps = [b - a for a, b in itertools.pairwise(socket.pinged[FIRST_PINGS:])]
        assert all(gap >= interval * 0.8 for gap in gaps), gaps


class _Socket:
    """A socket as the heartbeat sees it: one that answers each ping at once, or never."""

    def __init__(self, loop: asyncio.AbstractEventLoop, answers: bool) -> None:
        self.loop, self.answers = loop, answers
        self.pinged: list[float] = []
        self.since: float | None = None
        self.closed = False

    def waiting_since(self) -> float | None:
        return self.since

    def beat(self) -> None:
        self.pinged.append(self.loop.time())
        self.since = None if self.answers else self.loop.time()

    def keepalive_timeout(self) -> None:
        self.closed = True


async def test_the_heartbeat_pings_a_slice_of_the_sockets_at_a_time_and_closes_the_silent() -> None:
    loop = asyncio.get_running_loop()
    heartbeat = Heartbeat(loop, interval=0.5, timeout=0.3)
    sockets = [_Socket(loop, answers=i != 7) for i in range(100)]
    for socket in sockets:
        heartbeat.add(socket)
    await asyncio.sleep(1.3)
    # The ticks are 50 ms apart; the pings of one tick go out together.
    times = sorted(t for socket in sockets for t in socket.pinged)
    per_tick: list[int] = [1]
    for a, b in itertools.pairwise(times):
        if b - a > 0.02:
            per_tick.append(1)
        else:
            per_tick[-1] += 1
    assert len(per_tick) >= SLICES and max(per_tick) <= 100 // SLICES
    # Each answering socket is pinged once per interval; the silent one once, then closed.
    assert all(len(s.pinged) >= 2 for i, s in enumerate(sockets) if i != 7)
    assert [i for i, s in enumerate(sockets) if s.closed] == [7]
    assert len(sockets[7].pinged) == 1
    for socket in sockets:
        heartbeat.discard(socket)
    assert len(heartbeat) == 0 and heartbeat._timer is None


async def test_a_socket_closed_while_its_ping_waits_is_let_go_at_once() -> None:
    loop = asyncio.get_running_loop()
    heartbeat = Heartbeat(loop, interval=0.1, timeout=30)
    silent, other = _Socket(loop, answers=False), _Socket(loop, answers=True)
    heartbeat.add(silent)
    heartbeat.add(other)
    async with asyncio.timeout(5):
        while not silent.pinged:
            await asyncio.sleep(0.01)
    gone = weakref.ref(silent)
    heartbeat.discard(silent)
    del silent
    assert gone() is None  # not held until its ping would run out, 30 s on
    heartbeat.discard(other)
