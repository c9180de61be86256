"""Quick-play matchmaking against a real server: players arrive at a given rate, each
posts a ticket and opens its socket; reports the time to a table (p50, p95), the share
of tables seated with humans only, and the share of seats bots filled.

Arrivals are a Poisson process at ``--rate`` players per second for ``--seconds``; then
the bench waits for every ticket to be seated. Each arrival is a guest (guests wait at
1500, so every one is in every other's gap: the figures are the queue's pace, not the
rating match). The seated players do not play their tables: the bench measures the
queue, not the game.

    python bench/matchmaking.py [--rate 1] [--seconds 60] [--fill 20] [--redis URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.load import free_port, wait_healthy  # noqa: E402


async def start_server(
    fill: float, redis_url: str | None, tmp: str
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "app", "--port", str(port), "--log-level", "warning"]
    cmd += ["--database", f"sqlite+aiosqlite:///{tmp}/matchmaking.db"]
    if redis_url:
        cmd += ["--redis", redis_url]
    env = {
        **os.environ,
        "UNO_QUICKPLAY_FILL_SECONDS": str(fill),
        "UNO_REST_WRITE_RATE": "",
        "UNO_ROOM_CREATE_RATE": "",
        "UNO_REDIS_PREFIX": f"mm{random.randrange(1 << 30):x}",
    }
    process = subprocess.Popen(cmd, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    await wait_healthy(process, base)
    return process, base


async def arrival(http: httpx.AsyncClient, base: str, i: int) -> tuple[float, dict[str, Any]]:
    began = time.monotonic()
    r = await http.post("/api/quickplay", json={"pool": "classic", "name": f"p{i}"})
    r.raise_for_status()
    url = base.replace("http", "ws") + f"/ws/quickplay?ticket={r.json()['ticket']}"
    async with websockets.connect(url, subprotocols=["uno.v1"]) as ws:  # type: ignore[list-item]
        while True:
            message = orjson.loads(await ws.recv())
            if message["type"] == "matched":
                return time.monotonic() - began, message


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        process, base = await start_server(args.fill, args.redis, tmp)
        try:
            async with httpx.AsyncClient(base_url=base, timeout=30) as http:
                tasks = []
                end = time.monotonic() + args.seconds
                i = 0
                while time.monotonic() < end:
                    tasks.append(asyncio.create_task(arrival(http, base, i)))
                    i += 1
                    await asyncio.sleep(rng.expovariate(args.rate))
                results = await asyncio.gather(*tasks)
                waits = sorted(w for w, _ in results)
                rooms = {m["roomId"] for _, m in results}
                humans = bots = all_human = 0
                for room_id in rooms:
                    room = (await http.get(f"/api/rooms/{room_id}")).json()
                    seated_bots = sum(1 for p in room["players"] if p["bot"])
                    bots += seated_bots
                    humans += len(room["players"]) - seated_bots
                    all_human += seated_bots == 0
        finally:
            process.terminate()
            process.wait(timeout=30)
    p95 = waits[min(len(waits) - 1, int(0.95 * len(waits)))]
    print(
        f"arrivals {args.rate}/s for {args.seconds} s (fill {args.fill} s): {len(waits)} players,"
        f" {len(rooms)} tables"
    )
    print(f"time to table: p50 {statistics.median(waits):.1f} s, p95 {p95:.1f} s")
    print(
        f"all-human tables: {100 * all_human / len(rooms):.0f} %;"
        f" seats filled by bots: {100 * bots / (bots + humans):.0f} %"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=1.0, help="arrivals per second (0.2-20)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--fill", type=float, default=20.0, help="UNO_QUICKPLAY_FILL_SECONDS")
    parser.add_argument("--redis", default=None, help="a Redis URL (default: the memory store)")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
