"""Quick play against a live server, on each store: tickets, the queue socket, tables of
4 by rating, bots after the fill time, leaving the queue, and a table that a node claimed
and did not finish (killed between the claim and the room) finished by the next holder
of the lease, each ticket seated once."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import websockets
from live import Server, running_server

from app.quickplay.queue import Queue
from app.quickplay.tickets import ticket_id


async def _ticket(server: Server, name: str, pool: str = "classic") -> str:
    r = await server.http.post("/api/quickplay", json={"pool": pool, "name": name})
    assert r.status_code == 202, r.text
    return str(r.json()["ticket"])


async def _socket(server: Server, ticket: str) -> Any:
    return await websockets.connect(
        f"{server.ws_base}/ws/quickplay?ticket={ticket}", subprotocols=["uno.v1"]
    )


async def _matched(ws: Any, timeout: float = 20) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``matched`` message and the ``queued`` ones before it."""
    queued = []
    async with asyncio.timeout(timeout):
        while True:
            message = orjson.loads(await ws.recv())
            if message["type"] == "matched":
                return message, queued
            assert message["type"] == "queued"
            queued.append(message)


async def test_four_waiting_players_get_one_rated_quick_play_table(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, quickplay_fill_seconds=60) as server:
        tickets = [await _ticket(server, f"p{i}") for i in range(4)]
        sockets = [await _socket(server, t) for t in tickets]
        results = await asyncio.gather(*(_matched(ws) for ws in sockets))
        matched = [m for m, _ in results]
        assert len({m["roomId"] for m in matched}) == 1
        assert sorted(m["seat"] for m in matched) == [0, 1, 2, 3]
        first_queued = results[0][1][0]
        assert first_queued["searching"] is True and first_queued["waitedSeconds"] >= 0
        room = (await server.http.get(f"/api/rooms/{matched[0]['roomId']}")).json()
        assert room["status"] == "playing" and room["rated"] is True
        assert room["turnSeconds"] == 20 and room["rules"]["matchMode"] == "oneAndDone"
        assert room["private"] is True and [p["bot"] for p in room["players"]] == [None] * 4
        # The seat token works on the room's socket.
        client = await server.connect(matched[0]["roomId"], matched[0]["token"])
        assert client.view["you"] == matched[0]["seat"]
        await client.close()
        for ws in sockets:
            await ws.close()


async def test_one_matching_round_seats_a_full_table(store_kind: str, tmp_path: Any) -> None:
    async with running_server(store_kind, tmp_path, quickplay_fill_seconds=60) as server:
        matcher = server.app.state.matcher
        await matcher.close()
        tickets = [await _ticket(server, f"r{i}") for i in range(5)]
        sockets = [await _socket(server, t) for t in tickets]
        for ws in sockets:  # each socket has said it is open
            assert orjson.loads(await ws.recv())["type"] == "queued"
        async with asyncio.timeout(10):  # the closed matcher's lease lapses
            while (seated := await matcher.round(server.app.state.rooms.now_ms())) == 0:
                await asyncio.sleep(0.2)
        assert seated == 1
        queue: Queue = server.app.state.quickplay_queue
        states = [(await queue.get(ticket_id(t)) or {}).get("state") for t in tickets]
        assert states == ["matched"] * 4 + ["queued"]  # the oldest four
        assert await queue.tables() == []
        for ws in sockets:
            await ws.close()


async def test_after_the_fill_time_bots_take_the_free_seats(store_kind: str, tmp_path: Any) -> None:
    async with running_server(store_kind, tmp_path, quickplay_fill_seconds=0.5) as server:
        ws = await _socket(server, await _ticket(server, "alone"))
        matched, _ = await _matched(ws)
        room = (await server.http.get(f"/api/rooms/{matched['roomId']}")).json()
        assert [p["bot"] for p in room["players"]] == [None, "normal", "normal", "normal"]
        assert room["players"][matched["seat"]]["name"] == "alone"
        await ws.close()


async def test_leaving_the_queue_and_the_refusals(server: Server) -> None:
    r = await server.http.post("/api/quickplay", json={"pool": "chess", "name": "x"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    ticket = await _ticket(server, "leaver")
    assert (await server.http.delete(f"/api/quickplay/{ticket}")).status_code == 204
    again = await server.http.delete(f"/api/quickplay/{ticket}")
    assert again.status_code == 404 and again.json()["code"] == "quickplay/no_ticket"
    ws = await _socket(server, ticket)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004


async def test_an_account_waits_once_and_sits_with_its_rating(server: Server) -> None:
    r = await server.http.post("/api/accounts", json={"name": "Quick", "password": "correct horse"})
    auth = {"Authorization": f"Bearer {r.json()['token']}"}
    first = await server.http.post("/api/quickplay", json={"pool": "duo"}, headers=auth)
    assert first.status_code == 202
    second = await server.http.post("/api/quickplay", json={"pool": "duo"}, headers=auth)
    assert second.status_code == 409 and second.json()["code"] == "quickplay/already_queued"
    ws = await _socket(server, first.json()["ticket"])
    other = await _socket(server, await _ticket(server, "guest", pool="duo"))
    (mine, _), (theirs, _) = await asyncio.gather(_matched(ws), _matched(other))
    assert mine["roomId"] == theirs["roomId"]
    room = (await server.http.get(f"/api/rooms/{mine['roomId']}")).json()
    seat = room["players"][mine["seat"]]
    assert seat["name"] == "Quick" and seat["rating"]["value"] == 1500
    assert room["rules"]["preset"] == "duo"
    await ws.close()
    await other.close()


async def test_a_table_claimed_by_a_node_that_died_is_finished_once_by_the_next(
    store_kind: str, tmp_path: Any
) -> None:
    """The state a node killed between claiming a table and making its room leaves: the
    live node takes the lease once it lapses and seats exactly the claimed tickets."""
    async with running_server(store_kind, tmp_path, quickplay_fill_seconds=60) as server:
        queue: Queue = server.app.state.quickplay_queue
        matcher = server.app.state.matcher
        await matcher.close()  # this node stands still while the "dead" node claims
        tickets = [await _ticket(server, f"d{i}") for i in range(4)]
        sockets = [await _socket(server, t) for t in tickets]
        docs = [await queue.get(ticket_id(t)) for t in tickets]
        async with asyncio.timeout(10):  # this node's lease lapses first
            while not await queue.lease("dead-node", 1000):
                await asyncio.sleep(0.1)
        table, claimed = matcher._table("classic", docs, 0, server.app.state.rooms.now_ms())
        table["node"] = "dead-node"
        assert await queue.claim("dead-node", table, claimed)
        # A second claim of the same tickets (a table formed twice) is refused.
        again, twice = matcher._table("classic", docs, 0, 0)
        assert not await queue.claim("dead-node", again, twice)
        matcher.start()
        results = await asyncio.gather(*(_matched(ws) for ws in sockets))
        rooms = {m["roomId"] for m, _ in results}
        assert rooms == {table["tableId"]}
        assert sorted(m["seat"] for m, _ in results) == [0, 1, 2, 3]
        room = (await server.http.get(f"/api/rooms/{table['tableId']}")).json()
        assert room["status"] == "playing" and [p["name"] for p in room["players"]] == [
            f"d{i}" for i in range(4)
        ]
        assert await queue.tables() == []
        for ws in sockets:
            await ws.close()
