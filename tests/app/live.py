"""A live server on a free port and protocol clients for it, for the app tests.

The server is the real app under uvicorn in the test's event loop, with the store the
test asks for (memory, or a real Redis under a key prefix of its own) and a fresh SQLite
archive. Clients are real WebSocket clients (``websockets``) that keep their view up to
date by applying every patch with ``jsonpatch`` (a maintained RFC 6902 implementation), so
any wrong patch shows up as a view that differs from a fresh snapshot.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import os
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx
import jsonpatch
import orjson
import pytest
import uvicorn
import websockets
from schema_check import check_server_message, check_view

from app.main import create_app
from app.settings import Settings
from app.ws.transport import uvicorn_options

REDIS_URL = os.environ.get("UNO_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


async def require_redis() -> None:
    """Skip when Redis is unreachable, except in CI, where a missing Redis fails the run."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        await client.ping()
    except Exception as err:
        if in_ci():
            pytest.fail(f"CI=true but Redis at {REDIS_URL} is unreachable: {err}")
        pytest.skip(f"Redis at {REDIS_URL} is unreachable")
    finally:
        await client.aclose()


async def drop_prefix(prefix: str) -> None:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=500)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


@dataclass
class Server:
    app: Any
    settings: Settings
    base: str
    ws_base: str
    http: httpx.AsyncClient
    uvicorn: uvicorn.Server

    # REST helpers: they assert success so tests read as the protocol they use.

    async def create(self, **body: Any) -> dict[str, Any]:
        body.setdefault("name", "table")
        r = await self.http.post("/api/rooms", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    async def join(self, room_id: str, name: str, **extra: Any) -> dict[str, Any]:
        r = await self.http.post(f"/api/rooms/{room_id}/join", json={"name": name, **extra})
        assert r.status_code in (200, 201), r.text
        return r.json()

    async def start(self, room_id: str, host_token: str) -> None:
        r = await self.http.post(
            f"/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {host_token}"}
        )
        assert r.status_code in (200, 204), r.text

    async def table(
        self, players: int = 2, rules: dict[str, Any] | None = None, start: bool = True
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A room of ``players`` seats, joined (and started). A classic table's first card
        is never a plain Wild (``firstCardWild: reshuffle``) unless ``rules`` say so: such
        a card asks its first player for a colour before anything else, and tests that make
        the first move (a draw) would otherwise be refused one deal in twenty."""
        rules = rules or {}
        if "preset" not in rules:
            rules = {"firstCardWild": "reshuffle", **rules}
        room = await self.create(rules=rules, seats=max(players, 2))
        seats = [await self.join(room["roomId"], f"p{i}") for i in range(players)]
        if start:
            await self.start(room["roomId"], room["hostToken"])
        return room, seats

    async def connect(
        self,
        room_id: str,
        token: str | None = None,
        pong_delay: float = 0.0,
        via: int | None = None,
        ack: str | None = None,
        **kw: Any,
    ) -> Client:
        """A client of the room (``pong_delay``: it answers the server's ``ping`` messages
        that much later; ``via``: the port of a reliability.netdelay link to this server;
        ``ack``: the socket's ``?ack=``)."""
        base = self.ws_base if via is None else f"ws://127.0.0.1:{via}"
        url = f"{base}/ws/rooms/{room_id}"
        query = urlencode({k: v for k, v in (("token", token), ("ack", ack)) if v is not None})
        if query:
            url += f"?{query}"
        ws = await websockets.connect(url, compression=None, **kw)
        client = Client(ws, pong_delay)
        await client.expect("snapshot")
        return client


_ids = itertools.count(1)


class Client:
    """One socket: its view kept current from snapshot + patches, messages by kind."""

    def __init__(self, ws: Any, pong_delay: float = 0.0, check: bool = True) -> None:
        self.ws = ws
        self.check = check
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.acks: dict[str, dict[str, Any]] = {}
        self.errors: dict[str | None, list[dict[str, Any]]] = {}
        self.events: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        # Seconds each answer to the server's ping waits (a client faking a slow line).
        self.pong_delay = pong_delay
        self._pongs: set[asyncio.Task[None]] = set()
        self._reader = asyncio.create_task(self._read())

    def _raise_failure(self) -> None:
        """A frame the reader found wrong fails the test that waits, with its reason."""
        if self._reader.done() and not self._reader.cancelled():
            failure = self._reader.exception()
            if failure is not None:
                raise failure

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                message = orjson.loads(raw)
                if self.check:
                    # Every frame, and every view a patch makes, as the schemas say.
                    check_server_message(message)
                kind = message["type"]
                if kind == "ping":
                    # Answered at once, like any client should (not kept as a message).
                    self._pong(message["n"])
                    continue
                self.messages.append(message)
                if kind == "snapshot":
                    self.view = message["view"]
                    self.seq = message["seq"]
                elif kind == "patch":
                    assert self.view is not None
                    assert message["seq"] == self.seq + 1, (message["seq"], self.seq)
                    self.view = jsonpatch.apply_patch(self.view, message["ops"])
                    if self.check:
                        check_view(self.view)
                    self.seq = message["seq"]
                    assert self.view["seq"] == self.seq
                    self.events.extend(message["events"])
                    if "ack" in message:  # a riding ack (ack=patch): as an ack frame would
                        ref = message["ack"]
                        self.acks[ref] = {"type": "ack", "ref": ref, "seq": message["seq"]}
                elif kind == "ack":
                    self.acks[message["ref"]] = message
                elif kind == "error":
                    self.errors.setdefault(message["ref"], []).append(message)
                self.inbox.put_nowait(message)

    def _pong(self, n: int) -> None:
        async def reply() -> None:
            if self.pong_delay:
                await asyncio.sleep(self.pong_delay)
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.send({"type": "pong", "n": n})

        task = asyncio.create_task(reply())
        self._pongs.add(task)
        task.add_done_callback(self._pongs.discard)

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(
            message if isinstance(message, str | bytes) else orjson.dumps(message).decode()
        )

    async def expect(self, kind: str, timeout: float = 5.0, **match: Any) -> dict[str, Any]:
        """The next message of this kind (others are skipped), matching ``match``."""
        async with asyncio.timeout(timeout):
            while True:
                while self.inbox.empty():
                    self._raise_failure()
                    await asyncio.sleep(0.002)
                message = self.inbox.get_nowait()
                if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                    return message

    async def act(self, action: dict[str, Any], ref: str | None = None) -> str:
        ref = ref or f"a{next(_ids)}"
        await self.send({"type": "action", "id": ref, "action": action})
        return ref

    async def outcome(self, ref: str, timeout: float = 5.0) -> dict[str, Any]:
        """The ack or error answering the action ``ref``."""
        async with asyncio.timeout(timeout):
            while ref not in self.acks and ref not in self.errors:
                self._raise_failure()
                await asyncio.sleep(0.002)
        return self.acks.get(ref) or self.errors[ref][0]

    async def wait_seq(self, seq: int, timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            while self.seq < seq:
                self._raise_failure()
                await asyncio.sleep(0.002)

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait([self._reader], timeout=5)
        self._raise_failure()


@contextlib.asynccontextmanager
async def running_server(
    store: str,
    tmp_path: Any,
    prefix: str | None = None,
    redis_url: str | None = None,
    redis_cluster: str | None = None,
    **settings: Any,
) -> AsyncIterator[Server]:
    """A live server; servers given the same Redis ``prefix`` are nodes of one cluster.
    ``redis_url``: a Redis of the test's own (``own_redis``) instead of the shared one;
    ``redis_cluster``: the seeds of a Redis Cluster (store "cluster")."""
    assert (store == "cluster") == (redis_cluster is not None)
    shared = prefix is not None or redis_url is not None or redis_cluster is not None
    prefix = prefix or f"t{secrets.token_hex(4)}"
    if store == "redis" and redis_url is None:
        await require_redis()
    # Tests write fast from one address; the limits' own tests set tight ones.
    settings.setdefault("rest_write_rate", "100000/second")
    settings.setdefault("room_create_rate", "100000/second")
    settings.setdefault("max_open_lobbies_per_address", 100_000)
    settings.setdefault("max_spectators_per_address", 100_000)
    settings.setdefault("sign_up_rate", "")
    # Passwords hashed cheaply (a loaded test machine makes argon2's default cost seconds);
    # the tests of hashing itself set its cost.
    settings.setdefault("argon2_time_cost", 1)
    settings.setdefault("argon2_memory_kib", 1024)
    settings.setdefault("argon2_parallelism", 1)
    settings.setdefault(
        "database_url", f"sqlite+aiosqlite:///{tmp_path}/uno-{secrets.token_hex(4)}.db"
    )
    config_settings = Settings(
        redis_url=(redis_url or REDIS_URL) if store == "redis" else None,
        redis_cluster=redis_cluster,
        redis_prefix=prefix,
        **settings,
    )
    app = create_app(config_settings)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        **uvicorn_options(config_settings),
        lifespan="on",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    async with asyncio.timeout(20):
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    http = httpx.AsyncClient(base_url=base, timeout=10)
    try:
        yield Server(app, config_settings, base, f"ws://127.0.0.1:{port}", http, server)
    finally:
        await http.aclose()
        server.should_exit = True
        # A stop's own bounds add up to about 30 s in the worst case (sockets cut after
        # 10 s, the tournament runner's last look 10 s, writers and the archive a lease
        # each): a store that has just failed over can use them all.
        await asyncio.wait_for(task, timeout=45)
        if store == "redis" and not shared:
            await drop_prefix(prefix)


# Three seats, seat 0 to play on a red 5 (a red and a green card in hand): the seeded
# rooms' usual position.
SETUP = {
    "hands": [["R1", "R2", "G3"], ["G2", "B4", "Y5"], ["B3", "Y7", "G9"]],
    "discard": ["R5"],
    "color": "R",
    "drawPile": ["Y1", "Y2", "Y3", "Y4", "Y6", "Y8"],
    "turn": 0,
    "direction": 1,
}


async def seeded_room(
    server: Server, players: int, rules: dict[str, Any], setup: dict[str, Any], **room: Any
) -> tuple[str, list[str]]:
    """A room whose match is already at the position ``setup`` (the scenario runner's form),
    written straight into the server's store, as a room would be after a restart; returns
    the room id and one seat token per seat."""
    from app.rooms import tokens
    from app.rooms.doc import PLAYING, new_doc
    from engine.scenario import initial_state

    state = initial_state({"rules": rules, "players": players, "setup": setup})
    room_id, host = tokens.new_room_id(), tokens.new_token()
    doc = new_doc(
        room_id=room_id,
        name="seeded",
        code=tokens.new_code(),
        private=True,
        spectators=True,
        seats=players,
        rules=state.rules.to_json(),
        host_hash=tokens.hash_token(host),
        now_ms=0,
    )
    seat_tokens = [tokens.new_token() for _ in range(players)]
    doc["players"] = [
        {"seat": s, "pid": f"pid{s}", "name": f"p{s}", "token": tokens.hash_token(t), "conn": 0}
        for s, t in enumerate(seat_tokens)
    ]
    doc["status"] = PLAYING
    doc["matchId"] = tokens.new_id()
    doc["listed"] = False
    doc.update(room)
    deal = [{"start": state.to_json()}]
    await server.app.state.store.create(room_id, doc, doc["code"], False, deal)
    return room_id, seat_tokens


async def raw_socket(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket handshake by hand: a peer that never answers pings."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


async def frames_until_close(reader: asyncio.StreamReader) -> list[tuple[int, bytes]]:
    """The frames (opcode, payload) a raw socket reads, up to its close frame."""
    frames = []
    while True:
        first, second = await reader.readexactly(2)
        length = second & 0x7F
        if length == 126:
            length = int.from_bytes(await reader.readexactly(2))
        elif length == 127:
            length = int.from_bytes(await reader.readexactly(8))
        frames.append((first & 0x0F, await reader.readexactly(length)))
        if frames[-1][0] == 0x8:
            return frames
