"""Claim windows (``fairRaces``) on real sockets: claims on one position are held for a
window as long as the claimants' round-trip gap needs and ranked by estimated reaction
time (arrival less the connection's measured round trip, capped, its own pong messages
believed only up to its WebSocket ping frames' round trip), the winner's change carries
the race event, the loser is told ``too_late`` with what won and its own place; invalid
claims lock their claimant out; the host sees each seat's counts. Distant clients are
behind a reliability.netdelay link (every byte delayed, ping frames too)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import orjson
import pytest
import websockets
from live import Client, Server, running_server, seeded_room
from race_kinds import KINDS

from app.rooms import tokens
from app.rooms.races import credited_delay
from reliability.netdelay import DelayedLink

CAP_MS, SLACK_MS = 250, 15
JUMPS = KINDS[1]  # two identical jump-ins (seats 1 and 3)
CALL_CATCH = KINDS[3]  # seat 0 calls UNO, seat 1 catches


@pytest.fixture
async def fair_server(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    # A wide margin: a loaded machine delays every claim's way in, not only the far one's.
    async with running_server(
        store_kind, tmp_path, ping_seconds=0.5, race_window_ms=400, race_window_margin_ms=100
    ) as live:
        yield live


async def _room(
    server: Server,
    kind: Any,
    pong_delays: dict[int, float] | None = None,
    links: dict[int, DelayedLink] | None = None,
    **room: Any,
) -> tuple[str, str, dict[int, Client]]:
    """The race's room, its host token and a client per seat (``links``: seats that are
    connected through a delayed link)."""
    host = tokens.new_token()
    room_id, seat_tokens = await seeded_room(
        server, kind.players, kind.rules, kind.setup, host=tokens.hash_token(host), **room
    )
    delays, via = pong_delays or {}, links or {}
    clients = {
        s: await server.connect(
            room_id, t, delays.get(s, 0.0), via=via[s].port if s in via else None
        )
        for s, t in enumerate(seat_tokens)
    }
    for index, action in kind.prelude:
        ref = await clients[index].act(action)
        assert (await clients[index].outcome(ref))["type"] == "ack"
    return room_id, host, clients


async def _link(server: Server, rtt: float, extra_pong_s: float = 0.0) -> DelayedLink:
    port = server.uvicorn.servers[0].sockets[0].getsockname()[1]
    return await DelayedLink.start(("127.0.0.1", port), rtt, extra_pong_s)


async def _settle(clients: dict[int, Client], seconds: float = 0.6) -> int:
    """Let the server measure every connection; returns the position (moves) they see."""
    await asyncio.sleep(seconds)
    last = max(c.seq for c in clients.values())
    for client in clients.values():
        await client.wait_seq(last)
    moves: int = clients[0].view["moves"]
    return moves


async def _close(clients: dict[int, Client]) -> None:
    for client in clients.values():
        await client.close()


def _race_event(client: Client) -> dict[str, Any]:
    races = [e for e in client.events if e["type"] == "race"]
    assert len(races) == 1, client.events
    return races[0]


async def test_the_compensated_claim_wins_though_it_arrived_later(fair_server: Server) -> None:
    """Seat 3 is 200 ms away (every byte delayed) and claims 20 ms after seat 1 (its claim
    arrives some 120 ms later): the window waits for it, its estimated reaction is the
    faster, so it wins; arrival order would give seat 1."""
    far = await _link(fair_server, 0.2)
    room_id, _, clients = await _room(fair_server, JUMPS, links={3: far})
    moves = await _settle(clients, 1.0)
    claim = {"type": "play", "cards": ["R5"], "at": moves}
    first = await clients[1].act(claim)
    await asyncio.sleep(0.02)
    second = await clients[3].act(claim)
    won, lost = await clients[3].outcome(second), await clients[1].outcome(first)
    assert won["type"] == "ack", (won, lost)
    assert lost["code"] == "too_late"
    assert lost["won"] == {"seq": won["seq"], "type": "play", "seat": 3}
    assert lost["race"]["rank"] == 2 and lost["race"]["seat"] == 1
    # Longer than the round-trip gap: a window fixed at 150 ms would have missed it.
    assert lost["race"]["window"] >= 150
    await clients[0].wait_seq(won["seq"])
    event = _race_event(clients[0])
    assert event["winner"] == 3 and event["at"] == moves
    winner, loser = event["claims"]
    assert winner["seat"] == 3 and winner["rank"] == 1 and winner["delay"] >= 190
    # Both of its round trips saw the distance (a link delays ping frames too).
    assert winner["rtt"]["app"] >= 190 and winner["rtt"]["ws"] >= 190
    # A losing play is shown to the others without seat or type (what it holds is hidden).
    assert "seat" not in loser and loser["rank"] == 2
    assert winner["reaction"] <= loser["reaction"]
    assert clients[0].view["players"][3]["cards"] == 1
    await _close(clients)
    await far.close()


async def test_with_fair_races_off_arrival_decides(fair_server: Server) -> None:
    room_id, _, clients = await _room(fair_server, JUMPS, {3: 0.1}, fairRaces=False)
    moves = await _settle(clients)
    claim = {"type": "play", "cards": ["R5"], "at": moves}
    first = await clients[1].act(claim)
    await asyncio.sleep(0.04)
    second = await clients[3].act(claim)
    assert (await clients[1].outcome(first))["type"] == "ack"
    lost = await clients[3].outcome(second)
    assert lost["code"] == "too_late" and "race" not in lost
    assert not [e for e in clients[0].events if e["type"] == "race"]
    await _close(clients)


async def _call_and_catch(clients: dict[int, Client], moves: int) -> dict[str, Any]:
    """Seat 0 calls UNO and seat 1 catches it at once: the race event."""
    refs = await asyncio.gather(
        clients[0].act({"type": "callUno", "at": moves}),
        clients[1].act({"type": "catchUno", "target": 0, "at": moves}),
    )
    outcomes = [await clients[i].outcome(r) for i, r in zip((0, 1), refs, strict=True)]
    assert sorted(o["type"] for o in outcomes) == ["ack", "error"]
    await clients[2].wait_seq(max(c.seq for c in clients.values()))
    return _race_event(clients[2])


async def test_slow_pong_messages_are_believed_only_up_to_the_ping_frames(
    fair_server: Server,
) -> None:
    """Seat 1 answers the server's ping messages 400 ms late, but its WebSocket stack
    answers ping frames at once: it is credited that round trip (plus the slack), not
    the one it faked."""
    room_id, _, clients = await _room(fair_server, CALL_CATCH, {1: 0.4})
    moves = await _settle(clients, 1.0)
    event = await _call_and_catch(clients, moves)
    faker = next(c for c in event["claims"] if c["seat"] == 1)
    rtt = faker["rtt"]
    assert rtt["app"] >= 400 and rtt["ws"] is not None
    # (The event's round trips are rounded to whole ms: the credit agrees within 1 ms.)
    expected = credited_delay(rtt["app"], rtt["tcp"], CAP_MS, rtt["ws"], SLACK_MS)
    assert abs(faker["delay"] - expected) <= 1
    assert faker["delay"] <= max(rtt["ws"] + SLACK_MS, rtt["tcp"] or 0) + 1 < rtt["app"]
    await _close(clients)


async def test_a_client_stretching_its_ping_frames_too_is_credited_no_more_than_the_cap(
    fair_server: Server,
) -> None:
    """Seat 1 answers ping messages and ping frames 400 ms late (a client of its own
    making can): indistinguishable from a distant seat, it is credited the 250 ms cap, no
    more; and so a claim of seat 1 up to 250 ms slower than seat 0's still wins."""
    stretched = await _link(fair_server, 0.0, extra_pong_s=0.4)
    room_id, _, clients = await _room(fair_server, CALL_CATCH, {1: 0.4}, links={1: stretched})
    moves = await _settle(clients, 1.0)
    event = await _call_and_catch(clients, moves)
    delays = {c["seat"]: c["delay"] for c in event["claims"]}
    assert delays[1] == CAP_MS and delays[0] < delays[1]
    assert event["winner"] == 1
    await _close(clients)
    await stretched.close()


