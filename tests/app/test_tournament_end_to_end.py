"""A whole tournament over real sockets: 32 players (each a client that plays its table's
seat), 4 rounds of one deal at 4-seat tables, one player withdrawing, one table's result
corrected by the host, and the node restarted between rounds (the tournament lives in
Redis and goes on from the new node), to its final standings.

The suite's longest tournament test (about 400 changes at 8 tables per round, each sent to
its four sockets); the clients skip the schema checks other tests make, so that it stays
at seconds per round on two cores."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from live import drop_prefix, running_server
from tournament_play import (
    ROUND_SETTINGS,
    Player,
    bearer,
    host,
    new_tournament,
    play_round,
    register_all,
    round_over,
    wait_for,
)

pytestmark = pytest.mark.redis


async def test_a_32_player_tournament_runs_to_its_final_standings(tmp_path: Any) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    settings = {**ROUND_SETTINGS, "prefix": prefix}
    try:
        async with running_server("redis", tmp_path, **settings) as first:
            made = await new_tournament(first, rounds=4, turnSeconds=5)
            tid = made["tournamentId"]
            field = await register_all(first, tid, 32)
            assert (await host(first, made, "/start")).status_code == 200
            players = [Player(first, tid, f["token"], i) for i, f in enumerate(field)]
            await play_round(players, 1)
            await wait_for(first, tid, round_over(1))
            # One player withdraws between rounds: 31 are seated next.
            out = await first.http.post(
                f"/api/tournaments/{tid}/withdraw", headers=bearer(field[5]["token"])
            )
            assert out.status_code == 200
            doc = (await host(first, made, "/rounds", json={"round": 2})).json()
            assert sorted(len(t["players"]) for t in doc["roundLog"][1]["tables"]) == [3] + [4] * 7
            await play_round(players, 2)
            doc = await wait_for(first, tid, round_over(2))
            # The host corrects a table's result: its last and first change places.
            table = doc["roundLog"][1]["tables"][0]
            ranked = sorted(table["result"], key=lambda s: s["place"])
            fixed = [
                {"playerId": s["pid"], "place": i + 1, "leftInHand": s["leftInHand"]}
                for i, s in enumerate(ranked[::-1])
            ]
            body = {"result": fixed, "reason": "cards counted wrongly"}
            path = f"/tables/{table['tableId']}/result"
            corrected = await host(first, made, path, method="put", json=body)
            assert corrected.status_code == 200, corrected.text
        # The node restarts between rounds; the new one carries the tournament on.
        async with running_server("redis", tmp_path, **settings) as second:
            players = [Player(second, tid, f["token"], i) for i, f in enumerate(field)]
            for number in (3, 4):
                started = await host(second, made, "/rounds", json={"round": number})
                assert started.status_code == 200, started.text
                await play_round(players, number)
                doc = await wait_for(second, tid, round_over(number))
            assert doc["status"] == "over" and doc["endedEarly"] is False
            standings = (await second.http.get(f"/api/tournaments/{tid}/standings")).json()
    finally:
        await drop_prefix(prefix)
    rows = standings["rows"]
    assert [r["rank"] for r in rows] == list(range(1, 33))
    withdrawn = next(r for r in rows if r["playerId"] == field[5]["playerId"])
    assert withdrawn["status"] == "withdrawn" and withdrawn["tables"] == 1
    assert sum(r["tables"] for r in rows) == 32 + 31 * 3
    assert all(r["tables"] == 4 for r in rows if r["status"] == "active")
    # Points: every 4-seat table gives 6, every 3-seat table 4.5 (ties share).
    assert sum(r["points"] for r in rows) == pytest.approx(8 * 6 + 3 * (7 * 6 + 4.5))
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    # Every host action in order: the start, round 2, the correction, rounds 3 and 4; the
    # player's own withdrawal is in the audit too, as not absent.
    hosted = [a for a in doc["audit"] if a["action"] != "withdrawn"]
    assert [a["action"] for a in hosted] == ["start", "round", "correct", "round", "round"]
    assert [a["round"] for a in hosted if a["action"] == "round"] == [2, 3, 4]
    assert hosted[2]["reason"] == "cards counted wrongly"
    own = [a for a in doc["audit"] if a["action"] == "withdrawn" and not a["absent"]]
    assert [a["playerId"] for a in own] == [field[5]["playerId"]]
