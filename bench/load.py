"""Server load: N rooms x 4 bot clients on real sockets, against a bare reference server.

In one run, for each target (the bare FastAPI WebSocket broadcast server, then our server
with the memory store, then with the Redis store), each started as its own process with
one worker (``redis-2``: two server nodes, each room's seats spread over both, as behind a
proxy that balances sockets in turn; ``redis-2r``: each room's requests on one node, as
deploy/Caddyfile routes them):

1. **Maximum**: ``--rooms`` rooms play as fast as they can for ``--seconds``: in each room
   the seat whose move it is sends an action and waits until all 4 seats have the change,
   then the next one acts. Reports accepted actions/s.
2. **Latency at half load**: ``--latency-rooms`` rooms (4 sockets each) paced together at
   half of that target's maximum. Reports p50/p99 from an action sent to the last seat's
   patch received.

The reference server does the least a broadcast server can: it receives a ~100-byte action
and sends one ~300-byte message (serialised once) to each of the room's 4 sockets. Ours
runs the whole pipeline: log, writer, engine, per-seat views and patches, store commit,
fan-out. For the Redis store it also reports Redis memory per idle room.

    python bench/load.py [--rooms 50] [--seconds 10] [--latency-rooms 200]
                         [--redis redis://127.0.0.1:6379/0] [--targets reference,memory,redis]
                         [--database postgresql+asyncpg://...] [--ack patch|frame]
    python bench/load.py --compare COMMIT [--rounds 3] [--seconds 8] [--short]
    ... [--quiet-wait MIN]

Before each round (each target, without ``--compare``) the bench waits up to
``--quiet-wait`` minutes (default 10) for the 1-minute load average to fall below 2, and
prints it; a round run at 2 or more (before it or after it) is marked ``BUSY``: figures from
a busy machine are no evidence either way.

``--compare COMMIT`` runs the Redis store of COMMIT's code (its own checkout and virtual
environment) and of the working tree, alternating, each round with the bare reference,
and prints per round and in a summary the actions per CPU-second of each (the server's
CPU: user + system of its whole process tree, workers and archiver included) and their
half-load p99.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
SEATS = 4
_ids = itertools.count(1)


# --- the reference server -------------------------------------------------------------


def reference_app() -> Any:
    """A bare FastAPI WebSocket broadcast server: the floor any room server stands on."""
    app = FastAPI()
    rooms: dict[str, set[WebSocket]] = {}
    seqs: dict[str, int] = {}
    padding = "x" * 200

    @app.websocket("/ws/{room_id}")
    async def room(websocket: WebSocket, room_id: str) -> None:
        await websocket.accept()
        members = rooms.setdefault(room_id, set())
        members.add(websocket)
        try:
            while True:
                message = orjson.loads(await websocket.receive_text())
                seq = seqs[room_id] = seqs.get(room_id, 0) + 1
                out = orjson.dumps(
                    {"type": "patch", "seq": seq, "ref": message["id"], "pad": padding}
                ).decode()
                for member in list(members):
                    await member.send_text(out)
        except WebSocketDisconnect:
            members.discard(websocket)

    return app


def serve_reference(port: int) -> None:
    import uvicorn

    uvicorn.run(
        reference_app(),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_per_message_deflate=False,
    )


# --- clients ------------------------------------------------------------------------------


def apply_ops(view: dict[str, Any], ops: Any) -> dict[str, Any]:
    """``view`` (changed in place) after the server's patch ops: the add, remove and
    replace operations it sends, at any depth (a few us, where the jsonpatch library
    takes ~50: the bench's bots should cost the machine little)."""
    for op in ops:
        path = op["path"]
        if path == "":
            view = op["value"]
            continue
        *parents, last = [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]
        node: Any = view
        for token in parents:
            node = node[int(token)] if isinstance(node, list) else node[token]
        if isinstance(node, list):
            index = len(node) if last == "-" else int(last)
            if op["op"] == "replace":
                node[index] = op["value"]
            elif op["op"] == "remove":
                del node[index]
            else:
                node.insert(index, op["value"])
        elif op["op"] == "remove":
            node.pop(last, None)
        else:
            node[last] = op["value"]
    return view


@dataclass
class Seat:
    """One bot socket: keeps its view from snapshot + patches."""

    ws: ClientConnection
    room: Room
    view: dict[str, Any] = field(default_factory=dict)
    seq: int = 0
    task: asyncio.Task[None] | None = None

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = orjson.loads(raw)
                kind = message["type"]
                if kind == "patch":
                    self.view = apply_ops(self.view, message.get("ops", ()))
                    self.seq = message["seq"]
                    self.room.arrived(self)
                elif kind == "snapshot":
                    self.view = message["view"]
                    self.seq = message["seq"]
                    self.room.arrived(self)
                elif kind == "error":
                    self.room.refused(message)


class Room:
    """A room's seats and the wait for "every seat has seq n"."""

    def __init__(self) -> None:
        self.seats: list[Seat] = []
        self.want = 0
        self.behind: set[int] = set()
        self.done: asyncio.Future[bool] | None = None

    def expect(self, seq: int) -> asyncio.Future[bool]:
        self.want = seq
        self.behind = {i for i, s in enumerate(self.seats) if s.seq < seq}
        self.done = asyncio.get_running_loop().create_future()
        if not self.behind:
            self.done.set_result(True)
        return self.done

    def arrived(self, seat: Seat) -> None:
        if self.done is None or self.done.done() or seat.seq < self.want:
            return
        self.behind.discard(self.seats.index(seat))
        if not self.behind:
            self.done.set_result(True)

    def refused(self, message: dict[str, Any]) -> None:
        if self.done is not None and not self.done.done():
            self.done.set_result(False)


def pick(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = view.get("legal") or []
    if not legal:
        return None
    plays = [a for a in legal if a["type"] == "play"]
    action = dict(rng.choice(plays) if plays else legal[0])
    if action["type"] == "chooseColor":
        action["color"] = rng.choice("RGBY")
    if action["type"] == "play":
        if action["cards"][0].startswith("W") and "color" not in action:
            action["color"] = rng.choice("RGBY")
        if len(view["hand"]) == 2:
            action["uno"] = True
    return action


@dataclass
class Target:
    name: str
    base: str
    ws_base: str
    uno: bool
    process: subprocess.Popen[bytes]
    env: dict[str, str]
    ack: str = "patch"  # the sockets' ?ack=: "patch" (the ack rides on the patch) or "frame"
    # Every server node of the target (the first is ``process``); a room's seats are spread
    # over their sockets, seat i on node i mod n, or (``routed``) all on the room's node.
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    ws_bases: list[str] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)
    routed: bool = False

    def home(self, room_id: str) -> int | None:
        """The node a routed target sends all of a room's requests to: its id, hashed (as
        the proxy does, deploy/Caddyfile, with a hash of its own); None when not routed."""
        if not self.routed:
            return None
        return zlib.crc32(room_id.encode()) % len(self.bases)

    def rest(self, room_id: str) -> str:
        """Where a room's REST calls go: its node's address, or "" (the client's base)."""
        home = self.home(room_id)
        return "" if home is None else self.bases[home]


@dataclass(frozen=True)
class Tree:
    """A checkout of the server to run: its root and the Python of its own environment."""

    root: Path
    python: str
    label: str = "ours"


OURS = Tree(ROOT, sys.executable)


async def open_uno_room(target: Target, http: httpx.AsyncClient) -> Room:
    created = (
        await http.post(
            "/api/rooms", json={"name": "bench", "seats": SEATS, "rules": {"targetScore": 1000}}
        )
    ).json()
    room_id, host = created["roomId"], created["hostToken"]
    rest = target.rest(room_id)
    tokens = [
        (await http.post(f"{rest}/api/rooms/{room_id}/join", json={"name": f"bot{i}"})).json()[
            "token"
        ]
        for i in range(SEATS)
    ]
    r = await http.post(
        f"{rest}/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {host}"}
    )
    r.raise_for_status()
    room = Room()
    room.id, room.host = room_id, host  # type: ignore[attr-defined]
    home = target.home(room_id)
    for i, token in enumerate(tokens):
        ws_base = target.ws_bases[i % len(target.ws_bases)] if target.ws_bases else target.ws_base
        if home is not None:
            ws_base = target.ws_bases[home]
        url = f"{ws_base}/ws/rooms/{room_id}?token={token}&ack={target.ack}"
        ws = await connect(url, compression=None)
        seat = Seat(ws, room)
        room.seats.append(seat)
        seat.task = asyncio.create_task(seat.read())
    # Wait until every socket has seen every seat connect.
    latest = SEATS + 1 + SEATS  # joins, the start, the connections
    await asyncio.wait_for(room.expect(latest), 10)
    return room


