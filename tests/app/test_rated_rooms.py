"""Seats of accounts and rated rooms, over real sockets: a bearer's seat is the account's
(name, rating), a guest's seat is as it always was, and a rated match's end changes the
ratings of its account seats once, shown per match and on the profiles."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from live import Server
from test_full_game import archived_match, play_to_the_end


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _sign_up(server: Server, name: str) -> dict[str, Any]:
    r = await server.http.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def _join(server: Server, room_id: str, token: str, name: str = "ignored") -> dict[str, Any]:
    r = await server.http.post(
        f"/api/rooms/{room_id}/join", json={"name": name}, headers=_auth(token)
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


async def test_an_account_seat_shows_its_name_and_rating_and_a_guest_seat_none(
    server: Server,
) -> None:
    anna = await _sign_up(server, "Anna")
    room = await server.create(seats=3)
    seat = await _join(server, room["roomId"], anna["token"], name="whatever")
    assert seat["playerId"] == anna["playerId"]
    guest = await server.join(room["roomId"], "Guest")
    assert guest["playerId"] != anna["playerId"]
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert [(p["name"], p["rating"]) for p in info["players"]] == [
        ("Anna", {"value": 1500, "provisional": True, "games": 0}),
        ("Guest", None),
    ]
    client = await server.connect(room["roomId"], guest["token"])
    players = client.view["players"]
    assert players[0]["name"] == "Anna" and players[0]["rating"]["value"] == 1500
    assert players[1]["rating"] is None
    # The view never holds the account's token (nor the seat's).
    assert anna["token"] not in str(client.view) and seat["token"] not in str(client.view)
    await client.close()


async def test_an_account_holds_one_seat_per_room_and_a_bad_bearer_is_refused(
    server: Server,
) -> None:
    ben = await _sign_up(server, "Ben")
    room = await server.create(seats=3)
    await _join(server, room["roomId"], ben["token"])
    again = await server.http.post(
        f"/api/rooms/{room['roomId']}/join", json={"name": "Ben"}, headers=_auth(ben["token"])
    )
    assert again.status_code == 409 and again.json()["code"] == "account/already_seated"
    bad = await server.http.post(
        f"/api/rooms/{room['roomId']}/join", json={"name": "x"}, headers=_auth("not-a-token")
    )
    assert bad.status_code == 401 and bad.json()["code"] == "account/bad_token"
    by_code = await server.http.post(
        "/api/rooms/join", json={"name": "x", "code": room["code"]}, headers=_auth(ben["token"])
    )
    assert by_code.status_code == 409 and by_code.json()["code"] == "account/already_seated"
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert [p["name"] for p in info["players"]] == ["Ben"]


async def _ratings(server: Server, match_id: str) -> dict[str, Any]:
    async with asyncio.timeout(20):
        while True:
            r = (await server.http.get(f"/api/matches/{match_id}/ratings")).json()
            if r["rated"]:
                return dict(r)
            await asyncio.sleep(0.05)


async def _play_match(
    server: Server, rated: bool, tokens: list[str | None]
) -> tuple[str, list[dict[str, Any]]]:
    room = await server.create(seats=len(tokens), rules={"preset": "oneAndDone"}, rated=rated)
    seats = []
    for i, token in enumerate(tokens):
        if token is None:
            seats.append(await server.join(room["roomId"], f"guest{i}"))
        else:
            seats.append(await _join(server, room["roomId"], token))
    await server.start(room["roomId"], room["hostToken"])
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    for client in clients:
        await client.wait_seq(clients[-1].seq)
    await play_to_the_end(clients, random.Random(5))
    view = clients[0].view
    assert view["phase"] == "matchOver"
    match_id = view["room"]["matchId"]
    for client in clients:
        await client.close()
    return match_id, seats


async def test_a_rated_match_changes_its_account_seats_ratings(fast_server: Server) -> None:
    server = fast_server
    cleo, dora = await _sign_up(server, "Cleo"), await _sign_up(server, "Dora")
    match_id, seats = await _play_match(server, True, [cleo["token"], dora["token"], None])
    rated = await _ratings(server, match_id)
    changes = {c["seat"]: c for c in rated["seats"]}
    assert sorted(changes) == [0, 1]  # the guest's seat is not rated
    match = await archived_match(server, match_id, 1)
    winner = match["winner"]
    for seat, change in changes.items():
        assert change["ratingBefore"] == 1500 and change["games"] == 1
        if seat == winner:
            assert change["place"] == 1 and change["ratingAfter"] > 1500
    profile = (await server.http.get("/api/players/cleo")).json()
    assert profile["name"] == "Cleo"
    assert profile["ratings"]["classic"]["games"] == 1
    assert profile["ratings"]["classic"]["value"] == changes[0]["ratingAfter"]
    assert profile["stats"]["matches"] == 1 and profile["stats"]["deals"] == 1
    assert profile["stats"]["cardsPlayed"] > 0
    assert profile["stats"]["wins"] == (1 if winner == 0 else 0)
    [recent] = profile["recent"]
    assert recent["matchId"] == match_id
    assert recent["ratingBefore"] == 1500 and recent["ratingAfter"] == changes[0]["ratingAfter"]
    me = (await server.http.get("/api/me", headers=_auth(cleo["token"]))).json()
    assert me["ratings"]["classic"]["games"] == 1
    # The next seat of the account shows the new rating.
    room = await server.create(seats=2)
    await _join(server, room["roomId"], cleo["token"])
    info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
    assert info["players"][0]["rating"]["value"] == changes[0]["ratingAfter"]


async def test_an_unrated_room_leaves_the_ratings_alone(fast_server: Server) -> None:
    server = fast_server
    emil, fran = await _sign_up(server, "Emil"), await _sign_up(server, "Fran")
    match_id, _ = await _play_match(server, False, [emil["token"], fran["token"]])
    await archived_match(server, match_id, 1)
    r = (await server.http.get(f"/api/matches/{match_id}/ratings")).json()
    assert r == {"matchId": match_id, "rated": False, "seats": []}
    profile = (await server.http.get("/api/players/Emil")).json()
    assert profile["ratings"]["classic"]["games"] == 0
    assert profile["stats"]["matches"] == 1
    assert profile["recent"][0]["ratingBefore"] is None
