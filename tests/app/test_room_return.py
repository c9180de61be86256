"""What a returning browser table needs from the server: a preset's player range shapes
the seats, the join answer names the code, a started room's code leads to watching, the
current deal's events come back after a reload, and only the host (or every person at the
table) deals the next deal."""

from __future__ import annotations

from typing import Any

from live import Server, seeded_room

# Seat 0 goes out with its last card: the deal ends on the first action.
ENDING = {
    "hands": [["R1"], ["G2", "B4", "Y5"], ["B3", "Y7", "G9"]],
    "discard": ["R5"],
    "color": "R",
    "drawPile": ["Y1", "Y2", "Y3", "Y4", "Y6", "Y8"],
    "turn": 0,
}


def _host(room: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {room['hostToken']}"}


async def test_a_preset_that_cannot_seat_the_room_is_refused_at_create_and_patch(
    server: Server,
) -> None:
    r = await server.http.post(
        "/api/rooms", json={"name": "d", "seats": 4, "rules": {"preset": "duo"}}
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_seats", r.text
    room = await server.create(seats=4)
    url = f"/api/rooms/{room['roomId']}"
    r = await server.http.patch(url, json={"rules": {"preset": "duo"}}, headers=_host(room))
    assert r.status_code == 422 and r.json()["code"] == "bad_seats", r.text
    assert (await server.http.get(url)).json()["rules"]["preset"] == "classic"  # unchanged
    r = await server.http.patch(
        url, json={"rules": {"preset": "duo"}, "seats": 2}, headers=_host(room)
    )
    assert r.status_code == 200 and r.json()["seats"] == 2, r.text
    r = await server.http.patch(url, json={"seats": 3}, headers=_host(room))
    assert r.status_code == 422 and r.json()["code"] == "bad_seats"
    facts = (await server.http.get("/api/rules")).json()["presetFacts"]
    assert facts["duo"]["players"] == [2, 2] and facts["classic"]["options"] is None
    assert "stacking" not in facts["rommy"]["options"]


async def test_teams_that_cannot_divide_the_seats_are_refused_at_create_and_patch(
    server: Server,
) -> None:
    rules = {"preset": "classic", "teams": 2}
    r = await server.http.post("/api/rooms", json={"name": "t", "seats": 5, "rules": rules})
    assert r.status_code == 422 and r.json()["code"] == "rules/clash", r.text
    assert "teams 2" in r.json()["message"] and "5 seats" in r.json()["message"]
    room = await server.create(seats=3)
    url = f"/api/rooms/{room['roomId']}"
    r = await server.http.patch(url, json={"rules": rules}, headers=_host(room))
    assert r.status_code == 422 and r.json()["code"] == "rules/clash", r.text
    assert not (await server.http.get(url)).json()["rules"].get("teams")  # unchanged
    r = await server.http.patch(url, json={"rules": rules, "seats": 4}, headers=_host(room))
    assert r.status_code == 200 and r.json()["seats"] == 4, r.text
    r = await server.http.patch(url, json={"seats": 5}, headers=_host(room))
    assert r.status_code == 422 and r.json()["code"] == "rules/clash"
    r = await server.http.patch(url, json={"rules": {**rules, "teams": 3}}, headers=_host(room))
    assert r.status_code == 422 and "teams 3" in r.json()["message"]


async def test_the_join_answer_names_the_code_and_a_started_rooms_code_says_which_room(
    server: Server,
) -> None:
    room, seats = await server.table(2)
    assert all(s["code"] == room["code"] for s in seats)
    r = await server.http.post("/api/rooms/join", json={"name": "late", "code": room["code"]})
    assert r.status_code == 409
    assert r.json()["code"] == "match_in_progress" and r.json()["roomId"] == room["roomId"]


async def test_the_current_deals_events_come_back_as_their_viewer_may_see_them(
    server: Server,
) -> None:
    room, seats = await server.table(2)
    player = await server.connect(room["roomId"], seats[0]["token"])
    other = await server.connect(room["roomId"], seats[1]["token"])
    await player.wait_seq(other.seq)
    mover = player if player.view["turn"] == player.view["you"] else other
    ref = await mover.act({"type": "draw"})
    seq = (await mover.outcome(ref))["seq"]
    url = f"/api/rooms/{room['roomId']}/events"
    token = seats[0]["token"] if mover is player else seats[1]["token"]
    mine = (await server.http.get(url, headers={"Authorization": f"Bearer {token}"})).json()
    public = (await server.http.get(url)).json()
    assert mine["seq"] >= seq and [e["type"] for e in public["events"]][:2] == ["deal", "firstCard"]
    drawn = [e for e in mine["events"] if e["type"] == "draw"]
    seen = [e for e in public["events"] if e["type"] == "draw"]
    assert drawn and drawn[0]["seq"] == seq and drawn[0]["cards"]  # the seat sees its card
    assert seen and "cards" not in seen[0]  # a spectator only the count
    await player.close()
    await other.close()


async def test_a_room_without_a_host_seat_deals_on_at_any_seats_word(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {"targetScore": 1000}, ENDING)
    clients = [await server.connect(room_id, t) for t in tokens]
    ref = await clients[0].act({"type": "play", "cards": ["R1"]})
    ended = (await clients[0].outcome(ref))["seq"]
    for c in clients:
        await c.wait_seq(ended)
    assert clients[1].view["phase"] == "dealOver"
    # No host seat: anyone deals on, as before.
    ref = await clients[2].act({"type": "nextDeal"})
    ack = await clients[2].outcome(ref)
    assert ack["type"] == "ack"
    await clients[0].wait_seq(ack["seq"])
    assert clients[0].view["deal"] == 2
    for c in clients:
        await c.close()


# The tests that play a whole deal act as fast as the server answers, faster than a
# socket's rate limit allows (an action dropped by it has no ref to answer): fast_server.


async def test_a_guest_says_ready_and_the_host_deals_on(fast_server: Server) -> None:
    server = fast_server
    room, seats = await server.table(3, rules={"targetScore": 1000, "matchMode": "points"})
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    for c in clients:
        await c.wait_seq(max(x.seq for x in clients))
    await _end_deal(clients)
    ref = await clients[1].act({"type": "nextDeal"})
    ack = await clients[1].outcome(ref)
    assert ack["type"] == "ack"
    await clients[0].wait_seq(ack["seq"])
    view = clients[0].view
    assert view["phase"] == "dealOver" and view["room"]["ready"] == [1]
    assert {"type": "ready", "seat": 1} in clients[0].events
    # Everyone but the host is ready, then the host deals.
    ref = await clients[2].act({"type": "nextDeal"})
    ack = await clients[2].outcome(ref)
    await clients[0].wait_seq(ack["seq"])
    assert clients[0].view["phase"] == "dealOver" and clients[0].view["room"]["ready"] == [1, 2]
    ref = await clients[0].act({"type": "nextDeal"})
    ack = await clients[0].outcome(ref)
    await clients[1].wait_seq(ack["seq"])
    assert clients[1].view["deal"] == 2 and clients[1].view["room"]["ready"] == []
    for c in clients:
        await c.close()


async def test_every_guest_and_the_host_ready_deals_on_without_the_host_button(
    fast_server: Server,
) -> None:
    server = fast_server
    room, seats = await server.table(2, rules={"targetScore": 1000})
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    await _end_deal(clients)
    # The host is gone from the table (socket closed): the one person left deals on.
    await clients[0].close()
    ref = await clients[1].act({"type": "nextDeal"})
    ack = await clients[1].outcome(ref)
    assert ack["type"] == "ack"
    await clients[1].wait_seq(ack["seq"])
    assert clients[1].view["deal"] == 2
    await clients[1].close()


async def _end_deal(clients: list[Any]) -> None:
    """Play until the deal ends (first legal play, else draw, else pass)."""
    for _ in range(3000):
        seq = max(c.seq for c in clients)
        for c in clients:
            await c.wait_seq(seq)
        view = clients[0].view
        if view["phase"] in ("dealOver", "matchOver"):
            return
        actor = next(c for c in clients if c.view["legal"] and c.view["you"] == view["turn"])
        legal = actor.view["legal"]
        plays = [a for a in legal if a["type"] in ("play", "chooseColor")]
        action = dict((plays or [a for a in legal if a["type"] == "draw"] or legal)[0])
        if action["type"] == "play":
            if "color" in (action.get("needs") or []):
                action["color"] = action["colors"][0]
            action.pop("needs", None)
            action.pop("colors", None)
            if len(actor.view["hand"]) == 2:
                action["uno"] = True
        ref = await actor.act(action)
        outcome = await actor.outcome(ref)
        assert outcome["type"] == "ack", (action, outcome)
    raise AssertionError("the deal did not end")