async def open_reference_room(target: Target) -> Room:
    room = Room()
    room_id = secrets.token_hex(6)
    for _ in range(SEATS):
        ws = await connect(f"{target.ws_base}/ws/{room_id}", compression=None)
        seat = Seat(ws, room)
        room.seats.append(seat)
        seat.task = asyncio.create_task(seat.read())
    return room


async def play(
    target: Target,
    room: Room,
    http: httpx.AsyncClient,
    until: float,
    interval: float,
    latencies: list[float],
    ended: list[float],
    rng: random.Random,
) -> int:
    """Act in turn until ``until``; one action every ``interval`` s at most (0: flat out)."""
    actions = 0
    next_at = time.perf_counter()
    while True:
        now = time.perf_counter()
        if now >= until:
            return actions
        if interval and now < next_at:
            await asyncio.sleep(next_at - now)
        next_at += interval
        # Ids are unique for the whole run: a reused id is (rightly) never applied again.
        counter = next(_ids)
        seq = room.seats[0].seq
        if target.uno:
            view = room.seats[0].view
            if view["phase"] == "matchOver":
                await http.post(
                    f"{target.rest(room.id)}/api/rooms/{room.id}/start",  # type: ignore[attr-defined]
                    headers={"Authorization": f"Bearer {room.host}"},  # type: ignore[attr-defined]
                )
                await asyncio.wait_for(room.expect(seq + 1), 10)
                continue
            if view["phase"] == "dealOver":
                actor, action = room.seats[0], {"type": "nextDeal"}
            else:
                actor = next(s for s in room.seats if s.view["you"] == view["turn"])
                action = pick(actor.view, rng)
                if action is None:
                    await asyncio.sleep(0.001)
                    continue
            message = {"type": "action", "id": f"b{counter}", "action": action}
        else:
            actor = room.seats[counter % SEATS]
            message = {
                "type": "action",
                "id": f"b{counter}",
                "action": {"type": "play", "cards": ["R5"], "pad": "y" * 40},
            }
        done = room.expect(seq + 1)
        started = time.perf_counter()
        await actor.ws.send(orjson.dumps(message).decode())
        try:
            ok = await asyncio.wait_for(done, 10)
        except TimeoutError:
            ok = False
        if ok:
            actions += 1
            elapsed = time.perf_counter() - started
            # A deal-ending action also puts the deal into the room's archive outbox (the
            # SQL write follows in the background); it is counted apart so that both
            # figures can be read.
            if target.uno and room.seats[0].view.get("phase") in ("dealOver", "matchOver"):
                ended.append(elapsed)
            else:
                latencies.append(elapsed)
        else:
            await asyncio.sleep(0.01)  # refused: let the views settle before retrying


