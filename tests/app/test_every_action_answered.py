"""Every action a seat sends through the Python client's session is answered (an ``ack``
or an ``error``), and every answer to one id is the same, however fast its seats play:
whole matches of seats that act as soon as it is their turn, on a socket whose message
rate the server limits, with the ack riding on its patch and as a frame of its own."""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from live import Server, running_server

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
sys.path.insert(0, str(CLIENT))

from uno_client import ActionRefused, UnoServer, complete  # noqa: E402
from uno_client.session import RoomSession  # noqa: E402


class _Watched(RoomSession):
    """A session that notes every answer it reads, and the messages the server dropped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.answers: dict[str, list[Any]] = defaultdict(list)
        self.sent: list[str] = []
        self.dropped = 0

    async def _receive(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "ack" or (kind == "patch" and "ack" in message):
            ref = message["ref"] if kind == "ack" else message["ack"]
            self.answers[ref].append(("ack", message["seq"]))
        elif kind == "error" and message.get("ref") is not None:
            self.answers[message["ref"]].append(("error", message["code"]))
        elif kind == "error" and message["code"] == "rate_limited":
            self.dropped += 1
        await super()._receive(ws, message)


async def _play(session: _Watched, unanswered: list[str]) -> None:
    """Play the seat to the match's end, acting at once, as the web tests' seats do."""
    while session.view is not None and session.view["phase"] != "matchOver":
        moves = [e for e in session.legal if e["type"] not in ("callUno", "catchUno")]
        if session.view["turn"] != session.me or not moves:
            try:
                await session.changed(10)
            except TimeoutError:
                return  # the other seat's action was not answered: it stopped playing
            continue
        sheds = [e for e in moves if e["type"] == "play"]
        ref = f"{session.me}-{len(session.sent)}"
        session.sent.append(ref)
        try:
            await session.act(complete((sheds or moves)[0]), ref)
        except ActionRefused:
            pass
        except TimeoutError:
            unanswered.append(ref)
            return


@pytest.fixture
async def limited(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    """A server whose sockets may send 20 messages a second in bursts of 4: a seat that
    acts as soon as it can goes over."""
    async with running_server(store_kind, tmp_path, rate_per_second=20.0, rate_burst=4) as live:
        yield live


@pytest.mark.parametrize("ack", ["patch", "frame"])
async def test_every_action_sent_is_answered_once(limited: Server, ack: str) -> None:
    unanswered: list[str] = []
    async with UnoServer(limited.base) as server:
        room = await server.create_room("fast", {"preset": "oneAndDone"}, 2)
        seats = [await server.join(room.room_id, f"p{i}") for i in range(2)]
        await server.start(room)
        sessions = [
            _Watched(server.ws_base, s.room_id, s.token, action_timeout=5.0, rate_pause=0.2)
            for s in seats
        ]
        for session in sessions:
            if ack == "frame":
                session.url = session.url.replace("ack=patch", "ack=frame")
            await session.connect()
        try:
            async with asyncio.timeout(60):
                await asyncio.gather(*(_play(s, unanswered) for s in sessions))
        finally:
            for session in sessions:
                await session.close()
    assert sum(s.dropped for s in sessions) > 0  # the limit was reached
    assert unanswered == []
    for session in sessions:
        assert session.view is not None and session.view["phase"] == "matchOver"
        assert set(session.sent) <= set(session.answers)
        # Sent again after a drop, an id may be answered twice: the same answer each time.
        assert all(len(set(found)) == 1 for found in session.answers.values())
