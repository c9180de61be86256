"""Tournaments that never jam, on real Redis: players who never came to their table are
withdrawn in the open (audit entry, socket event) and can be taken back; a round is never
seated with a table that cannot deal (409 `tournament/too_few_players`); with nobody left
the tournament ends by itself; a table the runner cannot start is logged once, shown to
the host, and never holds up another tournament."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Server, running_server
from test_tournament_socket import Feed
from tournament_play import (
    ROUND_SETTINGS,
    Player,
    bearer,
    host,
    new_tournament,
    register_all,
    round_over,
    shown,
    started,
    wait_for,
)

from app.rooms import tokens

pytestmark = pytest.mark.redis


@pytest.fixture
async def quick(tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server("redis", tmp_path, **ROUND_SETTINGS) as live:
        yield live


def absent_withdrawals(doc: dict[str, Any]) -> list[str]:
    return [a["playerId"] for a in doc["audit"] if a["action"] == "withdrawn" and a["absent"]]


async def test_players_who_never_came_are_withdrawn_in_the_open_and_can_be_taken_back(
    quick: Server,
) -> None:
    # Five players at one table; only the first comes: the autopilot plays the four others.
    made, field = await started(quick, 5, rounds=3, tableStartSeconds=0)
    tid = made["tournamentId"]
    await Player(quick, tid, field[0]["token"], 0).play_round(1)
    doc = await wait_for(quick, tid, round_over(1))
    gone = [f["playerId"] for f in field[1:]]
    assert sorted(absent_withdrawals(doc)) == sorted(gone)
    entry = next(a for a in doc["audit"] if a["action"] == "withdrawn")
    assert set(entry) == {"at", "action", "playerId", "absent"}
    pushed = [e["event"] for e in (await _events(quick, tid)) if e["event"]["type"] == "withdrawn"]
    assert sorted(e["playerId"] for e in pushed) == sorted(gone)
    assert all(e["absent"] is True for e in pushed)
    # The one player left cannot make a table: refused, nothing changes.
    before = await shown(quick, tid)
    lone = await host(quick, made, "/rounds")
    assert lone.status_code == 409 and lone.json()["code"] == "tournament/too_few_players"
    assert await shown(quick, tid) == before
    # The host takes one back; the next round seats a table of two.
    back = await host(quick, made, f"/players/{gone[0]}/reinstate")
    assert back.status_code == 200, back.text
    assert back.json()["audit"][-1] == {
        "at": back.json()["audit"][-1]["at"],
        "action": "reinstate",
        "playerId": gone[0],
    }
    again = await host(quick, made, f"/players/{gone[0]}/reinstate")
    assert again.status_code == 409 and again.json()["code"] == "tournament/not_withdrawn"
    second = await host(quick, made, "/rounds")
    assert second.status_code == 200, second.text
    tables = second.json()["roundLog"][1]["tables"]
    assert [sorted(t["players"]) for t in tables] == [sorted([field[0]["playerId"], gone[0]])]
    unknown = await host(quick, made, "/players/nobody/reinstate")
    assert unknown.status_code == 404 and unknown.json()["code"] == "tournament/player_not_found"


async def _events(server: Server, tid: str) -> list[dict[str, Any]]:
    """The tournament's kept events, as its socket replays them after a `resume`."""
    seq = (await shown(server, tid))["seq"]
    feed = await Feed.open(server, tid)
    try:
        assert (await feed.next())["type"] == "snapshot"
        await feed.send({"type": "resume", "lastSeq": 0})
        events = [await feed.next() for _ in range(seq)]
        assert [e["seq"] for e in events] == list(range(1, seq + 1))
        return events
    finally:
        await feed.ws.close()


async def test_a_round_after_mass_withdrawal_seats_only_who_can_play(quick: Server) -> None:
    # Nine players at three tables of three: two come, seven never do.
    made, field = await started(quick, 9, rounds=2, tableStartSeconds=0)
    tid = made["tournamentId"]
    came = [Player(quick, tid, f["token"], i) for i, f in enumerate(field[:2])]
    await asyncio.gather(*(p.play_round(1) for p in came))
    doc = await wait_for(quick, tid, round_over(1))
    assert len(absent_withdrawals(doc)) == 7
    second = await host(quick, made, "/rounds")
    assert second.status_code == 200, second.text
    tables = second.json()["roundLog"][1]["tables"]
    assert [sorted(t["players"]) for t in tables] == [sorted(f["playerId"] for f in field[:2])]
    assert second.json()["roundLog"][1]["byes"] == []


