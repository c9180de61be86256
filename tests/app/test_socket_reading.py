"""A room socket's messages are read in the transport's frame callback where they need no
waiting (app.ws.endpoint ``_Reader``), else in the ASGI receive loop; either way one
socket's messages are acted on in the order they came, and answered as they always were.
Watched on the real server: which way each message went, and the order in which the
room's writer takes a socket's commands."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

import orjson
import pytest
import websockets
from live import Client, Server, frames_until_close, raw_socket, running_server

from app.rooms import commands
from app.rooms.service import RoomService
from app.rooms.writer import RoomWriter
from app.ws import endpoint
from app.ws.connection import Connection
from app.ws.transport import HeartbeatProtocol


@contextmanager
def reads(monkeypatch: pytest.MonkeyPatch, kind: str = "action") -> Iterator[list[bool]]:
    """Each message of this type offered to the frame callback: True if read there (the
    client's answers to the server's round-trip pings are left out)."""
    seen: list[bool] = []
    now = endpoint._Reader.now

    def watched(self: endpoint._Reader, raw: str) -> bool:
        taken = now(self, raw)
        if orjson.loads(raw).get("type") == kind:
            seen.append(taken)
        return taken

    monkeypatch.setattr(endpoint._Reader, "now", watched)
    yield seen


@contextmanager
def taken_order(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The refs of the commands the room's writer takes, in the order it takes them."""
    order: list[str] = []
    take = RoomWriter._take

    async def watched(
        self: RoomWriter, command: commands.Command, log_id: str, direct: bool = False
    ) -> None:
        ref = getattr(command, "ref", None)
        if ref is not None:
            order.append(ref)
        await take(self, command, log_id, direct)

    monkeypatch.setattr(RoomWriter, "_take", watched)
    yield order


def service_of(server: Server) -> RoomService:
    service: RoomService = server.app.state.rooms
    return service


@contextmanager
def arrivals(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bytes]]:
    """Every whole text message the server's sockets received, as it came in (before it
    is read in the frame callback or queued for the receive loop)."""
    arrived: list[bytes] = []
    receive = HeartbeatProtocol.send_receive_event_to_app

    def watched(self: HeartbeatProtocol) -> None:
        arrived.append(b"".join(self.frames))
        receive(self)

    monkeypatch.setattr(HeartbeatProtocol, "send_receive_event_to_app", watched)
    yield arrived


async def until_arrived(arrived: list[bytes], ref: str) -> None:
    """Until the server's socket has received the action ``ref``, whatever the machine's
    load: the server shares the test's event loop, so a fixed sleep could end first."""
    mark = orjson.dumps(ref)
    async with asyncio.timeout(5):
        while not any(mark in message for message in arrived):
            await asyncio.sleep(0.005)


async def seat(server: Server) -> tuple[str, Client]:
    room, seats = await server.table(players=2)
    client = await server.connect(room["roomId"], seats[0]["token"])
    return room["roomId"], client


def back(ref: str) -> str:
    return orjson.dumps({"type": "action", "id": ref, "action": {"type": "back"}}).decode()


async def answered(client: Client, refs: list[str]) -> None:
    for ref in refs:
        await client.outcome(ref)