async def test_an_invalid_claim_locks_its_claimant_out_and_the_host_sees_counts(
    fair_server: Server,
) -> None:
    room_id, host, clients = await _room(fair_server, replace(CALL_CATCH, prelude=[]))
    # Seat 2 catches seat 0, who still holds two cards: nothing to catch.
    ref = await clients[2].act({"type": "catchUno", "target": 0})
    assert (await clients[2].outcome(ref))["code"] == "nothing_to_catch"
    ref = await clients[0].act({"type": "play", "cards": ["R1"]})  # exposed now
    assert (await clients[0].outcome(ref))["type"] == "ack"
    ref = await clients[2].act({"type": "catchUno", "target": 0})
    assert (await clients[2].outcome(ref))["code"] == "locked_out"
    ref = await clients[1].act({"type": "catchUno", "target": 0})
    assert (await clients[1].outcome(ref))["type"] == "ack"
    r = await fair_server.http.get(
        f"/api/rooms/{room_id}/races", headers={"Authorization": f"Bearer {host}"}
    )
    assert r.status_code == 200, r.text
    seats = {s["seat"]: s for s in r.json()["seats"]}
    assert seats[2]["invalid"] == 1 and seats[2]["claims"] == 0
    # A loopback bot claims within milliseconds: faster than any person (unless the
    # machine stalled it); the count follows the race event's mark.
    assert seats[1]["claims"] == 1 and seats[1]["wins"] == 1
    await clients[1].wait_seq(max(c.seq for c in clients.values()))
    marked = [c["superhuman"] for c in _race_event(clients[1])["claims"] if c.get("seat") == 1]
    assert seats[1]["superhuman"] == int(marked[0])
    r = await fair_server.http.get(f"/api/rooms/{room_id}/races")
    assert r.status_code == 401
    r = await fair_server.http.get(
        f"/api/rooms/{room_id}/races", headers={"Authorization": f"Bearer {tokens.new_token()}"}
    )
    assert r.status_code == 403
    await asyncio.sleep(1.05)  # the lockout is over: seat 2 is judged again
    ref = await clients[2].act({"type": "catchUno", "target": 0})
    assert (await clients[2].outcome(ref))["code"] == "too_late"
    await _close(clients)


