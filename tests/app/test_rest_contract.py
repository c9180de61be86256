"""The REST routes keep to their OpenAPI document: a method a path does not serve is 405
with an ``Allow`` naming those the document lists, bodies are as strict as the socket's
(no boolean 0, no integer "4"), what a route answers it declares, and the body a route's
schema allows it takes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from live import Server, running_server

from engine.rules import OPTIONS

METHODS = ("GET", "PUT", "POST", "DELETE", "PATCH")


@pytest.fixture
async def memory_server(tmp_path: Any) -> Any:
    async with running_server("memory", tmp_path) as server:
        yield server


async def test_every_undeclared_method_answers_405_with_the_documents_methods(
    memory_server: Server,
) -> None:
    server = memory_server
    room = await server.create()
    document = (await server.http.get("/openapi.json")).json()
    wrong = []
    for path, operations in document["paths"].items():
        declared = {m.upper() for m in operations}
        url = re.sub(r"\{[^}]+\}", "x", path.replace("{room_id}", room["roomId"]))
        for method in METHODS:
            if method in declared:
                continue
            r = await server.http.request(method, url)
            allow = {m.strip() for m in r.headers.get("allow", "").split(",")}
            if (
                r.status_code != 405
                or allow != declared
                or r.json()["code"] != ("method_not_allowed")
            ):
                wrong.append(f"{method} {path}: {r.status_code} allow={sorted(allow)}")
    assert wrong == []


async def test_a_fixed_path_is_not_read_as_a_parameter(memory_server: Server) -> None:
    # GET /api/rooms/join is not the room "join": the path serves POST only.
    r = await memory_server.http.get("/api/rooms/join")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    # The browser client and the API's reads are served as before.
    assert (await memory_server.http.get("/api/rooms")).status_code == 200


@pytest.mark.parametrize(
    "field",
    [
        {"fairRaces": 0},
        {"fairRaces": 1},
        {"private": "true"},
        {"seats": "4"},
        {"seats": True},
        {"seats": 4.5},
        {"nextDealDelay": "0"},
        {"timeBank": False},
    ],
)
async def test_rest_bodies_take_booleans_and_integers_strictly(
    memory_server: Server, field: dict[str, Any]
) -> None:
    r = await memory_server.http.post("/api/rooms", json={"name": "t", **field})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request", r.text
    room = await memory_server.create()
    r = await memory_server.http.patch(
        f"/api/rooms/{room['roomId']}",
        json=field,
        headers={"Authorization": f"Bearer {room['hostToken']}"},
    )
    assert r.status_code == 422, r.text


async def test_scoresheet_rules_take_every_value_their_schema_allows(
    memory_server: Server,
) -> None:
    server = memory_server
    document = (await server.http.get("/openapi.json")).json()
    operation = document["paths"]["/api/scoresheets/{scoresheetId}/rules"]["patch"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == {option.name for option in OPTIONS}
    sheet = (await server.http.post("/api/scoresheets", json={"players": ["a", "b"]})).json()
    url = f"/api/scoresheets/{sheet['id']}/rules"
    refused = []
    for option in OPTIONS:
        prop = schema["properties"][option.name]
        values: list[Any] = list(prop.get("enum", []))
        if prop.get("type") == "boolean":
            values = [False, True]
        for part in [prop, *prop.get("anyOf", [])]:
            values += [part[k] for k in ("const", "minimum", "maximum") if k in part]
        for value in values:
            r = await server.http.patch(url, json={option.name: value})
            # A value may clash with the sheet's other options: a conflict, not bad input.
            if r.status_code not in (200, 409):
                refused.append(f"{option.name}={value!r}: {r.status_code} {r.text[:80]}")
            elif r.status_code == 409:
                assert r.json()["code"] == "rules/clash"
    assert refused == []
    for body in ({"noSuchOption": True}, {"stacking": 0}, {"targetScore": 125}):
        r = await server.http.patch(url, json=body)
        assert r.status_code == 422, body


async def test_the_event_history_declares_its_401(memory_server: Server) -> None:
    server = memory_server
    room = await server.create()
    r = await server.http.get(
        f"/api/rooms/{room['roomId']}/events", headers={"Authorization": "Basic eDp4"}
    )
    assert r.status_code == 401 and r.json()["code"] == "missing_token"
    document = (await server.http.get("/openapi.json")).json()
    assert "401" in document["paths"]["/api/rooms/{room_id}/events"]["get"]["responses"]