async def test_with_nobody_left_the_tournament_ends_by_itself(quick: Server) -> None:
    made, _ = await started(quick, 3, rounds=3, tableStartSeconds=0)
    tid = made["tournamentId"]
    doc = await wait_for(quick, tid, lambda d: d["status"] == "over")
    assert doc["round"] == 1 and doc["endedEarly"] is True
    assert len(absent_withdrawals(doc)) == 3
    assert doc["audit"][-1]["action"] == "end" and doc["audit"][-1]["nobodyLeft"] is True
    rows = (await quick.http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
    assert sum(r["points"] for r in rows) == pytest.approx(4.5)
    late = await host(quick, made, "/rounds")
    assert late.status_code == 409 and late.json()["code"] == "tournament/over"


async def test_a_one_seat_table_is_never_made(quick: Server) -> None:
    made, field = await started(quick, 3, rounds=3, tableStartSeconds=0)
    tid = made["tournamentId"]
    players = [Player(quick, tid, f["token"], i) for i, f in enumerate(field)]
    await asyncio.gather(*(p.play_round(1) for p in players))
    await wait_for(quick, tid, round_over(1))
    for f in field[1:]:
        r = await quick.http.post(f"/api/tournaments/{tid}/withdraw", headers=bearer(f["token"]))
        assert r.status_code == 200, r.text
    before = await shown(quick, tid)
    assert [a["absent"] for a in before["audit"] if a["action"] == "withdrawn"] == [False, False]
    refused = await host(quick, made, "/rounds")
    assert refused.status_code == 409 and refused.json()["code"] == "tournament/too_few_players"
    assert (refused.json()["players"], refused.json()["fewest"]) == (1, 2)
    assert await shown(quick, tid) == before
    # The last one leaving too ends it: nobody is left to play.
    r = await quick.http.post(f"/api/tournaments/{tid}/withdraw", headers=bearer(field[0]["token"]))
    assert r.status_code == 200 and r.json()["status"] == "over"
    assert all(len(t["players"]) >= 2 for r in r.json()["roundLog"] for t in r["tables"])


async def test_the_runner_logs_a_table_it_cannot_start_once_and_shows_the_host(
    quick: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="app.tournaments")
    made = await new_tournament(quick, rounds=1, tableStartSeconds=0)
    tid = made["tournamentId"]
    field = await register_all(quick, tid, 2)
    # A round seated as an older server did: one player at a table that can never deal.
    service = quick.app.state.tournaments
    assert (await host(quick, made, "/pause")).status_code == 409
    assert (await host(quick, made, "/start")).status_code == 200
    loaded = await service.store.load(tid)
    assert loaded is not None
    doc, version = loaded
    table = doc["roundLog"][0]["tables"][0]
    table.update(players=[field[0]["playerId"]], roomId=tokens.new_room_id(), started=False)
    doc["roundLog"][0]["startedAt"] -= 10_000
    await service.store.replace(tid, doc, version, running=True)
    # Another tournament on the same runners plays its round meanwhile.
    other, _ = await started(quick, 2, rounds=1, tableStartSeconds=0)
    await wait_for(quick, other["tournamentId"], lambda d: d["status"] == "over")
    shown_doc = await wait_for(quick, tid, lambda d: d["roundLog"][0]["tables"][0]["trouble"])
    trouble = shown_doc["roundLog"][0]["tables"][0]["trouble"]
    assert trouble["reason"].startswith("not_enough_players")
    await asyncio.sleep(1.5)  # the runner looks every 50 ms: it would have logged ~30 times
    logged = [r for r in caplog.records if "cannot be looked after" in r.getMessage()]
    assert len(logged) == 1 and "not_enough_players" in logged[0].getMessage()
    # The host decides: the table's result, corrected; the tournament goes on to its end.
    fixed = await host(
        quick,
        made,
        f"/tables/{table['id']}/result",
        method="put",
        json={"result": [{"playerId": field[0]["playerId"], "place": 1}], "reason": "one seat"},
    )
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["roundLog"][0]["tables"][0]["trouble"] is None
    assert fixed.json()["status"] == "over"
