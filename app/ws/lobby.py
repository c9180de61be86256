"""``/ws/lobby``: the public rooms, pushed as they appear, fill, start and end.

One feed per node reads the store's lobby (the rooms ``GET /api/rooms`` lists, open to
join, and those of ``?status=playing``, running games to watch) every
``lobby_poll_seconds`` while some lobby socket is open, and publishes what changed in
either list as one numbered ``lobby`` message: ``seq`` counts the feed's changes (1, 2,
...) within its ``epoch`` (one per node and start). A client that reconnects sends
``resume {lastSeq, epoch}``: the changes since, from the feed's last ``history``
changes, or a fresh ``snapshot`` (another node, another epoch, or too long ago).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import deque
from typing import Any, Literal

import orjson
from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.deps import AppSettings, Rooms
from app.rooms.doc import LOBBY, PLAYING, someone_in, summary
from app.settings import Settings
from app.store.base import RoomStore
from app.wire.messages import VERSION, error
from app.wire.summary import RoomSummary
from app.ws.handshake import agree
from app.ws.limits import TokenBucket

router = APIRouter()


# Messages


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class LobbyResume(_Closed):
    """After a reconnect: the last lobby change you hold and its feed's ``epoch``."""

    type: Literal["resume"]
    lastSeq: int = Field(ge=0)
    epoch: str | None = None


class LobbyPing(_Closed):
    """Answered with ``pong {ts}``."""

    type: Literal["ping"]


class LobbyChange(BaseModel):
    """``add`` or ``update``: the room as ``GET /api/rooms/{id}`` shows it; ``remove``: it
    left the list, and why (``full``, ``started``, ``over``, ``private``, ``empty``: nobody
    is in it any more, ``closed``)."""

    model_config = ConfigDict(extra="forbid")
    op: Literal["add", "update", "remove"]
    roomId: str
    room: RoomSummary | None = None
    reason: Literal["full", "started", "over", "private", "empty", "closed"] | None = None


class LobbySnapshot(BaseModel):
    """Every public room open to join, on connect and when a resume cannot be served."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["snapshot"]
    protocol: Literal["uno.v1"]
    epoch: str = Field(description="the feed this seq counts in")
    seq: int
    ts: int
    rooms: list[RoomSummary]
    playing: list[RoomSummary] = Field(
        default_factory=list, description="running public games, to watch"
    )


class LobbyMessage(BaseModel):
    """What changed in the lobby since ``seq - 1``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["lobby"]
    epoch: str
    seq: int
    ts: int
    changes: list[LobbyChange] = Field(description="of the rooms open to join (`rooms`)")
    playingChanges: list[LobbyChange] = Field(
        default_factory=list, description="of the running games (`playing`)"
    )


LOBBY_CLIENT = (LobbyResume, LobbyPing)
LOBBY_SERVER = (LobbySnapshot, LobbyMessage)


# The feed


class _Listener:
    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, text: str) -> None:
        if self.queue.qsize() < 256:
            self.queue.put_nowait(text)

    async def run(self) -> None:
        with contextlib.suppress(Exception):
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)


