"""The reference client (clients/python) against the real server: the bot of its README
plays whole matches of several games, and a session survives a dropped socket."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from live import Server

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
sys.path.insert(0, str(CLIENT))

from uno_client import ActionRefused, ApiError, UnoServer, complete  # noqa: E402


def _readme_bot() -> dict[str, Any]:
    """The README's example, run as it is printed."""
    text = (CLIENT / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    namespace: dict[str, Any] = {"__name__": "readme"}
    exec(compile(code.group(1), "README.md", "exec"), namespace)
    return namespace


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ({"preset": "oneAndDone"}, 3),
        ({"preset": "warszawa", "matchMode": "oneAndDone"}, 3),
        ({"preset": "flip", "matchMode": "oneAndDone"}, 2),
        ({"preset": "duo", "matchMode": "oneAndDone"}, 2),
        ({"preset": "rommy", "matchMode": "oneAndDone"}, 3),
    ],
)
async def test_the_readme_bot_plays_a_whole_match(
    fast_server: Server, rules: dict[str, Any], players: int
) -> None:
    main = _readme_bot()["main"]
    async with asyncio.timeout(120):
        views = await main(fast_server.base, rules, players)
    assert all(v["phase"] == "matchOver" for v in views)
    assert len({v["seq"] for v in views}) == 1


async def test_a_session_reconnects_after_a_drop_and_its_retried_action_counts_once(
    fast_server: Server,
) -> None:
    async with UnoServer(fast_server.base) as server:
        assert (await server.protocol())["version"] == "uno.v1"
        room = await server.create_room("drop", {"preset": "classic"}, 2)
        seats = [await server.join(room.room_id, f"p{i}") for i in range(2)]
        assert await server.start(room) == 3
        async with server.session(seats[0]) as a, server.session(seats[1]) as b:
            await a.wait_seq(b.seq)
            mover = a if a.view["turn"] == a.me else b
            other = b if mover is a else a
            await mover.drop()
            # A draw, or naming the colour of a first Wild: one event of its own type.
            entry = next(e for e in mover.legal if e["type"] in ("draw", "chooseColor"))
            action = complete(entry)
            # Sent while the socket is down: it goes out, once, after the reconnect.
            ack = await mover.act(action)
            assert mover.reconnects >= 1
            await other.wait_seq(ack["seq"])
            seen = [e for e in other.events if e["type"] == entry["type"]]
            assert [e["seat"] for e in seen] == [mover.me]
            again = await mover.act(action, action_id=ack["ref"])
            assert again == ack  # a retry of an applied id: the same ack, nothing applied
            with pytest.raises(ActionRefused) as refused:
                await other.act({"type": "pass"})
            assert refused.value.code


async def test_refusals_reach_the_client_as_exceptions(fast_server: Server) -> None:
    async with UnoServer(fast_server.base) as server:
        with pytest.raises(ApiError) as missing:
            await server.join("nosuchroom", "x")
        assert (missing.value.status, missing.value.code) == (404, "room_not_found")
        room = await server.create_room("t", {}, 2)
        session = server.session(None, room.room_id)
        await session.connect()
        assert session.me is None and session.view["phase"] == "lobby"
        await session.close()
