"""A bounded soak: many rooms where seats disconnect, come back, leave and get kicked, on
timed rooms with bots; every room finishes its match, and the room log names every move
the room made for a seat. ``UNO_SOAK_ROOMS`` (default 50) sets the size. The suite runs it
on the Redis store (the memory store runs the same code; ``UNO_SOAK_STORE=memory`` picks
it), in about 40 s on an idle 2-core machine."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from typing import Any

import httpx
import pytest
from live import Client, Server, running_server

ROOMS = int(os.environ.get("UNO_SOAK_ROOMS", "50"))
STORE = os.environ.get("UNO_SOAK_STORE", "redis")
# Bounded: rooms on a busy machine (the suite runs on several workers) finish later.
LIMIT_SECONDS = float(os.environ.get("UNO_SOAK_LIMIT_SECONDS", "300"))


def _move(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = [a for a in view["legal"] if a["type"] not in ("catchUno",)]
    if not legal or view["turn"] != view["you"]:
        return None
    action = dict(rng.choice(legal))
    if action["type"] == "play":
        needs = action.pop("needs", None) or []
        if "color" in needs or (action["cards"][0].startswith("W") and "color" not in action):
            action["color"] = rng.choice(action.pop("colors", None) or "RGBY")
        if "target" in needs:
            targets = action.pop("targets", None) or [
                s for s in range(len(view["players"])) if s != view["you"]
            ]
            action["target"] = rng.choice(targets)
        action.pop("colors", None)
        action.pop("targets", None)
        if len(view["hand"]) == 2:
            action["uno"] = True
    return action


class Seat:
    def __init__(self, server: Server, room_id: str, token: str, rng: random.Random) -> None:
        self.server, self.room_id, self.token, self.rng = server, room_id, token, rng
        self.client: Client | None = None
        self.gone = False  # left or kicked: the token is dead

    async def connect(self) -> None:
        with contextlib.suppress(Exception):
            self.client = await self.server.connect(self.room_id, self.token)

    async def drop(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.close()
            self.client = None

    def closed(self) -> bool:
        """The server closed this socket (a restart code: reconnect, as clients do)."""
        return self.client is not None and self.client._reader.done()


async def _drive(server: Server, room: dict[str, Any], seats: list[Seat], seed: int) -> None:
    """Play the room's people: mostly they move, sometimes they idle, drop, come back, leave
    or (the host) kick someone."""
    rng = random.Random(seed)
    host = {"Authorization": f"Bearer {room['hostToken']}"}
    for seat in seats:
        await seat.connect()
    away_until: dict[int, float] = {}
    loop = asyncio.get_running_loop()
    checked = 0.0
    while True:
        await asyncio.sleep(rng.uniform(0.05, 0.25))
        views = [s.client.view for s in seats if s.client is not None and s.client.view]
        if any(v["room"]["status"] != "playing" for v in views):
            return
        if not views and loop.time() - checked > 1.0:
            checked = loop.time()
            with contextlib.suppress(httpx.HTTPError):
                info = await server.http.get(f"/api/rooms/{room['roomId']}")
                if info.status_code != 200 or info.json()["status"] != "playing":
                    return
        for index, seat in enumerate(seats):
            if seat.gone:
                continue
            if seat.closed():
                await seat.drop()
            if seat.client is None:
                if loop.time() >= away_until.get(index, 0):
                    await seat.connect()
                continue
            roll = rng.random()
            if roll < 0.006:
                await seat.drop()
                away_until[index] = loop.time() + rng.uniform(1, 8)
            elif roll < 0.0075:
                with contextlib.suppress(httpx.HTTPError):
                    r = await server.http.post(
                        f"/api/rooms/{room['roomId']}/leave",
                        headers={"Authorization": f"Bearer {seat.token}"},
                    )
                    assert r.status_code in (204, 403, 409), r.text
                seat.gone = True
                await seat.drop()
            elif roll < 0.009 and index > 0:
                seat_no = seat.client.view["you"] if seat.client.view else None
                with contextlib.suppress(httpx.HTTPError):
                    r = await server.http.post(
                        f"/api/rooms/{room['roomId']}/kick", json={"seat": seat_no}, headers=host
                    )
                    # 403: the host's seat left, and the host role passed on with it.
                    assert r.status_code in (204, 403, 404, 409, 422), r.text
                seat.gone = True
                await seat.drop()
            elif roll < 0.995:
                view = seat.client.view
                action = None if view is None else _move(view, rng)
                if action is not None:
                    with contextlib.suppress(Exception):
                        await seat.client.act(action)
            # else: this seat lets its clock run this time


@pytest.mark.redis
async def test_fifty_rooms_with_people_coming_and_going_all_finish(tmp_path: Any) -> None:
    async with running_server(
        STORE,
        tmp_path,
        bot_delay_ms=50,
        timer_poll_seconds=0.2,
        rate_per_second=1000.0,
        rest_write_rate="",
        room_create_rate="",
    ) as server:
        rooms: list[tuple[dict[str, Any], list[Seat]]] = []
        rng = random.Random(2026)
        for n in range(ROOMS):
            room = await server.create(
                name=f"soak {n}",
                seats=3,
                rules={"matchMode": "oneAndDone"},
                turnSeconds=5,
                timeBank=0,
                absentAfter=5,
            )
            tokens = [(await server.join(room["roomId"], f"p{n}-{i}"))["token"] for i in range(2)]
            r = await server.http.post(
                f"/api/rooms/{room['roomId']}/bots",
                json={"level": rng.choice(["easy", "normal"])},
                headers={"Authorization": f"Bearer {room['hostToken']}"},
            )
            assert r.status_code == 201, r.text
            await server.start(room["roomId"], room["hostToken"])
            rooms.append((room, [Seat(server, room["roomId"], t, rng) for t in tokens]))
        drivers = [
            asyncio.create_task(_drive(server, room, seats, n))
            for n, (room, seats) in enumerate(rooms)
        ]
        done, pending = await asyncio.wait(drivers, timeout=LIMIT_SECONDS)
        for task in done:
            task.result()
        stuck = []
        for room, _ in rooms:
            info = (await server.http.get(f"/api/rooms/{room['roomId']}")).json()
            # Over, or back in the lobby: someone left after the match ended.
            if info["status"] == "playing":
                stuck.append(info)
        for task in pending:
            task.cancel()
        for _, seats in rooms:
            for seat in seats:
                await seat.drop()
        assert not stuck, f"{len(stuck)} rooms did not finish: {stuck[:2]}"
        # The room's log names every move the room made for a seat, with its reason: the
        # bot's seat never moves without one, and every kind of room-made move happened.
        store = server.app.state.store
        made: dict[str, int] = {}
        for room, _ in rooms:
            record = await store.load(room["roomId"])
            assert record is not None
            bot_seats = {
                p["seat"] for p in record.doc["players"] if p.get("bot") and not p.get("left")
            }
            for entry in record.deal:
                if "action" not in entry:
                    continue
                if entry["seat"] in bot_seats:
                    # (A bot's turn may time out on a machine too loaded to run it.)
                    assert entry.get("by") in ("bot", "timeout"), entry
                if "by" in entry:
                    made[entry["by"]] = made.get(entry["by"], 0) + 1
        print(f"{ROOMS} rooms; room-made moves by reason: {made}")
        assert made.get("bot") and made.get("timeout") and made.get("autopilot"), made
