"""The rating farm: one account plays rated matches against fresh puppet accounts that
sit down and leave at once (a bot plays the puppet's seat, and may win). No such match
may be rated, so the farmer's rating must not move.

One node on a Redis the script starts itself. Each match: a rated 2-seat room
(``oneAndDone``), the farmer and a new puppet join with their account bearers, the room
starts, the puppet leaves, and the farmer (a bot of reliability/bots.py on its seat's
socket) plays to the end against the puppet's bot.

    python -m reliability.rating_farm [--matches 5] [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from reliability.bots import Bot, Report, Table, print_report
from reliability.processes import Node, RedisServer, node_env

PASSWORD = "correct horse"


async def _sign_up(table: Table, name: str) -> str:
    r = await table.rest("POST", "/api/accounts", json={"name": name, "password": PASSWORD})
    r.raise_for_status()
    return str(r.json()["token"])


async def _join(table: Table, token: str) -> dict[str, Any]:
    auth = {"Authorization": f"Bearer {token}"}
    r = await table.rest(
        "POST", f"/api/rooms/{table.room_id}/join", json={"name": "x"}, headers=auth
    )
    r.raise_for_status()
    return dict(r.json())


async def _stored(table: Table, matches: int) -> None:
    """Wait until the farmer's profile counts ``matches`` finished matches."""
    async with asyncio.timeout(60):
        while True:
            profile = (await table.rest("GET", "/api/players/Farmer")).json()
            if profile["stats"]["matches"] >= matches:
                return
            await asyncio.sleep(0.2)


async def _farm_once(table: Table, farmer: str, puppet: str) -> tuple[str, bool]:
    """One match; its id, and whether the puppet's bot won it."""
    created = await table.rest(
        "POST",
        "/api/rooms",
        json={"name": "farm", "seats": 2, "rules": {"preset": "oneAndDone"}, "rated": True},
    )
    created.raise_for_status()
    table.room_id, table.host = created.json()["roomId"], created.json()["hostToken"]
    mine, theirs = await _join(table, farmer), await _join(table, puppet)
    await table.start()
    leave = {"Authorization": f"Bearer {theirs['token']}"}
    (
        await table.rest("POST", f"/api/rooms/{table.room_id}/leave", headers=leave)
    ).raise_for_status()
    bot = Bot(table, mine["token"], mine["playerId"], random.Random(table.rng.random()))
    table.bots = [bot]
    await bot.connect()
    async with asyncio.timeout(120):
        while bot.view is None or bot.view.get("phase") != "matchOver":
            if not await bot.play_one():
                await bot._wait_change(0.5)
    view = bot.view
    await bot.drop()
    return str(view["room"]["matchId"]), view.get("winner") not in (None, view["you"])


async def run(matches: int = 5, seed: int | None = None) -> Report:
    rng = random.Random(seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rating-farm-") as tmp:
        directory = Path(tmp)
        redis = RedisServer(directory)
        redis.start()
        node = Node(
            "n0", directory, redis.url, f"sqlite+aiosqlite:///{directory}/uno.db", node_env()
        )
        rated = puppet_wins = 0
        try:
            await asyncio.to_thread(node.start, 180)
            table = Table([node], rng)
            farmer = await _sign_up(table, "Farmer")
            for i in range(matches):
                puppet = await _sign_up(table, f"Puppet{i}")
                match_id, lost = await _farm_once(table, farmer, puppet)
                puppet_wins += lost
                await _stored(table, i + 1)  # and so rated, if it were to be
                r = await table.rest("GET", f"/api/matches/{match_id}/ratings")
                rated += bool(r.json()["rated"])
            profile = (await table.rest("GET", "/api/players/Farmer")).json()
            problems = sum(node.problems().values())
        finally:
            node.stop()
            redis.stop()
    value, games = profile["ratings"]["classic"]["value"], profile["ratings"]["classic"]["games"]
    report = Report(f"rating_farm: {matches} rated matches against a fresh puppet that leaves")
    report.add("matches rated", f"{rated}/{matches}", "0", rated == 0)
    report.add("farmer's rating (from 1500)", value, "1500", value == 1500)
    report.add("farmer's rated games", games, "0", games == 0)
    report.add("tracebacks in the node's log", problems, "0", problems == 0)
    report.notes.append(f"the puppet's bot won {puppet_wins} of {matches}")
    report.notes.append(f"{time.monotonic() - started:.0f} s in all (the node's start included)")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reliability.rating_farm", description=__doc__)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    return print_report(asyncio.run(run(args.matches, args.seed)))


if __name__ == "__main__":
    sys.exit(main())
