"""The in-process room store: one server process, nothing survives a restart."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from app.store.base import Commit, Delivery, LeaseLost, LogAhead, RoomRecord, RoomStore


class _Room:
    __slots__ = (
        "doc",
        "seq",
        "log_id",
        "log",
        "next_id",
        "history",
        "deal",
        "lease",
        "outbox",
        "code",
        "expires",
    )

    def __init__(self, doc: bytes, code: str | None = None) -> None:
        self.doc = doc  # serialised: see MemoryStore
        self.seq = 0
        self.log_id = "0"
        self.log: deque[tuple[str, Any]] = deque()
        self.next_id = 0
        self.history: deque[tuple[int, bytes]] = deque()
        self.deal: list[bytes] = []  # each entry serialised
        self.lease: tuple[str, float] | None = None
        self.outbox: dict[str, bytes] = {}
        self.code = code
        self.expires = 0.0  # monotonic time the room expires at (see MemoryStore._room)


def _log_id(n: int) -> str:
    # Zero-padded so that ids compare in log order as strings, as Redis Stream ids do
    # when compared by their parts.
    return f"{n:016d}"


class MemoryStore(RoomStore):
    """Every room in a dict; the log is a per-room queue; publishing calls back directly.

    Documents and deal entries are kept serialised, as in Redis, so that callers can never
    change committed state behind the store's back (the writer goes on changing its own
    document in place); serialising on commit costs half of a deep copy, and decoding
    happens only when a room is loaded.
    """

    def __init__(
        self,
        history_size: int = 64,
        room_ttl_seconds: int = 86_400,
        finished_room_ttl_seconds: int = 3_600,
        sweep_seconds: float = 300.0,
        **_: Any,
    ) -> None:
        self.history_size = history_size
        self.room_ttl_seconds = room_ttl_seconds
        self.finished_room_ttl_seconds = finished_room_ttl_seconds
        self.sweep_seconds = sweep_seconds
        self._rooms: dict[str, _Room] = {}
        # Outboxes of rooms that expired with entries not yet archived.
        self._leftovers: dict[str, dict[str, bytes]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._codes: dict[str, str] = {}
        self._listed: dict[str, None] = {}
        self._watched_games: dict[str, None] = {}  # the lobby's running games
        self._subscribed: set[str] = set()
        self._watched: set[str] = set()
        self._node: str | None = None
        self._due: dict[str, int] = {}
        self._beats: dict[str, int] = {}
        self._alive: dict[str, float] = {}  # node -> monotonic time its heartbeat runs out
        self._on_message: Delivery | None = None
        self._on_wake: Callable[[str], None] | None = None

    async def create(
        self,
        room_id: str,
        doc: dict[str, Any],
        code: str | None,
        listed: bool,
        deal: list[dict[str, Any]] | None = None,
    ) -> None:
        room = self._rooms[room_id] = _Room(orjson.dumps(doc), code)
        room.deal = [orjson.dumps(entry) for entry in deal or ()]
        room.expires = time.monotonic() + self.room_ttl_ms(doc) / 1000
        if code is not None:
            self._codes[code] = room_id
        if listed:
            self._listed[room_id] = None

    async def create_once(self, room_id: str, doc: dict[str, Any], code: str | None) -> bool:
        if self._room(room_id) is not None:
            return False
        await self.create(room_id, doc, code, False)
        return True

    async def load(self, room_id: str) -> RoomRecord | None:
        room = self._room(room_id)
        if room is None:
            return None
        doc = orjson.loads(room.doc)
        deal = [orjson.loads(entry) for entry in room.deal]
        return RoomRecord(doc, room.seq, room.log_id, deal)

    def _room(self, room_id: str) -> _Room | None:
        """The room, unless it expired (then it is dropped now)."""
        room = self._rooms.get(room_id)
        if room is not None and room.expires <= time.monotonic():
            self._drop(room_id)
            return None
        return room

    def _drop(self, room_id: str) -> None:
        room = self._rooms.pop(room_id, None)
        self._listed.pop(room_id, None)
        self._watched_games.pop(room_id, None)
        self._beats.pop(room_id, None)
        if room is None:
            return
        if room.code is not None and self._codes.get(room.code) == room_id:
            del self._codes[room.code]
        if room.outbox:
            self._leftovers[room_id] = room.outbox

    async def room_for_code(self, code: str) -> str | None:
        room_id = self._codes.get(code)
        return room_id if room_id is not None and self._room(room_id) is not None else None

    async def listed(self, limit: int, playing: bool = False) -> list[dict[str, Any]]:
        docs = []
        for room_id in list(self._watched_games if playing else self._listed):
            room = self._room(room_id)
            if room is not None:
                docs.append(orjson.loads(room.doc))
                if len(docs) == limit:
                    break
        return docs

    async def expire_room(self, room_id: str, ttl_ms: int) -> None:
        room = self._room(room_id)
        if room is None:
            return
        room.expires = time.monotonic() + ttl_ms / 1000
        if ttl_ms <= 0:
            self._drop(room_id)

    async def sweep(self) -> int:
        now = time.monotonic()
        expired = [room_id for room_id, room in self._rooms.items() if room.expires <= now]
        for room_id in expired:
            self._drop(room_id)
        return len(expired)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            await self.sweep()

    async def append(self, room_id: str, command: dict[str, Any], wake: bool = True) -> str:
        room = self._room(room_id)
        if room is None:
            # The room expired: nobody will read this (as a Redis log would expire unread).
            return _log_id(0)
        room.next_id += 1
        entry_id = _log_id(room.next_id)
        room.log.append((entry_id, orjson.loads(orjson.dumps(command))))
        if wake and room_id in self._watched and self._on_wake is not None:
            self._on_wake(room_id)
        return entry_id

    async def read_log(self, room_id: str, after: str, count: int) -> list[tuple[str, Any]]:
        room = self._room(room_id)
        if room is None:
            return []
        out = []
        for entry_id, command in room.log:
            if entry_id > after:
                out.append((entry_id, command))
                if len(out) == count:
                    break
        return out

    async def acquire(self, room_id: str, owner: str, ttl_ms: int) -> bool:
        room = self._room(room_id)
        if room is None:
            return False
        now = time.monotonic()
        if room.lease is None or room.lease[0] == owner or room.lease[1] <= now:
            room.lease = (owner, now + ttl_ms / 1000)
            return True
        return False

    async def release(self, room_id: str, owner: str) -> None:
        room = self._room(room_id)
        if room is not None and room.lease is not None and room.lease[0] == owner:
            room.lease = None

    async def commit(self, room_id: str, owner: str, commit: Commit) -> None:
        room = self._room(room_id)
        lease = None if room is None else room.lease
        if room is None or lease is None or lease[0] != owner or lease[1] <= time.monotonic():
            raise LeaseLost(room_id)
        quiet = not commit.change
        if room.seq != (commit.seq if quiet else commit.seq - 1):
            raise LeaseLost(room_id)
        if commit.direct and room.log and room.log[-1][0] > commit.log_id:
            raise LogAhead(room_id)
        if commit.lease_ttl_ms:
            room.lease = (owner, time.monotonic() + commit.lease_ttl_ms / 1000)
        room.doc = orjson.dumps(commit.doc)
        room.expires = time.monotonic() + (commit.ttl_ms or self.room_ttl_ms(commit.doc)) / 1000
        room.seq = commit.seq
        room.log_id = commit.log_id
        while room.log and room.log[0][0] <= commit.log_id:
            room.log.popleft()
        if not quiet:
            room.history.append((commit.seq, commit.change))
            while len(room.history) > self.history_size:
                room.history.popleft()
        if commit.deal_reset:
            room.deal = []
        room.deal.extend(orjson.dumps(entry) for entry in commit.deal_append)
        if commit.archive is not None:
            room.outbox[commit.archive[0]] = commit.archive[1]
        if commit.listed is True:
            self._listed[room_id] = None
        elif commit.listed is False:
            self._listed.pop(room_id, None)
        if commit.watched is True:
            self._watched_games[room_id] = None
        elif commit.watched is False:
            self._watched_games.pop(room_id, None)
        if room_id in self._subscribed and not quiet:
            await self._emit(room_id, commit.change)
        for node, payload in commit.results:
            await self.deliver(node, payload)

    def _outbox(self, room_id: str) -> dict[str, bytes] | None:
        room = self._room(room_id)
        return self._leftovers.get(room_id) if room is None else room.outbox

    async def outbox(self, room_id: str) -> list[tuple[str, bytes]]:
        outbox = self._outbox(room_id)
        return [] if outbox is None else list(outbox.items())

    async def archived(self, room_id: str, key: str) -> None:
        outbox = self._outbox(room_id)
        if outbox is not None:
            outbox.pop(key, None)
        if not outbox:
            self._leftovers.pop(room_id, None)

    async def set_due(self, room_id: str, due_ms: int | None) -> None:
        if due_ms is None:
            self._due.pop(room_id, None)
        elif room_id in self._rooms:
            self._due[room_id] = due_ms

    async def due_rooms(self, now_ms: int, limit: int) -> list[tuple[str, int]]:
        due = sorted((at, room_id) for room_id, at in self._due.items() if at <= now_ms)
        return [(room_id, at) for at, room_id in due[:limit]]

    async def beat(self, room_id: str, now_ms: int | None) -> None:
        if now_ms is None:
            self._beats.pop(room_id, None)
        else:
            self._beats[room_id] = now_ms

    async def last_beat(self, room_id: str) -> int | None:
        return self._beats.get(room_id)

    async def heartbeat(self, node: str, ttl_ms: int) -> bool:
        now = time.monotonic()
        was_alive = self._alive.get(node, 0.0) > now
        self._alive[node] = now + ttl_ms / 1000
        return was_alive

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        now = time.monotonic()
        return {node for node in nodes if self._alive.get(node, 0.0) > now}

    async def outbox_rooms(self) -> list[str]:
        live = [room_id for room_id, room in self._rooms.items() if room.outbox]
        return live + [room_id for room_id, outbox in self._leftovers.items() if outbox]

    async def outbox_settled(self, room_id: str) -> None:
        pass  # outbox_rooms looks at the outboxes themselves

    async def leased(self, room_id: str) -> bool:
        room = self._room(room_id)
        return room is not None and room.lease is not None and room.lease[1] > time.monotonic()

    async def history(self, room_id: str, after_seq: int) -> list[bytes] | None:
        room = self._room(room_id)
        if room is None:
            return None
        if after_seq >= room.seq:
            return []
        kept = [payload for seq, payload in room.history if seq > after_seq]
        if len(kept) != room.seq - after_seq:
            return None
        return kept

    async def deliver(self, node: str, payload: bytes) -> None:
        if node == self._node:
            await self._emit(None, payload)

    async def _emit(self, room_id: str | None, payload: bytes) -> None:
        if self._on_message is not None:
            result = self._on_message(room_id, payload)
            if result is not None:
                await result

    async def start(self, node: str, on_message: Delivery, on_wake: Callable[[str], None]) -> None:
        self._node = node
        self._on_message = on_message
        self._on_wake = on_wake
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="memory-sweep")

    async def subscribe(self, room_id: str) -> None:
        self._subscribed.add(room_id)

    async def unsubscribe(self, room_id: str) -> None:
        self._subscribed.discard(room_id)

    async def watch_log(self, room_id: str) -> None:
        self._watched.add(room_id)

    async def unwatch_log(self, room_id: str) -> None:
        self._watched.discard(room_id)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        self._on_message = None
        self._on_wake = None
