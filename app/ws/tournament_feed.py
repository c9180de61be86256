"""``/ws/tournaments/{id}``: a tournament's registrations, round starts, table results and
standings, pushed as they happen (docs/tournaments.md, "Live").

The events are numbered in the tournament's document (``app.tournaments.events``), the
same on every node: ``seq`` counts them from 1. On connect the socket gets a ``snapshot``
(the tournament as ``GET /api/tournaments/{id}`` shows it, and the standings) at the
current ``seq``, then one ``event`` message per event. A client that reconnects sends
``resume {lastSeq}`` and gets the events it missed, or a fresh ``snapshot`` when they are
no longer kept. Each node reads a watched tournament's document every
``tournament_poll_seconds`` while some socket watches it.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Literal

import orjson
from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.deps import AppSettings
from app.errors import RoomError
from app.settings import Settings
from app.tournaments import events
from app.tournaments import service as tour
from app.tournaments.service import TournamentService
from app.wire.messages import VERSION, error
from app.ws.handshake import agree, deny
from app.ws.limits import TokenBucket

router = APIRouter()


class TournamentResume(BaseModel):
    """After a reconnect: the last event you hold."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["resume"]
    lastSeq: int = Field(ge=0)


class TournamentPing(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["ping"]


class _Watcher:
    def __init__(self, websocket: WebSocket, seq: int) -> None:
        self.websocket = websocket
        self.seq = seq  # the last event this socket was sent
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() < 512:
            self.queue.put_nowait(orjson.dumps(message).decode())

    async def run(self) -> None:
        with contextlib.suppress(Exception):
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)


def snapshot(tid: str, doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "protocol": VERSION,
        "seq": int(doc.get("seq", 0)),
        "ts": tour.now_ms(),
        "tournament": tour.public(tid, doc),
        "standings": tour.standings(doc),
    }


class Rows:
    """The standings of one read of a tournament's document, computed once however many
    watchers are sent them (ranking a large field is the costly part of a push)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self._rows: list[dict[str, Any]] | None = None

    def __call__(self) -> list[dict[str, Any]]:
        if self._rows is None:
            self._rows = tour.standings(self.doc)
        return self._rows


def catch_up(tid: str, doc: dict[str, Any], watcher: _Watcher, rows: Rows | None = None) -> None:
    """Send the watcher every event after its seq (a snapshot if some are gone)."""
    if int(doc.get("seq", 0)) <= watcher.seq:
        return
    missed = events.since(doc, watcher.seq)
    if missed is None:
        watcher.send(snapshot(tid, doc))
    else:
        rows = rows or Rows(doc)
        for kept in missed:
            event = dict(kept["event"])
            if event["type"] == "standings":
                # The standings as they are now (the document holds no copy of them).
                event["rows"] = rows()
            watcher.send({"type": "event", "seq": kept["seq"], "ts": kept["ts"], "event": event})
    watcher.seq = int(doc.get("seq", 0))


class TournamentFeeds:
    """This node's readers of watched tournaments: one task per tournament with sockets."""

    def __init__(self, service: TournamentService, poll_seconds: float) -> None:
        self.service = service
        self.poll = poll_seconds
        self.watchers: dict[str, set[_Watcher]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def watch(self, tid: str, watcher: _Watcher) -> None:
        self.watchers.setdefault(tid, set()).add(watcher)
        task = self._tasks.get(tid)
        if task is None or task.done():
            self._tasks[tid] = asyncio.create_task(self._loop(tid), name=f"tournament-{tid}")

    def unwatch(self, tid: str, watcher: _Watcher) -> None:
        group = self.watchers.get(tid)
        if group is not None:
            group.discard(watcher)
            if not group:
                del self.watchers[tid]

    async def _loop(self, tid: str) -> None:
        while self.watchers.get(tid):
            await asyncio.sleep(self.poll)
            with contextlib.suppress(Exception):  # a store outage: try again next time
                doc = await self.service.load(tid)
                rows = Rows(doc)
                for watcher in list(self.watchers.get(tid, ())):
                    catch_up(tid, doc, watcher, rows)


def _feeds(websocket: WebSocket) -> TournamentFeeds:
    state = websocket.app.state
    feeds: TournamentFeeds | None = getattr(state, "tournament_feeds", None)
    if feeds is None:
        settings: Settings = state.settings
        feeds = state.tournament_feeds = TournamentFeeds(
            state.tournaments, settings.tournament_poll_seconds
        )
    return feeds


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(
    websocket: WebSocket, tournament_id: str, settings: AppSettings
) -> None:
    agreed = await agree(websocket, settings)
    if agreed is None:
        return
    feeds = _feeds(websocket)
    try:
        doc = await feeds.service.load(tournament_id)
    except RoomError as err:
        await deny(websocket, err)
        return
    await websocket.accept(subprotocol=agreed.subprotocol)
    watcher = _Watcher(websocket, int(doc.get("seq", 0)))
    sender = asyncio.create_task(watcher.run())
    try:
        watcher.send(snapshot(tournament_id, doc))
        feeds.watch(tournament_id, watcher)
        bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not bucket.allow():
                watcher.send(error("rate_limited", "slow down"))
                continue
            await _answer(feeds, tournament_id, watcher, message.get("text"))
    finally:
        feeds.unwatch(tournament_id, watcher)
        watcher.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, 1)


async def _answer(feeds: TournamentFeeds, tid: str, watcher: _Watcher, raw: str | None) -> None:
    if raw is None:
        watcher.send(error("text_only", "messages are JSON in text frames, not binary"))
        return
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        watcher.send(error("bad_json", "a message must be one JSON object"))
        return
    kind = data.get("type") if isinstance(data, dict) else None
    try:
        if kind == "ping":
            TournamentPing.model_validate(data)
            watcher.send({"type": "pong", "ts": tour.now_ms()})
            return
        if kind == "resume":
            resume = TournamentResume.model_validate(data)
            doc = await feeds.service.load(tid)
            watcher.seq = resume.lastSeq
            catch_up(tid, doc, watcher)
            if watcher.seq != int(doc.get("seq", 0)):  # ahead of the tournament: start afresh
                watcher.send(snapshot(tid, doc))
                watcher.seq = int(doc.get("seq", 0))
            return
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        watcher.send(error("bad_message", f"{where}: {first['msg']}"))
        return
    watcher.send(error("unknown_type", f"unknown message type {kind!r}; known: ['resume', 'ping']"))