async def run_load(
    target: Target, rooms: list[Room], http: httpx.AsyncClient, seconds: float, rate: float | None
) -> tuple[float, list[float]]:
    rng = random.Random(1)
    latencies: list[float] = []
    ended: list[float] = []
    interval = len(rooms) / rate if rate else 0.0
    start = time.perf_counter()
    until = start + seconds

    async def one(room: Room, offset: float) -> int:
        await asyncio.sleep(offset)
        return await play(target, room, http, until, interval, latencies, ended, rng)

    offsets = [i * interval / len(rooms) if interval else 0.0 for i in range(len(rooms))]
    counts = await asyncio.gather(*(one(r, o) for r, o in zip(rooms, offsets, strict=True)))
    return sum(counts) / (time.perf_counter() - start), latencies, ended


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (Linux): [0] is the state."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def descendants(pid: int) -> list[int]:
    """Every live process started under ``pid`` (children, their children, ...)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and of every process under it: the ones alive
    (a server's workers, its archiver) and the ones it has waited for (their time is in
    its own cutime and cstime). Work moved to another process still counts."""
    fields = _stat(pid)
    ticks = sum(int(f) for f in fields[11:15])
    for child in descendants(pid):
        with contextlib.suppress(OSError, IndexError):
            ticks += sum(int(f) for f in _stat(child)[11:13])
    return ticks / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


# --- processes ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_healthy(
    process: subprocess.Popen[bytes], base: str, path: str = "/healthz", what: str = "the server"
) -> None:
    """Until ``base + path`` answers 200, a minute at most (a loaded machine starts
    slowly); the process is killed if it never does."""
    async with httpx.AsyncClient() as http:
        for _ in range(1200):
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(base + path)).status_code == 200:
                    return
            await asyncio.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{what} did not start")


def store_of(name: str) -> str:
    """The store kind of a target name: "redis-2" is two server nodes on the Redis store,
    "redis-2r" the same with each room's requests routed to one node."""
    return name.split("-")[0]


def nodes_of(name: str) -> int:
    return int(name.split("-")[1].removesuffix("r")) if "-" in name else 1


def routed(name: str) -> bool:
    return "-" in name and name.endswith("r")


