"""Chat and reactions over the room socket: relayed to the room at once, no game change
(no seq), limited in length and rate, a spectator's only to spectators, and the host's
mute holds."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import websockets
from live import Server, running_server
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


async def _said(client: Any, text: str) -> str:
    """Say ``text`` on ``client``'s socket: "said" once it comes back relayed, else the
    code of the error that refused it."""
    await client.send({"type": "chat", "text": text})
    async with asyncio.timeout(5):
        while True:
            message = await client.inbox.get()
            if message["type"] == "error":
                return str(message["code"])
            if message["type"] == "chat" and message["text"] == text:
                return "said"


async def _first(url: str) -> tuple[dict[str, Any], int | None]:
    """The first message a socket opened on ``url`` reads (the server's pings aside), and
    its close code if the server closed it."""
    async with websockets.connect(url) as ws:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), 5))
        while message["type"] == "ping":
            message = orjson.loads(await asyncio.wait_for(ws.recv(), 5))
        if message["type"] == "snapshot":
            return message, None
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        return message, ws.close_code


async def test_a_seats_sockets_share_one_chat_rate(server: Server) -> None:
    room, seats = await server.table(2)
    devices = [await server.connect(room["roomId"], seats[1]["token"]) for _ in range(4)]
    heard = [await _said(device, f"line {i}") for i, device in enumerate(devices * 2)]
    # 5 in 10 s for the seat, whichever of its sockets says them.
    assert heard == ["said"] * 5 + ["chat_rate"] * 3
    for device in devices:
        await device.close()


async def test_a_spectator_address_shares_one_chat_rate(server: Server) -> None:
    room, _seats = await server.table(2)
    watchers = [await server.connect(room["roomId"]) for _ in range(2)]
    heard = [await _said(w, f"line {i}") for i, w in enumerate(watchers * 3)]
    assert heard == ["said"] * 5 + ["chat_rate"]
    # Another address has a rate of its own.
    other = await server.connect(room["roomId"], local_addr=("127.0.0.2", 0))
    assert await _said(other, "me too") == "said"
    for client in (*watchers, other):
        await client.close()


async def test_a_rooms_spectators_share_the_rooms_spectator_chat_rate(
    store_kind: str, tmp_path: Path
) -> None:
    async with running_server(store_kind, tmp_path, spectator_chat_rate="3/10 seconds") as server:
        room, seats = await server.table(2)
        watchers = [
            await server.connect(room["roomId"], local_addr=(f"127.0.0.{n}", 0)) for n in (2, 3)
        ]
        heard = [await _said(w, f"line {i}") for i, w in enumerate(watchers * 2)]
        assert heard == ["said"] * 3 + ["chat_rate"]
        # The seats' chat is not the spectators': it goes on.
        seat = await server.connect(room["roomId"], seats[0]["token"])
        assert await _said(seat, "players talk on") == "said"
        for client in (*watchers, seat):
            await client.close()


async def test_an_address_holds_at_most_its_cap_of_spectator_sockets(
    store_kind: str, tmp_path: Path
) -> None:
    async with running_server(store_kind, tmp_path, max_spectators_per_address=2) as server:
        room, _seats = await server.table(2)
        room_id = room["roomId"]
        watchers = [await server.connect(room_id) for _ in range(2)]
        url = f"{server.ws_base}/ws/rooms/{room_id}"
        refusal, code = await _first(url)
        assert (refusal["code"], code) == ("too_many_sockets", 4429)
        # Another address is not affected; a closed socket frees its place.
        other = await server.connect(room_id, local_addr=("127.0.0.2", 0))
        await watchers[0].close()
        for _ in range(100):  # until the server has seen the close
            message, code = await _first(url)
            if message["type"] == "snapshot":
                break
            assert (message["code"], code) == ("too_many_sockets", 4429)
            await asyncio.sleep(0.05)
        assert message["type"] == "snapshot"
        for client in (watchers[1], other):
            await client.close()
