"""Accounts in tournaments, over real sockets: a bearer's registration is the account's
(its id and name), its seats at the tables show its rating wherever a re-seat moves it,
and a rated tournament's table rates the account seats of its match."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Server, running_server
from tournament_play import ROUND_SETTINGS, Player, bearer, host, new_tournament, shown


@pytest.fixture
async def quick_server(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server(store_kind, tmp_path, **ROUND_SETTINGS) as live:
        yield live


async def _sign_up(server: Server, name: str) -> dict[str, Any]:
    r = await server.http.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def _register(server: Server, tid: str, name: str, token: str | None = None) -> Any:
    headers = bearer(token) if token else {}
    return await server.http.post(
        f"/api/tournaments/{tid}/players", json={"name": name}, headers=headers
    )


async def _room(server: Server, room_id: str) -> dict[str, Any]:
    r = await server.http.get(f"/api/rooms/{room_id}")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_an_account_registers_as_itself_once_and_a_bad_bearer_is_refused(
    server: Server,
) -> None:
    anna = await _sign_up(server, "Anna")
    tid = (await new_tournament(server, rated=True))["tournamentId"]
    r = await _register(server, tid, "whatever", anna["token"])
    assert r.status_code == 201, r.text
    entry = r.json()
    assert entry["playerId"] == anna["playerId"] and entry["token"] != anna["token"]
    doc = await shown(server, tid)
    assert doc["rated"] is True
    assert [(p["playerId"], p["name"], p["account"]) for p in doc["players"]] == [
        (anna["playerId"], "Anna", True)
    ]
    before = await shown(server, tid)
    again = await _register(server, tid, "Other", anna["token"])
    assert again.status_code == 409 and again.json()["code"] == "tournament/already_registered"
    bad = await _register(server, tid, "Other", "not-a-token")
    assert bad.status_code == 401 and bad.json()["code"] == "account/bad_token"
    # The player token registered here is refused as before.
    same = await _register(server, tid, "Other", entry["token"])
    assert same.json()["code"] == "tournament/already_registered"
    assert await shown(server, tid) == before
    guest = await _register(server, tid, "Guest")
    assert guest.status_code == 201
    assert [p["account"] for p in (await shown(server, tid))["players"]] == [True, False]
    assert (await shown(server, (await new_tournament(server))["tournamentId"]))["rated"] is False


async def test_a_table_seat_shows_the_accounts_rating_and_follows_a_reseat(
    server: Server,
) -> None:
    made = await new_tournament(server, tableSize=3, tableStartSeconds=3600)
    tid = made["tournamentId"]
    cleo = await _sign_up(server, "Cleo")
    assert (await _register(server, tid, "x", cleo["token"])).status_code == 201
    for name in ("G1", "G2", "G3", "G4", "G5"):
        assert (await _register(server, tid, name)).status_code == 201
    assert (await host(server, made, "/start")).status_code == 200
    tables = (await shown(server, tid))["roundLog"][0]["tables"]
    mine = next(t for t in tables if cleo["playerId"] in t["players"])
    other = next(t for t in tables if t is not mine)
    newcomer = {"value": 1500, "provisional": True, "games": 0}
    seats = {p["name"]: p["rating"] for p in (await _room(server, mine["roomId"]))["players"]}
    assert seats.pop("Cleo") == newcomer and set(seats.values()) == {None}
    assert (await _room(server, mine["roomId"]))["rated"] is False
    # The host moves Cleo to the other table: the rating goes with her seat.
    swap = {"playerId": cleo["playerId"], "withPlayerId": other["players"][0]}
    assert (await host(server, made, "/reseat", json=swap)).status_code == 200
    there = {p["name"]: p["rating"] for p in (await _room(server, other["roomId"]))["players"]}
    assert there.pop("Cleo") == newcomer and set(there.values()) == {None}
    left = (await _room(server, mine["roomId"]))["players"]
    assert "Cleo" not in [p["name"] for p in left] and {p["rating"] for p in left} == {None}


async def test_a_rated_tournaments_table_rates_its_account_seats(quick_server: Server) -> None:
    server = quick_server
    made = await new_tournament(
        server, rated=True, rounds=1, tableSize=3, rules={"preset": "oneAndDone"}
    )
    tid = made["tournamentId"]
    dora, eli = await _sign_up(server, "Dora"), await _sign_up(server, "Eli")
    field = [
        (await _register(server, tid, "x", dora["token"])).json(),
        (await _register(server, tid, "y", eli["token"])).json(),
        (await _register(server, tid, "Guest")).json(),
    ]
    assert (await host(server, made, "/start")).status_code == 200
    players = [Player(server, tid, f["token"], i) for i, f in enumerate(field)]
    await asyncio.gather(*(p.play_round(1) for p in players))
    room_id = (await shown(server, tid))["roundLog"][0]["tables"][0]["roomId"]
    room = await _room(server, room_id)
    assert room["rated"] is True
    assert {p["name"]: p["rating"] is not None for p in room["players"]} == {
        "Dora": True,
        "Eli": True,
        "Guest": False,
    }
    async with asyncio.timeout(20):
        while not (recent := (await server.http.get("/api/players/Dora")).json()["recent"]):
            await asyncio.sleep(0.05)
    assert recent[0]["roomId"] == room_id
    rated = (await server.http.get(f"/api/matches/{recent[0]['matchId']}/ratings")).json()
    assert rated["rated"] is True
    changes = {c["seat"]: c for c in rated["seats"]}
    by_name = {p["name"]: p["seat"] for p in room["players"]}
    assert sorted(changes) == sorted([by_name["Dora"], by_name["Eli"]])
    assert all(c["ratingBefore"] == 1500 and c["games"] == 1 for c in changes.values())
    assert all(c["provisional"] for c in changes.values())
    profile = (await server.http.get("/api/players/Dora")).json()
    assert profile["ratings"]["classic"]["games"] == 1
    assert recent[0]["ratingAfter"] == changes[by_name["Dora"]]["ratingAfter"]


async def test_a_signed_in_host_hosts_as_the_account_and_the_host_token_still_works(
    quick_server: Server,
) -> None:
    server = quick_server
    hana = await _sign_up(server, "Hana")
    other = await _sign_up(server, "Olaf")
    body = {"name": "Club night", "rounds": 2, "turnSeconds": 20, "tableStartSeconds": 600}
    r = await server.http.post("/api/tournaments", json=body, headers=bearer(hana["token"]))
    assert r.status_code == 201, r.text
    made = r.json()
    tid = made["tournamentId"]
    assert (await shown(server, tid))["hostAccount"] == hana["playerId"]
    as_account = {**made, "hostToken": hana["token"]}
    assert (await host(server, as_account, "/check-in/open")).status_code == 200
    refused = await host(server, {**made, "hostToken": other["token"]}, "/start")
    assert refused.status_code == 403 and refused.json()["code"] == "tournament/not_host"
    assert (await host(server, made, "/end")).status_code == 200  # the host token too
    bad = await server.http.post("/api/tournaments", json=body, headers=bearer("not-a-token"))
    assert bad.status_code == 401 and bad.json()["code"] == "account/bad_token"
    guest = (await server.http.post("/api/tournaments", json=body)).json()
    assert (await shown(server, guest["tournamentId"]))["hostAccount"] is None
