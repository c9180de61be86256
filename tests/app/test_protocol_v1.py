"""Protocol v1 at the door: version negotiation, strictness, limits, liveness, and the
REST answers as documented."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import websockets
from live import Server, frames_until_close, raw_socket, running_server

from app.ws.transport import CLOSE_HEARTBEAT


def _url(server: Server, room_id: str, token: str | None = None) -> str:
    url = f"{server.ws_base}/ws/rooms/{room_id}"
    return url if token is None else f"{url}?token={token}"


async def test_the_uno_v1_subprotocol_is_accepted_and_stated_in_the_snapshot(
    server: Server,
) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"], subprotocols=["uno.v1"])
    assert client.ws.subprotocol == "uno.v1"
    assert client.messages[0]["protocol"] == "uno.v1"
    await client.close()


async def test_a_client_asking_for_no_subprotocol_speaks_v1(server: Server) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    assert client.ws.subprotocol is None
    assert client.messages[0]["protocol"] == "uno.v1"
    await client.close()


async def test_v1_is_picked_among_the_versions_a_client_offers(server: Server) -> None:
    room, seats = await server.table(2)
    client = await server.connect(
        room["roomId"], seats[0]["token"], subprotocols=["uno.v9", "uno.v1"]
    )
    assert client.ws.subprotocol == "uno.v1"
    await client.close()


async def test_an_unknown_version_is_refused_at_the_handshake_with_a_reason(
    server: Server,
) -> None:
    room, seats = await server.table(2)
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(
            _url(server, room["roomId"], seats[0]["token"]), subprotocols=["uno.v9"]
        )
    response = refused.value.response
    assert response.status_code == 400
    body = orjson.loads(response.body)
    assert body["code"] == "unsupported_protocol"
    assert "uno.v1" in body["message"]


async def test_refusals_after_the_handshake_keep_the_subprotocol(server: Server) -> None:
    # A browser drops a socket whose answer names no subprotocol it asked for: the reason
    # of a refusal must reach it.
    room, _ = await server.table(2, start=False)
    ws = await websockets.connect(_url(server, room["roomId"], "nope"), subprotocols=["uno.v1"])
    assert ws.subprotocol == "uno.v1"
    assert orjson.loads(await ws.recv())["code"] == "bad_token"


async def test_get_protocol_states_the_version_limits_and_heartbeat(server: Server) -> None:
    answer = (await server.http.get("/api/protocol")).json()
    assert answer["version"] == "uno.v1"
    assert answer["subprotocols"] == ["uno.v1"]
    assert answer["heartbeat"] == {
        "intervalSeconds": server.settings.heartbeat_interval_seconds,
        "timeoutSeconds": server.settings.heartbeat_timeout_seconds,
        "closeCode": CLOSE_HEARTBEAT,
    }
    assert answer["limits"]["maxMessageBytes"] == server.settings.max_message_bytes


async def test_an_empty_token_is_refused_like_a_bad_one(server: Server) -> None:
    room, _ = await server.table(2)
    ws = await websockets.connect(f"{_url(server, room['roomId'])}?token=")
    assert orjson.loads(await ws.recv())["code"] == "bad_token"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "resume", "lastSeq": "5"}',
        '{"type": "resume", "lastSeq": true}',
        '{"type": "resume", "lastSeq": 5.0}',
        '{"type": "action", "id": "a", "action": "draw"}',
    ],
)
async def test_fields_of_the_wrong_type_are_refused_not_coerced(server: Server, raw: str) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    await client.send(raw)
    assert (await client.expect("error"))["code"] == "bad_message"
    await client.close()


async def test_binary_frames_get_an_error_and_the_socket_lives(server: Server) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    await client.send(b'{"type": "ping"}')
    assert (await client.expect("error"))["code"] == "text_only"
    await client.send({"type": "ping"})
    await client.expect("pong")
    await client.close()


async def test_a_message_at_the_limit_is_read(server: Server) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    limit = server.settings.max_message_bytes
    message = '{"type": "ping"}'
    await client.send(message + " " * (limit - len(message)))
    pong = await client.expect("pong")
    assert pong["ts"] > 0
    await client.close()


@pytest.mark.parametrize("filler", [" ", "\u00e9"])
async def test_a_message_one_byte_past_the_limit_is_answered_too_large_then_closed(
    server: Server, filler: str
) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    limit = server.settings.max_message_bytes
    head, tail = '{"type": "action", "id": "big", "action": {"type": "draw", "x": "', '"}}'
    size = limit + 1 - len(head) - len(tail)  # bytes of filler
    text = head + filler * (size // len(filler.encode())) + tail
    if len(text.encode()) < limit + 1:
        text = text.replace(head, head + " " * (limit + 1 - len(text.encode())))
    assert len(text.encode()) == limit + 1
    await client.send(text)
    error = await client.expect("error")
    assert error["code"] == "too_large"
    await client._reader
    assert client.ws.close_code == 1009
    assert client.seq == client.messages[0]["seq"]  # nothing was applied


async def test_a_frame_far_past_the_limit_is_cut_off_with_1009(server: Server) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    await client.send(" " * (server.settings.max_frame_bytes + 1))
    await client._reader
    assert client.ws.close_code == 1009
    await client.close()


async def test_a_socket_that_stops_answering_pings_is_closed_with_4408(tmp_path: Any) -> None:
    async with running_server(
        "memory", tmp_path, heartbeat_interval_seconds=0.2, heartbeat_timeout_seconds=0.3
    ) as server:
        room, seats = await server.table(2)
        port = int(server.base.rsplit(":", 1)[1])
        reader, writer = await raw_socket(
            port, f"/ws/rooms/{room['roomId']}?token={seats[0]['token']}"
        )
        async with asyncio.timeout(5):
            frames = await frames_until_close(reader)
        writer.close()
        opcodes = [opcode for opcode, _ in frames]
        assert 0x9 in opcodes  # pinged
        assert int.from_bytes(frames[-1][1][:2]) == CLOSE_HEARTBEAT
        # A client whose library answers pings stays connected.
        client = await server.connect(room["roomId"], seats[1]["token"])
        await asyncio.sleep(1.0)
        await client.send({"type": "ping"})
        await client.expect("pong")
        await client.close()


async def test_start_answers_the_seq_of_the_start_change(server: Server) -> None:
    room, _ = await server.table(2, start=False)  # two joins: seq 2
    r = await server.http.post(
        f"/api/rooms/{room['roomId']}/start",
        headers={"Authorization": f"Bearer {room['hostToken']}"},
    )
    assert r.status_code == 200 and r.json() == {"seq": 3}
    got = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert got["seq"] == 3


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/rooms", {"name": ""}),
        ("post", "/api/scoresheets", {"players": ["A"]}),
        ("get", "/api/players/p/matches?limit=0", None),
        ("get", "/api/matches/m/deals/zero/replay", None),
        ("get", "/api/drinks/low-strength?abv=0", None),
    ],
)
async def test_every_route_answers_one_validation_error_model(
    server: Server, method: str, path: str, body: dict[str, Any] | None
) -> None:
    r = await server.http.request(method, path, json=body)
    assert r.status_code == 422
    answer = r.json()
    assert answer["code"] == "invalid_request"
    assert answer["message"]
    assert answer["errors"] and all({"loc", "msg"} <= set(e) for e in answer["errors"])


async def test_openapi_lists_the_real_error_codes_and_bodies(server: Server) -> None:
    spec = (await server.http.get("/openapi.json")).json()
    join = spec["paths"]["/api/rooms/{room_id}/join"]["post"]["responses"]
    assert "room_full" in join["409"]["description"]
    assert "ValidationErrorOut" in str(join["422"]["content"])
    start = spec["paths"]["/api/rooms/{room_id}/start"]["post"]["responses"]
    assert {"200", "401", "403", "404", "409"} <= set(start)
    health = spec["paths"]["/healthz"]["get"]["responses"]
    assert "503" in health
    assert "HTTPValidationError" not in orjson.dumps(spec).decode()
