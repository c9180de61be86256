"""Node CPU per change from its commit to the frames on its sockets, for comparing two
checkouts: a real server (this checkout, memory store, in this process) with one room of
four bot seats (``ack=patch``) and ``--spectators`` spectator sockets; the bots play
``--changes`` real changes, recorded as the room's writer hands them to the node. Then
each side's delivery (its ``RoomService._deliver`` and ``Connection``, each on its own
connections over the same real sockets, its own ``write_text``) is handed those changes
again, renumbered, in batches of ``--changes``: the acting seat's ack rides on its patch
as it would. ``time.process_time`` of the delivery loops alone (the clients read between
batches); the median per change of each side, their rounds alternating. Each round also
times each side's metrics of a commit (``Metrics.applied`` and the commit histogram).

``--against DIR``: the ``app`` of a ``git archive`` of another commit (the "before").
``--unsent``: the sockets' transports keep what they are given (their ``write`` does
nothing): the Python of the delivery alone, without the kernel's send, which uvloop makes
at once and which is the same on both sides (one send per socket and change).

    python bench/deliver.py [--against DIR] [--rounds 15] [--changes 100] [--spectators 0]
                            [--unsent]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import os
import random
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from types import ModuleType
from typing import Any

here = Path(__file__).resolve().parent
# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
sys.path.insert(0, str(here.parent))

from bench.revisions import app_of  # noqa: E402


def _load_bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", here / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def checkout_modules(checkout: Path) -> tuple[Any, Any, Any, Any]:
    """(connection, service, transport, metrics) modules of the ``app`` at ``checkout``,
    imported apart from this checkout's (each keeps its own modules)."""
    names = ("app.ws.connection", "app.rooms.service", "app.ws.transport", "app.metrics")
    connection, service, transport, metrics = app_of(checkout, *names)
    return connection, service, transport, metrics


class Side:
    """One checkout's delivery, on connections of its own over the server's sockets."""

    def __init__(self, label: str, modules: tuple[Any, Any, Any, Any]) -> None:
        self.label = label
        self.connection, self.service, self.transport, metrics = modules
        self.metrics = metrics.Metrics()
        self.spent: list[float] = []
        self.counted: list[float] = []
        self.conns: list[Any] = []
        self.seq = 0

    def attach(self, live: list[Any], room_id: str) -> None:
        for served in live:
            conn = self.connection.Connection(
                served.websocket, served.service, room_id, served.pid, ack_in_patch=True
            )
            protocol = conn._protocol
            # This side's own direct write (its write_text, its text_frame).
            write = getattr(self.transport.HeartbeatProtocol, "write_text", None)
            if write is not None and conn._write is not None:
                conn._write = types.MethodType(write, protocol)
            conn._ready = True
            conn._idle = True  # its sender is idle: frames go straight to the socket
            self.conns.append(conn)
        self.node = types.SimpleNamespace(_listeners={room_id: set(self.conns)})

    def timed(self, room_id: str, changes: list[dict[str, Any]], unsent: bool) -> None:
        protocols = [conn._protocol for conn in self.conns]
        transports = [protocol.transport for protocol in protocols]
        if unsent:
            for protocol in protocols:
                protocol.transport = _Unsent()
        try:
            self._timed(room_id, changes)
        finally:
            for protocol, transport in zip(protocols, transports, strict=True):
                protocol.transport = transport

    def count(self, commands: int) -> None:
        """The metrics of ``commands`` commits (``_apply``'s): a command counted and its
        commit timed."""
        applied, observe = self.metrics.applied, self.metrics.commit_seconds.observe
        began = time.process_time()
        for n in range(commands):
            applied("action", True)
            observe(0.0004 + (n % 50) * 0.0001)
        self.counted.append((time.process_time() - began) / commands)

    def _timed(self, room_id: str, changes: list[dict[str, Any]]) -> None:
        start = self.seq
        for conn in self.conns:
            conn.seq = start
        batch = []
        for offset, change in enumerate(changes, start + 1):
            renumbered = dict(change, seq=offset)
            ack = renumbered.get("ack")
            if ack is not None:
                renumbered["ack"] = [ack[0], f"{self.label}{offset}"]
            batch.append(renumbered)
        self.seq = start + len(changes)
        deliver = self.service.RoomService._deliver
        node = self.node
        by_pid = {c.pid: c for c in self.conns}
        gc.collect()
        began = time.process_time()
        for change in batch:
            ack = change.get("ack")
            if ack is not None and ack[0] in by_pid:
                by_pid[ack[0]].sending(ack[1])  # the action was sent on this socket
            deliver(node, room_id, change)
        self.spent.append((time.process_time() - began) / len(batch))
        for conn in self.conns:
            conn._rode.clear()
            assert conn.queued == 0, "a frame was queued: the socket did not keep up"


