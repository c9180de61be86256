"""The host's console against a live server, for each store: pause and resume (the
table's clock stands still and gets the time back), re-seat, disqualify, correct a
result (kept in the public audit log), end early; every refusal a 4xx with a code that
changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Server, running_server
from tournament_play import (
    ROUND_SETTINGS,
    bearer,
    connect_seat,
    host,
    new_tournament,
    register_all,
    round_over,
    shown,
    wait_for,
)


@pytest.fixture
async def quick(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server(store_kind, tmp_path, **ROUND_SETTINGS) as live:
        yield live


async def seat(server: Server, tid: str, token: str) -> dict[str, Any]:
    r = await server.http.get(f"/api/tournaments/{tid}/seat", headers=bearer(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_every_host_action_with_a_wrong_token_is_refused_and_changes_nothing(
    quick: Server,
) -> None:
    made = await new_tournament(quick)
    tid = made["tournamentId"]
    await register_all(quick, tid, 4)
    before = await shown(quick, tid)
    wrong = {**made, "hostToken": "x" * 32}
    calls = [
        ("/start", {}),
        ("/rounds", {}),
        ("/pause", {}),
        ("/resume", {}),
        ("/end", {}),
        ("/reseat", {"json": {"playerId": "a", "withPlayerId": "b"}}),
        ("/players/a/disqualify", {"json": {"reason": "rude"}}),
        (
            "/tables/r1t1/result",
            {"method": "put", "json": {"result": [{"playerId": "a", "place": 1}], "reason": "x"}},
        ),
    ]
    for path, kw in calls:
        r = await host(quick, wrong, path, **kw)
        assert r.status_code == 403 and r.json()["code"] == "tournament/not_host", (path, r.text)
        bare = await quick.http.post(f"/api/tournaments/{tid}{path}")
        assert bare.status_code in (401, 405, 422), (path, bare.text)
    assert await shown(quick, tid) == before


async def test_pause_stops_the_table_clock_and_resume_gives_the_time_back(quick: Server) -> None:
    made = await new_tournament(quick)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 2)
    early = await host(quick, made, "/pause")
    assert early.status_code == 409 and early.json()["code"] == "tournament/not_started"
    assert (await host(quick, made, "/start")).status_code == 200
    seats = [await seat(quick, tid, f["token"]) for f in field]
    clients = [await connect_seat(quick, s) for s in seats]
    async with asyncio.timeout(20):  # every player is there: the table deals at once
        while clients[0].view["phase"] in (None, "lobby") or clients[0].view["deadline"] is None:
            await asyncio.sleep(0.02)
    view = clients[0].view
    deadline = view["deadline"]
    mover = next(c for c in clients if c.view["you"] == view["turn"])
    paused = await host(quick, made, "/pause")
    assert paused.status_code == 200 and paused.json()["paused"] is True
    twice = await host(quick, made, "/pause")
    assert twice.status_code == 409 and twice.json()["code"] == "tournament/paused"
    await mover.expect("patch", timeout=10)
    async with asyncio.timeout(10):
        while not any(e["type"] == "paused" for e in mover.events):
            await asyncio.sleep(0.02)
    assert mover.view["deadline"] is None
    ref = await mover.act({"type": "draw"})
    refused = await mover.outcome(ref)
    assert refused["type"] == "error" and refused["code"] == "paused"
    await asyncio.sleep(0.3)
    next_round = await host(quick, made, "/rounds")
    assert next_round.status_code == 409
    resumed = await host(quick, made, "/resume")
    assert resumed.status_code == 200 and resumed.json()["paused"] is False
    async with asyncio.timeout(10):
        while not any(e["type"] == "unpaused" for e in mover.events):
            await asyncio.sleep(0.02)
    added = next(e["added"] for e in mover.events if e["type"] == "unpaused")
    assert added >= 300
    assert mover.view["deadline"] == deadline + added
    again = await host(quick, made, "/resume")
    assert again.status_code == 409 and again.json()["code"] == "tournament/not_paused"
    audit = [a["action"] for a in (await shown(quick, tid))["audit"]]
    assert audit == ["start", "pause", "resume"]
    for client in clients:
        await client.close()


async def test_reseat_swaps_two_players_before_their_tables_start(quick: Server) -> None:
    made = await new_tournament(quick, tableStartSeconds=600)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 6)
    doc = (await host(quick, made, "/start")).json()
    first, second = doc["roundLog"][0]["tables"]
    a, b = first["players"][0], second["players"][0]
    same = await host(
        quick, made, "/reseat", json={"playerId": a, "withPlayerId": first["players"][1]}
    )
    assert same.status_code == 409 and same.json()["code"] == "tournament/same_table"
    nobody = await host(quick, made, "/reseat", json={"playerId": a, "withPlayerId": "nobody"})
    assert nobody.status_code == 404 and nobody.json()["code"] == "tournament/player_not_found"
    r = await host(quick, made, "/reseat", json={"playerId": a, "withPlayerId": b})
    assert r.status_code == 200, r.text
    first_now, second_now = r.json()["roundLog"][0]["tables"]
    assert b in first_now["players"] and a in second_now["players"]
    token = next(f["token"] for f in field if f["playerId"] == a)
    moved = await seat(quick, tid, token)
    assert moved["tableId"] == second["tableId"]
    room = (await quick.http.get(f"/api/rooms/{second['roomId']}")).json()
    names = {p["playerId"]: p["name"] for p in doc["players"]}
    assert names[a] in [p["name"] for p in room["players"]]
    client = await connect_seat(quick, moved)  # the new seat token works
    await client.close()


async def test_a_result_is_corrected_with_a_reason_in_the_public_audit_log(quick: Server) -> None:
    made = await new_tournament(quick, tableStartSeconds=0, rounds=2)
    tid = made["tournamentId"]
    await register_all(quick, tid, 4)
    assert (await host(quick, made, "/start")).status_code == 200
    busy = await host(quick, made, "/rounds")
    assert busy.status_code == 409 and busy.json()["code"] == "tournament/round_in_progress"
    # Nobody came: the autopilot plays the table to its end.
    doc = await wait_for(quick, tid, round_over(1))
    table = doc["roundLog"][0]["tables"][0]
    assert {p["status"] for p in doc["players"]} == {"withdrawn"}  # they never came
    order = [s["pid"] for s in sorted(table["result"], key=lambda s: s["place"])][::-1]
    fixed = [{"playerId": pid, "place": i + 1, "leftInHand": 0} for i, pid in enumerate(order)]
    path = f"/tables/{table['tableId']}/result"
    unknown = await host(
        quick, made, "/tables/r9t9/result", method="put", json={"result": fixed, "reason": "typo"}
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "tournament/table_not_found"
    bad = await host(quick, made, path, method="put", json={"result": fixed[:2], "reason": "typo"})
    assert bad.status_code == 422 and bad.json()["code"] == "tournament/bad_result"
    assert await shown(quick, tid) == doc
    r = await host(
        quick, made, path, method="put", json={"result": fixed, "reason": "scored wrongly"}
    )
    assert r.status_code == 200, r.text
    entry = r.json()["audit"][-1]
    assert entry["action"] == "correct" and entry["reason"] == "scored wrongly"
    assert entry["before"] == table["result"] and entry["tableId"] == table["tableId"]
    rows = (await quick.http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
    assert rows[0]["playerId"] == order[0] and rows[0]["points"] == 3


async def test_disqualify_and_end_early(quick: Server) -> None:
    made = await new_tournament(quick, tableStartSeconds=600)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 4)
    assert (await host(quick, made, "/start")).status_code == 200
    pid = field[0]["playerId"]
    out = await host(quick, made, f"/players/{pid}/disqualify", json={"reason": "cheating"})
    assert out.status_code == 200, out.text
    twice = await host(quick, made, f"/players/{pid}/disqualify", json={"reason": "again"})
    assert twice.status_code == 409 and twice.json()["code"] == "tournament/disqualified"
    rows = (await quick.http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
    assert rows[-1]["playerId"] == pid and rows[-1]["status"] == "disqualified"
    ended = await host(quick, made, "/end")
    assert ended.status_code == 200
    doc = ended.json()
    assert doc["status"] == "over" and doc["endedEarly"] is True
    assert all(t["abandoned"] for t in doc["roundLog"][0]["tables"])
    assert [a["action"] for a in doc["audit"]] == ["start", "disqualify", "end"]
    again = await host(quick, made, "/end")
    assert again.status_code == 409 and again.json()["code"] == "tournament/over"


async def test_a_player_disqualified_before_their_table_deals_leaves_a_bot_in_the_seat(
    quick: Server,
) -> None:
    made = await new_tournament(quick, tableStartSeconds=600)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 4)
    doc = (await host(quick, made, "/start")).json()
    table = doc["roundLog"][0]["tables"][0]
    out = field[0]
    r = await host(quick, made, f"/players/{out['playerId']}/disqualify", json={"reason": "rude"})
    assert r.status_code == 200, r.text
    room = (await quick.http.get(f"/api/rooms/{table['roomId']}")).json()
    # The table stays as it was seated: four seats, the disqualified player's a bot's.
    assert len(room["players"]) == 4
    assert [p["bot"] is not None for p in room["players"]].count(True) == 1
    # With the bot, everyone is there once the other three come: the table deals at once.
    clients = [await connect_seat(quick, await seat(quick, tid, f["token"])) for f in field[1:]]
    try:
        doc = await wait_for(quick, tid, lambda d: d["roundLog"][0]["tables"][0]["started"])
        room = (await quick.http.get(f"/api/rooms/{table['roomId']}")).json()
        assert room["status"] == "playing"
    finally:
        for client in clients:
            await client.close()


async def dealt(server: Server, room_id: str) -> dict[str, Any]:
    """The room once its match is on (its lobby's players as they were dealt in)."""
    async with asyncio.timeout(30):
        while True:
            room: dict[str, Any] = (await server.http.get(f"/api/rooms/{room_id}")).json()
            if room["status"] != "lobby":
                assert room["status"] == "playing", room["status"]
                return room
            await asyncio.sleep(0.05)


async def test_a_table_deals_with_the_seats_the_tournament_says(quick: Server) -> None:
    """A re-seat whose room commands have not landed when the table deals (its REST call
    still on the way): the runner gives the room the tournament's seats first."""
    made = await new_tournament(quick, tableStartSeconds=600)
    tid = made["tournamentId"]
    await register_all(quick, tid, 6)
    doc = (await host(quick, made, "/start")).json()
    first, second = doc["roundLog"][0]["tables"]
    a, b = first["players"][0], second["players"][0]
    service = quick.app.state.tournaments

    def swapped_in_the_document_only(d: dict[str, Any]) -> None:
        tables = d["roundLog"][0]["tables"]
        tables[0]["players"][0], tables[1]["players"][0] = b, a
        for t in tables:
            t["startAt"] = 0  # and both deal now

    await service.change(tid, swapped_in_the_document_only)
    await wait_for(quick, tid, lambda d: all(t["started"] for t in d["roundLog"][0]["tables"]))
    names = {p["playerId"]: p["name"] for p in doc["players"]}
    for table, moved_in in ((first, b), (second, a)):
        # Marked started in the tournament first, then re-seated and dealt: wait for the deal.
        room = await dealt(quick, table["roomId"])
        assert names[moved_in] in [p["name"] for p in room["players"]]
    late = await host(quick, made, "/reseat", json={"playerId": a, "withPlayerId": b})
    assert late.status_code == 409 and late.json()["code"] == "tournament/table_started"


async def test_every_host_action_is_in_the_audit_log_open_check_in_start_and_rounds(
    quick: Server,
) -> None:
    made = await new_tournament(quick, tableStartSeconds=600, rounds=2)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 3)
    assert (await host(quick, made, "/check-in/open")).status_code == 200
    again = await host(quick, made, "/check-in/open")  # open already: nothing new
    assert again.status_code == 200
    for player in field[:2]:
        r = await quick.http.post(
            f"/api/tournaments/{tid}/check-in", headers=bearer(player["token"])
        )
        assert r.status_code == 200
    started = await host(quick, made, "/start")
    assert started.status_code == 200
    doc = started.json()
    table = doc["roundLog"][0]["tables"][0]
    result = [{"playerId": p, "place": i + 1} for i, p in enumerate(table["players"])]
    fixed = await host(
        quick,
        made,
        f"/tables/{table['tableId']}/result",
        method="put",
        json={"result": result, "reason": "tallied on paper"},
    )
    assert fixed.status_code == 200, fixed.text
    assert (await host(quick, made, "/rounds", json={"round": 2})).status_code == 200
    audit = (await shown(quick, tid))["audit"]
    assert [a["action"] for a in audit] == ["checkIn", "start", "correct", "round"]
    assert audit[1]["dropped"] == ["P02"]  # who did not check in
    assert audit[3]["round"] == 2
    assert all(isinstance(a["at"], int) for a in audit)
