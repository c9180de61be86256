"""The room service of one server node: submits commands, runs writers, fans changes out.

Every command for a room, whoever sends it (REST or a socket), is appended to the room's
log and answered by the room's writer through this node's result channel. The node that
appends a command makes sure some writer will read it: its own (woken), or a new one if it
can take the room's lease; otherwise the lease holder is woken through the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterable
from typing import Any, Protocol

import orjson

from app.rooms.archiver import Archive, Archiver
from app.rooms.errors import RoomError, not_found
from app.rooms.writer import RoomWriter, now_ms
from app.store.base import RoomRecord, RoomStore

log = logging.getLogger(__name__)


class Listener(Protocol):
    """A socket (or anything) that wants a room's changes as they are published."""

    def on_change(self, change: dict[str, Any]) -> None: ...


class RoomService:
    def __init__(
        self,
        store: RoomStore,
        archive: Archive | None,
        *,
        lease_ttl_ms: int = 5000,
        writer_idle_seconds: float = 30.0,
        command_timeout_seconds: float = 10.0,
    ) -> None:
        self.store = store
        self.archive = archive
        self.archiver = Archiver(store, archive)
        self.node = secrets.token_hex(8)
        self._ttl_ms = lease_ttl_ms
        self._idle = writer_idle_seconds
        self._timeout = command_timeout_seconds
        self._writers: dict[str, RoomWriter] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: set[asyncio.Task[None]] = set()
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._listeners: dict[str, set[Listener]] = {}
        self._subscribing: dict[str, asyncio.Lock] = {}
        self._closing = False

    async def start(self) -> None:
        await self.store.start(self.node, self._on_message, self._on_wake)
        self.archiver.start()

    async def close(self) -> None:
        """Let every writer finish what is in its log, then stop."""
        self._closing = True
        # A timer lost here is set again by whichever writer next loads the room.
        for timer in list(self._timers):
            timer.cancel()
        for writer in list(self._writers.values()):
            writer.stop()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=self._ttl_ms / 1000)
        for task in self._tasks:
            task.cancel()
        await self.archiver.close(timeout=self._ttl_ms / 1000)

    # Commands

    async def load(self, room_id: str) -> RoomRecord:
        record = await self.store.load(room_id)
        if record is None:
            raise not_found(room_id)
        return record

    async def submit(self, room_id: str, command: dict[str, Any]) -> dict[str, Any]:
        """Append a command to the room's log and wait for the writer's answer.

        :raises RoomError: the writer refused the command, or no answer came in time.
        """
        return await self.result(room_id, await self.enqueue(room_id, command))

    async def enqueue(self, room_id: str, command: dict[str, Any]) -> str:
        """Append a command to the room's log (its place in the room's order is now fixed)
        and make sure a writer will read it; returns the id to wait on with :meth:`result`.
        """
        if self._closing:
            raise RoomError(503, "shutting_down", "the server is shutting down")
        cid = secrets.token_hex(8)
        command = {**command, "cid": cid, "node": self.node}
        self._pending[cid] = asyncio.get_running_loop().create_future()
        try:
            # A writer running here is woken directly; others through the store.
            await self.store.append(room_id, command, wake=room_id not in self._writers)
            await self._ensure_writer(room_id)
        except BaseException:
            self._pending.pop(cid, None)
            raise
        return cid

    async def result(self, room_id: str, cid: str) -> dict[str, Any]:
        """The writer's answer to the command ``cid``.

        :raises RoomError: the writer refused the command, or no answer came in time.
        """
        future = self._pending[cid]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._timeout
        try:
            while True:
                try:
                    # asyncio.timeout, not wait_for: no extra task per command.
                    async with asyncio.timeout(self._ttl_ms / 2000):
                        result = await asyncio.shield(future)
                    break
                except TimeoutError:
                    if loop.time() > deadline:
                        raise RoomError(
                            503, "timeout", "the room did not answer in time; retry"
                        ) from None
                    # The writer may have died: its lease runs out and we take the room.
                    await self._ensure_writer(room_id)
        finally:
            self._pending.pop(cid, None)
        if not result.get("ok"):
            raise RoomError.from_result(result)
        return result

    async def _ensure_writer(self, room_id: str) -> None:
        writer = self._writers.get(room_id)
        if writer is not None:
            writer.wake()
            return
        if self._closing:
            return
        if await self.store.acquire(room_id, self.node, self._ttl_ms):
            if room_id in self._writers:  # started while we waited
                self._writers[room_id].wake()
                return
            writer = RoomWriter(
                room_id,
                store=self.store,
                archiver=self.archiver,
                owner=self.node,
                lease_ttl_ms=self._ttl_ms,
                idle_seconds=self._idle,
                local_result=self._resolve,
                schedule=self.schedule,
            )
            self._writers[room_id] = writer
            task = asyncio.create_task(self._run_writer(writer), name=f"writer-{room_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run_writer(self, writer: RoomWriter) -> None:
        room_id = writer.room_id
        try:
            await writer.run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: writer failed", room_id)
        finally:
            if self._writers.get(room_id) is writer:
                del self._writers[room_id]
        # A command appended while the writer was giving up would wait for its sender's
        # retry; look once more so it is applied now.
        if not self._closing:
            with contextlib.suppress(Exception):
                record = await self.store.load(room_id)
                if record is not None and await self.store.read_log(room_id, record.log_id, 1):
                    await self._ensure_writer(room_id)

    def _on_wake(self, room_id: str) -> None:
        writer = self._writers.get(room_id)
        if writer is not None:
            writer.wake()

    def schedule(self, room_id: str, delay: float, command: dict[str, Any]) -> None:
        """Send ``command`` to the room's log after ``delay`` s (a room's own timer). It goes
        through the log like any command, so a player's action before it wins."""

        async def fire() -> None:
            await asyncio.sleep(delay)
            with contextlib.suppress(RoomError):
                await self.submit(room_id, command)

        task = asyncio.create_task(fire(), name=f"timer-{room_id}")
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    def _resolve(self, result: dict[str, Any]) -> None:
        future = self._pending.get(result.get("cid", ""))
        if future is not None and not future.done():
            future.set_result(result)

    def _on_message(self, room_id: str | None, payload: bytes) -> None:
        if room_id is None:
            self._resolve(orjson.loads(payload))
            return
        listeners = self._listeners.get(room_id)
        if not listeners:
            return
        change = orjson.loads(payload)
        for listener in list(listeners):
            try:
                listener.on_change(change)
            except Exception:
                log.exception("room %s: a listener failed", room_id)

    # Fan-out to this node's sockets

    async def listen(self, room_id: str, listener: Listener) -> None:
        """Deliver the room's changes to ``listener`` from now on (subscription confirmed)."""
        lock = self._subscribing.setdefault(room_id, asyncio.Lock())
        async with lock:
            listeners = self._listeners.setdefault(room_id, set())
            first = not listeners
            listeners.add(listener)
            if first:
                await self.store.subscribe(room_id)

    async def unlisten(self, room_id: str, listener: Listener) -> None:
        lock = self._subscribing.setdefault(room_id, asyncio.Lock())
        async with lock:
            listeners = self._listeners.get(room_id)
            if listeners is None:
                return
            listeners.discard(listener)
            if not listeners:
                del self._listeners[room_id]
                await self.store.unsubscribe(room_id)

    def listeners(self) -> Iterable[Listener]:
        for group in self._listeners.values():
            yield from group

    @staticmethod
    def now_ms() -> int:
        return now_ms()