class _Unsent:
    """A transport that takes every write and sends nothing (``--unsent``)."""

    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return False


async def drain(ws: Any) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def main(options: argparse.Namespace) -> None:
    import httpx
    import uvicorn
    from websockets.asyncio.client import connect

    from app.main import create_app
    from app.settings import Settings
    from app.ws.transport import uvicorn_options

    load = _load_bench("load")
    tmp = tempfile.mkdtemp(prefix="deliver")
    settings = Settings(
        redis_url=None,
        database_url=f"sqlite+aiosqlite:///{tmp}/uno.db",
        rest_write_rate="100000/second",
        room_create_rate="100000/second",
        max_spectators_per_address=100_000,
    )
    app = create_app(settings)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", lifespan="on",
        **{**uvicorn_options(settings), "loop": "none"},
    )  # fmt: skip
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10)
    target = types.SimpleNamespace(
        ws_base=f"ws://127.0.0.1:{port}", ws_bases=[], ack="patch", home=lambda _: None,
        rest=lambda _: "", uno=True,
    )  # fmt: skip
    try:
        room = await load.open_uno_room(target, http)
        service = app.state.rooms
        watchers = [
            await connect(f"ws://127.0.0.1:{port}/ws/rooms/{room.id}", compression=None)
            for _ in range(options.spectators)
        ]
        drains = [asyncio.create_task(drain(ws)) for ws in watchers]
        recorded: list[dict[str, Any]] = []
        real = service._deliver

        def recording(room_id: str, change: dict[str, Any]) -> None:
            recorded.append(change)
            real(room_id, change)

        service._deliver = recording
        rng = random.Random(7)
        while len(recorded) < options.changes:
            until = time.perf_counter() + 0.5
            await load.play(target, room, http, until, 0, [], [], rng)
        service._deliver = real
        recorded = recorded[: options.changes]
        for seat in room.seats:
            assert seat.task is not None
            seat.task.cancel()
        drains += [asyncio.create_task(drain(seat.ws)) for seat in room.seats]
        await asyncio.sleep(0.2)
        live = list(service._listeners[room.id])
        sides = []
        if options.against is not None:
            sides.append(Side("before", checkout_modules(options.against.resolve())))
        import app.metrics as metrics_module
        import app.rooms.service as service_module
        import app.ws.connection as connection_module
        import app.ws.transport as transport_module

        current = (connection_module, service_module, transport_module, metrics_module)
        sides.append(Side("now", current))
        for side in sides:
            side.attach(live, room.id)
        own = sum(1 for c in recorded if any(v is not None for v in c["m"].values()))
        print(
            f"{len(live)} sockets; {len(recorded)} changes, {own} with a seat's own message;"
            f" {sum(len(c.get('p', '')) for c in recorded) // len(recorded)} B public message"
        )
        for _ in range(options.rounds):
            for side in sides:
                side.timed(room.id, recorded, options.unsent)
                side.count(10_000)
                await asyncio.sleep(0.3)  # the clients read
        print(f"load average {os.getloadavg()[0]:.2f}" + (" (unsent)" if options.unsent else ""))
        for side in sides:
            figures = ", ".join(f"{s * 1e6:.1f}" for s in side.spent)
            median = statistics.median(side.spent) * 1e6
            print(f"{side.label}: {median:.1f} us per change (median; rounds: {figures})")
        for side in sides:
            counted = statistics.median(side.counted) * 1e6
            print(f"{side.label}: {counted:.2f} us of metrics per commit (median)")
        if len(sides) == 2:
            before, now = (statistics.median(side.spent) for side in sides)
            print(f"now/before: {now / before:.2f}")
        for ws in watchers + [seat.ws for seat in room.seats]:
            await ws.close()
        for drained in drains:
            drained.cancel()
    finally:
        await http.aclose()
        server.should_exit = True
        await asyncio.wait_for(task, timeout=45)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=0)
    parser.add_argument("--unsent", action="store_true", help="no send: the Python alone")
    arguments = parser.parse_args()
    import uvloop

    uvloop.run(main(arguments))
