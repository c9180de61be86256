"""Chat and reactions over the room socket: relayed to the room at once, no game change
(no seq), limited in length and rate, a spectator's only to spectators, and the host's
mute holds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from live import Server
from own_redis import own_redis
from processes import AppProcess, connect, table


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


@pytest.mark.redis
async def test_chat_reaches_sockets_on_another_node(tmp_path: Path) -> None:
    """Two server processes on one Redis: a line said on one node reaches the seat whose
    socket is on the other (relayed to the nodes the room's document names). About 20 s
    on a loaded machine, nearly all of it the two processes starting: the one check that
    talk crosses nodes, which no in-process server can show."""
    with own_redis(tmp_path / "redis") as url:
        nodes = [
            AppProcess(
                tmp_path / name,
                "--redis",
                url,
                "--database",
                f"sqlite+aiosqlite:///{tmp_path / name}.db",
            )
            for name in ("a", "b")
        ]
        a, b = nodes
        try:
            await asyncio.gather(a.healthy(timeout=60), b.healthy(timeout=60))
            async with asyncio.timeout(60):
                async with httpx.AsyncClient(base_url=a.base, timeout=10) as http:
                    room_id, tokens = await table(http)
                on_a = await connect(a.base.replace("http", "ws"), room_id, tokens[0])
                on_b = await connect(b.base.replace("http", "ws"), room_id, tokens[1])
                await on_b.wait_seq(on_a.seq, timeout=10)
                await on_a.wait_seq(on_b.seq, timeout=10)
                await on_a.send({"type": "chat", "text": "across the nodes"})
                heard = await on_b.expect("chat", timeout=10)
                assert heard["text"] == "across the nodes" and heard["seat"] == 0
                await on_b.send({"type": "react", "emote": "gg"})
                assert (await on_a.expect("reaction", timeout=10))["emote"] == "gg"
                await on_a.close()
                await on_b.close()
        finally:
            for node in nodes:
                node.terminate()
            for node in nodes:
                await node.exited()
