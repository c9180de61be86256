"""Chat and reactions over the room socket: relayed to the room at once, no game change
(no seq), limited in length and rate, a spectator's only to spectators, and the host's
mute holds."""

from __future__ import annotations

import asyncio

from live import Server


async def test_chat_reaches_the_room_without_a_change_and_spectators_talk_apart(
    server: Server,
) -> None:
    room, seats = await server.table(2)
    anna = await server.connect(room["roomId"], seats[0]["token"])
    ben = await server.connect(room["roomId"], seats[1]["token"])
    watcher = await server.connect(room["roomId"])
    await anna.wait_seq(ben.seq)
    seq = ben.seq
    await anna.send({"type": "chat", "text": "  <b>hi</b>\x07 "})
    for client in (anna, ben, watcher):
        said = await client.expect("chat")
        assert said["text"] == "<b>hi</b>" and said["seat"] == 0 and said["name"] == "p0"
        assert said["spectator"] is False
    await ben.send({"type": "react", "emote": "laugh"})
    reaction = await anna.expect("reaction")
    assert reaction["emote"] == "laugh" and reaction["seat"] == 1
    await watcher.send({"type": "chat", "text": "from the rail"})
    heard = await watcher.expect("chat")
    assert heard["spectator"] is True and heard["seat"] is None
    await ben.send({"type": "ping"})
    await ben.expect("pong")
    assert not any(m.get("text") == "from the rail" for m in ben.messages)
    assert ben.seq == seq and anna.seq == seq  # no change of the room
    for client in (anna, ben, watcher):
        await client.close()


async def test_chat_is_limited_in_length_and_rate_and_the_host_mutes(server: Server) -> None:
    room, seats = await server.table(2)
    anna = await server.connect(room["roomId"], seats[0]["token"])
    ben = await server.connect(room["roomId"], seats[1]["token"])
    await ben.send({"type": "chat", "text": "x" * 201})
    assert (await ben.expect("error"))["code"] == "chat_too_long"
    await ben.send({"type": "react", "emote": "rofl"})
    assert (await ben.expect("error"))["code"] == "bad_emote"
    for _ in range(3):  # 5 in 10 s: two were spent above
        await ben.send({"type": "chat", "text": "hello"})
    await ben.send({"type": "chat", "text": "one too many"})
    assert (await ben.expect("error"))["code"] == "chat_rate"
    r = await server.http.post(
        f"/api/rooms/{room['roomId']}/mute",
        json={"seat": 0},
        headers={"Authorization": f"Bearer {room['hostToken']}"},
    )
    assert r.status_code == 204, r.text
    await anna.expect("patch")
    assert anna.view["room"]["muted"] == [0]
    await anna.send({"type": "chat", "text": "let me talk"})
    assert (await anna.expect("error"))["code"] == "muted"
    await asyncio.sleep(0)
    await anna.close()
    await ben.close()
