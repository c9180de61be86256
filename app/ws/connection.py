"""One client socket's delivery: its outbox, its place in the room's seq, resync.

Changes arrive already serialised per audience (``app.rooms.writer``); a connection picks
its audience's message, checks that it follows the last ``seq`` it delivered, and queues
it. A gap (a lost publication, a reconnect of the pub/sub link) is repaired by a fresh
snapshot. While a snapshot or resume is being prepared, arriving changes are buffered so
that nothing is sent out of order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketState

from app.rooms.machine import replay
from app.rooms.service import RoomService
from app.rooms.views import SPECTATOR, build_view
from app.rooms.writer import now_ms
from app.ws.protocol import VERSION

log = logging.getLogger(__name__)

# Close codes of our own (4000-4999 are the application's).
CLOSE_REMOVED = 4001  # the seat was given up or the host removed the player
CLOSE_SLOW = 4008  # the client does not read its messages fast enough
_STOP = object()


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        service: RoomService,
        room_id: str,
        pid: str | None,
        *,
        max_queue: int = 512,
    ) -> None:
        self.websocket = websocket
        self.service = service
        self.room_id = room_id
        self.pid = pid
        self.audience = pid if pid is not None else SPECTATOR
        self.seq = -1
        self._ready = False
        self._buffer: list[dict[str, Any]] = []
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._max_queue = max_queue
        self._close_code = 1000
        self._closing = False
        self._resync: asyncio.Task[None] | None = None

    # Outgoing

    def send(self, message: dict[str, Any] | str) -> None:
        if self._closing:
            return
        if self._queue.qsize() >= self._max_queue:
            self.close(CLOSE_SLOW)
            return
        text = message if isinstance(message, str) else orjson.dumps(message).decode()
        self._queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        if not self._closing:
            self._closing = True
            self._close_code = code
            self._queue.put_nowait(_STOP)

    async def run_sender(self) -> None:
        """Write queued messages in order until closed; then close the socket."""
        websocket = self.websocket
        try:
            while True:
                item = await self._queue.get()
                if item is _STOP:
                    break
                await websocket.send_text(item)
        except Exception:
            # The peer went away mid-send; the receive loop notices and cleans up.
            return
        if websocket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(self._close_code)

    # Changes

    def on_change(self, change: dict[str, Any]) -> None:
        if not self._ready:
            self._buffer.append(change)
            return
        self._deliver(change)

    def _deliver(self, change: dict[str, Any]) -> None:
        seq = change["seq"]
        if seq <= self.seq:
            return
        if self.pid is not None and self.pid in change.get("removed", ()):
            self.close(CLOSE_REMOVED)
            return
        message = change["m"].get(self.audience)
        if seq != self.seq + 1 or message is None:
            # A gap, or an audience this change does not know: start again from a snapshot.
            self._ready = False
            self._buffer.append(change)
            if self._resync is None or self._resync.done():
                self._resync = asyncio.create_task(self.snapshot())
            return
        self.seq = seq
        self.send(message)

    def _flush(self) -> None:
        self._ready = True
        buffered, self._buffer = self._buffer, []
        for index, change in enumerate(buffered):
            if not self._ready:
                self._buffer.extend(buffered[index:])
                return
            self._deliver(change)

    async def snapshot(self) -> None:
        """Send the whole view as of the latest commit, then whatever arrived meanwhile."""
        self._ready = False
        record = await self.service.load(self.room_id)
        doc = record.doc
        view = build_view(doc, replay(record.deal), self.audience, record.seq)
        ts = doc.get("ts") or now_ms()
        self.send(
            {"type": "snapshot", "protocol": VERSION, "seq": record.seq, "ts": ts, "view": view}
        )
        self.seq = record.seq
        self._flush()

    async def resume(self, last_seq: int) -> None:
        """Replay the patches after ``last_seq`` from the room's history, or snapshot."""
        if self._ready and last_seq == self.seq:
            return
        self._ready = False
        entries = None
        if last_seq <= self.seq:
            entries = await self.service.store.history(self.room_id, last_seq)
        changes = [orjson.loads(e) for e in entries] if entries is not None else None
        if not changes or any(self.audience not in c["m"] for c in changes):
            if changes == [] and last_seq == self.seq:
                self._flush()
                return
            await self.snapshot()
            return
        for change in changes:
            self.send(change["m"][self.audience])
        self.seq = max(self.seq, changes[-1]["seq"])
        self._flush()
