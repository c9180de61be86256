"""A next round whose node died right after seating it (the write landed, none of its
rooms opened), on real Redis: any node's runner opens the rooms the round names, the
round is played to its results, and the host's second try is refused as done, as for
a start (reliability/crash_tournaments.py kills real nodes at many moments of both)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Server, running_server
from tournament_play import ROUND_SETTINGS, host, shown, started, wait_for

from app.tournaments import rounds
from app.tournaments.service import now_ms

pytestmark = pytest.mark.redis


@pytest.fixture
async def quick(tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server("redis", tmp_path, **ROUND_SETTINGS) as live:
        yield live


async def test_a_round_seated_by_a_node_that_died_before_opening_its_rooms_is_played(
    quick: Server,
) -> None:
    made, field = await started(quick, 2, rounds=2, tableStartSeconds=0)
    tid = made["tournamentId"]
    table = (await shown(quick, tid))["roundLog"][0]["tables"][0]
    # Round 1 tallied by the host (nobody withdrawn), then round 2 seated as the route
    # seats it, by a node that dies before it opens a room.
    result = [{"playerId": f["playerId"], "place": i + 1} for i, f in enumerate(field)]
    body = {"result": result, "reason": "tallied on paper"}
    tallied = await host(quick, made, f"/tables/{table['tableId']}/result", method="put", json=body)
    assert tallied.status_code == 200, tallied.text
    service = quick.app.state.tournaments
    seated, opened = await service.change(
        tid, lambda d: rounds.next_round(d, 2, now_ms()), running=True
    )
    room_id = opened[0]["roomId"]
    assert await quick.app.state.rooms.store.load(room_id) is None
    again = await host(quick, made, "/rounds", json={"round": 2})
    assert again.status_code == 409 and again.json()["code"] == "tournament/round_started"
    over = await wait_for(quick, tid, lambda d: d["status"] == "over")
    second = over["roundLog"][1]["tables"]
    assert [t["roomId"] for t in second] == [room_id]
    assert second[0]["result"] is not None
    assert [a["action"] for a in over["audit"]].count("round") == 1
