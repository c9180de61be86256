"""REST for rooms (docs/protocol.md) against a live server, for each room store."""

from __future__ import annotations

from live import Server


def _host(room: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {room['hostToken']}"}


async def test_create_answers_201_with_id_code_and_host_token(server: Server) -> None:
    r = await server.http.post(
        "/api/rooms",
        json={"name": "Friday", "rules": {"preset": "house"}, "seats": 4, "private": False},
    )
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"roomId", "code", "hostToken"}
    room = (await server.http.get(f"/api/rooms/{body['roomId']}")).json()
    assert room["name"] == "Friday" and room["seats"] == 4 and room["status"] == "lobby"
    assert room["rules"]["jumpIn"] is True
    assert "code" not in room and "host" not in room


async def test_the_lobby_lists_open_public_rooms_only(server: Server) -> None:
    public = await server.create(name="open", seats=2)
    private = await server.create(name="secret", private=True)
    full = await server.create(name="full", seats=2)
    await server.join(full["roomId"], "a")
    await server.join(full["roomId"], "b")
    listed = {r["roomId"] for r in (await server.http.get("/api/rooms")).json()}
    assert public["roomId"] in listed
    assert private["roomId"] not in listed
    assert full["roomId"] not in listed


async def test_join_gives_the_lowest_free_seat_and_a_token(server: Server) -> None:
    room = await server.create(seats=3)
    a = await server.join(room["roomId"], "Ann")
    b = await server.join(room["roomId"], "Ben")
    assert (a["seat"], b["seat"]) == (0, 1)
    assert a["token"] != b["token"] and len(a["token"]) >= 32
    assert a["token"] != room["hostToken"]


async def test_names_with_control_characters_are_refused(server: Server) -> None:
    # PostgreSQL cannot store NUL in text: such a name would fail every write carrying it.
    room = await server.create()
    for name in ["Ann\u0000", "Ann\nBen", "\u001b[31mAnn", "   "]:
        r = await server.http.post(f"/api/rooms/{room['roomId']}/join", json={"name": name})
        assert r.status_code == 422, name
        r = await server.http.post("/api/rooms", json={"name": name})
        assert r.status_code == 422, name
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert info["players"] == []
    assert (await server.join(room["roomId"], "Åse Ølund 🃏"))["seat"] == 0


async def test_a_full_room_refuses_with_a_code(server: Server) -> None:
    room = await server.create(seats=2)
    await server.join(room["roomId"], "a")
    await server.join(room["roomId"], "b")
    r = await server.http.post(f"/api/rooms/{room['roomId']}/join", json={"name": "c"})
    assert r.status_code == 409
    assert r.json()["code"] == "room_full" and r.json()["message"]


async def test_private_rooms_want_their_code(server: Server) -> None:
    room = await server.create(private=True)
    r = await server.http.post(f"/api/rooms/{room['roomId']}/join", json={"name": "x"})
    assert r.status_code == 403 and r.json()["code"] == "bad_code"
    ok = await server.join(room["roomId"], "x", code=room["code"])
    assert ok["seat"] == 0
    by_code = await server.http.post(
        "/api/rooms/join", json={"name": "y", "code": room["code"].lower()}
    )
    assert by_code.status_code == 201 and by_code.json()["roomId"] == room["roomId"]


async def test_only_the_host_starts_and_only_with_two_players(server: Server) -> None:
    room = await server.create()
    seat = await server.join(room["roomId"], "a")
    url = f"/api/rooms/{room['roomId']}/start"
    r = await server.http.post(url, headers=_host(room))
    assert r.status_code == 409 and r.json()["code"] == "not_enough_players"
    await server.join(room["roomId"], "b")
    r = await server.http.post(url, headers={"Authorization": f"Bearer {seat['token']}"})
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = await server.http.post(url)
    assert r.status_code == 401 and r.json()["code"] == "missing_token"
    r = await server.http.post(url, headers=_host(room))
    assert r.status_code == 200
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert info["status"] == "playing"
    r = await server.http.post(url, headers=_host(room))
    assert r.status_code == 409 and r.json()["code"] == "match_in_progress"


async def test_seats_are_renumbered_at_the_start(server: Server) -> None:
    room = await server.create(seats=4)
    a = await server.join(room["roomId"], "a")
    b = await server.join(room["roomId"], "b")
    c = await server.join(room["roomId"], "c")
    r = await server.http.post(
        f"/api/rooms/{room['roomId']}/leave", headers={"Authorization": f"Bearer {b['token']}"}
    )
    assert r.status_code == 204
    await server.start(room["roomId"], room["hostToken"])
    client = await server.connect(room["roomId"], c["token"])
    assert client.view["you"] == 1
    assert [p["name"] for p in client.view["players"]] == ["a", "c"]
    await client.close()
    assert a["seat"] == 0


