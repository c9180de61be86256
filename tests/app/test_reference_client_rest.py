"""The reference client's REST (clients/python) against the real server: the README's
history example as printed, accounts, rooms and bots, quick play and tournaments, each
answer read into the client's types and each refusal an ApiError with the server's code."""

from __future__ import annotations

import asyncio
import re
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from live import Server, running_server

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
sys.path.insert(0, str(CLIENT))

from uno_client import Account, ApiError, Entrant, Seat, Tournament, UnoServer  # noqa: E402


@pytest.fixture
async def live(tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server("memory", tmp_path, rate_per_second=10_000.0) as server:
        yield server


def _readme() -> dict[str, Any]:
    """Every Python example of the README, run as printed, in one namespace (the history
    example plays with the first one's bot)."""
    text = (CLIENT / "README.md").read_text()
    namespace: dict[str, Any] = {"__name__": "readme"}
    for code in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(compile(code, "README.md", "exec"), namespace)
    return namespace


def _name() -> str:
    return f"Py_{secrets.token_hex(3)}"


async def test_the_readme_history_example_reads_a_played_match_back(live: Server) -> None:
    example = _readme()["my_last_match"]
    async with asyncio.timeout(120):
        frames = await example(live.base, _name(), "a long password")
    assert frames["deal"] == 1 and frames["matchOver"] is True
    last = frames["frames"][-1]["view"]
    assert len(last["hands"]) == 2 and min(len(h) for h in last["hands"]) == 0
    async with UnoServer(live.base) as server:
        match = await server.match(frames["matchId"])
        assert [d["number"] for d in match["deals"]] == [1]
        replay = await server.replay(frames["matchId"], 1)
        assert replay["replay"] == {"consistent": True, "error": None}
        assert len(replay["actions"]) == len(frames["frames"]) - 1
        assert (await server.match_ratings(frames["matchId"]))["rated"] is False
        with pytest.raises(ApiError) as refused:
            await server.frames(frames["matchId"], 9)
        assert (refused.value.status, refused.value.code) == (404, "deal_not_found")


async def test_accounts_sign_up_in_and_out(live: Server) -> None:
    name = _name()
    async with UnoServer(live.base) as server:
        made = await server.sign_up(name, "a long password")
        assert isinstance(made, Account) and made.name == name
        again = await server.sign_in(name.lower(), "a long password")
        assert again.player_id == made.player_id
        assert (await server.me(again))["name"] == name
        await server.sign_out(again)
        with pytest.raises(ApiError) as refused:
            await server.me(again)
        assert refused.value.status == 401
        assert (await server.player(name))["name"] == name
        assert (await server.player_matches(made.player_id))["matches"] == []
        board = await server.leaderboard("duo", limit=5)
        assert board["pool"] == "duo" and isinstance(board["players"], list)
        with pytest.raises(ApiError) as wrong:
            await server.sign_in(name, "not the password")
        assert wrong.value.code == "account/bad_credentials"


async def test_a_room_by_code_with_a_bot_and_a_seat_that_leaves(live: Server) -> None:
    async with UnoServer(live.base) as server:
        account = await server.sign_up(_name(), "a long password")
        room = await server.create_room("coded", {"preset": "classic"}, 3)
        assert room.room_id in [r["roomId"] for r in await server.list_rooms()]
        mine = await server.join_by_code(room.code, "ignored", account.token)
        assert mine.player_id == account.player_id and mine.room_id == room.room_id
        guest = await server.join_room(room.room_id, "Guest")
        assert await server.add_bot(room, "easy") == 2
        shown = await server.get_room(room.room_id)
        assert [p["name"] for p in shown["players"]][:2] == [account.name, "Guest"]
        await server.start_room(room.room_id, room.host_token)
        events = await server.room_events(room.room_id, mine.token)
        assert events["events"]
        await server.leave_room(guest)
        left = (await server.get_room(room.room_id))["players"][guest.seat]
        assert left["left"] is True and left["bot"] == "normal"  # a bot plays the seat on


async def test_quick_play_queues_and_leaves(live: Server) -> None:
    async with UnoServer(live.base) as server:
        account = await server.sign_up(_name(), "a long password")
        ticket = await server.quickplay("classic", account=account)
        with pytest.raises(ApiError) as twice:
            await server.quickplay("classic", account=account)
        assert twice.value.code == "quickplay/already_queued"
        await server.leave_queue(ticket)
        with pytest.raises(ApiError) as gone:
            await server.leave_queue(ticket)
        assert gone.value.code == "quickplay/no_ticket"
        guest = await server.quickplay("duo", name="Guest")
        nameless = await server.quickplay("duo")  # the server names a guest who gives none
        await server.leave_queue(nameless)
        await server.leave_queue(guest)


async def test_four_quick_play_tickets_are_seated_at_one_table(live: Server) -> None:
    async with UnoServer(live.base) as server:
        tickets = [await server.quickplay("classic", name=n) for n in ("Di", "Ed", "Fy", "Gu")]
        async with asyncio.timeout(60):
            seats = await asyncio.gather(*(server.quickplay_seat(t) for t in tickets))
        assert len({s.room_id for s in seats}) == 1
        assert sorted(s.seat for s in seats) == [0, 1, 2, 3]
        async with server.session(seats[0]) as room:
            assert room.me == seats[0].seat


async def test_a_tournament_registers_checks_in_and_seats_its_players(live: Server) -> None:
    async with UnoServer(live.base) as server:
        made = await server.create_tournament(
            "Cup",
            rules={"preset": "classic"},
            rounds=1,
            tableSize=3,
            turnSeconds=60,
        )
        assert isinstance(made, Tournament)
        entrants = [
            await server.join_tournament(made.tournament_id, n) for n in ("Ann", "Bo", "Cy")
        ]
        assert all(isinstance(e, Entrant) for e in entrants)
        await server.host_tournament(made, "check-in/open")
        for entrant in entrants:
            await server.check_in(entrant)
        started = await server.host_tournament(made, "start")
        assert started["status"] == "running"
        seats = [await server.tournament_seat(e) for e in entrants]
        assert all(isinstance(s, Seat) for s in seats)
        assert len({s.room_id for s in seats}) == 1 and {s.seat for s in seats} == {0, 1, 2}
        assert made.tournament_id in [t["tournamentId"] for t in await server.list_tournaments()]
        assert (await server.get_tournament(made.tournament_id))["round"] == 1
        assert len((await server.standings(made.tournament_id))["rows"]) == 3
        await server.withdraw(entrants[1])
        with pytest.raises(ApiError) as gone:
            await server.check_in(entrants[1])
        assert gone.value.status in (401, 403, 409)
