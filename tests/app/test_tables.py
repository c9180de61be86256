"""Tables that never stall: turn timers, absent seats and the autopilot, bots, leaving and
kicking mid-match, host hand-over, rematch, empty rooms, claiming the win; over real
sockets, on the memory and Redis stores."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from live import SETUP, Client, Server, running_server
from test_full_game import bot_action

from app.rooms import tokens
from app.rooms.doc import PLAYING, new_doc
from engine.scenario import initial_state


async def seat_room(
    server: Server,
    setup: dict[str, Any],
    rules: dict[str, Any] | None = None,
    players: int = 3,
    seat_extra: dict[str, Any] | None = None,
    bots: dict[int, str] | None = None,
    seat_updates: dict[int, dict[str, Any]] | None = None,
    **room: Any,
) -> tuple[str, list[str], str]:
    """A room already at the position ``setup``, as a room after a restart; returns the
    room id, one token per seat, and the host token (the host's seat is seat 0).
    ``bots``: seats played by a bot of that level; ``seat_updates``: fields of one seat."""
    state = initial_state({"rules": rules or {}, "players": players, "setup": setup})
    room_id, host = tokens.new_room_id(), tokens.new_token()
    doc = new_doc(
        room_id=room_id,
        name="seeded",
        code=tokens.new_code(),
        private=True,
        spectators=True,
        seats=players,
        rules=state.rules.to_json(),
        host_hash=tokens.hash_token(host),
        now_ms=0,
    )
    seat_tokens = [tokens.new_token() for _ in range(players)]
    doc["players"] = [
        {
            "seat": s,
            "pid": f"pid{s}",
            "name": f"p{s}",
            "token": tokens.hash_token(t),
            "conn": 0,
            "joinedAt": s,
            "goneAt": None,
            **(seat_extra or {}),
        }
        for s, t in enumerate(seat_tokens)
    ]
    for seat, level in (bots or {}).items():
        doc["players"][seat].update(pid=f"bot-{seat}", bot=level, token=None)
    for seat, update in (seat_updates or {}).items():
        doc["players"][seat].update(update)
    doc.update(status=PLAYING, matchId=tokens.new_id(), listed=False, hostPid="pid0")
    doc["emptySince"] = None
    doc.update(room)
    await server.app.state.store.create(
        room_id, doc, doc["code"], False, [{"start": state.to_json()}]
    )
    return room_id, seat_tokens, host


async def until(check: Callable[[], Any], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


def events(client: Client, kind: str) -> list[dict[str, Any]]:
    return [e for e in client.events if e["type"] == kind]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# The turn timer


async def test_views_carry_the_deadline_and_a_late_turn_is_played_by_the_room(
    quick: Server,
) -> None:
    room_id, seat_tokens, _ = await seat_room(quick, SETUP, turnSeconds=3, timeBank=0)
    c0 = await quick.connect(room_id, seat_tokens[0])
    c1 = await quick.connect(room_id, seat_tokens[1])
    await c0.wait_seq(c1.seq)
    assert c0.view["deadlineSeat"] == 0 and c0.view["deadline"] > c0.view["seq"]
    assert c1.view["deadline"] == c0.view["deadline"]
    await until(lambda: events(c1, "timeout"))
    # Draw one (Y1 does not match the red 5, so the turn passes).
    assert events(c1, "timeout") == [{"type": "timeout", "seat": 0}]
    await c0.wait_seq(c1.seq)
    assert c0.view["hand"] == ["R1", "R2", "G3", "Y1"] and c0.view["turn"] == 1
    assert c1.view["deadlineSeat"] == 1
    # A player's own action before the deadline wins; the clock moves on to the next seat.
    ref = await c1.act({"type": "play", "cards": ["Y5"]})
    assert (await c1.outcome(ref))["type"] == "ack"
    await c0.wait_seq(c1.seq)
    assert c0.view["deadlineSeat"] == 2 and len(events(c1, "timeout")) == 1
    # The room's log names every move the room made, and why.
    record = await quick.app.state.store.load(room_id)
    made = [(e["seat"], e["action"]["type"], e.get("by")) for e in record.deal if "seat" in e]
    assert made[:2] == [(0, "draw", "timeout"), (1, "play", None)]
    await c0.close()
    await c1.close()


async def test_the_time_bank_pays_for_a_turn_past_the_turn_seconds(quick: Server) -> None:
    room_id, seat_tokens, _ = await seat_room(
        quick, SETUP, turnSeconds=1, seat_extra={"bank": 2000}
    )
    c0 = await quick.connect(room_id, seat_tokens[0])
    start = c0.view["deadline"] - 3000  # turn seconds plus the whole bank
    await asyncio.sleep(1.5)
    ref = await c0.act({"type": "play", "cards": ["R1"]})
    ack = await c0.outcome(ref)
    assert ack["type"] == "ack"
    await c0.wait_seq(ack["seq"])
    # Spent: the part of the turn past its second (about half a second here).
    bank = c0.view["players"][0]["bank"]
    assert 0 < bank < 2000, (bank, start)
    assert c0.view["players"][1]["bank"] == 2000
    await c0.close()


# Absent seats and the autopilot


async def test_a_seat_disconnected_past_absent_after_is_away_and_played_until_it_returns(
    quick: Server,
) -> None:
    room_id, seat_tokens, _ = await seat_room(quick, SETUP, absentAfter=1)
    watcher = await quick.connect(room_id, seat_tokens[1])
    gone = await quick.connect(room_id, seat_tokens[0])
    await gone.close()
    await until(lambda: events(watcher, "away"))
    assert events(watcher, "away") == [{"type": "away", "seat": 0, "reason": "absent"}]
    await until(lambda: events(watcher, "auto"))
    assert events(watcher, "auto")[0] == {"type": "auto", "seat": 0, "by": "autopilot"}
    assert watcher.view["players"][0]["away"] is True and watcher.view["turn"] != 0
    back = await quick.connect(room_id, seat_tokens[0])
    await watcher.wait_seq(back.seq)
    assert back.view["players"][0]["away"] is False
    assert {"type": "back", "seat": 0} in watcher.events
    await back.close()
    await watcher.close()


async def test_two_timeouts_in_a_row_make_a_seat_away_until_i_am_back(quick: Server) -> None:
    setup = {**SETUP, "hands": [["R1", "R2"], ["G2", "B4"]], "drawPile": ["Y1", "Y2", "Y3"]}
    room_id, seat_tokens, _ = await seat_room(quick, setup, players=2, turnSeconds=1)
    c0 = await quick.connect(room_id, seat_tokens[0])
    c1 = await quick.connect(room_id, seat_tokens[1])
    await until(lambda: {"type": "away", "seat": 0, "reason": "timeouts"} in c1.events)
    await c0.wait_seq(c1.seq)
    assert c0.view["players"][0]["away"] is True
    # "I'm back" over the socket: an action of type "back".
    ref = await c0.act({"type": "back"})
    assert (await c0.outcome(ref))["type"] == "ack"
    await c0.wait_seq((await c0.outcome(ref))["seq"])
    assert c0.view["players"][0]["away"] is False
    ref = await c0.act({"type": "back"})
    assert (await c0.outcome(ref))["code"] == "not_away"
    # And over REST.
    url = f"/api/rooms/{room_id}/back"
    r = await quick.http.post(url, headers=bearer(seat_tokens[0]))
    assert r.status_code == 409 and r.json()["code"] == "not_away"
    r = await quick.http.post(url)
    assert r.status_code == 401 and r.json()["code"] == "missing_token"
    r = await quick.http.post(url, headers=bearer("nobody"))
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    spectator = await quick.connect(room_id)
    ref = await spectator.act({"type": "back"})
    assert (await spectator.outcome(ref))["code"] == "spectator"
    for client in (c0, c1, spectator):
        await client.close()


async def test_a_present_player_of_two_may_claim_the_win_from_an_away_opponent(
    quick: Server,
) -> None:
    setup = {**SETUP, "hands": [["R1", "R2"], ["G2", "B4"]], "turn": 1}
    room_id, seat_tokens, _ = await seat_room(quick, setup, players=2, absentAfter=1)
    c0 = await quick.connect(room_id, seat_tokens[0])
    url = f"/api/rooms/{room_id}/claim"
    r = await quick.http.post(url, headers=bearer(seat_tokens[0]))
    assert r.status_code == 409 and r.json()["code"] == "cannot_claim"
    c1 = await quick.connect(room_id, seat_tokens[1])
    await c1.close()
    await until(lambda: c0.view["players"][1]["away"])
    r = await quick.http.post(url, headers=bearer(seat_tokens[0]))
    assert r.status_code == 204, r.text
    await until(lambda: c0.view["phase"] == "matchOver")
    assert c0.view["winner"] == 0 and c0.view["room"]["ended"]["reason"] == "claim"
    assert {"type": "matchEnded", "reason": "claim", "winner": 0} in c0.events
    await c0.close()


# Leaving and kicking mid-match


async def test_a_player_who_leaves_mid_match_is_replaced_by_a_bot_that_plays_on(
    quick: Server,
) -> None:
    room_id, seat_tokens, _ = await seat_room(quick, SETUP)
    c1 = await quick.connect(room_id, seat_tokens[1])
    c0 = await quick.connect(room_id, seat_tokens[0])
    r = await quick.http.post(f"/api/rooms/{room_id}/leave", headers=bearer(seat_tokens[0]))
    assert r.status_code == 204
    await asyncio.wait_for(c0._reader, timeout=5)
    assert c0.ws.close_code == 4001
    await until(lambda: events(c1, "auto"))
    assert events(c1, "auto")[0] == {"type": "auto", "seat": 0, "by": "bot"}
    seat0 = c1.view["players"][0]
    assert seat0["left"] is True and seat0["bot"] == "normal" and seat0["name"] == "p0"
    r = await quick.http.post(f"/api/rooms/{room_id}/back", headers=bearer(seat_tokens[0]))
    assert r.status_code == 403
    await c1.close()


async def test_the_host_kicks_mid_match_and_the_kicked_name_is_banned(quick: Server) -> None:
    room, seats = await quick.table(3)
    room_id = room["roomId"]
    c0 = await quick.connect(room_id, seats[0]["token"])
    r = await quick.http.post(
        f"/api/rooms/{room_id}/kick", json={"seat": 2}, headers=bearer(room["hostToken"])
    )
    assert r.status_code == 204
    await until(lambda: c0.view["players"][2]["left"])
    assert c0.view["room"]["bans"] == ["p2"] and c0.view["players"][2]["bot"] == "normal"
    r = await quick.http.post(
        f"/api/rooms/{room_id}/kick", json={"seat": 2}, headers=bearer(room["hostToken"])
    )
    assert r.status_code == 409 and r.json()["code"] == "seat_left"
    await c0.close()


# Bots, rematch


async def test_one_person_and_three_bots_play_a_match_then_play_again(quick: Server) -> None:
    room = await quick.create(seats=4, rules={"matchMode": "oneAndDone"})
    room_id, host = room["roomId"], bearer(room["hostToken"])
    me = await quick.join(room_id, "me")
    url = f"/api/rooms/{room_id}/bots"
    r = await quick.http.post(url, json={"level": "bogus"}, headers=host)
    assert r.status_code == 422
    r = await quick.http.post(url, json={"level": "hard"}, headers=bearer(me["token"]))
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    for level, seat in (("easy", 1), ("normal", 2), ("hard", 3)):
        r = await quick.http.post(url, json={"level": level}, headers=host)
        assert r.status_code == 201 and r.json() == {"seat": seat}
    r = await quick.http.post(url, json={"level": "easy"}, headers=host)
    assert r.status_code == 409 and r.json()["code"] == "room_full"
    await quick.start(room_id, room["hostToken"])
    r = await quick.http.post(url, json={"level": "easy"}, headers=host)
    assert r.status_code == 409 and r.json()["code"] == "match_in_progress"
    client = await quick.connect(room_id, me["token"])
    rng = random.Random(3)
    first_match = client.view["room"]["matchId"]
    async with asyncio.timeout(60):
        while client.view["phase"] != "matchOver":
            view = client.view
            if view["turn"] == view["you"] and view["legal"] and view["phase"] != "dealOver":
                ref = await client.act(bot_action(view, rng) or view["legal"][0])
                await client.outcome(ref)
            else:
                await asyncio.sleep(0.01)
    bots_moved = {e["seat"] for e in events(client, "auto")}
    assert bots_moved == {1, 2, 3}
    # Play again: the host starts a new match with the same seats, bots included.
    await quick.start(room_id, room["hostToken"])
    await until(lambda: client.view["room"]["matchId"] != first_match)
    assert client.view["phase"] != "matchOver"
    assert [p["bot"] for p in client.view["players"]] == [None, "easy", "normal", "hard"]
    await client.close()


# The host role


async def test_the_host_role_passes_to_the_longest_seated_person_present(quick: Server) -> None:
    room = await quick.create(seats=4)
    room_id = room["roomId"]
    a = await quick.join(room_id, "a")
    b = await quick.join(room_id, "b")
    c = await quick.join(room_id, "c")
    cb = await quick.connect(room_id, b["token"])
    cc = await quick.connect(room_id, c["token"])
    assert cb.view["room"]["hostSeat"] == 0
    r = await quick.http.post(f"/api/rooms/{room_id}/leave", headers=bearer(a["token"]))
    assert r.status_code == 204
    await until(lambda: events(cb, "host"))
    assert events(cb, "host") == [{"type": "host", "seat": 1, "name": "b"}]
    assert cb.view["room"]["hostSeat"] == 1
    start = f"/api/rooms/{room_id}/start"
    r = await quick.http.post(start, headers=bearer(room["hostToken"]))
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = await quick.http.post(start, headers=bearer(c["token"]))
    assert r.status_code == 403
    r = await quick.http.post(start, headers=bearer(b["token"]))
    assert r.status_code == 200
    await cb.close()
    await cc.close()


# Settings


async def test_timer_settings_are_checked_and_shown(quick: Server) -> None:
    room = await quick.create(turnSeconds=30, timeBank=60, absentAfter=10)
    info = (await quick.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert (info["turnSeconds"], info["timeBank"], info["absentAfter"]) == (30, 60, 10)
    url = f"/api/rooms/{room['roomId']}"
    host = bearer(room["hostToken"])
    r = await quick.http.patch(url, json={"turnSeconds": "off"}, headers=host)
    assert r.status_code == 200 and r.json()["turnSeconds"] == "off"
    for bad in (
        {"turnSeconds": 4},
        {"turnSeconds": 301},
        {"turnSeconds": "soon"},
        {"timeBank": -1},
        {"timeBank": 301},
        {"absentAfter": 4},
        {"absentAfter": 601},
    ):
        r = await quick.http.patch(url, json=bad, headers=host)
        assert r.status_code == 422 and r.json()["code"] == "invalid_request", bad
        r = await quick.http.post("/api/rooms", json={"name": "x", **bad})
        assert r.status_code == 422, bad
    info = (await quick.http.get(url)).json()
    assert (info["turnSeconds"], info["timeBank"], info["absentAfter"]) == ("off", 60, 10)


# Empty rooms


async def test_a_room_nobody_is_connected_to_ends_and_leaves_the_live_store(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(
        store_kind,
        tmp_path,
        timer_poll_seconds=0.1,
        empty_room_seconds=1.0,
        empty_lobby_seconds=1.0,
    ) as server:
        lobby_room = await server.create(name="lonely")
        listed = (await server.http.get("/api/rooms")).json()
        assert lobby_room["roomId"] in [r["roomId"] for r in listed]
        room, seats = await server.table(2)
        client = await server.connect(room["roomId"], seats[0]["token"])
        watcher = await server.connect(room["roomId"])
        await client.close()
        await asyncio.wait_for(watcher._reader, timeout=10)
        assert watcher.ws.close_code == 4002
        assert {"type": "roomEnded", "reason": "empty"} in watcher.events
        assert watcher.view["phase"] == "matchOver"
        for room_id in (room["roomId"], lobby_room["roomId"]):
            async with asyncio.timeout(10):
                while (await server.http.get(f"/api/rooms/{room_id}")).status_code != 404:
                    await asyncio.sleep(0.05)
        assert (await server.http.get("/api/rooms")).json() == []
        # The match is archived as it stood.
        match_id = watcher.view["room"]["matchId"]
        async with asyncio.timeout(10):
            while (r := await server.http.get(f"/api/matches/{match_id}")).status_code != 200:
                await asyncio.sleep(0.1)
        assert len(r.json()["deals"]) == 1


# Bots' claims go through the claim windows (fairRaces) as people's do


UNO_DUE = {**SETUP, "hands": [["R1", "R2"], ["G2", "B4", "Y5"], ["B3", "Y7", "G9"]]}


async def test_a_bots_catch_is_held_in_a_claim_window_and_carries_the_race_event(
    quick: Server,
) -> None:
    room_id, seat_tokens, _ = await seat_room(quick, UNO_DUE, bots={1: "normal"})
    c0 = await quick.connect(room_id, seat_tokens[0])
    ref = await c0.act({"type": "play", "cards": ["R1"]})  # one card left, no UNO call
    assert (await c0.outcome(ref))["type"] == "ack"
    await until(lambda: events(c0, "race"))
    (race,) = events(c0, "race")
    assert race["winner"] == 1 and race["window"] >= 0
    (claim,) = race["claims"]
    assert claim["seat"] == 1 and claim["type"] == "catchUno" and claim["rank"] == 1
    assert claim["reaction"] is not None and claim["reaction"] >= 0
    assert {"type": "auto", "seat": 1, "by": "bot"} in c0.events
    await until(lambda: len(c0.view["hand"]) == 3)  # caught: two penalty cards
    record = await quick.app.state.store.load(room_id)
    made = [(e["seat"], e["action"]["type"], e.get("by")) for e in record.deal if "seat" in e]
    assert (1, "catchUno", "bot") in made
    await c0.close()