async def start_target(
    name: str,
    redis_url: str,
    tmp: str,
    database: str | None = None,
    cluster: str | None = None,
    tree: Tree = OURS,
    archiver: str = "process",
) -> Target:
    """The target's server nodes, sharing one key prefix (and one SQL archive, which one
    archive process writes, started by the first node, where ``archiver`` is "process")."""
    prefix = f"bench{secrets.token_hex(3)}"
    database = database or f"sqlite+aiosqlite:///{tmp}/bench-{name}-{prefix}.db"
    nodes = [await start_node(name, redis_url, database, cluster, prefix, tree, archiver)]
    others = "external" if archiver == "process" else archiver
    for _ in range(nodes_of(name) - 1):
        nodes.append(await start_node(name, redis_url, database, cluster, prefix, tree, others))
    first = nodes[0]
    first.processes = [n.process for n in nodes]
    first.ws_bases = [n.ws_base for n in nodes]
    first.bases = [n.base for n in nodes]
    first.routed = routed(name)
    return first


async def start_node(
    name: str,
    redis_url: str,
    database: str,
    cluster: str | None,
    prefix: str,
    tree: Tree = OURS,
    archiver: str = "process",
) -> Target:
    port = free_port()
    env = dict(os.environ)
    if name == "reference":
        cmd = [sys.executable, str(Path(__file__).resolve()), "--serve-reference", str(port)]
    else:
        cmd = [tree.python, "-m", "app", "--port", str(port), "--log-level", "warning"]
        cmd += ["--database", database]
        if store_of(name) == "redis":
            cmd += ["--redis", redis_url]
        elif store_of(name) == "cluster":
            assert cluster, "--redis-cluster is needed for the cluster targets"
            cmd += ["--redis-cluster", cluster]
        # Bots act as fast as the room allows: lift the per-socket rate limit, and the
        # REST limits (every room is created and joined from this one address).
        env.update(
            UNO_RATE_PER_SECOND="100000",
            UNO_RATE_BURST="100000",
            UNO_REST_WRITE_RATE="",
            UNO_ROOM_CREATE_RATE="",
            UNO_MAX_OPEN_LOBBIES_PER_ADDRESS="100000",
            UNO_REDIS_PREFIX=prefix,
            # Where the server can (a Redis store), its SQL archive runs as a process of
            # its own under the server's (its CPU counted with the server's); code from
            # before the archive process ignores the setting.
            UNO_ARCHIVER=archiver,
        )
    process = subprocess.Popen(cmd, cwd=tree.root if name != "reference" else ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    path = "/healthz" if name != "reference" else "/openapi.json"
    await wait_healthy(process, base, path, f"{name} server")
    return Target(name, base, f"ws://127.0.0.1:{port}", name != "reference", process, env)


async def open_rooms(target: Target, http: httpx.AsyncClient, count: int) -> list[Room]:
    rooms = []
    for _ in range(count):
        if target.uno:
            rooms.append(await open_uno_room(target, http))
        else:
            rooms.append(await open_reference_room(target))
    return rooms


async def close_rooms(rooms: list[Room]) -> None:
    for room in rooms:
        for seat in room.seats:
            await seat.ws.close()
            if seat.task is not None:
                seat.task.cancel()


async def redis_memory_per_room(redis_url: str, prefix: str, rooms: list[Room]) -> dict[str, float]:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    total = without_history = 0
    try:
        for room in rooms:
            for part in ("room", "log", "lease", "hist", "deal", "outbox"):
                key = f"{prefix}:{{{room.id}}}:{part}"  # type: ignore[attr-defined]
                size = await client.memory_usage(key) or 0
                total += size
                if part != "hist":
                    without_history += size
    finally:
        await client.aclose()
    return {"with_history": total / len(rooms), "idle": without_history / len(rooms)}


async def drop_prefix(redis_url: str, prefix: str) -> None:
    """Delete the run's keys (the bench's rooms stay otherwise: rooms do not expire); on a
    cluster's master, its own keys (one DEL each: they are in many slots)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    try:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        for i in range(0, len(keys), 1000):
            pipe = client.pipeline(transaction=False)
            for key in keys[i : i + 1000]:
                pipe.delete(key)
            await pipe.execute()
    finally:
        await client.aclose()


async def measure(
    name: str, args: argparse.Namespace, tmp: str, tree: Tree = OURS
) -> dict[str, Any]:
    target = await start_target(
        name, args.redis, tmp, args.database, args.redis_cluster, tree, args.archiver
    )
    target.ack = args.ack
    result: dict[str, Any] = {"target": name}
    servers: list[tuple[str, int, str]] = []
    try:
        servers = redis_servers(store_of(name), args)
        async with httpx.AsyncClient(base_url=target.base, timeout=30) as http:
            rooms = await open_rooms(target, http, args.rooms)
            await run_load(target, rooms, http, 1.0, None)  # warm up
            processes = target.processes or [target.process]
            cpu = sum(tree_cpu_seconds(p.pid) for p in processes)
            sent = await commands_sent(target, http)
            redis_before = redis_stats(servers)
            started = time.perf_counter()
            rate, latencies, ended = await run_load(target, rooms, http, args.seconds, None)
            actions = rate * (time.perf_counter() - started)
            redis_after = redis_stats(servers)
            sent = await commands_sent(target, http) - sent
            cpu = sum(tree_cpu_seconds(p.pid) for p in processes) - cpu
            # CPU per action does not depend on what else the machine is doing.
            result["cpu_us"] = cpu / actions * 1e6
            result["per_cpu_second"] = actions / cpu
            result["max"] = rate
            result["max_p50"] = percentile(latencies + ended, 0.5)
            result["max_p99"] = percentile(latencies + ended, 0.99)
            if servers:
                result["redis"] = per_action(redis_before, redis_after, actions)
                result["redis"]["sent"] = sent / actions
            await close_rooms(rooms)
            if not args.latency_rooms:
                return result
            rooms = await open_rooms(target, http, args.latency_rooms)
            half = args.latency_rate or rate / 2
            achieved, latencies, ended = await run_load(target, rooms, http, args.seconds, half)
            result.update(half_target=half, half_rate=achieved)
            result["half_p50"] = percentile(latencies + ended, 0.5)
            result["half_p99"] = percentile(latencies + ended, 0.99)
            result["half_p99_in_deal"] = percentile(latencies, 0.99)
            result["half_p50_deal_end"] = percentile(ended, 0.5)
            result["half_deal_ends"] = len(ended)
            if name == "redis":
                result["redis_bytes"] = await redis_memory_per_room(
                    args.redis, target.env["UNO_REDIS_PREFIX"], rooms
                )
            await close_rooms(rooms)
    finally:
        for process in target.processes or [target.process]:
            process.terminate()
        for process in target.processes or [target.process]:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(15)
            if process.poll() is None:
                process.kill()
        if store_of(name) == "redis":
            await drop_prefix(args.redis, target.env["UNO_REDIS_PREFIX"])
        elif store_of(name) == "cluster":
            for host, port, role in servers:
                if role == "master":
                    await drop_prefix(f"redis://{host}:{port}/0", target.env["UNO_REDIS_PREFIX"])
    return result


# --- what Redis spends per action ---------------------------------------------------------


def redis_servers(store: str, args: argparse.Namespace) -> list[tuple[str, int, str]]:
    """(host, port, "master" | "replica") of every Redis server the target uses."""
    import redis

    if store == "redis":
        client = redis.Redis.from_url(args.redis)
        return [
            (
                client.connection_pool.connection_kwargs["host"],
                int(client.connection_pool.connection_kwargs["port"]),
                "master",
            )
        ]
    if store != "cluster":
        return []
    host, port = args.redis_cluster.split(",")[0].rsplit(":", 1)
    nodes = redis.Redis(host=host, port=int(port)).execute_command("CLUSTER NODES")
    found = []
    for address, node in nodes.items():
        flags = node["flags"]
        if "fail" in flags:
            continue
        node_host, node_port = address.split("@")[0].rsplit(":", 1)
        found.append((node_host, int(node_port), "master" if "master" in flags else "replica"))
    return found


def redis_stats(servers: list[tuple[str, int, str]]) -> dict[str, dict[str, float]]:
    """Per role: commands executed (INFO commandstats: a script's own calls included),
    CPU seconds used (INFO cpu, user + system) and bytes received (INFO stats), summed
    over the role's servers."""
    import redis

    totals: dict[str, dict[str, float]] = {}
    for host, port, role in servers:
        client = redis.Redis(host=host, port=port)
        stats = client.info("commandstats")
        cpu = client.info("cpu")
        net = client.info("stats")
        into = totals.setdefault(role, {"cpu": 0.0, "calls": 0.0, "bytes_in": 0.0})
        into["cpu"] += float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])
        # What the server nodes send it (and, on replicas, the replication stream).
        into["bytes_in"] += float(net["total_net_input_bytes"])
        for command, values in stats.items():
            # INFO itself and the cluster's own chatter are not the server's work.
            if command in ("cmdstat_info", "cmdstat_cluster|nodes", "cmdstat_cluster|slots"):
                continue
            into["calls"] += values["calls"]
            into[command] = into.get(command, 0.0) + values["calls"]
        client.close()
    return totals


