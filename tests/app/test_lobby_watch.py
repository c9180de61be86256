"""The lobby lists running public games to watch (``GET /api/rooms?status=playing`` and
the lobby socket's ``playing``), moves a room's entry there when its game starts, and
never lists a room nobody is in; over real sockets, on the memory and Redis stores."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Server, running_server
from test_lobby_socket import _lobby


@pytest.fixture
async def quick(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server(
        store_kind, tmp_path, lobby_poll_seconds=0.05, timer_poll_seconds=0.1
    ) as live:
        yield live


async def _ids(server: Server, query: str = "") -> set[str]:
    r = await server.http.get(f"/api/rooms{query}")
    assert r.status_code == 200, r.text
    return {room["roomId"] for room in r.json()}


async def _running(server: Server, **room: Any) -> dict[str, Any]:
    made = await server.create(seats=2, **room)
    code = {"code": made["code"]} if room.get("private") else {}
    await server.join(made["roomId"], "Ann", **code)
    await server.join(made["roomId"], "Ben", **code)
    await server.start(made["roomId"], made["hostToken"])
    return made


async def test_running_public_games_are_listed_to_watch_and_not_to_join(quick: Server) -> None:
    running = await _running(quick)
    secret = await _running(quick, private=True)
    waiting = await quick.create(seats=3)
    await quick.join(waiting["roomId"], "Cy")
    playing = await _ids(quick, "?status=playing")
    assert running["roomId"] in playing
    assert secret["roomId"] not in playing and waiting["roomId"] not in playing
    joinable = await _ids(quick)
    assert joinable == await _ids(quick, "?status=lobby")
    assert waiting["roomId"] in joinable and running["roomId"] not in joinable
    r = await quick.http.get("/api/rooms?status=over")
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"


async def test_a_room_whose_players_all_left_is_not_listed(quick: Server) -> None:
    fresh = await quick.create(seats=3)
    assert fresh["roomId"] in await _ids(quick)  # just made: its creator is about to sit
    ann = await quick.join(fresh["roomId"], "Ann")
    assert fresh["roomId"] in await _ids(quick)
    r = await quick.http.post(
        f"/api/rooms/{fresh['roomId']}/leave",
        headers={"Authorization": f"Bearer {ann['token']}"},
    )
    assert r.status_code == 204
    assert fresh["roomId"] not in await _ids(quick)


async def test_a_room_whose_players_all_closed_their_tabs_leaves_the_lobby_until_one_is_back(
    quick: Server,
) -> None:
    room = await quick.create(seats=3, absentAfter=5)
    ann = await quick.join(room["roomId"], "Ann")
    lobby, snapshot = await _lobby(quick)
    assert room["roomId"] in {r["roomId"] for r in snapshot["rooms"]}
    tab = await quick.connect(room["roomId"], ann["token"])
    await tab.close()
    # absentAfter later the seat is away: nobody is in the room.
    removed: dict[str, Any] = {}
    async with asyncio.timeout(15):
        while True:
            message = await lobby.next(timeout=15)
            gone = [
                c
                for c in message.get("changes", [])
                if c["roomId"] == room["roomId"] and c["op"] == "remove"
            ]
            if gone:
                removed = gone[0]
                break
    assert removed["reason"] == "empty"
    assert room["roomId"] not in await _ids(quick)
    back = await quick.connect(room["roomId"], ann["token"])
    assert (await lobby.change(room["roomId"], "add"))["room"]["players"][0]["name"] == "Ann"
    assert room["roomId"] in await _ids(quick)
    await back.close()
    await lobby.ws.close()


async def test_the_lobby_socket_moves_a_room_to_watch_when_its_game_starts(
    quick: Server,
) -> None:
    room = await quick.create(seats=2)
    await quick.join(room["roomId"], "Ann")
    lobby, snapshot = await _lobby(quick)
    assert room["roomId"] in {r["roomId"] for r in snapshot["rooms"]}
    assert room["roomId"] not in {r["roomId"] for r in snapshot["playing"]}
    await quick.join(room["roomId"], "Ben")
    await quick.start(room["roomId"], room["hostToken"])
    async with asyncio.timeout(5):
        while True:
            message = await lobby.next()
            added = [
                c
                for c in message.get("playingChanges", [])
                if c["roomId"] == room["roomId"] and c["op"] == "add"
            ]
            if added:
                break
    assert added[0]["room"]["status"] == "playing"
    assert [p["name"] for p in added[0]["room"]["players"]] == ["Ann", "Ben"]
    # A socket opened now finds it under playing, not among the rooms to join.
    again, fresh = await _lobby(quick)
    assert room["roomId"] in {r["roomId"] for r in fresh["playing"]}
    assert room["roomId"] not in {r["roomId"] for r in fresh["rooms"]}
    await again.ws.close()
    await lobby.ws.close()


async def test_a_code_names_its_room_and_whether_its_match_has_begun(quick: Server) -> None:
    room = await _running(quick, private=True)
    r = await quick.http.get(f"/api/rooms/code/{room['code'].lower()}")
    assert r.status_code == 200, r.text
    found = r.json()
    assert found["roomId"] == room["roomId"] and found["status"] == "playing"
    assert "code" not in found and "hostToken" not in found
    r = await quick.http.get("/api/rooms/code/NOPE00")
    assert r.status_code == 404 and r.json()["code"] == "bad_code"


async def test_a_running_game_everyone_left_is_not_listed_to_watch(quick: Server) -> None:
    made = await quick.create(seats=2)
    seats = [await quick.join(made["roomId"], name) for name in ("Ann", "Ben")]
    await quick.start(made["roomId"], made["hostToken"])
    assert made["roomId"] in await _ids(quick, "?status=playing")
    for seat in seats:  # mid-match a bot plays each seat on
        r = await quick.http.post(
            f"/api/rooms/{made['roomId']}/leave",
            headers={"Authorization": f"Bearer {seat['token']}"},
        )
        assert r.status_code == 204
    assert made["roomId"] not in await _ids(quick, "?status=playing")
    assert made["roomId"] not in await _ids(quick)