async def test_an_action_for_a_writer_here_is_read_in_the_frame_callback(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    with reads(monkeypatch) as seen, taken_order(monkeypatch) as order:
        _, client = await seat(server)
        for ref in ("b1", "b2", "b3"):
            await client.send(back(ref))
        await answered(client, ["b1", "b2", "b3"])
    assert seen == [True, True, True]
    assert order == ["b1", "b2", "b3"]
    await client.close()


async def test_actions_keep_their_order_when_one_goes_through_the_log(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """b2 finds no writer to hand it to (as if it ran on another node): it is appended to
    the room's log, awaited in the receive loop (slowly here); b3 and b4, arriving
    meanwhile, wait behind it rather than overtake it."""
    service = service_of(server)
    try_local, enqueue = service.try_local, service.enqueue

    def elsewhere_for_b2(room_id: str, command: commands.Command) -> Any:
        if getattr(command, "ref", None) == "b2":
            return None
        return try_local(room_id, command)

    released = asyncio.Event()

    async def slow_b2(room_id: str, command: commands.Command) -> Any:
        if getattr(command, "ref", None) == "b2":
            await released.wait()  # until b3 and b4 are in (the server shares this loop)
        return await enqueue(room_id, command)

    monkeypatch.setattr(service, "try_local", elsewhere_for_b2)
    monkeypatch.setattr(service, "enqueue", slow_b2)
    with (
        reads(monkeypatch) as seen,
        taken_order(monkeypatch) as order,
        arrivals(monkeypatch) as arrived,
    ):
        _, client = await seat(server)
        await client.send(back("b1"))
        await client.send(back("b2"))
        await until_arrived(arrived, "b2")  # b2 is being appended
        await client.send(back("b3"))
        await client.send(back("b4"))
        await until_arrived(arrived, "b4")  # read by the server, behind b2
        released.set()
        await answered(client, ["b1", "b2", "b3", "b4"])
        # Caught up: the next one is read in the callback again.
        await client.send(back("b5"))
        await client.outcome("b5")
    assert order == ["b1", "b2", "b3", "b4", "b5"]
    assert seen[:2] == [True, False]  # b2 went on to the loop, with what it had read
    assert True not in seen[2:-1]  # b3, b4 (if offered at all: not while b3 is queued)
    assert seen[-1] is True


async def test_a_chat_line_holds_the_actions_after_it_until_it_is_said(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, client = await seat(server)
    service = service_of(server)
    say = service.say
    with taken_order(monkeypatch) as order:

        async def slow_say(*args: Any, **kwargs: Any) -> None:
            await asyncio.sleep(0.2)
            order.append("chat")
            await say(*args, **kwargs)

        monkeypatch.setattr(service, "say", slow_say)
        chat = orjson.dumps({"type": "chat", "text": "hello"}).decode()
        await client.send(back("b1"))
        await client.send(chat)
        await asyncio.sleep(0.05)  # the line is being said
        await client.send(back("b2"))
        await client.send(back("b3"))
        await answered(client, ["b1", "b2", "b3"])
    await client.expect("chat")
    # b1 was taken before the line was said; b2 and b3, sent after it, only after it.
    assert order == ["b1", "chat", "b2", "b3"]
    await client.close()


def answers(client: Client) -> list[dict[str, Any]]:
    return [
        m
        for m in client.messages
        if m["type"] == "pong" or (m["type"] == "error" and m["code"] == "rate_limited")
    ]


async def test_a_flood_read_in_the_frame_callback_is_answered_rate_limited(
    store_kind: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_server(store_kind, tmp_path, rate_per_second=0.001, rate_burst=3) as live:
        with reads(monkeypatch, "ping") as seen:
            _, client = await seat(live)
            for _ in range(6):
                await client.send({"type": "ping"})
            async with asyncio.timeout(5):
                while len(answers(client)) < 6:
                    await asyncio.sleep(0.01)
        pongs = [m for m in answers(client) if m["type"] == "pong"]
        limited = [m for m in answers(client) if m["type"] == "error"]
        # Three tokens: three pongs at most (the client's own answers to the server's
        # round-trip pings take tokens too), and every ping after them refused.
        assert len(pongs) <= 3 and len(limited) >= 3
        assert all(message.get("ref") is None for message in limited)  # none was read
        assert seen == [True] * 6
        await client.close()


async def test_a_message_sent_before_the_socket_is_set_up_is_read_by_the_receive_loop(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, seats = await server.table(players=2)
    snapshot = Connection.snapshot

    async def late_snapshot(self: Connection) -> None:
        await asyncio.sleep(0.2)  # the client's ping arrives meanwhile
        await snapshot(self)

    monkeypatch.setattr(Connection, "snapshot", late_snapshot)
    query = urlencode({"token": seats[0]["token"]})
    with reads(monkeypatch, "ping") as seen:
        ws = await websockets.connect(
            f"{server.ws_base}/ws/rooms/{room['roomId']}?{query}", compression=None
        )
        await ws.send(orjson.dumps({"type": "ping"}).decode())
        kinds: list[str] = []
        while "pong" not in kinds:
            kind = orjson.loads(await asyncio.wait_for(ws.recv(), 5))["type"]
            if kind != "ping":  # (the server's own round-trip pings)
                kinds.append(kind)
        await ws.close()
    assert kinds == ["snapshot", "pong"]
    assert seen == []  # never offered to the callback: it had none yet


async def test_a_message_too_large_read_in_the_frame_callback_closes_the_socket(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    with reads(monkeypatch, "chat") as seen, taken_order(monkeypatch) as order:
        _, client = await seat(server)
        big = orjson.dumps({"type": "chat", "text": "x" * server.settings.max_message_bytes})
        await client.send(big.decode())
        await client.send(back("b1"))  # after it: never read
        refused = await client.expect("error", code="too_large")
        await asyncio.wait_for(client.ws.wait_closed(), 5)
    assert refused.get("ref") is None
    assert client.ws.close_code == 1009
    assert seen == [False]  # read there, then left to the loop to end the socket
    assert "b1" not in order


async def test_an_error_raised_in_the_frame_callback_ends_the_socket_as_in_the_loop(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(raw: str | bytes) -> Any:
        raise ValueError("a bug")

    with reads(monkeypatch, "ping") as seen:
        _, client = await seat(server)
        monkeypatch.setattr(endpoint, "parse", broken)
        await client.send({"type": "ping"})
        await asyncio.wait_for(client.ws.wait_closed(), 5)
    assert client.ws.close_code == 1011
    # (The client's answer to a round-trip ping of the server's may have gone first.)
    assert True not in seen


async def test_a_text_message_not_utf8_is_refused_by_the_transport(server: Server) -> None:
    room, seats = await server.table(players=2)
    port = int(server.base.rsplit(":", 1)[1])
    path = f"/ws/rooms/{room['roomId']}?{urlencode({'token': seats[0]['token']})}"
    reader, writer = await raw_socket(port, path)
    payload = b"\xff\xfe"
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    await asyncio.sleep(0.2)  # set up: the callback is offered the message
    writer.write(bytes((0x81, 0x80 | len(payload))) + mask + masked)
    frames = await asyncio.wait_for(frames_until_close(reader), 5)
    assert int.from_bytes(frames[-1][1][:2]) == 1007
    writer.close()
