"""Tournament rounds against a live server, for each store: the host starts, each table
is a real room whose players play over sockets with the seat tokens the tournament hands
out, results are recorded when the tables' matches end, and the next round starts on the
host's call."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Server, running_server
from tournament_play import (
    ROUND_SETTINGS,
    Player,
    bearer,
    host,
    new_tournament,
    play_round,
    register_all,
    round_over,
    shown,
    wait_for,
)


@pytest.fixture
async def quick(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server(store_kind, tmp_path, **ROUND_SETTINGS) as live:
        yield live


async def test_a_round_seats_real_rooms_and_records_every_table(quick: Server) -> None:
    made = await new_tournament(quick, rounds=2)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 7)  # tables of 4 and 3
    started = await host(quick, made, "/start")
    assert started.status_code == 200, started.text
    doc = started.json()
    assert doc["status"] == "running" and doc["round"] == 1
    tables = doc["roundLog"][0]["tables"]
    assert sorted(len(t["players"]) for t in tables) == [3, 4]
    room = (await quick.http.get(f"/api/rooms/{tables[0]['roomId']}")).json()
    assert room["turnSeconds"] == 20 and room["private"] is True
    assert [p["name"] for p in room["players"]] != []
    players = [Player(quick, tid, f["token"], i) for i, f in enumerate(field)]
    await play_round(players, 1)
    doc = await wait_for(quick, tid, round_over(1))
    for table in doc["roundLog"][0]["tables"]:
        result = table["result"]
        assert sorted(s["pid"] for s in result) == sorted(table["players"])
        assert min(s["place"] for s in result) == 1
        assert sum(s["dealsWon"] for s in result) == 1
    # Each result names its table's match, for the match's replay.
    matches = [t["matchId"] for t in doc["roundLog"][0]["tables"]]
    assert all(isinstance(m, str) and m for m in matches) and len(set(matches)) == len(matches)
    rows = (await quick.http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
    assert sum(r["points"] for r in rows) == pytest.approx(6.0 + 4.5)
    assert all(r["tables"] == 1 for r in rows)
    # The next round starts on the host's call, once; the same round asked again is refused.
    second = await host(quick, made, "/rounds", json={"round": 2})
    assert second.status_code == 200, second.text
    again = await host(quick, made, "/rounds", json={"round": 2})
    assert again.status_code == 409 and again.json()["code"] == "tournament/round_started"
    await play_round(players, 2)
    doc = await wait_for(quick, tid, lambda d: d["status"] == "over")
    assert all(t["result"] for r in doc["roundLog"] for t in r["tables"])
    last = await host(quick, made, "/rounds")
    assert last.status_code == 409 and last.json()["code"] == "tournament/over"


async def test_the_start_drops_who_did_not_check_in(quick: Server) -> None:
    made = await new_tournament(quick)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 5)
    assert (await host(quick, made, "/check-in/open")).status_code == 200
    for f in field[:4]:
        r = await quick.http.post(f"/api/tournaments/{tid}/check-in", headers=bearer(f["token"]))
        assert r.status_code == 200
    doc = (await host(quick, made, "/start")).json()
    assert sorted(p["name"] for p in doc["players"]) == ["P00", "P01", "P02", "P03"]
    late = await quick.http.get(f"/api/tournaments/{tid}/seat", headers=bearer(field[4]["token"]))
    assert late.status_code == 403
    twice = await host(quick, made, "/start")
    assert twice.status_code == 409 and twice.json()["code"] == "tournament/started"
    assert (await shown(quick, tid))["roundLog"] == doc["roundLog"]
