"""House rules over the server: a misplay's penalty card is a change of its own, and the
house-rule presets play to a deal's end over real sockets."""

from __future__ import annotations

from live import Server


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
