"""Quick play as a careless user and an attacker use it: equal names and nameless guests
never wedge the queue, a table that cannot be made blocks no other, one account holds one
ticket whatever arrives at once on two nodes, only tickets whose socket is open are
seated, tickets count toward an address's cap of open rooms, the store holds no raw
ticket or seat token, and the log shows the ticket masked."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis
from live import REDIS_URL, Server, running_server
from test_quickplay import _matched, _socket, _ticket

from app.logs import redact
from app.quickplay.queue import Queue
from app.quickplay.tables import LAST_SEAT_MS, form, outlook
from app.quickplay.tickets import seat_token, ticket_id


def _t(
    n: int, name: str, at: int = 0, pid: str | None = None, pool: str = "classic"
) -> dict[str, Any]:
    return {
        "ticket": f"t{n}",
        "pool": pool,
        "pid": pid or f"p{n}",
        "name": name,
        "value": 1500,
        "at": at,
        "state": "queued",
    }


def test_form_never_seats_two_equal_names_or_one_account_at_one_table() -> None:
    tickets = [_t(0, "Sam"), _t(1, "sam"), _t(2, "SAM "), _t(3, "Ann", pid="p0"), _t(4, "Bo")]
    tickets += [_t(5, "Cy"), _t(6, "Di")]
    [table] = form(tickets, 1000, 60_000)
    names = [t["name"] for t in table.tickets]
    assert names == ["Sam", "Bo", "Cy", "Di"] and table.bots == 0
    duo = [_t(0, "Guest", pool="duo"), _t(1, "Guest", pool="duo")]
    assert form(duo, 1000, 60_000) == []


def test_three_people_wait_five_seconds_for_a_fourth_then_a_bot_sits() -> None:
    tickets = [_t(0, "a", at=0), _t(1, "b", at=1000), _t(2, "c", at=2000)]
    assert form(tickets, 2000 + LAST_SEAT_MS - 1, 60_000) == []
    [table] = form(tickets, 2000 + LAST_SEAT_MS, 60_000)
    assert len(table.tickets) == 3 and table.bots == 1
    assert outlook(tickets, tickets[0], 2000, 60_000) == (3, LAST_SEAT_MS)
    alone = [_t(0, "a", at=0)]
    assert outlook(alone, alone[0], 4000, 20_000) == (1, 16_000)


def test_the_ticket_is_masked_in_log_lines() -> None:
    line = '"WebSocket /ws/quickplay?ticket=Zm9vYmFy-_x" [accepted]'
    assert redact(line) == '"WebSocket /ws/quickplay?ticket=***" [accepted]'


async def _wait_queued(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = orjson.loads(await ws.recv())
    assert message["type"] == "queued"
    return message


async def _round(server: Server) -> int:
    """One matching round of the server's matcher (stopped, its lease taken over)."""
    seated: int = await server.app.state.matcher.round(server.app.state.rooms.now_ms())
    return seated


async def _stopped_matcher(server: Server) -> Any:
    matcher = server.app.state.matcher
    await matcher.close()
    async with asyncio.timeout(10):
        while not await server.app.state.quickplay_queue.lease(matcher.node, 5000):
            await asyncio.sleep(0.1)
    return matcher


