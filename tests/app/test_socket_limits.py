"""Socket limits over real sockets, for each store: sockets per seat, spectators per room,
spectators that cost no change of the room, and the rate check before any parsing."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import websockets
from live import SETUP, Server, running_server, seeded_room

import app.ws.endpoint


async def _refused(server: Server, room_id: str, token: str | None = None) -> tuple[Any, int]:
    """The error a refused socket reads, and its close code."""
    url = f"{server.ws_base}/ws/rooms/{room_id}" + (f"?token={token}" if token else "")
    async with websockets.connect(url) as ws:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), 5))
        while message["type"] != "error":  # the server's own pings (round-trip times)
            message = orjson.loads(await asyncio.wait_for(ws.recv(), 5))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code is not None
        return message, ws.close_code


async def test_a_seat_holds_at_most_its_cap_of_sockets(store_kind: str, tmp_path: Any) -> None:
    async with running_server(store_kind, tmp_path, max_sockets_per_seat=2) as server:
        room_id, tokens = await seeded_room(server, 3, {}, SETUP)
        first = await server.connect(room_id, tokens[0])
        second = await server.connect(room_id, tokens[0])
        message, code = await _refused(server, room_id, tokens[0])
        assert (message["type"], message["code"], code) == ("error", "too_many_sockets", 4429)
        # The refused socket changed nothing: two connections, seq as before.
        record = await server.app.state.store.load(room_id)
        assert record.doc["players"][0]["conn"] == 2 and record.seq == 2
        # Another seat is not affected; a closed socket frees its place.
        other = await server.connect(room_id, tokens[1])
        await second.close()
        third = await server.connect(room_id, tokens[0])
        await third.wait_seq(5)
        assert third.view["players"][0]["connected"] is True
        for client in (first, third, other):
            await client.close()


async def test_a_room_holds_at_most_its_cap_of_spectators(store_kind: str, tmp_path: Any) -> None:
    async with running_server(store_kind, tmp_path, max_spectators=2) as server:
        room_id, tokens = await seeded_room(server, 3, {}, SETUP)
        watchers = [await server.connect(room_id) for _ in range(2)]
        message, code = await _refused(server, room_id)
        assert (message["code"], code) == ("too_many_spectators", 4429)
        # Seats are not spectators: they still connect.
        seat = await server.connect(room_id, tokens[0])
        await watchers[0].close()
        again = await server.connect(room_id)
        record = await server.app.state.store.load(room_id)
        assert record.doc["watching"] == 2
        for client in (seat, again, watchers[1]):
            await client.close()


async def test_spectators_connecting_cost_the_room_no_change(
    store_kind: str, tmp_path: Any
) -> None:
    """Thirty spectators come and go: the seats get no patch for any of them, only the
    room's refreshes of the count their views show, at most one per refresh period."""
    period = 0.3
    async with running_server(store_kind, tmp_path, watchers_refresh_seconds=period) as server:
        room_id, tokens = await seeded_room(server, 3, {}, SETUP)
        seat = await server.connect(room_id, tokens[0])
        assert seat.seq == 1
        loop = asyncio.get_running_loop()
        began = loop.time()
        watchers = [await server.connect(room_id) for _ in range(30)]
        await _until(lambda: seat.view["room"]["watchers"] == 30)
        _only_refreshes(seat, loop.time() - began, period)
        for watcher in watchers:
            await watcher.wait_seq(seat.seq)
            assert watcher.view == seat.view | {
                "you": None,
                "hand": [],
                "legal": [],
                "unoExposed": watcher.view["unoExposed"],
            }
        began = loop.time()
        for watcher in watchers[:20]:
            await watcher.close()
        await _until(lambda: seat.view["room"]["watchers"] == 10)
        _only_refreshes(seat, loop.time() - began, period)
        assert seat.events[-1] == {"type": "watchers", "count": 10}
        # The rest still follow the game.
        ref = await seat.act({"type": "play", "cards": ["R1"]})
        seq = (await seat.outcome(ref))["seq"]
        for watcher in watchers[20:]:
            await watcher.wait_seq(seq)
            assert watcher.view["top"] == "R1"
            await watcher.close()
        await seat.close()


async def _until(condition: Any, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def _only_refreshes(seat: Any, elapsed: float, period: float) -> None:
    """The seat's patches since the last check are refreshes of the spectator count, no
    more than one per period."""
    patches = [m for m in seat.messages if m["type"] == "patch"]
    seat.messages.clear()
    assert patches and all(p["events"][0]["type"] == "watchers" for p in patches)
    assert all(len(p["events"]) == 1 for p in patches)
    assert len(patches) <= elapsed / period + 1


async def test_the_rate_check_comes_before_a_message_is_parsed(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed = 0
    parse = app.ws.endpoint.parse

    def counting(raw: str | bytes) -> Any:
        nonlocal parsed
        parsed += 1
        return parse(raw)

    monkeypatch.setattr(app.ws.endpoint, "parse", counting)
    room, _ = await server.table(2)
    client = await server.connect(room["roomId"])
    flood = 200
    big = '{"type": "ping", "pad": "' + "x" * 60_000 + '"}'
    for _ in range(flood):
        await client.send(big)
    # Every frame is answered: an error for its extra field, or rate_limited.
    await _until(lambda: len([m for m in client.messages if m["type"] == "error"]) >= flood)
    limited = [m for m in client.errors.get(None, []) if m["code"] == "rate_limited"]
    # The burst (and what trickled in meanwhile) was parsed; the rest never was.
    assert parsed < server.settings.rate_burst + 60
    assert len(limited) > flood - server.settings.rate_burst - 60
    await client.close()
