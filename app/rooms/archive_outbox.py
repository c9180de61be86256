"""The SQL archive of finished deals, written off the rooms' critical path.

A deal-ending change carries its deal's record into the store in the same atomic commit
(the room's *outbox*), so the record is as durable as the change itself. This node's
:class:`Archiver` then writes it to SQL in the background and removes it from the outbox
once stored, retrying with backoff while SQL fails: the room goes on meanwhile, and a deal
is never lost. A writer that takes a room over (after a crash or a restart) hands the
outbox entries it finds to its node's archiver, so leftovers are finished too; and every
archiver looks for rooms with outbox entries and no writer at start and then every minute
(:meth:`Archiver.drain`), for rooms that see no command again. The SQL
write is idempotent (``Database.record_deal``), so an entry written twice (two nodes, or
a crash between the write and the removal) is stored once.

Or the archive runs in a process of its own (``python -m app.archiver``, settings
``archiver = "process"``): the nodes' archivers are then *passive* (they take nothing
over and write nothing), and the archive process's archiver looks at every room's outbox
every ``archive_poll_seconds``, held by a writer or not (:meth:`Archiver.drain` with
``every_room``). Either way an entry leaves the outbox only once SQL has it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Protocol

import orjson

from app.deal_record import DealRecord
from app.store.base import RoomStore
from app.store.outage import log_failure

log = logging.getLogger(__name__)

# The most queued entries stored in one SQL transaction: a deal costs a few statements
# of SQLAlchemy however many rows they carry, so a backlog is stored in batches.
BATCH = 64


class Archive(Protocol):
    """Where finished deals go (``app.db.Database``)."""

    async def record_deal(self, room_id: str, deal: DealRecord) -> None: ...

    async def record_deals(self, deals: Sequence[tuple[str, DealRecord]]) -> None: ...


def outbox_entry(end: DealRecord) -> tuple[str, bytes]:
    """The outbox key and record of a finished deal (one key per match and deal number)."""
    return f"{end.match_id}:{end.deal_number}", orjson.dumps(end.to_json())


class Archiver:
    """Writes outbox entries to SQL in the order they were handed over: those waiting
    together in one transaction (up to ``batch``), or, should that fail, one at a time."""

    def __init__(
        self,
        store: RoomStore,
        archive: Archive | None,
        *,
        first_retry_seconds: float = 0.5,
        max_retry_seconds: float = 30.0,
        drain_seconds: float = 60.0,
        passive: bool = False,
        every_room: bool = False,
        batch: int = BATCH,
    ) -> None:
        # passive: another process archives (submit takes nothing, start runs nothing);
        # every_room: drain every outbox, not only those of rooms no writer holds.
        self.passive = passive
        self._every_room = every_room
        self._store = store
        self._drain_every = drain_seconds
        self._drainer: asyncio.Task[None] | None = None
        self._archive = archive
        self._first_retry = first_retry_seconds
        self._max_retry = max_retry_seconds
        self._batch = max(1, batch)
        # (room id, key) -> record, for entries handed over and not yet stored.
        self._pending: dict[tuple[str, str], bytes] = {}
        self._queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    def start(self) -> None:
        if self.passive:
            return
        # Fresh: entries left from before a close are still in their rooms' outboxes.
        self._pending.clear()
        self._queue = asyncio.Queue()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="archiver")
        self._drainer = asyncio.create_task(self._drain_loop(), name="archive-drain")

    def submit(self, room_id: str, key: str, record: bytes) -> None:
        """Store this outbox entry in SQL soon (once, however often it is handed over)."""
        if self.passive or (room_id, key) in self._pending:
            return
        self._pending[room_id, key] = record
        self._queue.put_nowait((room_id, key))

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def close(self, timeout: float) -> None:
        """Store what is pending, for at most ``timeout`` s; what is left stays in the rooms'
        outboxes for the next writer of each room."""
        task = self._task
        if task is None:
            return
        self._task = None
        if self._drainer is not None:
            self._drainer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._drainer
            self._drainer = None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._queue.join()
        # Stop between two writes: a write cancelled halfway could leave its SQL
        # transaction (and SQLite's write lock) open. Only a write that hangs is cancelled.
        self._stop.set()
        self._queue.put_nowait(None)
        _, running = await asyncio.wait({task}, timeout=max(timeout, 1.0))
        for still in running:
            still.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await still

    async def drain(self) -> int:
        """Take on the outbox entries of rooms that no writer holds (left by a node that
        died, or stopped before its archiver was done): a room that never sees another
        command would keep them otherwise. Returns how many entries were handed over."""
        store = self._store
        found: list[tuple[str, str, bytes]] = []
        for room_id in await store.outbox_rooms():
            # A room's writer hands its outbox to its own archiver when it starts.
            if not self._every_room and await store.leased(room_id):
                continue
            entries = await store.outbox(room_id)
            if not entries:
                await store.outbox_settled(room_id)
            found += [(room_id, key, record) for key, record in entries]
        # Handed over together once all are read, not room by room: the writes then
        # start with the queue full and store it in batches.
        for room_id, key, record in found:
            self.submit(room_id, key, record)
        return len(found)

    async def _drain_loop(self) -> None:
        """At start, then every ``drain_seconds``."""
        while True:
            try:
                handed = await self.drain()
                if handed and not self._every_room:
                    log.info("archiving %d deals left in outboxes", handed)
            except Exception:
                log_failure(log, "could not look for outbox entries left behind")
            await asyncio.sleep(self._drain_every)

    async def _run(self) -> None:
        while not self._stop.is_set():
            batch, end = await self._take()
            try:
                await self._store_batch(batch)
            finally:
                # Stored, or given up at close: either way a later hand-over queues it.
                for item in batch:
                    self._pending.pop(item, None)
                    self._queue.task_done()
            if end:
                self._queue.task_done()
                return

    async def _take(self) -> tuple[list[tuple[str, str]], bool]:
        """The next entries to store: the first one queued (waited for), and those queued
        behind it, up to a batch; and whether close's end mark came among them."""
        batch: list[tuple[str, str]] = []
        item = await self._queue.get()
        while item is not None:
            batch.append(item)
            if len(batch) >= self._batch or self._queue.empty():
                return batch, False
            item = self._queue.get_nowait()
        return batch, True

    async def _store_batch(self, batch: list[tuple[str, str]]) -> None:
        if not batch:
            return
        if len(batch) == 1:
            room_id, key = batch[0]
            await self._store_one(room_id, key, self._pending[room_id, key])
            return
        try:
            await self._write_many(batch)
        except Exception:
            log_failure(log, "could not archive %d deals together; one at a time", len(batch))
            await self._store_each(batch)
            return
        await self._clear(batch)

    async def _store_each(self, batch: list[tuple[str, str]]) -> None:
        """Each entry on its own: one bad entry must not hold the others back, so each is
        tried once before those that failed are retried with backoff (a deal stored
        meanwhile by another writer is stored once all the same)."""
        failed = []
        first: Exception | None = None
        for room_id, key in batch:
            if self._stop.is_set():
                return
            try:
                await self._write(room_id, self._pending[room_id, key])
            except Exception as err:
                first = first or err
                failed.append((room_id, key))
                continue
            await self._clear([(room_id, key)])
        if failed:
            # Once for them all (SQL down fails every one): each retry logs its own.
            log.warning(
                "could not archive %d of %d deals (%r); retrying with backoff",
                len(failed),
                len(batch),
                first,
            )
        for room_id, key in failed:
            if self._stop.is_set():
                return
            await self._store_one(room_id, key, self._pending[room_id, key])

    async def _clear(self, stored: list[tuple[str, str]]) -> None:
        """Drop entries SQL has from their outboxes, all at once (the Redis stores send
        commands issued together in one round trip)."""
        await asyncio.gather(*(self._clear_one(room_id, key) for room_id, key in stored))

    async def _clear_one(self, room_id: str, key: str) -> None:
        try:
            await self._store.archived(room_id, key)
        except Exception:
            # Stored in SQL but still in the outbox: the next writer stores it again,
            # which changes nothing.
            log_failure(log, "room %s: could not clear outbox entry %s", room_id, key)

    async def _store_one(self, room_id: str, key: str, record: bytes) -> None:
        delay = self._first_retry
        while True:
            try:
                await self._write(room_id, record)
                break
            except Exception:
                log_failure(log, "room %s: could not archive deal %s; retrying", room_id, key)
            # The backoff ends early at close: the entry stays in the outbox.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._stop.wait()
            if self._stop.is_set():
                return
            delay = min(delay * 2, self._max_retry)
        await self._clear([(room_id, key)])

    async def _write(self, room_id: str, record: bytes) -> None:
        if self._archive is None:
            return
        await self._archive.record_deal(room_id, DealRecord.from_json(orjson.loads(record)))

    async def _write_many(self, batch: list[tuple[str, str]]) -> None:
        if self._archive is None:
            return
        await self._archive.record_deals(
            [
                (room_id, DealRecord.from_json(orjson.loads(self._pending[room_id, key])))
                for room_id, key in batch
            ]
        )
