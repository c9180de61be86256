"""Quick play used carelessly and greedily on two nodes: the queue never wedges.

Two nodes share a Redis the script starts itself. Each round, on nodes picked at random:
two guests who typed no name, a ``Sam`` and a ``sam``, one account queued 30 times at
once (half on each node), each with its socket open; and tickets posted and never
watched. Every ticket whose socket is open must be seated, once, at a table without two
equal names; the account must get one ticket per burst; no unwatched ticket may be
seated; and the nodes' logs must show no traceback.

    python -m reliability.quickplay_wedge [--rounds 10] [--unwatched 20] [--seed N]
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

import httpx
import orjson
import websockets

from app.names import name_key
from reliability.bots import Report, print_report
from reliability.processes import Node, RedisServer, node_env

BURST = 30


async def _matched(node: Node, ticket: str) -> dict[str, Any]:
    url = f"{node.ws_base}/ws/quickplay?ticket={ticket}"
    async with websockets.connect(url, subprotocols=[websockets.Subprotocol("uno.v1")]) as ws:
        async with asyncio.timeout(60):
            while True:
                message = orjson.loads(await ws.recv())
                if message["type"] == "matched":
                    return dict(message)


async def _post(http: httpx.AsyncClient, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return await http.post("/api/quickplay", json=body, headers=headers)


async def _round(
    nodes: list[Node],
    clients: list[httpx.AsyncClient],
    token: str,
    unwatched: int,
    rng: random.Random,
) -> dict[str, int]:
    counts = dict.fromkeys(("held", "seated", "granted", "unwatched_seated"), 0)
    pick = lambda: rng.randrange(len(nodes))  # noqa: E731
    held: list[tuple[int, str]] = []
    for body in ({"pool": "classic"}, {"pool": "classic"}, {"name": "Sam"}, {"name": "sam"}):
        n = pick()
        r = await _post(clients[n], body)
        held.append((n, r.json()["ticket"]))
    burst = await asyncio.gather(*(_post(clients[i % 2], {}, token) for i in range(BURST)))
    granted = [(i % 2, r.json()["ticket"]) for i, r in enumerate(burst) if r.status_code == 202]
    counts["granted"] = len(granted)
    held += granted
    posted = [
        (n, (await _post(clients[n], {"name": f"u{i}"})).json()["ticket"])
        for i in range(unwatched)
        for n in [pick()]
    ]
    counts["held"] = len(held)
    matched = await asyncio.gather(*(_matched(nodes[n], t) for n, t in held))
    counts["seated"] = len({(m["roomId"], m["seat"]) for m in matched})
    counts["equal_names"] = 0
    for room_id in {m["roomId"] for m in matched}:
        room = (await clients[0].get(f"/api/rooms/{room_id}")).json()
        keys = [name_key(p["name"]) for p in room["players"] if not p.get("bot")]
        counts["equal_names"] += len(keys) - len(set(keys))
    for n, ticket in posted:
        left = await clients[n].delete(f"/api/quickplay/{ticket}")
        counts["unwatched_seated"] += left.status_code == 409
    return counts


async def run(rounds: int = 10, unwatched: int = 20, seed: int | None = None) -> Report:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="quickplay-wedge-") as tmp:
        directory = Path(tmp)
        redis = RedisServer(directory)
        redis.start()
        database = f"sqlite+aiosqlite:///{directory}/uno.db"
        env = node_env(UNO_QUICKPLAY_FILL_SECONDS="3")
        nodes = [Node(f"n{i}", directory, redis.url, database, env) for i in range(2)]
        totals = dict.fromkeys(("held", "seated", "granted", "unwatched_seated", "equal_names"), 0)
        started = time.monotonic()
        try:
            for node in nodes:
                await asyncio.to_thread(node.start, 180)
            # Connections kept shorter than the server keeps them idle: none goes stale.
            limits = httpx.Limits(keepalive_expiry=1)
            clients = [httpx.AsyncClient(base_url=n.base, timeout=30, limits=limits) for n in nodes]
            try:
                r = await clients[0].post(
                    "/api/accounts", json={"name": "Eager", "password": "correct horse"}
                )
                token = r.json()["token"]
                for _ in range(rounds):
                    for key, value in (await _round(nodes, clients, token, unwatched, rng)).items():
                        totals[key] += value
            finally:
                for client in clients:
                    await client.aclose()
            problems = sum(sum(node.problems().values()) for node in nodes)
        finally:
            for node in nodes:
                node.stop()
            redis.stop()
    report = Report(
        f"quickplay_wedge: {rounds} rounds on 2 nodes, each: 2 nameless guests, Sam and sam,"
        f" one account x {BURST} at once, {unwatched} unwatched tickets"
    )
    report.add("tickets watched", totals["held"])
    seated = f"{totals['seated']}/{totals['held']}"
    report.add(
        "watched tickets seated (once each)", seated, "all", totals["seated"] == totals["held"]
    )
    report.add("equal names at one table", totals["equal_names"], "0", totals["equal_names"] == 0)
    report.add(
        "tickets granted per account burst",
        f"{totals['granted']}/{rounds}",
        "1 each",
        totals["granted"] == rounds,
    )
    report.add(
        "unwatched tickets seated", totals["unwatched_seated"], "0", totals["unwatched_seated"] == 0
    )
    report.add("tracebacks in the nodes' logs", problems, "0", problems == 0)
    report.notes.append(f"{time.monotonic() - started:.0f} s in all (node starts included)")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reliability.quickplay_wedge", description=__doc__
    )
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--unwatched", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    return print_report(asyncio.run(run(args.rounds, args.unwatched, args.seed)))


if __name__ == "__main__":
    sys.exit(main())
