"""House rules over the server: a misplay's penalty card is a change of its own, and the
house-rule presets play to a deal's end over real sockets."""

from __future__ import annotations

from live import SETUP, Server
from test_tables import events, seat_room, until


async def test_a_misplay_is_refused_and_its_penalty_card_is_a_change_of_its_own(
    fast_server: Server,
) -> None:
    server = fast_server
    room = await server.create(rules={"preset": "classic", "misplayPenalty": True}, seats=2)
    seats = [await server.join(room["roomId"], f"p{i}") for i in range(2)]
    await server.start(room["roomId"], room["hostToken"])
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    for client in clients:
        await client.wait_seq(clients[-1].seq)
    view = clients[0].view
    waiting = clients[1 - view["turn"]] if view["phase"] == "playing" else clients[0]
    before = waiting.view
    seq = waiting.seq
    card = before["hand"][0]
    ref = await waiting.act({"type": "play", "cards": [card], "color": "R"})
    outcome = await waiting.outcome(ref, timeout=20)
    assert outcome["type"] == "error"
    assert outcome["code"] in ("not_your_turn", "wrong_phase")
    if outcome["code"] == "wrong_phase":
        return  # the first card asked for a colour: no play phase to misplay in
    await waiting.wait_seq(seq + 1, timeout=20)
    after = waiting.view
    assert len(after["hand"]) == len(before["hand"]) + 1
    assert after["turn"] == before["turn"] and after["top"] == before["top"]
    misplays = [e for e in waiting.events if e["type"] == "misplay"]
    assert misplays and misplays[-1]["seat"] == before["you"]
    for client in clients:
        await client.close()


async def test_shuffle_seats_seats_the_players_anew_at_the_start_and_tokens_follow(
    fast_server: Server,
) -> None:
    server = fast_server
    room = await server.create(rules={"preset": "classic", "shuffleSeats": True}, seats=4)
    seats = [await server.join(room["roomId"], f"p{i}") for i in range(4)]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    await server.start(room["roomId"], room["hostToken"])
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    for client in clients:
        await client.wait_seq(clients[-1].seq)
    names = [p["name"] for p in clients[0].view["players"]]
    assert sorted(names) == ["p0", "p1", "p2", "p3"]
    for index, client in enumerate(clients):
        # Each token still proves its player's seat, wherever that player now sits.
        assert names[client.view["you"]] == f"p{index}"
    for client in clients:
        await client.close()


# placings and blitzSeconds over real sockets (docs/rules.md "Placings", "Blitz")


async def test_placings_a_seat_out_of_the_deal_shows_its_place_and_the_bots_play_on(
    quick: Server,
) -> None:
    setup = {**SETUP, "hands": [["R1"], ["G2", "B4", "Y5"], ["B3", "Y7", "G9"]]}
    room_id, seat_tokens, _ = await seat_room(
        quick, setup, rules={"placings": True}, bots={1: "normal", 2: "normal"}
    )
    c0 = await quick.connect(room_id, seat_tokens[0])
    ref = await c0.act({"type": "play", "cards": ["R1"]})
    assert (await c0.outcome(ref))["type"] == "ack"
    await until(lambda: c0.view["phase"] != "playing" or c0.view["moves"] > 2)
    assert {"type": "placed", "seat": 0, "place": 1} in events(c0, "placed")
    if c0.view["phase"] == "playing":
        me = c0.view["players"][0]
        assert me["out"] and me["place"] == 1 and c0.view["legal"] == []
        assert c0.view["turn"] != 0
    # The two bots play the deal out; its end places every seat.
    await until(lambda: c0.view["phase"] in ("dealOver", "matchOver"), timeout=30)
    assert sorted(p["place"] for p in c0.view["players"]) == [1, 2, 3]
    assert c0.view["winner"] == 0
    await c0.close()


async def test_blitz_a_seat_whose_match_clock_runs_out_ends_the_match(quick: Server) -> None:
    room_id, seat_tokens, _ = await seat_room(
        quick,
        SETUP,
        rules={"blitzSeconds": 60},
        seat_extra={"blitz": 60_000},
        seat_updates={1: {"blitz": 500}},  # seat 1 is nearly out of time
    )
    c0 = await quick.connect(room_id, seat_tokens[0])
    c1 = await quick.connect(room_id, seat_tokens[1])
    await c0.wait_seq(c1.seq)
    assert [p["blitz"] for p in c0.view["players"]][0] == 60_000
    # No client may send the clock's word.
    ref = await c0.act({"type": "clockOut"})
    outcome = await c0.outcome(ref)
    assert outcome["type"] == "error" and outcome["code"] == "room_only"
    # Seat 0 plays; its decision is charged to its match clock.
    ref = await c0.act({"type": "play", "cards": ["R1"]})
    assert (await c0.outcome(ref))["type"] == "ack"
    await c1.wait_seq(c0.seq)
    assert 0 < c1.view["players"][0]["blitz"] < 60_000
    assert c1.view["deadlineSeat"] == 1
    await until(lambda: events(c1, "clockOut"), timeout=20)
    await c1.wait_seq(c0.seq)
    assert events(c1, "clockOut") == [{"type": "clockOut", "seat": 1}]
    await until(lambda: c1.view["phase"] == "matchOver")
    assert c1.view["winner"] != 1 and c1.view["players"][1]["blitz"] == 0
    record = await quick.app.state.store.load(room_id)
    made = [(e["seat"], e["action"]["type"], e.get("by")) for e in record.deal if "seat" in e]
    assert made[-1] == (1, "clockOut", "clock")
    await c0.close()
    await c1.close()
