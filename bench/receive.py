"""Server CPU per received socket message: read in the transport's frame callback (as
served) against read through uvicorn's ASGI queue and the receive loop (the transport's
own ``send_receive_event_to_app`` put back, in that server process only).

Two servers of this tree (memory store, one process each) run side by side; each round
sends ``--frames`` messages on each of ``--sockets`` seat sockets, to one server and then
the other (alternating which goes first), in batches of ``--batch`` answered messages,
and reads the server's CPU (user + system, /proc) around it. ``ping`` messages cost the
receive path and a ``pong``; ``back`` actions (a room command, refused ``not_away``: no
commit) add the hand-over to the room's writer, its turn and its answer. The machine may
be shared: compare the two ways within a round, and read the load average printed with it.

    python bench/receive.py [--rounds 6] [--sockets 20] [--frames 1000] [--batch 1]
                            [--kind ping|back]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import orjson
import websockets

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

from bench.load import free_port, wait_healthy  # noqa: E402

WAYS = ("callback", "asgi")


def serve(port: int, way: str) -> None:
    """A server of this tree; ``asgi``: every message through uvicorn's ASGI queue."""
    import uvicorn
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    from app.main import create_app
    from app.settings import Settings
    from app.ws.transport import HeartbeatProtocol, uvicorn_options

    if way == "asgi":
        HeartbeatProtocol.send_receive_event_to_app = (  # type: ignore[method-assign]
            WebSocketsSansIOProtocol.send_receive_event_to_app
        )
    settings = Settings()
    options = uvicorn_options(settings)
    uvicorn.run(create_app(settings), host="127.0.0.1", port=port, log_level="warning", **options)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:13]) / os.sysconf("SC_CLK_TCK")


async def start(way: str, database: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(
        os.environ,
        UNO_RATE_PER_SECOND="100000",
        UNO_RATE_BURST="100000",
        UNO_REST_WRITE_RATE="",
        UNO_ROOM_CREATE_RATE="",
        UNO_MAX_OPEN_LOBBIES_PER_ADDRESS="100000",
        UNO_DATABASE_URL=database,
    )
    env.pop("UNO_REDIS_URL", None)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--serve", str(port), "--way", way]
    process = subprocess.Popen(cmd, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    await wait_healthy(process, base, what=f"the {way} server")
    return process, base


async def seats(base: str, count: int) -> list[websockets.ClientConnection]:
    """``count`` seat sockets, two per room, each past its snapshot."""
    sockets = []
    async with httpx.AsyncClient(base_url=base) as http:
        while len(sockets) < count:
            room = (await http.post("/api/rooms", json={"name": "t", "seats": 2})).json()
            for name in ("a", "b"):
                seat = (
                    await http.post(f"/api/rooms/{room['roomId']}/join", json={"name": name})
                ).json()
                url = (
                    f"{base.replace('http', 'ws')}/ws/rooms/{room['roomId']}?token={seat['token']}"
                )
                ws = await websockets.connect(url, compression=None, max_queue=None)
                while orjson.loads(await ws.recv())["type"] != "snapshot":
                    pass
                sockets.append(ws)
    return sockets[:count]


_refs = itertools.count()


async def drive(ws: websockets.ClientConnection, frames: int, batch: int, kind: str) -> None:
    """Send ``frames`` messages in batches, each batch answered before the next."""
    answer = "pong" if kind == "ping" else "ack"
    for start in range(0, frames, batch):
        size = min(batch, frames - start)
        for _ in range(size):
            if kind == "ping":
                await ws.send('{"type":"ping"}')
            else:
                ref = f"b{next(_refs)}"
                await ws.send(f'{{"type":"action","id":"{ref}","action":{{"type":"back"}}}}')
        got = 0
        while got < size:
            message = orjson.loads(await ws.recv())
            if message["type"] == answer or message["type"] == "error":
                got += 1


async def main(options: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        servers = {way: await start(way, f"sqlite+aiosqlite:///{tmp}/{way}.db") for way in WAYS}
        try:
            sockets = {way: await seats(servers[way][1], options.sockets) for way in WAYS}
            totals = {way: 0.0 for way in WAYS}
            count = options.sockets * options.frames
            print(f"{options.kind}: {options.sockets} sockets x {options.frames} messages a round")
            for round_ in range(options.rounds):
                order = WAYS if round_ % 2 == 0 else WAYS[::-1]
                line = []
                for way in order:
                    pid = servers[way][0].pid
                    before = cpu_seconds(pid)
                    drives = (
                        drive(ws, options.frames, options.batch, options.kind)
                        for ws in sockets[way]
                    )
                    await asyncio.gather(*drives)
                    used = cpu_seconds(pid) - before
                    totals[way] += used
                    line.append(f"{way} {used / count * 1e6:.1f} us")
                load = os.getloadavg()[0]
                print(f"round {round_ + 1}: " + ", ".join(line) + f" (load {load:.2f})")
            per = {way: totals[way] / (count * options.rounds) * 1e6 for way in WAYS}
            print(
                f"server CPU per {options.kind} message: callback {per['callback']:.1f} us, "
                f"asgi {per['asgi']:.1f} us ({per['callback'] / per['asgi']:.0%}; "
                f"load {os.getloadavg()[0]:.2f})"
            )
            for group in sockets.values():
                for ws in group:
                    await ws.close()
        finally:
            for process, _ in servers.values():
                process.terminate()
                process.wait(timeout=30)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--sockets", type=int, default=20)
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--kind", choices=("ping", "back"), default="ping")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--way", choices=WAYS, default="callback", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.way)
    else:
        asyncio.run(main(args))
