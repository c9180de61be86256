"""Tournament players for the app tests: each registers, asks for its seat every round and
plays its table over a real socket (a simple bot: plays a card when it can), so that a
tournament runs to its end through REST and sockets as people's clients would."""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from typing import Any

import websockets
from live import Client, Server
from test_full_game import bot_action

ROUND_SETTINGS: dict[str, Any] = {
    "rate_per_second": 10_000.0,
    "bot_delay_ms": 5,
    "tournament_poll_seconds": 0.05,
    "timer_poll_seconds": 0.1,
}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_tournament(server: Server, **fields: Any) -> dict[str, Any]:
    body = {
        "name": "Club night",
        "rounds": 2,
        "turnSeconds": 20,
        "tableStartSeconds": 30,
        "rules": {"preset": "classic"},
        **fields,
    }
    r = await server.http.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


async def register_all(server: Server, tid: str, count: int) -> list[dict[str, Any]]:
    field_ = []
    for i in range(count):
        r = await server.http.post(f"/api/tournaments/{tid}/players", json={"name": f"P{i:02d}"})
        assert r.status_code == 201, r.text
        field_.append(r.json())
    return field_


async def started(
    server: Server, count: int, **fields: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A tournament of ``count`` registered players, started: (its creation, the field)."""
    made = await new_tournament(server, **fields)
    field_ = await register_all(server, made["tournamentId"], count)
    assert (await host(server, made, "/start")).status_code == 200
    return made, field_


async def host(server: Server, made: dict[str, Any], path: str, **kw: Any) -> Any:
    """A host action; returns the response (tests check its status)."""
    method = kw.pop("method", "post")
    return await getattr(server.http, method)(
        f"/api/tournaments/{made['tournamentId']}{path}", headers=bearer(made["hostToken"]), **kw
    )


async def shown(server: Server, tid: str) -> dict[str, Any]:
    r = await server.http.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def wait_for(server: Server, tid: str, done: Any, timeout: float = 60.0) -> dict[str, Any]:
    """The tournament once ``done(doc)`` holds."""
    async with asyncio.timeout(timeout):
        while True:
            doc = await shown(server, tid)
            if done(doc):
                return doc
            await asyncio.sleep(0.1)


def round_over(number: int) -> Any:
    def check(doc: dict[str, Any]) -> bool:
        log = doc["roundLog"]
        return len(log) >= number and bool(log[number - 1]["done"])

    return check


@dataclass
class Player:
    """One registered player's client: plays its table of each round it is seated at."""

    server: Server
    tid: str
    token: str
    seed: int
    played: list[str] = field(default_factory=list)  # table ids

    async def play_round(self, number: int) -> None:
        seat = await self._seat(number)
        if seat is None:
            return
        while not await self._play_at(seat):
            pass  # the server closed the socket (a restart, a stalled loop): come back
        self.played.append(seat["tableId"])

    async def _play_at(self, seat: dict[str, Any]) -> bool:
        """Whether the table's match ended (False: the socket closed first)."""
        url = f"{self.server.ws_base}/ws/rooms/{seat['roomId']}?token={seat['token']}"
        ws = await websockets.connect(url, compression=None)
        # Frames are not checked against the schemas here (other tests do): 32 clients
        # share the server's event loop.
        client = Client(ws, check=False)
        try:
            return await self._play(client)
        finally:
            with contextlib.suppress(Exception):
                await client.close()

    async def _seat(self, number: int) -> dict[str, Any] | None:
        url = f"/api/tournaments/{self.tid}/seat"
        async with asyncio.timeout(30):
            while True:
                r = await self.server.http.get(url, headers=bearer(self.token))
                if r.status_code == 200 and r.json()["round"] == number:
                    return dict(r.json())
                if r.status_code == 404 and r.json()["code"] == "tournament/not_seated":
                    doc = await shown(self.server, self.tid)
                    if doc["round"] >= number:
                        return None  # not seated this round (withdrawn, disqualified)
                await asyncio.sleep(0.2)

    async def _play(self, client: Client) -> bool:
        """Play until the table's match ends, woken by each message (no busy polling: the
        server runs in this event loop)."""
        rng = random.Random(self.seed)
        acted = -1
        async with asyncio.timeout(120):
            await client.expect("snapshot", timeout=60)
            while True:
                view = client.view
                assert view is not None
                if view.get("phase") == "matchOver" or view["room"]["status"] in ("over", "ended"):
                    return True
                mine = view.get("turn") == view.get("you") and view.get("legal")
                if mine and client.seq != acted:
                    acted = client.seq
                    action = bot_action(view, rng)
                    if action is not None:
                        await client.act(action)
                try:
                    message = await asyncio.wait_for(client.inbox.get(), 2)
                except TimeoutError:
                    if client.ws.state is not websockets.protocol.State.OPEN:
                        return False
                    continue
                if message["type"] == "error":
                    acted = -1  # refused: choose again


async def play_round(players: list[Player], number: int) -> None:
    await asyncio.gather(*(p.play_round(number) for p in players))


async def connect_seat(server: Server, seat: dict[str, Any]) -> Client:
    """A checked socket on the seat (its snapshot may take a while on a loaded machine:
    the table's room is written by a writer this socket's connect starts)."""
    url = f"{server.ws_base}/ws/rooms/{seat['roomId']}?token={seat['token']}"
    client = Client(await websockets.connect(url, compression=None))
    await client.expect("snapshot", timeout=30)
    return client
