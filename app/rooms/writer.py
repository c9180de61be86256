"""The one writer of a room: reads the room's log in order, applies, commits, publishes.

A writer runs on the node that holds the room's lease. It keeps the room decoded in memory
(engine state, every audience's last view) while it holds the lease, so that an action costs
one engine call, one view per audience, a top-level diff each and one store round trip.

For each command: judge it (:class:`RoomMachine`); if it changed the room, build the new
views, diff them against the previous ones, then commit state + seq + log position +
history + publication (+ a finished deal's record, into the room's archive outbox) in one
atomic store call. Persisting comes before broadcasting: the store publishes only what it
has written. The SQL archive of a finished deal is written afterwards, in the background,
by the node's :class:`~app.rooms.archiver.Archiver`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

import engine
from app.rooms.archiver import Archiver, outbox_entry
from app.rooms.doc import is_listed
from app.rooms.machine import RoomMachine, Step
from app.rooms.views import audiences, build_view, shared_parts
from app.store.base import Commit, LeaseLost, RoomStore
from app.ws.diff import diff

log = logging.getLogger(__name__)

_BATCH = 64


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def _whole(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"op": "replace", "path": "", "value": view}]


class RoomWriter:
    """Applies one room's log while this node holds the room's lease."""

    def __init__(
        self,
        room_id: str,
        *,
        store: RoomStore,
        archiver: Archiver,
        owner: str,
        lease_ttl_ms: int,
        idle_seconds: float,
        local_result: Callable[[dict[str, Any]], None] | None = None,
        local_change: Callable[[str, dict[str, Any]], None] | None = None,
        on_stop: Callable[[str, int], Awaitable[None]] | None = None,
        schedule: Callable[[str, float, dict[str, Any]], None] | None = None,
    ) -> None:
        self.room_id = room_id
        self._store = store
        self._archiver = archiver
        self._owner = owner
        self._ttl_ms = lease_ttl_ms
        self._idle = idle_seconds
        # Results for commands sent from this node skip the round trip through the store.
        self._local_result = local_result
        # Each committed change goes straight to this node's sockets (``local_change``), not
        # back through the store; ``on_stop(room_id, seq)`` runs before the lease is given
        # up, so that the node can receive the next writer's changes from the store again.
        self._local_change = local_change
        self._on_stop = on_stop
        # Sends a command to the room's log after a delay (the room's own timers).
        self._schedule = schedule
        self._timer_for: int | None = None  # the deal whose next-deal timer is set
        self._wake = asyncio.Event()
        self._stopping = False
        self._machine: RoomMachine | None = None
        self._views: dict[str, dict[str, Any]] = {}
        self._shared: dict[str, Any] = {}  # the last change's parts common to all views
        self._listed: bool | None = None

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        """Finish the commands already in the log, then give the room up."""
        self._stopping = True
        self._wake.set()

    async def run(self) -> None:
        """Apply the log until idle, stopped or the lease is lost; then release the lease."""
        store = self._store
        try:
            await store.watch_log(self.room_id)
            record = await store.load(self.room_id)
            if record is None:
                return
            machine = RoomMachine(record.doc, record.seq, record.deal)
            self._machine = machine
            self._listed = record.doc.get("listed")
            self._views = {
                aud: build_view(machine.doc, machine.state, aud, machine.seq)
                for aud in audiences(machine.doc)
            }
            self._arm_timer(machine)  # a room taken over between deals
            # Deals a previous writer committed but did not get into SQL.
            for key, entry in await store.outbox(self.room_id):
                self._archiver.submit(self.room_id, key, entry)
            await self._loop(record.log_id)
        except LeaseLost:
            log.warning("room %s: lease lost; another node carries on", self.room_id)
        finally:
            await store.unwatch_log(self.room_id)
            if self._on_stop is not None:
                seq = -1 if self._machine is None else self._machine.seq
                try:
                    await self._on_stop(self.room_id, seq)
                except Exception:
                    log.exception("room %s: stopping the writer failed", self.room_id)
            await store.release(self.room_id, self._owner)

    async def _loop(self, cursor: str) -> None:
        renew_every = self._ttl_ms / 3000
        renewed = time.monotonic()
        idle_since = time.monotonic()
        while True:
            self._wake.clear()
            entries = await self._store.read_log(self.room_id, cursor, _BATCH)
            for entry_id, command in entries:
                await self._apply(entry_id, command)
                cursor = entry_id
            now = time.monotonic()
            if entries:
                idle_since = now
            elif self._stopping or now - idle_since > self._idle:
                return
            if now - renewed > renew_every:
                if not await self._store.acquire(self.room_id, self._owner, self._ttl_ms):
                    raise LeaseLost(self.room_id)
                renewed = now
            # Read again only when woken (or a full batch suggests more): every append
            # wakes the writer after it lands in the log, so an empty read is saved.
            if len(entries) < _BATCH and not self._wake.is_set():
                try:
                    async with asyncio.timeout(renew_every):
                        await self._wake.wait()
                except TimeoutError:
                    pass

    async def _apply(self, entry_id: str, command: dict[str, Any]) -> None:
        machine = self._machine
        assert machine is not None
        ts = now_ms()
        seq = machine.seq + 1
        change: dict[str, Any] = {}
        try:
            step = machine.handle(command, ts)
            if step.changed:
                change = self._change(machine, step, seq, ts)
        except Exception:
            # A bug (in judging the command or in building its views) must not wedge the
            # room: refuse this command, keep the room going. Store errors are not caught
            # here: they stop the writer, and the command is applied by the next one.
            log.exception("room %s: command %r failed", self.room_id, command)
            step = Step({"ok": False, "status": 500, "code": "internal", "message": "bug"})
            # The machine may be half-changed: reload it from the store.
            record = await self._store.load(self.room_id)
            if record is not None:
                self._machine = RoomMachine(record.doc, record.seq, record.deal)
        result = {"cid": command.get("cid"), **step.result}
        node = command.get("node")
        local = node == self._owner and self._local_result is not None
        if not step.changed:
            if local:
                self._local_result(result)  # type: ignore[misc]
            elif node:
                await self._store.deliver(node, orjson.dumps(result))
            return
        archive = None if step.deal_end is None else outbox_entry(step.deal_end)
        doc = machine.to_doc()
        doc["ts"] = ts
        listed = is_listed(doc)
        doc["listed"] = listed
        commit = Commit(
            seq=seq,
            doc=doc,
            log_id=entry_id,
            change=orjson.dumps(change),
            deal_reset=step.deal_reset,
            deal_append=step.deal_append,
            results=[(node, orjson.dumps(result))] if node and not local else [],
            listed=None if listed == self._listed else listed,
            lease_ttl_ms=self._ttl_ms,
            archive=archive,
        )
        await self._store.commit(self.room_id, self._owner, commit)
        if archive is not None:
            self._archiver.submit(self.room_id, *archive)
        machine.seq = seq
        self._listed = listed
        if self._local_change is not None:
            self._local_change(self.room_id, change)
        if local:
            self._local_result(result)  # type: ignore[misc]  # after the commit, as above
        self._arm_timer(machine)

    def _arm_timer(self, machine: RoomMachine) -> None:
        timer = machine.next_deal_timer(now_ms())
        if timer is None or self._schedule is None:
            return
        delay, command = timer
        if command["deal"] != self._timer_for:
            self._timer_for = command["deal"]
            self._schedule(self.room_id, delay, command)

    def _change(self, machine: RoomMachine, step: Step, seq: int, ts: int) -> dict[str, Any]:
        """The published change: for each audience, its ``patch`` message, serialised once."""
        messages: dict[str, str] = {}
        views: dict[str, dict[str, Any]] = {}
        shared: dict[str, Any] | None = None
        for aud in audiences(machine.doc):
            view = build_view(machine.doc, machine.state, aud, seq, shared)
            if shared is None:
                shared = self._shared = shared_parts(view, self._shared)
                view.update(shared)
            views[aud] = view
            seat = view["you"]
            events = [e for e in (engine.event_for(ev, seat) for ev in step.events) if e]
            events.extend(step.public_events)
            old = self._views.get(aud)
            message = {
                "type": "patch",
                "seq": seq,
                "ts": ts,
                # A new audience (a seat just taken) has no previous view to patch: its
                # sockets, if any, resync from a snapshot.
                "ops": diff(old, view) if old is not None else _whole(view),
                "events": events,
            }
            messages[aud] = orjson.dumps(message).decode()
        self._views = views
        return {"seq": seq, "ts": ts, "m": messages, "removed": step.removed}
