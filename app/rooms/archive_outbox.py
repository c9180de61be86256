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
import math
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
    """Writes outbox entries to SQL: those waiting together in one transaction (up to
    ``batch``), or, should that fail, one at a time.

    An entry SQL refuses is retried on its own schedule (backing off from
    ``first_retry_seconds`` to ``max_retry_seconds``) while the entries handed over after
    it are stored: one bad entry never holds the others back. Only when nothing can be
    stored, new entries included (SQL down), does the whole archive back off, so an
    outage is tried and logged once per backoff, not once per entry."""

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
        # Set while nothing is left to try now: each entry stored, or refused and waiting
        # for its retry (what close waits for).
        self._settled = asyncio.Event()
        self._settled.set()
        # Entries handed over and not yet tried; None is close's end mark.
        self._queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        # Entries SQL refused: (room id, key) -> (loop time of the next try, the backoff
        # after that one).
        self._retries: dict[tuple[str, str], tuple[float, float]] = {}
        # The whole archive's backoff: non-zero only while nothing could be stored.
        self._outage_delay = 0.0
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    def start(self) -> None:
        if self.passive:
            return
        # Fresh: entries left from before a close are still in their rooms' outboxes.
        self._pending.clear()
        self._settled.set()
        self._retries.clear()
        self._outage_delay = 0.0
        self._queue = asyncio.Queue()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="archiver")
        self._drainer = asyncio.create_task(self._drain_loop(), name="archive-drain")

    def submit(self, room_id: str, key: str, record: bytes) -> None:
        """Store this outbox entry in SQL soon (once, however often it is handed over)."""
        if self.passive or (room_id, key) in self._pending:
            return
        self._pending[room_id, key] = record
        self._settled.clear()
        self._queue.put_nowait((room_id, key))

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def close(self, timeout: float) -> None:
        """Store what is pending, for at most ``timeout`` s, each entry tried at least once
        (not waiting out a refused entry's backoff); what is left stays in the rooms'
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
                await self._settled.wait()
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
            if self._outage_delay:
                # Nothing could be stored last time, new entries included: wait before
                # trying SQL again (close ends the wait).
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self._outage_delay):
                        await self._stop.wait()
                if self._stop.is_set():
                    return
            fresh, end = await self._take()
            batch = self._due() + fresh
            if batch:
                await self._store_batch(batch, len(fresh))
            if self._queue.empty() and self._pending.keys() <= self._retries.keys():
                self._settled.set()
            if end:
                return

    async def _take(self) -> tuple[list[tuple[str, str]], bool]:
        """The entries handed over and not yet tried, up to a batch, waiting for the first
        until the next retry is due; and whether close's end mark came among them."""
        batch: list[tuple[str, str]] = []
        if self._queue.empty():
            wait = self._next_retry_in()
            if wait is not None and wait <= 0:
                return batch, False
            try:
                async with asyncio.timeout(wait):
                    item = await self._queue.get()
            except TimeoutError:
                return batch, False
        else:
            item = self._queue.get_nowait()
        while item is not None:
            batch.append(item)
            if len(batch) >= self._batch or self._queue.empty():
                return batch, False
            item = self._queue.get_nowait()
        return batch, True

    def _next_retry_in(self) -> float | None:
        """Seconds until the earliest retry is due (None: no entry waits for one)."""
        if not self._retries:
            return None
        due = min(at for at, _ in self._retries.values())
        return due - asyncio.get_running_loop().time()

    def _due(self) -> list[tuple[str, str]]:
        """The refused entries whose retry is due, up to a batch, first refused first
        (marked as being tried: no time is due for them until they are refused again)."""
        now = asyncio.get_running_loop().time()
        due = [item for item, (at, _) in self._retries.items() if at <= now][: self._batch]
        for item in due:
            self._retries[item] = (math.inf, self._retries[item][1])
        return due

    async def _store_batch(self, batch: list[tuple[str, str]], fresh: int) -> None:
        """Store ``batch`` (its last ``fresh`` entries never tried before); schedule a
        retry of each entry SQL refused."""
        stored, failed, error = await self._write_batch(batch)
        if stored:
            await self._clear(stored)
            self._forget(stored)
            if self._outage_delay:
                # SQL is back: what an outage refused is tried again at once.
                self._outage_delay = 0.0
                now = asyncio.get_running_loop().time()
                self._retries = {item: (now, delay) for item, (_, delay) in self._retries.items()}
        elif failed and fresh:
            # Nothing stored, new entries included: SQL is down, or refuses all alike.
            self._outage_delay = min(
                max(self._outage_delay * 2, self._first_retry), self._max_retry
            )
        if failed:
            self._schedule(failed)
        if failed and len(batch) > 1:
            # Once for the batch (SQL down fails every entry alike); one entry alone
            # was logged as it failed.
            log.warning(
                "could not archive %d of %d deals (%r); each retried with backoff",
                len(failed),
                len(batch),
                error,
            )

    async def _write_batch(
        self, batch: list[tuple[str, str]]
    ) -> tuple[list[tuple[str, str]], list[tuple[str, str]], Exception | None]:
        """Write ``batch`` in one transaction or, should that fail, one entry at a time:
        (stored, refused, the first refusal). Close stops between two writes; what is
        left then is neither."""
        if len(batch) > 1:
            try:
                await self._write_many(batch)
                return batch, [], None
            except Exception:
                log_failure(log, "could not archive %d deals together; one at a time", len(batch))
        stored: list[tuple[str, str]] = []
        failed: list[tuple[str, str]] = []
        first: Exception | None = None
        for room_id, key in batch:
            if self._stop.is_set():
                break
            try:
                await self._write(room_id, self._pending[room_id, key])
            except Exception as err:
                if len(batch) == 1:
                    log_failure(log, "room %s: could not archive deal %s", room_id, key)
                first = first or err
                failed.append((room_id, key))
                continue
            stored.append((room_id, key))
        return stored, failed, first

    def _schedule(self, failed: list[tuple[str, str]]) -> None:
        """Each refused entry's next try: after the first backoff if it was new, else
        after twice its last one (at most ``max_retry_seconds``)."""
        now = asyncio.get_running_loop().time()
        for item in failed:
            _, delay = self._retries.get(item, (now, self._first_retry))
            self._retries[item] = (now + delay, min(delay * 2, self._max_retry))

    def _forget(self, stored: list[tuple[str, str]]) -> None:
        for item in stored:
            self._pending.pop(item, None)
            self._retries.pop(item, None)

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
