"""Spectators: N spectator sockets join one playing room, watch one action, and leave.

Counts every frame the room's sockets (2 seats + N spectators) receive, and the server's
CPU, for the N connects, for one action seen by all, and for the N disconnects. The
reference, measured in the same run, is the bare FastAPI WebSocket server of
``bench/load.py``: N sockets connect to one of its rooms and each gets one message, the
least a spectator connect can cost (an accepted socket, no message).

    python bench/spectators.py [--spectators 400] [--targets reference,memory,redis]
                               [--redis redis://127.0.0.1:6379/0] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import Target, drop_prefix, start_target, tree_cpu_seconds  # noqa: E402


class Counter:
    """Frames received by every socket of the run."""

    def __init__(self) -> None:
        self.frames = 0
        self.pings = 0  # the server's round-trip pings, answered and counted apart
        self.last = time.perf_counter()
        self.seqs: dict[int, int] = {}  # socket index -> last seq seen
        self.turn: int | None = None  # whose turn, as the seats' sockets see it
        self.you: dict[int, int] = {}  # socket index -> seat

    async def read(self, index: int, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for raw in ws:
                message = orjson.loads(raw)
                if await self.answered(ws, message):
                    continue
                self.frames += 1
                self.last = time.perf_counter()
                if "seq" in message:
                    self.seqs[index] = message["seq"]
                if message["type"] == "snapshot" and message["view"]["you"] is not None:
                    self.you[index] = message["view"]["you"]
                    self.turn = message["view"]["turn"]
                for op in message.get("ops", ()):
                    if op["path"] == "/turn":
                        self.turn = op["value"]

    async def answered(self, ws: ClientConnection, message: dict[str, Any]) -> bool:
        """A ping from the server (it measures each socket's round trip): answered as a
        client does, and not counted as a frame of the room."""
        if message["type"] != "ping":
            return False
        self.pings += 1
        await ws.send(orjson.dumps({"type": "pong", "n": message["n"]}).decode())
        return True

    async def quiet(self, seconds: float = 0.5) -> None:
        """Until no frame arrived for ``seconds``."""
        while time.perf_counter() - self.last < seconds:
            await asyncio.sleep(0.05)


async def _phase(target: Target, counter: Counter, work: Any) -> tuple[int, float, float]:
    """(frames, server CPU s, wall s) of ``work`` and whatever frames follow it."""
    frames, cpu, wall = counter.frames, tree_cpu_seconds(target.process.pid), time.perf_counter()
    counter.last = wall
    await work
    await counter.quiet()
    # The quiet wait itself costs the server nothing; its wall time is left out.
    wall = counter.last - wall
    return counter.frames - frames, tree_cpu_seconds(target.process.pid) - cpu, wall


async def run_reference(target: Target, spectators: int) -> dict[str, Any]:
    counter = Counter()
    sockets: list[ClientConnection] = []

    async def join() -> None:
        for _ in range(spectators):
            sockets.append(await connect(f"{target.ws_base}/ws/bench", compression=None))

    frames, cpu, wall = await _phase(target, counter, join())
    for ws in sockets:
        await ws.close()
    return {"connect_frames": frames, "connect_cpu": cpu, "connect_wall": wall}


async def run_uno(target: Target, spectators: int) -> dict[str, Any]:
    counter = Counter()
    async with httpx.AsyncClient(base_url=target.base, timeout=30) as http:
        room = (await http.post("/api/rooms", json={"name": "stage", "seats": 2})).json()
        room_id = room["roomId"]
        tokens = [
            (await http.post(f"/api/rooms/{room_id}/join", json={"name": f"p{i}"})).json()["token"]
            for i in range(2)
        ]
        auth = {"Authorization": f"Bearer {room['hostToken']}"}
        (await http.post(f"/api/rooms/{room_id}/start", headers=auth)).raise_for_status()
    url = f"{target.ws_base}/ws/rooms/{room_id}"
    seats = [await connect(f"{url}?token={t}", compression=None) for t in tokens]
    readers = [asyncio.create_task(counter.read(i, ws)) for i, ws in enumerate(seats)]
    await counter.quiet()
    watchers: list[ClientConnection] = []

    async def join() -> None:
        for i in range(spectators):
            ws = await connect(url, compression=None)
            snapshot = orjson.loads(await ws.recv())
            while await counter.answered(ws, snapshot):
                snapshot = orjson.loads(await ws.recv())
            # This spectator is in.
            counter.frames += 1
            counter.last = time.perf_counter()
            counter.seqs[2 + i] = snapshot["seq"]
            watchers.append(ws)
            readers.append(asyncio.create_task(counter.read(2 + i, ws)))

    result: dict[str, Any] = {}
    frames, cpu, wall = await _phase(target, counter, join())
    result.update(connect_frames=frames, connect_cpu=cpu, connect_wall=wall)

    async def act() -> None:
        # The seat whose turn it is draws.
        index = next(i for i, seat in counter.you.items() if seat == counter.turn)
        message = {"type": "action", "id": "d1", "action": {"type": "draw"}}
        await seats[index].send(orjson.dumps(message).decode())

    frames, cpu, wall = await _phase(target, counter, act())
    seen = sum(1 for i in range(2, 2 + spectators) if counter.seqs.get(i) == counter.seqs.get(0))
    result.update(action_frames=frames, action_cpu=cpu, spectators_current=seen)

    async def leave() -> None:
        for ws in watchers:
            await ws.close()

    frames, cpu, wall = await _phase(target, counter, leave())
    result.update(leave_frames=frames, leave_cpu=cpu, leave_wall=wall)
    for ws in seats:
        await ws.close()
    for task in readers:
        task.cancel()
    return result


def report(results: dict[str, dict[str, Any]], spectators: int) -> str:
    ref = results.get("reference")
    lines = [
        f"{spectators} spectators joining one playing room, one action, all leaving",
        "",
        "| target | frames to join | server CPU to join | x reference | frames of one action"
        " | spectators current | frames to leave | server CPU to leave |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        if name == "reference":
            lines.append(
                f"| reference | {r['connect_frames']} | {r['connect_cpu'] * 1000:.0f} ms | 1 |"
                " - | - | - | - |"
            )
            continue
        ratio = f"{r['connect_cpu'] / ref['connect_cpu']:.1f}" if ref else "-"
        lines.append(
            f"| {name} | {r['connect_frames']} | {r['connect_cpu'] * 1000:.0f} ms | {ratio} "
            f"| {r['action_frames']} | {r['spectators_current']}/{spectators} "
            f"| {r['leave_frames']} | {r['leave_cpu'] * 1000:.0f} ms |"
        )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> None:
    # The server under test must admit them all.
    os.environ["UNO_MAX_SPECTATORS"] = str(args.spectators + 10)
    # All of them from this one address.
    os.environ["UNO_MAX_SPECTATORS_PER_ADDRESS"] = str(args.spectators + 10)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.targets.split(","):
            target = await start_target(name, args.redis, tmp)
            try:
                run = run_reference if name == "reference" else run_uno
                results[name] = await run(target, args.spectators)
            finally:
                target.process.terminate()
                with contextlib.suppress(Exception):
                    target.process.wait(timeout=15)
                if name == "redis":
                    await drop_prefix(args.redis, target.env["UNO_REDIS_PREFIX"])
            print(name, results[name], flush=True)
    print()
    print(report(results, args.spectators))
    if args.json:
        Path(args.json).write_bytes(orjson.dumps({"spectators": args.spectators, **results}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=400)
    parser.add_argument("--targets", default="reference,memory,redis")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--redis", default=os.environ.get("UNO_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