class LobbyFeed:
    def __init__(self, store: RoomStore, limit: int, poll_seconds: float, history: int = 64):
        self.store = store
        self.limit = limit
        self.poll = poll_seconds
        self.epoch = secrets.token_hex(6)
        self.seq = 0
        self.rooms: dict[str, dict[str, Any]] = {}
        self.playing: dict[str, dict[str, Any]] = {}
        self.history: deque[tuple[int, str]] = deque(maxlen=history)
        self.listeners: set[_Listener] = set()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def refresh(self, now_ms: int) -> None:
        """Read the lobby and publish what changed (one message)."""
        async with self._lock:
            joinable = await self.store.listed(self.limit)
            running = await self.store.listed(self.limit, playing=True)
            changes, self.rooms = await self._changes(self.rooms, joinable, LOBBY)
            watched, self.playing = await self._changes(self.playing, running, PLAYING)
            if not changes and not watched:
                return
            self.seq += 1
            message = {"type": "lobby", "epoch": self.epoch, "seq": self.seq, "ts": now_ms}
            body = {**message, "changes": changes, "playingChanges": watched}
            text = orjson.dumps(body).decode()
            self.history.append((self.seq, text))
            for listener in self.listeners:
                listener.send(text)

    async def _changes(
        self, before: dict[str, dict[str, Any]], docs: list[dict[str, Any]], listing: str
    ) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
        """One list's changes from ``before`` to ``docs``, and the list now."""
        now = {doc["id"]: summary(doc) for doc in docs}
        changes: list[dict[str, Any]] = []
        for room_id, room in now.items():
            old = before.get(room_id)
            if old != room:
                op = "add" if old is None else "update"
                changes.append({"op": op, "roomId": room_id, "room": room})
        for room_id in [r for r in before if r not in now]:
            reason = await self._why(room_id, listing)
            changes.append({"op": "remove", "roomId": room_id, "reason": reason})
        return changes, now

    async def _why(self, room_id: str, listing: str) -> str:
        """Why a room left the list of rooms in ``listing`` (its status)."""
        record = await self.store.load(room_id)
        if record is None:
            return "closed"
        doc = record.doc
        if doc["status"] != listing:
            return "started" if doc["status"] == PLAYING else "over"
        if doc["private"]:
            return "private"
        if listing == LOBBY and len(doc["players"]) >= doc["seats"]:
            return "full"
        return "closed" if someone_in(doc) else "empty"

    def snapshot(self, now_ms: int) -> str:
        message = {
            "type": "snapshot",
            "protocol": VERSION,
            "epoch": self.epoch,
            "seq": self.seq,
            "ts": now_ms,
            "rooms": list(self.rooms.values()),
            "playing": list(self.playing.values()),
        }
        return orjson.dumps(message).decode()

    def since(self, last_seq: int, epoch: str | None) -> list[str] | None:
        """The changes after ``last_seq``, or None when they are not all kept."""
        if epoch != self.epoch or last_seq > self.seq:
            return None
        kept = [text for seq, text in self.history if seq > last_seq]
        if len(kept) != self.seq - last_seq:
            return None
        return kept

    def watch(self, listener: _Listener, now_ms: Any) -> None:
        self.listeners.add(listener)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(now_ms))

    async def _loop(self, now_ms: Any) -> None:
        while self.listeners:
            await asyncio.sleep(self.poll)
            with contextlib.suppress(Exception):  # a store outage: try again next time
                await self.refresh(now_ms())


def _feed(websocket: WebSocket) -> LobbyFeed:
    state = websocket.app.state
    feed: LobbyFeed | None = getattr(state, "lobby_feed", None)
    if feed is None:
        settings: Settings = state.settings
        feed = state.lobby_feed = LobbyFeed(
            state.store, settings.lobby_limit, settings.lobby_poll_seconds, settings.history_size
        )
    return feed


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket, settings: AppSettings, rooms: Rooms) -> None:
    agreed = await agree(websocket, settings)
    if agreed is None:
        return
    await websocket.accept(subprotocol=agreed.subprotocol)
    feed = _feed(websocket)
    now_ms = rooms.now_ms
    listener = _Listener(websocket)
    sender = asyncio.create_task(listener.run())
    try:
        await feed.refresh(now_ms())
        listener.send(feed.snapshot(now_ms()))
        feed.watch(listener, now_ms)
        bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if not bucket.allow():
                listener.send(orjson.dumps(error("rate_limited", "slow down")).decode())
                continue
            reply = _answer(feed, raw, now_ms())
            for text in reply:
                listener.send(text)
    finally:
        feed.listeners.discard(listener)
        listener.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, 1)


def _answer(feed: LobbyFeed, raw: str | None, now_ms: int) -> list[str]:
    def refuse(code: str, message: str) -> list[str]:
        return [orjson.dumps(error(code, message)).decode()]

    if raw is None:
        return refuse("text_only", "messages are JSON in text frames, not binary")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return refuse("bad_json", "a message must be one JSON object")
    kind = data.get("type") if isinstance(data, dict) else None
    try:
        if kind == "ping":
            LobbyPing.model_validate(data)
            return [orjson.dumps({"type": "pong", "ts": now_ms}).decode()]
        if kind == "resume":
            resume = LobbyResume.model_validate(data)
            kept = feed.since(resume.lastSeq, resume.epoch)
            return kept if kept is not None else [feed.snapshot(now_ms)]
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        return refuse("bad_message", f"{where}: {first['msg']}")
    return refuse("unknown_type", f"unknown message type {kind!r}; known: ['resume', 'ping']")