@pytest.mark.parametrize(
    ("react", "code"),
    [(-1, "bad_react"), (60_001, "bad_react"), ("5", "bad_react"), (1.5, "bad_react")],
)
async def test_a_reaction_report_out_of_range_is_refused_and_changes_nothing(
    fair_server: Server, react: object, code: str
) -> None:
    room_id, _, clients = await _room(fair_server, JUMPS)
    moves = await _settle(clients, 0.05)
    seq = clients[1].seq
    action = {"type": "play", "cards": ["R5"], "at": moves}
    await clients[1].send({"type": "action", "id": "r1", "action": action, "react": react})
    answer = await clients[1].outcome("r1")
    assert answer["code"] == code, answer
    await asyncio.sleep(0.05)
    assert clients[1].seq == seq
    # A report in range is taken (and believed only near the server's own estimate).
    await clients[1].send({"type": "action", "id": "r2", "action": action, "react": 5})
    assert (await clients[1].outcome("r2"))["type"] == "ack"
    await _close(clients)


async def test_a_pong_of_the_wrong_shape_is_refused(fair_server: Server) -> None:
    room_id, _, clients = await _room(fair_server, JUMPS)
    await clients[0].send({"type": "pong", "n": "x"})
    error = await clients[0].expect("error")
    assert error["code"] == "bad_message"
    await clients[0].send({"type": "pong", "n": 999_999})  # no such ping: ignored
    await clients[0].send({"type": "ping"})
    assert (await clients[0].expect("pong"))["ts"] > 0
    await _close(clients)


async def test_the_server_pings_and_a_silent_client_keeps_playing(fair_server: Server) -> None:
    """A client that never answers ping messages (its WebSocket stack still answers ping
    frames) still plays."""
    room_id, tokens_ = await seeded_room(fair_server, JUMPS.players, JUMPS.rules, JUMPS.setup)
    url = f"{fair_server.ws_base}/ws/rooms/{room_id}?token={tokens_[1]}"
    async with websockets.connect(url, compression=None) as ws:
        kinds = set()
        async with asyncio.timeout(5):
            while "ping" not in kinds:
                kinds.add(orjson.loads(await ws.recv())["type"])
        await ws.send('{"type":"action","id":"s1","action":{"type":"play","cards":["R5"]}}')
        async with asyncio.timeout(5):
            while True:
                message = orjson.loads(await ws.recv())
                if message["type"] == "ack":
                    break
                assert message["type"] != "error", message
