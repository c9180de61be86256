"""REST for tournaments against a live server, for each store: create, register, check in,
withdraw, the field and the standings, and every refusal a 4xx with a code that changes
nothing."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest
from live import Server, drop_prefix, running_server


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(server: Server, **fields: Any) -> dict[str, Any]:
    body = {"name": "Club night", "rounds": 4, "turnSeconds": 20, **fields}
    r = await server.http.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def register(server: Server, tid: str, name: str, **fields: Any) -> dict[str, Any]:
    r = await server.http.post(f"/api/tournaments/{tid}/players", json={"name": name, **fields})
    assert r.status_code == 201, r.text
    return r.json()


async def shown(server: Server, tid: str) -> dict[str, Any]:
    r = await server.http.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200
    return r.json()


async def test_create_answers_201_with_an_id_and_a_host_token(server: Server) -> None:
    made = await create(server, tableSize=5, rules={"preset": "house"})
    assert set(made) == {"tournamentId", "hostToken"}
    doc = await shown(server, made["tournamentId"])
    assert doc["status"] == "registration" and doc["tableSize"] == 5 and doc["rounds"] == 4
    assert doc["turnSeconds"] == 20 and doc["rules"]["jumpIn"] is True
    assert doc["tieBreaks"] == ["points", "matesAverage", "leftInHand", "dealsWon", "draw"]
    assert "host" not in doc and "seed" not in doc
    listed = (await server.http.get("/api/tournaments")).json()
    assert made["tournamentId"] in {t["tournamentId"] for t in listed}


@pytest.mark.parametrize(
    "fields",
    [
        {"tableSize": 2},
        {"tableSize": 7},
        {"turnSeconds": 0},
        {"turnSeconds": "off"},
        {"turnSeconds": 301},
        {"rounds": 0},
        {"rules": {"preset": "nope"}},
        {"rules": {"preset": "duo"}},  # two players at most: no table of 4 could deal
    ],
)
async def test_a_bad_tournament_is_refused_with_a_code(
    server: Server, fields: dict[str, Any]
) -> None:
    before = (await server.http.get("/api/tournaments")).json()
    body = {"name": "x", "rounds": 3, "turnSeconds": 20, **fields}
    r = await server.http.post("/api/tournaments", json=body)
    codes = {"invalid_request", "rules/unknown_preset", "bad_seats"}
    assert r.status_code == 422 and r.json()["code"] in codes
    assert (await server.http.get("/api/tournaments")).json() == before


async def test_players_register_by_name_and_show_in_the_field(server: Server) -> None:
    tid = (await create(server))["tournamentId"]
    ann = await register(server, tid, "Ann", seed=1)
    await register(server, tid, "Bo")
    doc = await shown(server, tid)
    assert [(p["name"], p["seed"], p["status"]) for p in doc["players"]] == [
        ("Ann", 1, "active"),
        ("Bo", None, "active"),
    ]
    assert doc["players"][0]["playerId"] == ann["playerId"]
    assert "token" not in doc["players"][0]


async def test_registering_twice_is_refused_and_changes_nothing(server: Server) -> None:
    tid = (await create(server))["tournamentId"]
    ann = await register(server, tid, "Ann")
    before = await shown(server, tid)
    again = await server.http.post(f"/api/tournaments/{tid}/players", json={"name": "ann"})
    assert again.status_code == 409 and again.json()["code"] == "tournament/name_taken"
    same_token = await server.http.post(
        f"/api/tournaments/{tid}/players", json={"name": "Other"}, headers=bearer(ann["token"])
    )
    assert same_token.status_code == 409
    assert same_token.json()["code"] == "tournament/already_registered"
    assert await shown(server, tid) == before


async def test_check_in_opens_by_the_host_only(server: Server) -> None:
    made = await create(server)
    tid = made["tournamentId"]
    ann = await register(server, tid, "Ann")
    early = await server.http.post(f"/api/tournaments/{tid}/check-in", headers=bearer(ann["token"]))
    assert early.status_code == 409 and early.json()["code"] == "tournament/check_in_closed"
    wrong = await server.http.post(
        f"/api/tournaments/{tid}/check-in/open", headers=bearer(ann["token"])
    )
    assert wrong.status_code == 403 and wrong.json()["code"] == "tournament/not_host"
    none = await server.http.post(f"/api/tournaments/{tid}/check-in/open")
    assert none.status_code == 401 and none.json()["code"] == "missing_token"
    assert (await shown(server, tid))["checkIn"] is False
    opened = await server.http.post(
        f"/api/tournaments/{tid}/check-in/open", headers=bearer(made["hostToken"])
    )
    assert opened.status_code == 200 and opened.json()["checkIn"] is True
    done = await server.http.post(f"/api/tournaments/{tid}/check-in", headers=bearer(ann["token"]))
    assert done.status_code == 200
    assert done.json()["players"][0]["checkedIn"] is True


async def test_a_withdrawn_player_stays_in_the_standings_marked_withdrawn(server: Server) -> None:
    tid = (await create(server))["tournamentId"]
    ann = await register(server, tid, "Ann")
    await register(server, tid, "Bo")
    out = await server.http.post(f"/api/tournaments/{tid}/withdraw", headers=bearer(ann["token"]))
    assert out.status_code == 200
    twice = await server.http.post(f"/api/tournaments/{tid}/withdraw", headers=bearer(ann["token"]))
    assert twice.status_code == 409 and twice.json()["code"] == "tournament/withdrawn"
    stranger = await server.http.post(f"/api/tournaments/{tid}/withdraw", headers=bearer("x" * 32))
    assert stranger.status_code == 403 and stranger.json()["code"] == "tournament/not_registered"
    rows = (await server.http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
    assert {(r["name"], r["status"], r["points"]) for r in rows} == {
        ("Ann", "withdrawn", 0),
        ("Bo", "active", 0),
    }
    assert sorted(r["rank"] for r in rows) == [1, 2]


async def test_an_unknown_tournament_is_404(server: Server) -> None:
    r = await server.http.get("/api/tournaments/nope")
    assert r.status_code == 404 and r.json()["code"] == "tournament/not_found"
    r = await server.http.post("/api/tournaments/nope/players", json={"name": "Ann"})
    assert r.status_code == 404 and r.json()["code"] == "tournament/not_found"


@pytest.mark.redis
async def test_a_tournament_outlives_its_node_and_goes_on_from_another(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with running_server("redis", tmp_path, prefix=prefix) as first:
            made = await create(first)
            tid = made["tournamentId"]
            ann = await register(first, tid, "Ann")
        async with running_server("redis", tmp_path, prefix=prefix) as second:
            await register(second, tid, "Bo")
            opened = await second.http.post(
                f"/api/tournaments/{tid}/check-in/open", headers=bearer(made["hostToken"])
            )
            assert opened.status_code == 200
            done = await second.http.post(
                f"/api/tournaments/{tid}/check-in", headers=bearer(ann["token"])
            )
            assert done.status_code == 200
            assert [p["name"] for p in done.json()["players"]] == ["Ann", "Bo"]
    finally:
        await drop_prefix(prefix)


async def test_registrations_at_once_are_all_kept(server: Server) -> None:
    tid = (await create(server))["tournamentId"]
    names = [f"P{i}" for i in range(24)]
    answers = await asyncio.gather(
        *(server.http.post(f"/api/tournaments/{tid}/players", json={"name": n}) for n in names)
    )
    assert all(a.status_code == 201 for a in answers)
    assert sorted(p["name"] for p in (await shown(server, tid))["players"]) == sorted(names)
