"""Sign-ins poured on two nodes: the failure limit holds, and a live room stays quick.

Two server processes on the script's own Redis. First, ``--wrong`` wrong passwords for
one name are sent at once, half to each node: at most 5 may be checked (answered 401),
and the right password sent after them is refused (429). Then ``--burst`` sign-ins at
once, each from an address of its own (127.0.0.x, so no failure limit stops them), go to
the node that holds a live room's socket, while that socket pings every 100 ms and
``/healthz`` is asked beside it: hashing past its queue is answered 503 account/busy,
and the room's ping round trip stays low.

    python -m reliability.sign_in_burst [--wrong 40] [--burst 32]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import orjson
import websockets

from reliability.bots import Report, print_report
from reliability.processes import Node, RedisServer, node_env


async def _ping_loop(
    ws: websockets.ClientConnection, out: list[float], stop: asyncio.Event
) -> None:
    while not stop.is_set():
        sent = time.perf_counter()
        await ws.send(orjson.dumps({"type": "ping"}).decode())
        while orjson.loads(await ws.recv())["type"] != "pong":
            pass
        out.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.1)


async def _health_loop(http: httpx.AsyncClient, out: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        sent = time.perf_counter()
        await http.get("/healthz")
        out.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.1)


async def attack(nodes: list[Node], wrong: int, burst: int, report: Report) -> None:
    one, two = (httpx.AsyncClient(base_url=n.base, timeout=120) for n in nodes)
    async with one, two:
        made = await one.post("/api/accounts", json={"name": "Dora", "password": "correct horse"})
        made.raise_for_status()
        guess = {"name": "Dora", "password": "guessing wrong"}
        answers = await asyncio.gather(
            *((one, two)[i % 2].post("/api/sessions", json=guess) for i in range(wrong))
        )
        counts = Counter(r.status_code for r in answers)
        report.add(
            f"wrong passwords checked of {wrong} at once", counts[401], "<= 5", counts[401] <= 5
        )
        right = await two.post("/api/sessions", json={"name": "Dora", "password": "correct horse"})
        report.add(
            "the right password after them", right.status_code, "429", right.status_code == 429
        )

        room = (await one.post("/api/rooms", json={"name": "burst"})).json()
        seat = (await one.post(f"/api/rooms/{room['roomId']}/join", json={"name": "p0"})).json()
        clients = [
            httpx.AsyncClient(
                base_url=nodes[0].base,
                timeout=120,
                transport=httpx.AsyncHTTPTransport(local_address=f"127.0.0.{10 + i}", verify=False),
            )
            for i in range(burst)
        ]
        url = f"{nodes[0].ws_base}/ws/rooms/{room['roomId']}?token={seat['token']}"
        pings: list[float] = []
        health: list[float] = []
        stop = asyncio.Event()
        async with websockets.connect(url, subprotocols=["uno.v1"]) as ws:  # type: ignore[list-item]
            await ws.recv()  # the snapshot
            loops = [
                asyncio.create_task(_ping_loop(ws, pings, stop)),
                asyncio.create_task(_health_loop(one, health, stop)),
            ]
            body = {"password": "whatever1"}
            results = await asyncio.gather(
                *(
                    c.post("/api/sessions", json={**body, "name": f"nobody{i}"})
                    for i, c in enumerate(clients)
                )
            )
            stop.set()
            await asyncio.gather(*loops)
        for client in clients:
            await client.aclose()
    answered = Counter(r.status_code for r in results)
    report.add(f"sign-ins of {burst} at once checked (401)", answered[401])
    report.add("answered 503 account/busy", answered[503], "> 0", answered[503] > 0)
    report.add("other answers", sum(answered.values()) - answered[401] - answered[503], "0")
    report.add("room ping during the burst, median ms", round(statistics.median(pings), 1))
    report.add(
        "room ping during the burst, max ms", round(max(pings), 1), "< 1000", max(pings) < 1000
    )
    report.add("/healthz during the burst, max ms", round(max(health), 1))


def run(wrong: int = 40, burst: int = 32) -> Report:
    report = Report(f"sign_in_burst: {wrong} wrong passwords on 2 nodes, {burst} sign-ins at once")
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        redis = RedisServer(directory)
        redis.start()
        database = f"sqlite+aiosqlite:///{directory}/uno.db"
        nodes = [Node(f"n{i}", directory, redis.url, database, node_env()) for i in range(2)]
        try:
            for node in nodes:  # one after the other: the first migrates the database
                node.start()
            asyncio.run(attack(nodes, wrong, burst, report))
            problems = sum((node.problems() for node in nodes), Counter())
            report.add("tracebacks in the nodes' logs", sum(problems.values()), "0", not problems)
        finally:
            for node in nodes:
                node.stop()
            redis.stop()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reliability.sign_in_burst", description=__doc__
    )
    parser.add_argument("--wrong", type=int, default=40)
    parser.add_argument("--burst", type=int, default=32)
    args = parser.parse_args(argv)
    return print_report(run(args.wrong, args.burst))


if __name__ == "__main__":
    sys.exit(main())