async def test_a_table_that_cannot_be_made_gives_its_tickets_back_and_blocks_no_other(
    store_kind: str, tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_server(store_kind, tmp_path, quickplay_fill_seconds=60) as server:
        queue: Queue = server.app.state.quickplay_queue
        matcher = await _stopped_matcher(server)
        names = ["Sam", "Sam", "a", "b", "c", "d"]
        tickets = [await _ticket(server, name) for name in names]
        sockets = [await _socket(server, t) for t in tickets]
        for ws in sockets:
            await _wait_queued(ws)
        # The table the old form() made: two equal names, which the room refuses to seat.
        docs = [await queue.get(ticket_id(t)) for t in tickets[:2]]
        bad, claimed = matcher._table("classic", docs, 2, server.app.state.rooms.now_ms())
        assert await queue.claim(matcher.node, bad, claimed)
        assert await _round(server) == 1  # a table of four, despite the bad one
        states = [(await queue.get(ticket_id(t)) or {})["state"] for t in tickets]
        seated = [name for name, state in zip(names, states, strict=True) if state == "matched"]
        assert len(seated) == 4 and seated.count("Sam") == 1  # back in the queue, then seated
        assert await queue.tables() == []
        assert await server.app.state.rooms.store.load(bad["tableId"]) is None
        # A failure again (one ticket seated twice): given back again, not logged again.
        waiting = [t for t in await queue.tickets() if t["state"] == "queued"]
        again, claimed = matcher._table("classic", [waiting[0]] * 2, 2, 0)
        assert await queue.claim(matcher.node, again, claimed)
        assert await _round(server) == 0
        assert await queue.tables() == []
        assert (await queue.get(waiting[0]["ticket"]) or {})["state"] == "queued"
        failures = [r for r in caplog.records if "could not be made" in r.getMessage()]
        assert len(failures) == 1
        for ws in sockets:
            await ws.close()


async def test_nameless_guests_get_names_of_their_own_and_sit_together(server: Server) -> None:
    sockets = []
    for _ in range(2):
        r = await server.http.post("/api/quickplay", json={"pool": "duo"})
        assert r.status_code == 202, r.text
        sockets.append(await _socket(server, r.json()["ticket"]))
    (first, _), (second, _) = await asyncio.gather(*(_matched(ws) for ws in sockets))
    assert first["roomId"] == second["roomId"]
    names = {first["name"], second["name"]}
    assert len(names) == 2 and all(n.startswith("Guest ") and n[6:].isdigit() for n in names)
    room = (await server.http.get(f"/api/rooms/{first['roomId']}")).json()
    assert {p["name"] for p in room["players"]} == names


async def test_a_ticket_without_an_open_socket_is_not_seated(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, quickplay_fill_seconds=60) as server:
        queue: Queue = server.app.state.quickplay_queue
        await _stopped_matcher(server)
        held = await _ticket(server, "held", pool="duo")
        ws = await _socket(server, held)
        assert (await _wait_queued(ws))["waiting"] == 1
        posted = await _ticket(server, "posted", pool="duo")
        closed = await _socket(server, await _ticket(server, "closed", pool="duo"))
        await _wait_queued(closed)
        await closed.close()
        await asyncio.sleep(0.3)  # the server sees the close
        assert await _round(server) == 0
        assert (await queue.get(ticket_id(held)) or {})["state"] == "queued"
        late = await _socket(server, posted)
        message = await _wait_queued(late)
        assert message["waiting"] == 2 and message["fillSeconds"] == 0
        assert await _round(server) == 1
        (mine, _), (theirs, _) = await asyncio.gather(_matched(ws), _matched(late))
        assert mine["roomId"] == theirs["roomId"]


async def test_waiting_tickets_count_toward_the_address_cap_of_open_rooms(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, max_open_lobbies_per_address=3) as server:
        await server.create(seats=2)
        tickets = [await _ticket(server, f"c{i}") for i in range(2)]
        r = await server.http.post("/api/quickplay", json={"name": "c2"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"
        r = await server.http.post("/api/rooms", json={"name": "t", "seats": 2})
        assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"
        assert (await server.http.delete(f"/api/quickplay/{tickets[0]}")).status_code == 204
        await _ticket(server, "c3")


@pytest.mark.redis
async def test_one_account_queued_30_times_at_once_on_two_nodes_holds_one_ticket(
    tmp_path: Any,
) -> None:
    prefix, db = f"t{secrets.token_hex(4)}", f"sqlite+aiosqlite:///{tmp_path}/shared.db"
    async with (
        running_server("redis", tmp_path, prefix=prefix, database_url=db) as a,
        running_server("redis", tmp_path, prefix=prefix, database_url=db) as b,
    ):
        r = await a.http.post("/api/accounts", json={"name": "Eager", "password": "correct horse"})
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        answers = await asyncio.gather(
            *(
                node.http.post("/api/quickplay", json={"pool": "classic"}, headers=auth)
                for node in [a, b] * 15
            )
        )
        codes = sorted(r.status_code for r in answers)
        assert codes == [202] + [409] * 29
        assert {r.json()["code"] for r in answers if r.status_code == 409} == {
            "quickplay/already_queued"
        }
        assert len(await a.app.state.quickplay_queue.tickets()) == 1


async def _values(client: Any, prefix: str) -> bytes:
    """Every value stored under ``prefix``, end to end."""
    out = []
    async for key in client.scan_iter(match=f"{prefix}:*", count=500):
        kind = (await client.type(key)).decode()
        if kind == "string":
            out.append(await client.get(key))
        elif kind == "hash":
            found = await client.hgetall(key)
            out += [*found, *found.values()]
        elif kind == "list":
            out += await client.lrange(key, 0, -1)
        elif kind in ("set", "zset"):
            out += await client.smembers(key) if kind == "set" else await client.zrange(key, 0, -1)
        elif kind == "stream":
            out += [
                orjson.dumps({k.decode(): v.decode() for k, v in e[1].items()})
                for e in await client.xrange(key)
            ]
        out.append(key)
    return b"\n".join(out)


@pytest.mark.redis
async def test_the_store_keeps_no_raw_ticket_nor_seat_token(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        async with running_server("redis", tmp_path, prefix=prefix) as server:
            tickets = [await _ticket(server, name, pool="duo") for name in ("x", "y")]
            sockets = [await _socket(server, t) for t in tickets]
            matched = await asyncio.gather(*(_matched(ws) for ws in sockets))
            assert [m["token"] for m, _ in matched] == [seat_token(t) for t in tickets]
            stored = await _values(client, prefix)
            assert ticket_id(tickets[0]).encode() in stored  # the hash is what is kept
            for secret in [*tickets, *(m["token"] for m, _ in matched)]:
                assert secret.encode() not in stored
    finally:
        await client.aclose()