def per_action(
    before: dict[str, dict[str, float]], after: dict[str, dict[str, float]], actions: float
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for role, values in after.items():
        delta = {k: (v - before.get(role, {}).get(k, 0.0)) / actions for k, v in values.items()}
        top = sorted(
            ((k.removeprefix("cmdstat_"), v) for k, v in delta.items() if k.startswith("cmdstat_")),
            key=lambda kv: -kv[1],
        )
        result[role] = {
            "cpu_us": delta["cpu"] * 1e6,
            "calls": delta["calls"],
            "bytes_in": delta["bytes_in"],
            "top": [(k, round(v, 2)) for k, v in top[:8] if v >= 0.01],
        }
    return result


async def commands_sent(target: Target, http: httpx.AsyncClient) -> float:
    """Commands the target's nodes sent to Redis so far (their uno_redis_commands_sent)."""
    total = 0.0
    for base in target.bases or [target.base]:
        text = (await http.get(base + "/metrics")).text
        for line in text.splitlines():
            if line.startswith("uno_redis_commands_sent "):
                total += float(line.split()[1])
    return total


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    ref = next((r for r in results if r["target"] == "reference"), None)
    rate = (
        f"{args.latency_rate:g} actions/s" if args.latency_rate else "half of each target's maximum"
    )
    lines = [
        f"{args.rooms} rooms x {SEATS} sockets flat out for the maximum; "
        f"{args.latency_rooms} rooms x {SEATS} sockets at {rate} "
        f"for latency; {args.seconds:g} s each; one server worker; load generator in one "
        "process on the same machine. 'vs reference' on CPU: the reference's CPU per action "
        "over ours, i.e. the share of its rate we would reach where both are CPU-bound.",
        "",
        "| target | max actions/s | vs reference | server CPU per action (us) | vs reference "
        "| p50 / p99 at max (ms) "
        "| half-load actions/s | p50 / p99 at half (ms) | p99 at half, in-deal actions (ms) "
        "| deal-ending actions at half: count, p50 (ms) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        r.setdefault("half_rate", float("nan"))
        for key in ("half_p50", "half_p99", "half_p99_in_deal", "half_p50_deal_end"):
            r.setdefault(key, float("nan"))
        r.setdefault("half_deal_ends", 0)
        ratio = f"{r['max'] / ref['max']:.0%}" if ref else "-"
        cpu_ratio = f"{ref['cpu_us'] / r['cpu_us']:.0%}" if ref else "-"
        lines.append(
            f"| {r['target']} | {r['max']:.0f} | {ratio} | {r['cpu_us']:.0f} | {cpu_ratio} "
            f"| {r['max_p50']:.1f} / {r['max_p99']:.1f} "
            f"| {r['half_rate']:.0f} | {r['half_p50']:.1f} / {r['half_p99']:.1f} "
            f"| {r['half_p99_in_deal']:.1f} "
            + (
                f"| {r['half_deal_ends']}, {r['half_p50_deal_end']:.1f} |"
                if r["half_deal_ends"]
                else "| - |"
            )
        )
    costs = [r for r in results if "redis" in r]
    if costs:
        lines += [
            "",
            "What Redis does per accepted action (flat-out phase): commands the server nodes "
            "sent (their `uno_redis_commands_sent`), commands Redis executed (INFO "
            "commandstats: a script's own calls included), bytes the masters received (INFO "
            "stats) and Redis CPU (INFO cpu), on the masters and on the replicas.",
            "",
            "| target | server nodes | actions/s | server CPU per action (us) | commands sent "
            "| commands executed (masters) | bytes into the masters "
            "| Redis CPU per action, masters (us) | replicas (us) | most executed (per action) |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in costs:
            c = r["redis"]
            master = c.get("master", {})
            replica = c.get("replica")
            top = ", ".join(f"{k} {v}" for k, v in master.get("top", []))
            replicas = f"{replica['cpu_us']:.1f}" if replica else "-"
            lines.append(
                f"| {r['target']} | {nodes_of(r['target'])} | {r['max']:.0f} "
                f"| {r['cpu_us']:.0f} | {c['sent']:.2f} | {master.get('calls', 0):.2f} "
                f"| {master.get('bytes_in', 0):.0f} | {master.get('cpu_us', 0):.1f} "
                f"| {replicas} | {top} |"
            )
    for r in results:
        if "redis_bytes" in r:
            b = r["redis_bytes"]
            lines.append("")
            lines.append(
                f"Redis memory per room after play: {b['with_history'] / 1024:.1f} KB with the "
                f"resume history, {b['idle'] / 1024:.1f} KB once the history has expired (idle)."
            )
    return "\n".join(lines)


# --- ours against an earlier commit, side by side -----------------------------------------


def build_tree(commit: str, into: Path) -> Tree:
    """``commit``'s code checked out in ``into`` (``git archive``: the repository's own
    worktrees and branches are left alone) with a virtual environment of its own, where
    its own pyproject.toml's dependencies are installed (pip's cache makes it quick)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short", f"{commit}^{{commit}}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    venv = into / ".venv"
    python = str(venv / "bin" / "python")
    stamp = into / ".bench-commit"
    if stamp.is_file() and stamp.read_text() == sha:
        return Tree(into, python, sha)  # kept from an earlier run (--checkout)
    archive = subprocess.Popen(["git", "archive", sha], cwd=ROOT, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise RuntimeError(f"git archive {sha} failed")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    print(f"installing {sha} into {venv} ...", file=sys.stderr, flush=True)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(into)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    stamp.write_text(sha)
    return Tree(into, python, sha)


def load_average() -> float:
    return os.getloadavg()[0]


# A round is measured on a quiet machine only below this 1-minute load average: above it,
# other work shares the cores and the figures are no evidence either way.
QUIET_LOAD = 2.0
_QUIET_POLL_SECONDS = 5.0


async def wait_quiet(minutes: float, label: str) -> float:
    """Wait up to ``minutes`` for the 1-minute load average to fall below
    :data:`QUIET_LOAD`; print it and return it (the last reading, if it never fell)."""
    deadline = time.monotonic() + minutes * 60
    load = load_average()
    while load >= QUIET_LOAD and time.monotonic() < deadline:
        await asyncio.sleep(min(_QUIET_POLL_SECONDS, max(0.0, deadline - time.monotonic())))
        load = load_average()
    quiet = "quiet" if load < QUIET_LOAD else f"NOT quiet after {minutes:g} min"
    print(f"{label}: load average {load:.2f} before it ({quiet})", flush=True)
    return load


def busy_mark(load: float) -> str:
    """What a round's line says of the load it ran at (its highest reading)."""
    if load < QUIET_LOAD:
        return ""
    return f" [BUSY: load average {load:.1f} >= {QUIET_LOAD:g}, not evidence]"


def round_line(number: int, results: dict[str, dict[str, Any]], load: float) -> str:
    parts = []
    for label, r in results.items():
        parts.append(
            f"{label} {r['per_cpu_second']:.0f} actions per CPU-second ({r['cpu_us']:.0f} us), "
            f"{r['max']:.0f} actions/s, half-load p99 {r.get('half_p99', float('nan')):.1f} ms"
        )
    return f"round {number} (load average {load:.1f}){busy_mark(load)}: " + "; ".join(parts)


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def compare_summary(
    rounds: list[dict[str, dict[str, Any]]],
    ours: str,
    theirs: str,
    loads: list[float] | None = None,
) -> list[str]:
    """The summary's lines; ``loads``: each round's highest 1-minute load average."""

    def med(label: str, key: str) -> float:
        values = [r[label][key] for r in rounds if key in r[label]]
        return median(values) if values else float("nan")  # (no phase: --latency-rooms 0)

    mine, other = med(ours, "per_cpu_second"), med(theirs, "per_cpu_second")
    lines = [
        f"actions per CPU-second: {mine:.0f} vs {other:.0f} ({mine / other:.2f} x)",
        f"half-load p99: {med(ours, 'half_p99'):.1f} ms vs {med(theirs, 'half_p99'):.1f} ms",
    ]
    # The same ratio round by round: each pair ran under the same machine load.
    paired = [r[ours]["per_cpu_second"] / r[theirs]["per_cpu_second"] for r in rounds]
    lines.append(
        "paired by round: "
        + ", ".join(f"{x:.2f}" for x in paired)
        + f" (median {median(paired):.2f} x)"
    )
    if all("reference" in r for r in rounds):
        lines.append(
            f"reference: {med('reference', 'per_cpu_second'):.0f} actions per CPU-second, "
            f"{med('reference', 'max'):.0f} actions/s, "
            f"half-load p99 {med('reference', 'half_p99'):.1f} ms"
        )
    lines.append(
        f"(medians of {len(rounds)} round{'s' if len(rounds) != 1 else ''}; "
        f"ours: the working tree, {theirs})"
    )
    loads = loads or []
    busy = [i + 1 for i, load in enumerate(loads) if load >= QUIET_LOAD]
    if busy:
        lines.append(
            f"BUSY: round{'s' if len(busy) != 1 else ''} {', '.join(map(str, busy))} ran at a "
            f"load average >= {QUIET_LOAD:g} (highest {max(loads):.1f}): not evidence"
        )
    return lines


async def compare(args: argparse.Namespace) -> None:
    """Ours and ``args.compare`` on the same store, alternating, ``args.rounds`` times each,
    with the bare reference once per round."""
    store = args.targets if args.targets in ("redis", "cluster", "memory") else "redis"
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        checkout = args.checkout or stack.enter_context(tempfile.TemporaryDirectory())
        Path(checkout).mkdir(parents=True, exist_ok=True)
        theirs = await asyncio.to_thread(build_tree, args.compare, Path(checkout))
        label = f"theirs {theirs.label}"
        rounds: list[dict[str, dict[str, Any]]] = []
        loads: list[float] = []
        for number in range(1, args.rounds + 1):
            load = await wait_quiet(args.quiet_wait, f"round {number}")
            # Alternate who goes first: a machine growing busier then moves both alike.
            order = [("ours", OURS), (label, theirs)]
            if number % 2 == 0:
                order.reverse()
            results: dict[str, dict[str, Any]] = {}
            for who, tree in order:
                print(f"round {number}: {who} ...", file=sys.stderr, flush=True)
                results[who] = await measure(store, args, tmp, tree)
            if not args.no_reference:
                results["reference"] = await measure("reference", args, tmp)
            rounds.append({k: results[k] for k in ("ours", label, "reference") if k in results})
            loads.append(max(load, load_average()))
            print(round_line(number, rounds[-1], loads[-1]), flush=True)
        print("\n".join(compare_summary(rounds, "ours", label, loads)), flush=True)


async def main_async(args: argparse.Namespace) -> None:
    # The load generator's own collections would show up as every target's latency (the
    # same settings as the server's, app/main.py).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 5, 100)
    if args.compare:
        await compare(args)
        return
    results = []
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.targets.split(","):
            load = await wait_quiet(args.quiet_wait, name)
            print(f"measuring {name} ...", file=sys.stderr, flush=True)
            results.append(await measure(name, args, tmp))
            results[-1]["load"] = max(load, load_average())
            loads.append(results[-1]["load"])
            print(orjson.dumps(results[-1]).decode(), file=sys.stderr, flush=True)
    print(report(results, args))
    if any(load >= QUIET_LOAD for load in loads):
        print(busy_mark(max(loads)).strip(), flush=True)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--serve-reference":
        serve_reference(int(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--latency-rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--redis", default=os.environ.get("UNO_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    parser.add_argument(
        "--redis-cluster",
        default=os.environ.get("UNO_REDIS_CLUSTER"),
        help="seeds (HOST:PORT,...) of a Redis Cluster for the cluster targets",
    )
    parser.add_argument(
        "--targets",
        default="reference,memory,redis",
        help="comma-separated: reference, memory, redis, cluster; NAME-2 runs two server "
        "nodes on that store, each room's seats spread over both (e.g. redis-2,cluster-2); "
        "NAME-2r the same with all of a room's requests on one node, chosen by a hash of "
        "its id, as the proxy routes them (deploy/Caddyfile)",
    )
    parser.add_argument(
        "--ack",
        choices=("patch", "frame"),
        default="patch",
        help="our sockets' ?ack=: the ack riding on the acting socket's patch (one frame "
        "fewer per action), or a frame of its own",
    )
    parser.add_argument(
        "--database",
        default=None,
        help="SQL archive for our server (default: a fresh SQLite file per target)",
    )
    parser.add_argument(
        "--archiver",
        choices=("node", "process"),
        default="process",
        help="our server's SQL archive: in each node's event loop, or (default, on a Redis "
        "store) in an archive process of its own under the first node",
    )
    parser.add_argument(
        "--compare",
        metavar="COMMIT",
        default=None,
        help="run the same load against COMMIT's code (checked out and installed in a "
        "temporary directory) and the working tree, alternating, on the store of --targets "
        "(default redis); prints 'actions per CPU-second: OURS vs THEIRS (RATIO x)'",
    )
    parser.add_argument("--rounds", type=int, default=3, help="--compare: rounds of each")
    parser.add_argument(
        "--latency-rate",
        metavar="N",
        type=float,
        default=None,
        help="the latency phase at N actions/s for every target, instead of half of each "
        "target's own maximum (to tell a node's latency from the load generator's, which "
        "shares the machine and works in step with the rate)",
    )
    parser.add_argument(
        "--checkout",
        metavar="DIR",
        default=None,
        help="--compare: keep COMMIT's checkout and venv in DIR, reused by the next run "
        "(default: a temporary directory, removed after the run)",
    )
    parser.add_argument(
        "--short",
        action="store_true",
        help="a quick check: 4 s per phase, 100 latency rooms, one round",
    )
    parser.add_argument(
        "--no-reference", action="store_true", help="--compare: leave the bare reference out"
    )
    parser.add_argument(
        "--quiet-wait",
        metavar="MIN",
        type=float,
        default=10.0,
        help="before each round (each target without --compare), wait up to MIN minutes "
        f"for the 1-minute load average to fall below {QUIET_LOAD:g}; a round run above it "
        "is marked BUSY (its figures are no evidence); 0: do not wait, only mark",
    )
    args = parser.parse_args()
    if args.short:
        args.seconds, args.latency_rooms, args.rounds = 4.0, 100, 1
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
