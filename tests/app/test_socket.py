"""The WebSocket protocol on real sockets, for each room store."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import websockets
from live import SETUP, Server, seeded_room


async def test_snapshot_on_connect_includes_the_connection(server: Server) -> None:
    room, seats = await server.table(2)
    # join, join, start: seq 3; this seat's connection is change 4.
    client = await server.connect(room["roomId"], seats[0]["token"])
    assert client.seq == 4
    assert client.view["seq"] == 4
    assert client.view["you"] == 0
    assert client.view["players"][0]["connected"] is True
    assert client.view["players"][1]["connected"] is False
    # Seven dealt (plus two if the first card turned up was a Draw Two for this seat).
    assert len(client.view["hand"]) == client.view["players"][0]["cards"] >= 7
    await client.close()


async def test_seq_is_gapless_and_patches_rebuild_the_view(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    clients = [await server.connect(room_id, t) for t in tokens]
    watcher = await server.connect(room_id)
    # Each seat's connection is a change; a spectator's is not (it is counted with the
    # next change).
    assert [c.messages[0]["seq"] for c in [*clients, watcher]] == [1, 2, 3, 3]
    assert watcher.view["room"]["watchers"] == 0
    ref = await clients[0].act({"type": "play", "cards": ["R1"]})
    assert (await clients[0].outcome(ref))["seq"] == 4
    await watcher.wait_seq(4)
    assert watcher.view["room"]["watchers"] == clients[0].view["room"]["watchers"] == 1
    ref = await clients[1].act({"type": "draw"})
    assert (await clients[1].outcome(ref))["seq"] == 5
    for client in [*clients, watcher]:
        await client.wait_seq(5)
    # Every client's patched view equals a fresh snapshot of the same seat.
    for seat, client in enumerate(clients):
        fresh = await server.connect(room_id, tokens[seat])
        await client.wait_seq(fresh.seq)
        assert fresh.view == client.view | {"players": fresh.view["players"], "seq": fresh.seq}
        await fresh.close()
    assert watcher.view["hand"] == []
    assert watcher.view["you"] is None
    # A seat sees the card it drew; the others only that a card was drawn.
    drew = [e for e in clients[1].events if e["type"] == "draw"]
    seen = [e for e in clients[0].events if e["type"] == "draw"]
    assert drew and "Y1" in str(drew)
    assert seen and "Y1" not in str(seen) and "Y1" not in str(watcher.events)
    for client in [*clients, watcher]:
        await client.close()


async def test_a_retried_action_id_is_applied_once_with_the_same_ack(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    client = await server.connect(room_id, tokens[0])
    await client.act({"type": "play", "cards": ["R1"]}, ref="same")
    first = await client.expect("ack", ref="same")
    await client.act({"type": "play", "cards": ["R1"]}, ref="same")
    again = await client.expect("ack", ref="same")
    assert first == again
    await asyncio.sleep(0.1)
    assert client.view["hand"] == ["R2", "G3"]
    assert client.seq == first["seq"]
    await client.close()


async def test_illegal_actions_get_the_engine_code_and_change_nothing(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    client = await server.connect(room_id, tokens[1])
    seq = client.seq
    ref = await client.act({"type": "play", "cards": ["G2"]})
    outcome = await client.outcome(ref)
    assert outcome["type"] == "error" and outcome["code"] == "not_your_turn"
    assert outcome["message"]
    ref = await client.act({"type": "fly"})
    assert (await client.outcome(ref))["code"] == "unknown_action"
    await asyncio.sleep(0.05)
    assert client.seq == seq
    await client.close()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"nope": 1}', "unknown_type"),
        ('{"type": "action", "id": "x"}', "bad_message"),
        ('{"type": "action", "id": "", "action": {}}', "bad_message"),
        ('{"type": "action", "id": 5, "action": {}}', "bad_message"),
        ('{"type": "resume", "lastSeq": -1}', "bad_message"),
        ('{"type": "ping", "extra": true}', "bad_message"),
    ],
)
async def test_bad_messages_get_an_error_and_the_socket_lives(
    server: Server, raw: str, code: str
) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    client = await server.connect(room_id, tokens[0])
    await client.send(raw)
    error = await client.expect("error")
    assert error["code"] == code
    await client.send({"type": "ping"})
    await client.expect("pong")
    await client.close()


async def test_spectators_see_no_hands_and_cannot_act(server: Server) -> None:
    room, _ = await server.table(3)
    watcher = await server.connect(room["roomId"])
    assert watcher.view["you"] is None and watcher.view["hand"] == []
    assert watcher.view["legal"] == []
    ref = await watcher.act({"type": "draw"})
    assert (await watcher.outcome(ref))["code"] == "spectator"
    await watcher.close()


async def test_a_room_without_spectators_turns_them_away(server: Server) -> None:
    room = await server.create(spectators=False)
    ws = await websockets.connect(f"{server.ws_base}/ws/rooms/{room['roomId']}")
    message = orjson.loads(await ws.recv())
    assert message["code"] == "no_spectators"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd.code == 4403


async def test_bad_tokens_and_unknown_rooms_are_told_why(server: Server) -> None:
    room, _ = await server.table(2, start=False)
    ws = await websockets.connect(f"{server.ws_base}/ws/rooms/{room['roomId']}?token=nope")
    assert orjson.loads(await ws.recv())["code"] == "bad_token"
    ws = await websockets.connect(f"{server.ws_base}/ws/rooms/nosuchroom")
    assert orjson.loads(await ws.recv())["code"] == "room_not_found"


async def test_foreign_origins_are_refused_at_the_handshake(server: Server) -> None:
    room, seats = await server.table(2)
    url = f"{server.ws_base}/ws/rooms/{room['roomId']}?token={seats[0]['token']}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(url, origin="https://evil.example")
    assert refused.value.response.status_code == 403
    # The server's own origin is fine.
    own = await server.connect(room["roomId"], seats[0]["token"], origin=server.base)
    await own.close()


async def test_two_devices_of_one_seat_both_get_every_change(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    phone = await server.connect(room_id, tokens[0])
    laptop = await server.connect(room_id, tokens[0])
    ref = await phone.act({"type": "play", "cards": ["R1"]})
    seq = (await phone.outcome(ref))["seq"]
    await laptop.wait_seq(seq)
    assert laptop.view == phone.view
    await phone.close()
    await laptop.close()


async def test_disconnecting_is_a_change_others_see(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    a = await server.connect(room_id, tokens[0])
    b = await server.connect(room_id, tokens[1])
    await a.wait_seq(2)
    assert a.view["players"][1]["connected"] is True
    await b.close()
    await a.wait_seq(3)
    assert a.view["players"][1]["connected"] is False
    assert {"type": "disconnect", "seat": 1} in a.events
    await a.close()


async def test_resume_replays_the_missed_patches(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    a = await server.connect(room_id, tokens[0])
    b = await server.connect(room_id, tokens[1])
    old_view, old_seq = b.view, b.seq
    await b.close()
    ref = await a.act({"type": "play", "cards": ["R1"]})
    await a.outcome(ref)
    b2 = await server.connect(room_id, tokens[1])
    # The client keeps its old view and asks for what it missed.
    b2.view, b2.seq = old_view, old_seq
    await b2.send({"type": "resume", "lastSeq": old_seq})
    await b2.wait_seq(a.seq)
    fresh = await server.connect(room_id, tokens[1])
    await b2.wait_seq(fresh.seq)
    assert b2.view == fresh.view | {"seq": b2.seq, "players": b2.view["players"]}
    assert all(m["type"] == "patch" for m in b2.messages[1:])
    for c in (a, b2, fresh):
        await c.close()


async def test_resume_from_too_long_ago_gets_a_snapshot(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    a = await server.connect(room_id, tokens[0])
    await a.send({"type": "resume", "lastSeq": 10_000})
    snapshot = await a.expect("snapshot")
    assert snapshot["seq"] == a.seq
    await a.close()


async def test_ping_is_answered_with_server_time(server: Server) -> None:
    room, _ = await server.table(2)
    client = await server.connect(room["roomId"])
    await client.send({"type": "ping"})
    pong = await client.expect("pong")
    assert pong["ts"] > 1_600_000_000_000
    await client.close()


async def test_floods_are_rate_limited_without_closing(server: Server) -> None:
    room, _ = await server.table(2)
    client = await server.connect(room["roomId"])
    for _ in range(server.settings.rate_burst + 20):
        await client.send({"type": "ping"})
    await client.expect("error", code="rate_limited")
    await asyncio.sleep(0.5)
    await client.send({"type": "ping"})
    await client.expect("pong")
    await client.close()


async def test_messages_over_64_kb_close_the_socket(server: Server) -> None:
    room, _ = await server.table(2)
    client = await server.connect(room["roomId"])
    await client.send("x" * (64 * 1024 + 1))
    await asyncio.wait_for(client._reader, timeout=5)
    assert client.ws.close_code == 1009


async def test_a_kicked_player_is_disconnected(server: Server) -> None:
    room, seats = await server.table(3, start=False)
    client = await server.connect(room["roomId"], seats[2]["token"])
    r = await server.http.post(
        f"/api/rooms/{room['roomId']}/kick",
        json={"seat": 2},
        headers={"Authorization": f"Bearer {room['hostToken']}"},
    )
    assert r.status_code == 204
    await asyncio.wait_for(client._reader, timeout=5)
    assert client.ws.close_code == 4001


async def test_a_room_with_a_next_deal_delay_deals_on_by_itself(server: Server) -> None:
    setup = {
        "hands": [["R1"], ["G2", "B4", "Y5"], ["B3", "Y7", "G9"]],
        "discard": ["R5"],
        "color": "R",
        "drawPile": ["Y1", "Y2", "Y3", "Y4", "Y6", "Y8"],
        "turn": 0,
    }
    room_id, tokens = await seeded_room(server, 3, {"targetScore": 1000}, setup, nextDealDelay=1)
    client = await server.connect(room_id, tokens[1])
    player = await server.connect(room_id, tokens[0])
    ref = await player.act({"type": "play", "cards": ["R1"]})
    ended = (await player.outcome(ref))["seq"]
    await client.wait_seq(ended)
    assert client.view["phase"] == "dealOver"
    await client.wait_seq(ended + 1, timeout=5)
    assert client.view["deal"] == 2
    assert {"type": "timer", "action": "nextDeal"} in client.events
    await client.close()
    await player.close()


async def test_a_command_that_breaks_its_judging_is_refused_and_the_room_goes_on(
    server: Server,
) -> None:
    from app.errors import RoomError

    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    client = await server.connect(room_id, tokens[0])
    service = server.app.state.rooms
    # Malformed on purpose (no player id): only a bug in our own code could send this.
    with pytest.raises(RoomError) as refused:
        await service.submit(room_id, {"k": "action", "ref": "x", "action": {}})
    assert refused.value.code == "internal"
    ref = await client.act({"type": "play", "cards": ["R1"]})
    assert (await client.outcome(ref))["type"] == "ack"
    assert client.view["hand"] == ["R2", "G3"]
    await client.close()


async def test_an_allowed_foreign_origin_may_connect(tmp_path: Any) -> None:
    from live import running_server

    async with running_server(
        "memory", tmp_path, allowed_origins=["https://uno.example"]
    ) as server:
        room, seats = await server.table(2)
        client = await server.connect(
            room["roomId"], seats[0]["token"], origin="https://uno.example"
        )
        await client.close()
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(
                f"{server.ws_base}/ws/rooms/{room['roomId']}", origin="https://other.example"
            )
