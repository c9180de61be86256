"""Hostile values in requests and frames get a clear 4xx or socket error, never a 500 or a
closed socket: objects where strings belong, numbers past every integer column, NUL and
other control characters in ids. Over real sockets and real stores (every room test runs
on memory and Redis), and the history routes on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_client,
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)
from live import Server

from app.db import Database

BAD_RULES = [{"preset": [1]}, {"preset": {}}, {"targetScore": {}}, {"targetScore": 2**70}]


@pytest.mark.parametrize("rules", BAD_RULES)
async def test_unhashable_or_huge_rules_are_refused_by_every_rooms_route(
    server: Server, rules: dict[str, Any]
) -> None:
    created = await server.http.post("/api/rooms", json={"name": "t", "rules": rules})
    assert created.status_code == 422, created.text
    assert created.json()["code"].startswith("rules/")
    room = await server.create()
    changed = await server.http.patch(
        f"/api/rooms/{room['roomId']}",
        json={"rules": rules},
        headers={"Authorization": f"Bearer {room['hostToken']}"},
    )
    assert changed.status_code == 422, changed.text
    assert changed.json()["code"].startswith("rules/")


@pytest.mark.parametrize(
    "action",
    [
        {"type": {}},
        {"type": [1]},
        {"type": "play", "cards": ["R1"], "target": 2**63},
        {"type": "draw", "at": 2**80},
    ],
)
async def test_unhashable_or_huge_action_fields_get_an_error_and_the_socket_lives(
    server: Server, action: dict[str, Any]
) -> None:
    room, seats = await server.table(2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    await client.send(json.dumps({"type": "action", "id": "x", "action": action}))
    outcome = await client.outcome("x")
    assert outcome["type"] == "error" and outcome["code"] in (
        "unknown_action",
        "bad_target",
        "bad_at",
    )
    await client.send({"type": "ping"})
    await client.expect("pong")
    assert client.ws.close_code is None
    await client.close()


async def test_kick_of_a_seat_past_any_table_is_a_422(server: Server) -> None:
    room = await server.create()
    for seat in (2**64, 10, -1):
        r = await server.http.post(
            f"/api/rooms/{room['roomId']}/kick",
            json={"seat": seat},
            headers={"Authorization": f"Bearer {room['hostToken']}"},
        )
        assert r.status_code == 422, (seat, r.text)
        assert r.json()["code"] == "invalid_request"


@pytest.mark.parametrize("room_id", ["a%00b", "a%0Ab", "x" * 65])
async def test_room_ids_with_control_characters_or_too_long_are_a_422(
    server: Server, room_id: str
) -> None:
    auth = {"Authorization": "Bearer t"}
    for method, path, body in [
        ("GET", "", None),
        ("POST", "/join", {"name": "n"}),
        ("POST", "/start", None),
        ("POST", "/leave", None),
        ("POST", "/kick", {"seat": 0}),
        ("PATCH", "", {"name": "n"}),
    ]:
        r = await server.http.request(
            method, f"/api/rooms/{room_id}{path}", json=body, headers=auth
        )
        assert r.status_code == 422, (method, path, r.text)
    r = await server.http.post("/api/rooms/join", json={"name": "n", "code": "C" * 17})
    assert r.status_code == 422, r.text


async def test_history_ids_and_numbers_outside_the_database_are_a_422(
    client: httpx.AsyncClient, db: Database
) -> None:
    for path in [
        "/api/matches/m/deals/2147483648/replay",
        "/api/matches/m/deals/99999999999999999999/replay",
        "/api/players/p/matches?offset=9223372036854775808",
        "/api/players/p/matches?offset=2147483648",
        "/api/matches/a%00b",
        "/api/matches/a%00b/deals/1/replay",
        "/api/players/a%00b/matches",
        "/api/players/a%1Bb/matches",
        "/api/scoresheets/a%00b",
    ]:
        r = await client.get(path)
        assert r.status_code == 422, (path, r.text)
        assert r.json()["code"] == "invalid_request", (path, r.text)
    # The largest values the database holds are still answered (not found, not a 500).
    r = await client.get("/api/matches/m/deals/2147483647/replay")
    assert r.status_code == 404, r.text
    await db.record_player("p", "Pia")
    r = await client.get("/api/players/p/matches?offset=2147483647")
    assert r.status_code == 200 and r.json()["matches"] == [], r.text


@pytest.mark.parametrize("rules", BAD_RULES)
async def test_unhashable_rules_are_refused_by_scoresheets(
    client: httpx.AsyncClient, rules: dict[str, Any]
) -> None:
    r = await client.post("/api/scoresheets", json={"players": ["a", "b"], "rules": rules})
    assert r.status_code == 422, r.text
    assert r.json()["code"].startswith("rules/")


async def test_scoresheet_entries_past_the_database_integers_are_refused(
    client: httpx.AsyncClient,
) -> None:
    sheet = (await client.post("/api/scoresheets", json={"players": ["a", "b"]})).json()
    r = await client.post(f"/api/scoresheets/{sheet['id']}/deals", json={"entries": [0, 2**40]})
    assert r.status_code == 422, r.text
    r = await client.patch(f"/api/scoresheets/{sheet['id']}/rules", json={"targetScore": [1]})
    assert r.status_code == 422, r.text


@pytest.mark.parametrize("room_id", ["a%00b", "x" * 65])
async def test_a_socket_to_an_implausible_room_id_is_told_no_such_room(
    server: Server, room_id: str
) -> None:
    import websockets

    async with websockets.connect(f"{server.ws_base}/ws/rooms/{room_id}") as ws:
        refusal = json.loads(await ws.recv())
        assert refusal["code"] == "room_not_found"
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4404
    room, _ = await server.table(2, start=False)
    async with websockets.connect(
        f"{server.ws_base}/ws/rooms/{room['roomId']}?token={'t' * 200}"
    ) as ws:
        assert json.loads(await ws.recv())["code"] == "bad_token"
