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


async def test_the_host_changes_settings_mutes_and_kicks_and_a_seat_left_alone_claims(
    live: Server,
) -> None:
    async with UnoServer(live.base) as server:
        room = await server.create_room("hosted", {"preset": "classic"}, 3)
        assert (await server.room_by_code(room.code.lower()))["roomId"] == room.room_id
        changed = await server.change_settings(room, name="renamed", seats=2)
        assert (changed["name"], changed["seats"]) == ("renamed", 2)
        anna = await server.join_room(room.room_id, "Anna")
        await server.join_room(room.room_id, "Ben")
        await server.mute_seat(room, 1)
        async with server.session(anna) as session:
            assert session.view["room"]["muted"] == [1]
        await server.mute_seat(room, 1, muted=False)
        await server.kick(room, 1)
        shown = await server.get_room(room.room_id)
        assert [p["name"] for p in shown["players"]] == ["Anna"] and shown["bans"] == ["Ben"]
        with pytest.raises(ApiError) as banned:
            await server.join_room(room.room_id, "Ben")
        assert (banned.value.status, banned.value.code) == (403, "banned")
        cara = await server.join_room(room.room_id, "Cara")
        await server.start(room)
        with pytest.raises(ApiError) as present:
            await server.back_to_seat(anna)
        assert (present.value.status, present.value.code) == (409, "not_away")
        await server.leave_room(cara)
        await server.claim_win(anna)
        async with server.session(anna) as session:
            assert session.view["phase"] == "matchOver" and session.view["winner"] == 0
            assert session.view["room"]["ended"]["reason"] == "claim"


async def test_the_reference_tables_list_rules_cards_and_drinks(live: Server) -> None:
    async with UnoServer(live.base) as server:
        rules = await server.rules()
        assert "classic" in rules["presets"] and rules["botLevels"] == ["easy", "normal", "hard"]
        decks = {d["name"]: d["size"] for d in (await server.cards())["decks"]}
        assert decks["classic108"] == 108
        assert (await server.drinks())["beverages"]


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
        assert (await server.open_check_in(made))["checkIn"] is True
        for entrant in entrants:
            await server.check_in(entrant)
        started = await server.start_tournament(made)
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


async def test_a_signed_in_host_runs_a_tournament_with_every_host_action(live: Server) -> None:
    async with UnoServer(live.base) as server:
        account = await server.sign_up(_name(), "a long password")
        made = await server.create_tournament(
            "Club",
            account.token,
            rules={"preset": "classic"},
            rounds=2,
            tableSize=3,
            turnSeconds=60,
        )
        names = ("Ada", "Bo", "Cy", "Di", "Ed", "Fay")
        ada, bo, *_, fay = [await server.join_tournament(made.tournament_id, n) for n in names]
        # The host account's token hosts it as well as the host token.
        as_account = Tournament(made.tournament_id, account.token)
        shown = await server.start_tournament(as_account)
        assert shown["hostAccount"] == account.player_id and shown["round"] == 1
        first, second = shown["roundLog"][0]["tables"]
        shown = await server.reseat(made, first["players"][0], second["players"][0])
        assert first["players"][0] in shown["roundLog"][0]["tables"][1]["players"]
        assert (await server.pause_tournament(made))["paused"] is True
        assert (await server.resume_tournament(made))["paused"] is False
        shown = await server.disqualify(made, fay.player_id, "left the venue")
        await server.withdraw(bo)
        shown = await server.reinstate(made, bo.player_id)
        status = {p["playerId"]: p["status"] for p in shown["players"]}
        assert (status[fay.player_id], status[bo.player_id]) == ("disqualified", "active")
        for table in shown["roundLog"][0]["tables"]:
            result = [{"playerId": p, "place": i + 1} for i, p in enumerate(table["players"])]
            shown = await server.correct_result(made, table["tableId"], result, "as reported")
        assert (await server.next_round(made, 2))["round"] == 2
        with pytest.raises(ApiError) as twice:
            await server.next_round(made, 2)
        assert (twice.value.status, twice.value.code) == (409, "tournament/round_started")
        with pytest.raises(ApiError) as not_host:
            await server.end_tournament(Tournament(made.tournament_id, ada.token))
        assert not_host.value.code == "tournament/not_host"
        assert (await server.end_tournament(made))["status"] == "over"