async def test_leaving_during_a_match_hands_the_seat_to_a_bot(server: Server) -> None:
    room, seats = await server.table(2)
    leave = f"/api/rooms/{room['roomId']}/leave"
    r = await server.http.post(leave, headers={"Authorization": f"Bearer {seats[0]['token']}"})
    assert r.status_code == 204
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert info["status"] == "playing"
    assert info["players"][0]["left"] is True and info["players"][0]["bot"] == "normal"
    # The token died with the seat.
    r = await server.http.post(leave, headers={"Authorization": f"Bearer {seats[0]['token']}"})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"


async def test_the_host_kicks_a_player_whose_token_then_dies(server: Server) -> None:
    room = await server.create(seats=3)
    await server.join(room["roomId"], "a")
    b = await server.join(room["roomId"], "b")
    r = await server.http.post(
        f"/api/rooms/{room['roomId']}/kick", json={"seat": 1}, headers=_host(room)
    )
    assert r.status_code == 204
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert [p["name"] for p in info["players"]] == ["a"]
    assert info["bans"] == ["b"]
    r = await server.http.post(
        f"/api/rooms/{room['roomId']}/leave", headers={"Authorization": f"Bearer {b['token']}"}
    )
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    # A kick is a ban: the name cannot take a seat again until the host lifts it.
    r = await server.http.post(f"/api/rooms/{room['roomId']}/join", json={"name": "B"})
    assert r.status_code == 403 and r.json()["code"] == "banned"
    unban = f"/api/rooms/{room['roomId']}/unban"
    r = await server.http.post(unban, json={"name": "b"}, headers=_host(room))
    assert r.status_code == 204
    r = await server.http.post(unban, json={"name": "b"}, headers=_host(room))
    assert r.status_code == 404 and r.json()["code"] == "not_banned"
    await server.join(room["roomId"], "b")
    r = await server.http.post(
        f"/api/rooms/{room['roomId']}/kick", json={"seat": 2}, headers=_host(room)
    )
    assert r.status_code == 404 and r.json()["code"] == "seat_empty"


async def test_the_host_changes_settings_before_the_start(server: Server) -> None:
    room = await server.create(seats=4)
    await server.join(room["roomId"], "a")
    await server.join(room["roomId"], "b")
    url = f"/api/rooms/{room['roomId']}"
    r = await server.http.patch(
        url, json={"name": "New", "rules": {"stacking": True}, "seats": 3}, headers=_host(room)
    )
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "New" and r.json()["rules"]["stacking"] is True
    r = await server.http.patch(url, json={"rules": {"bogus": 1}}, headers=_host(room))
    assert r.status_code == 422 and r.json()["code"] == "rules/unknown_option"
    r = await server.http.patch(url, json={"seats": 1}, headers=_host(room))
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    r = await server.http.patch(url, json={"name": "x"})
    assert r.status_code == 401
    await server.start(room["roomId"], room["hostToken"])
    r = await server.http.patch(url, json={"name": "Late"}, headers=_host(room))
    assert r.status_code == 409 and r.json()["code"] == "match_in_progress"


async def test_validation_errors_have_a_code_and_a_message(server: Server) -> None:
    r = await server.http.post("/api/rooms", json={"name": "", "seats": 11})
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "invalid_request" and body["message"]
    r = await server.http.post("/api/rooms", json={"name": "x", "rules": {"preset": "nope"}})
    assert r.status_code == 422 and r.json()["code"] == "rules/unknown_preset"
    r = await server.http.get("/api/rooms/nope")
    assert r.status_code == 404 and r.json() == {
        "code": "room_not_found",
        "message": "no room 'nope'",
    }


async def test_openapi_describes_every_room_route(server: Server) -> None:
    spec = (await server.http.get("/openapi.json")).json()
    paths = spec["paths"]
    for path in (
        "/api/rooms",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/join",
        "/api/rooms/{room_id}/start",
        "/api/rooms/{room_id}/leave",
        "/api/rooms/{room_id}/kick",
        "/api/rooms/join",
    ):
        assert path in paths, path


async def test_healthz_answers_200_once_rooms_are_accepted(server: Server) -> None:
    r = await server.http.get("/healthz")
    assert r.status_code == 200 and r.json()["status"] == "ok"


async def test_the_next_deal_delay_is_a_room_setting(server: Server) -> None:
    room = await server.create(nextDealDelay=20)
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert info["nextDealDelay"] == 20
    r = await server.http.patch(
        f"/api/rooms/{room['roomId']}", json={"nextDealDelay": 0}, headers=_host(room)
    )
    assert r.status_code == 200 and r.json()["nextDealDelay"] == 0
    r = await server.http.post("/api/rooms", json={"name": "x", "nextDealDelay": 9999})
    assert r.status_code == 422
