"""What an idle node spends on its open sockets: tasks, timers and CPU per second.

A server runs in this process (memory store, asyncio's own event loop, whose scheduled
timers can be counted); a client process opens ``--sockets`` seats' sockets in rooms of
four (``--fair``: the rooms' ``fairRaces``), answers the server's ``ping`` messages as
any client does (its WebSocket library answers the ping frames), and then sits still.
Once every socket is open and its first second is over, this process counts its asyncio
tasks and scheduled timer handles, and then measures its own CPU time
(``time.process_time``) over ``--seconds``. The 1-minute load average is printed before
and after: figures taken at 2 or more are marked busy.

    python bench/idle.py [--sockets 200] [--fair on|off] [--seconds 20] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.main import create_app  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.ws.transport import uvicorn_options  # noqa: E402

SEATS = 4


async def clients(base: str, sockets: int, fair: bool) -> None:
    """Open the seats' sockets, answer pings, print "open", hold them until stdin ends."""
    held: list[Any] = []
    readers: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for start in range(0, sockets, SEATS):
            seats = min(SEATS, sockets - start)
            body = {"name": "idle", "rules": {}, "seats": max(seats, 2), "fairRaces": fair}
            room = (await http.post("/api/rooms", json=body)).json()
            for i in range(seats):
                join = await http.post(f"/api/rooms/{room['roomId']}/join", json={"name": f"p{i}"})
                url = f"{base.replace('http', 'ws')}/ws/rooms/{room['roomId']}"
                ws = await websockets.connect(f"{url}?token={join.json()['token']}")
                held.append(ws)
                readers.append(asyncio.create_task(_answer(ws)))
    print("open", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for ws in held:
        await ws.close()


async def _answer(ws: Any) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "ping":
                await ws.send(orjson.dumps({"type": "pong", "n": message["n"]}).decode())


def _timers(loop: asyncio.AbstractEventLoop) -> int:
    """The loop's timer handles still to fire (its heap keeps cancelled ones a while)."""
    return sum(not handle.cancelled() for handle in loop._scheduled)  # type: ignore[attr-defined]


def _load() -> str:
    load = os.getloadavg()[0]
    return f"{load:.2f}" + (" (busy)" if load >= 2 else "")


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{tmp}/idle.db",
            rest_write_rate="100000/second",
            room_create_rate="100000/second",
            max_open_lobbies_per_address=100_000,
        )
        options = uvicorn_options(settings)
        options.pop("loop")  # this process's loop: asyncio's, whose timers can be counted
        config = uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=0, log_level="warning", **options
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        loop = asyncio.get_running_loop()
        tasks0, timers0 = len(asyncio.all_tasks()), _timers(loop)
        port = server.servers[0].sockets[0].getsockname()[1]
        child = subprocess.Popen(
            [sys.executable, __file__, "--client", f"http://127.0.0.1:{port}"]
            + ["--sockets", str(args.sockets), "--fair", args.fair],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None and child.stdin is not None
        line = await loop.run_in_executor(None, child.stdout.readline)
        assert line.strip() == "open", line
        await asyncio.sleep(2)  # every socket past its first second's pings
        tasks, timers = len(asyncio.all_tasks()), _timers(loop)
        print(f"load average before: {_load()}")
        print(
            f"{args.sockets} idle sockets, fairRaces {args.fair}: tasks {tasks0} -> {tasks} "
            f"({(tasks - tasks0) / args.sockets:.2f} per socket), timer handles {timers0} -> "
            f"{timers} ({(timers - timers0) / args.sockets:.2f} per socket)"
        )
        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.sleep(args.seconds)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        print(f"server CPU: {cpu * 1000 / wall:.1f} ms per second over {wall:.0f} s")
        print(f"load average after: {_load()}")
        if args.json:
            figures = {
                "sockets": args.sockets,
                "fair": args.fair == "on",
                "tasks_per_socket": (tasks - tasks0) / args.sockets,
                "timers_per_socket": (timers - timers0) / args.sockets,
                "cpu_ms_per_second": cpu * 1000 / wall,
                "load_average": os.getloadavg()[0],
            }
            Path(args.json).write_bytes(orjson.dumps(figures))
        child.stdin.close()
        await loop.run_in_executor(None, child.wait)
        server.should_exit = True
        await serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--fair", choices=("on", "off"), default="on")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        asyncio.run(clients(args.client, args.sockets, args.fair == "on"))
    else:
        asyncio.run(measure(args))


if __name__ == "__main__":
    main()
