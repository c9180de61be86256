"""The one writer of a room: reads the room's log in order, applies, commits, publishes.

A writer runs on the node that holds the room's lease. It keeps the room decoded in memory
(engine state, every audience's last view in parts) while it holds the lease, so that an
action costs one engine call, one public delta, a private delta per audience and one store
round trip.

For each command: judge it (:class:`RoomMachine`); if it changed the room, build the new
views' parts and their deltas (app.rooms.deltas), then commit state + seq + log position +
history + publication (+ a finished deal's record, into the room's archive outbox) in one
atomic store call. Persisting comes before broadcasting: the store publishes only what it
has written. The SQL archive of a finished deal is written afterwards, in the background,
by the node's :class:`~app.rooms.archive_outbox.Archiver`.

One file, though long: the order of a room (read, judge, hold claims, commit, publish,
hand over) is one loop whose steps share the writer's state; split, each part would reach
into the others'.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
import time
from collections.abc import Mapping
from typing import Any, Protocol

import orjson

from app.metrics import Metrics
from app.rooms import claims, commands, deltas, presence, timers
from app.rooms.archive_outbox import Archiver, outbox_entry
from app.rooms.autoplay import RoomTimes
from app.rooms.clock import now_ms
from app.rooms.doc import is_listed, is_watched
from app.rooms.machine import RoomMachine
from app.rooms.presence import connection_nodes
from app.rooms.races import Claim, RaceSettings
from app.rooms.step import Step
from app.rooms.views import audiences, build_parts
from app.store.base import Commit, LeaseLost, LogAhead, RoomStore
from app.store.outage import log_failure

log = logging.getLogger(__name__)

_BATCH = 64
# A writer whose last this many commands sent from nodes all came from other nodes, and
# whose own node holds none of the room's sockets, gives the room up for the next command's
# node to take (docs/architecture.md, "The lease follows the sockets").
HAND_OVER_AFTER = 16
# Nor while a timer is due within this (ms): handed over, it would wait for some node's
# look at the store's timer index.
_HAND_OVER_CLEAR_MS = 1000


class _Window:
    """Claims on one position, held until ``deadline`` (monotonic s): see app.rooms.races."""

    def __init__(self, position: int, opened: float, deadline: float) -> None:
        self.position = position
        self.opened = opened
        self.deadline = deadline
        self.claims: list[Claim] = []
        self.order: list[Claim] | None = None  # ranked, once the window has closed
        self.held_ms = 0
        self.won: dict[str, Any] | None = None  # the winning change {seq, type, seat}
        self.after: list[commands.Command] = []  # commands read while resolving


class WriterNode(Protocol):
    """What a writer needs of the node that runs it (the node's ``RoomService``)."""

    def answer(self, result: dict[str, Any]) -> None:
        """The result of a command sent from this node (no round trip through the store)."""

    def change(self, room_id: str, change: dict[str, Any]) -> None:
        """A committed change, straight to this node's sockets (not back through the
        store)."""

    async def stopping(self, room_id: str, seq: int) -> None:
        """Before the lease is given up (``seq``: the last change applied, -1 if none): the
        node receives the next writer's changes from the store again."""

    def lost(self, command: commands.Command, error: Exception) -> None:
        """A command handed over directly that could be neither applied nor passed on to
        the log: its sender learns why, instead of waiting for its answer's deadline."""

    def schedule(self, room_id: str, delay: float, command: commands.Command) -> None:
        """Send ``command`` to the room's log after ``delay`` s (the room's own timers)."""


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
        node: WriterNode,
        metrics: Metrics | None = None,
        watchers_refresh_seconds: float = 5.0,
        races: RaceSettings | None = None,
        times: RoomTimes | None = None,
    ) -> None:
        self.room_id = room_id
        self._node = node
        self._metrics = metrics
        self._races = races or RaceSettings()
        self._window: _Window | None = None
        self._store = store
        self._archiver = archiver
        self._owner = owner
        self._ttl_ms = lease_ttl_ms
        # When the lease was last extended (the loop's acquire, or a commit that carried
        # lease_ttl_ms): see _lease_extension.
        self._renewed = time.monotonic()
        self._idle = idle_seconds
        # A refresh of the spectator count views show is set (see _commit_quiet).
        self._watchers_every = watchers_refresh_seconds
        self._watchers_armed = False
        self._times = times or RoomTimes()
        # The room's own timers: the next due time (kept in the store's index, so that any
        # node can find a due room whose writer died) and this writer's local timer for it.
        self._indexed: int | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: int | None = None
        self._ended = False
        self._committed_log = ""  # the log position of the last commit
        self._stale_tick = False  # the last tick found nothing to do
        self._wake = asyncio.Event()
        # The log may hold entries not applied yet (appended by another node, or while no
        # writer ran here): read it before the next direct command.
        self._log_dirty = True
        # Commands from this node handed over directly, not through the log (see submit).
        self._direct: collections.deque[commands.Command] = collections.deque()
        self._accepting = True
        self._stopping = False
        self._machine: RoomMachine | None = None
        # Every audience's own part of its view as of the last change, and the part all
        # share (app.rooms.views.build_parts): what the next change's patches start from.
        self._parts: dict[str, Mapping[str, Any]] = {}
        self._shared: dict[str, Any] = {}
        self._listed: bool | None = None
        self._watched: bool | None = None
        # The room's fairRaces as this writer's last change told the sockets (None: not
        # told yet): a change says it again (``fair``) when it differs.
        self._fair: bool | None = None
        # Commands sent from nodes, in a row, that came from another node (none from this
        # one): see _sockets_elsewhere.
        self._from_elsewhere = 0
        # The node the room was handed over to (the one holding all its sockets), once it
        # was: a command it appended while this writer let go waits for it to take the room.
        self.handed_to: str | None = None

    def wake(self) -> None:
        """New entries are in the room's log."""
        self._log_dirty = True
        self._wake.set()

    def submit(self, command: commands.Command) -> bool:
        """Take a command from this node directly, without appending it to the log: it is
        applied after whatever the log holds, in the order submitted. False when the
        writer is giving the room up (append the command to the log instead).

        The log orders commands between nodes; a command sent on the writer's own node
        needs no log entry. Its commit is refused if the log holds entries the writer has
        not applied (:class:`LogAhead`), so that it still comes after every command the
        log holds, and lands in the log's order anyway. A command lost with a crashed node
        was never answered, and its client's retry (same id) is applied once.
        """
        if not self._accepting:
            return False
        self._direct.append(command)
        self._wake.set()
        return True

    def stop(self) -> None:
        """Finish the commands already in the log, then give the room up."""
        self._stopping = True
        self._wake.set()

    async def _report_lease_lost(self) -> None:
        """A warning only when another writer holds the room now: alone, a node loses a
        lease when the room ended under it or its lease ran out, and simply takes the
        room again when it is next needed."""
        try:
            taken = await self._store.leased(self.room_id)
        except Exception:  # the store is down: its own errors say so
            taken = False
        if taken:
            log.warning("room %s: lease lost; another node carries on", self.room_id)
        else:
            log.info("room %s: lease lapsed; the room is taken again when needed", self.room_id)

    async def run(self) -> None:
        """Apply the log until idle, stopped or the lease is lost; then release the lease."""
        store = self._store
        try:
            await store.watch_log(self.room_id)
            cursor = await self._take_room()
            if cursor is None:
                return
            await self._loop(cursor)
        except LeaseLost:
            await self._report_lease_lost()
        finally:
            self._accepting = False
            if self._timer is not None:
                self._timer.cancel()
            await self._requeue_direct()
            try:
                await store.unwatch_log(self.room_id)
            except Exception as err:  # the store is down: its link goes with it
                log.warning("room %s: could not stop watching the log: %r", self.room_id, err)
            seq = -1 if self._machine is None else self._machine.seq
            try:
                await self._node.stopping(self.room_id, seq)
            except Exception:
                log_failure(log, "room %s: stopping the writer failed", self.room_id)
            try:
                await store.release(self.room_id, self._owner)
            except Exception as err:  # the lease runs out by itself
                log.warning("room %s: could not release the lease: %r", self.room_id, err)

    async def _take_room(self) -> str | None:
        """Load the room and get it going here; the log position to read from (None: no
        such room). The loaded record and the first machine stay local to this call: the
        loop outlives them (a reload replaces the machine, a new deal the deal log), and
        holding them for the writer's lifetime kept a stale copy of the room per writer."""
        store = self._store
        record = await store.load(self.room_id)
        if record is None:
            return None
        machine = RoomMachine(
            record.doc, record.seq, record.deal, races=self._races, times=self._times
        )
        self._machine = machine
        self._listed = record.doc.get("listed")
        self._watched = record.doc.get("watched")
        self._indexed = timers.next_due(machine)
        self._parts, self._shared = build_parts(
            machine.doc, machine.state, audiences(machine.doc), machine.seq
        )
        await self._give_time_back(record.log_id)
        await self._arm()  # timers of a room taken over (a turn clock, a deal end)
        # Deals a previous writer committed but did not get into SQL.
        for key, entry in await store.outbox(self.room_id):
            self._archiver.submit(self.room_id, key, entry)
        # Sockets of nodes that died since they connected.
        await self._find_dead_nodes()
        self._committed_log = record.log_id
        return record.log_id

    async def _requeue_direct(self) -> None:
        """Commands handed over but not applied (the lease was lost): into the log, for the
        room's next writer (this node's service starts one if it can). Claims held in a
        window go first: they came before."""
        window, self._window = self._window, None
        if window is not None:
            self._direct.extendleft(reversed(window.after))
            held = window.order if window.order is not None else window.claims
            for claim in reversed(held):
                self._direct.appendleft(dataclasses.replace(claim.command, race=None, lost=None))
        while self._direct:
            command = self._direct.popleft()
            try:
                await self._store.append(self.room_id, commands.encode(command))
            except Exception as err:
                # Its sender is told, and may retry (it is in no log: applied at most once).
                log.warning("room %s: could not pass a command on: %r", self.room_id, err)
                self._node.lost(command, err)

    async def _loop(self, cursor: str) -> None:
        renew_every = self._ttl_ms / 3000
        idle_since = time.monotonic()
        while True:
            self._wake.clear()
            applied = 0
            if self._log_dirty:
                self._log_dirty = False
                entries = await self._store.read_log(self.room_id, cursor, _BATCH)
                for entry_id, entry in entries:
                    await self._take(commands.read(entry), entry_id)
                    cursor = entry_id
                applied += len(entries)
                if len(entries) == _BATCH:
                    self._log_dirty = True  # there may be more
            while self._direct and not self._log_dirty:
                command = self._direct.popleft()
                try:
                    await self._take(command, cursor, direct=True)
                except LogAhead:
                    # Another node appended first: its commands go first.
                    self._direct.appendleft(command)
                    self._log_dirty = True
                except LeaseLost:
                    # Refused, nothing written: the next writer gets it (see run).
                    self._direct.appendleft(command)
                    raise
                applied += 1
            window = self._window
            if window is not None and not self._log_dirty:
                if self._stopping or time.monotonic() >= window.deadline:
                    try:
                        await self._resolve(window, cursor)
                    except LogAhead:
                        self._log_dirty = True  # read the log, then go on resolving
                applied += 1
            now = time.monotonic()
            moving = self._sockets_elsewhere()
            if applied and not moving:
                idle_since = now
            elif (
                self._stopping
                or moving
                or (now - idle_since > self._idle and not self._due_soon(self._idle * 1000))
            ):
                # Given up as on idle, whatever the reason: nothing new is committed, and
                # what is appended from now on is read by the room's next writer.
                if cursor != self._committed_log and not self._ended:
                    # Entries that changed nothing (a refusal, a hint) are in no commit:
                    # record that they were read, or the log looks unread and the next
                    # writer is called for them at once, and again, without end.
                    try:
                        await self._commit_position(cursor)
                    except LogAhead:
                        self._log_dirty = True
                        continue
                    if self._direct or self._wake.is_set():
                        continue  # handed over meanwhile
                elif moving and self._wake.is_set():
                    continue  # appended meanwhile: applied here, not left for a retake
                # Synchronously with the check above: nothing is handed over from now on.
                self._accepting = False
                if not self._stopping:
                    # A clean hand-back: the store's timer index calls the next writer in
                    # time; no outage to give back. (A stopping node leaves its beat: the
                    # time until the next writer comes is given back.)
                    await self._store.beat(self.room_id, None)
                if moving and not self._stopping:
                    assert self._machine is not None
                    held = connection_nodes(self._machine.doc)
                    self.handed_to = held.pop() if len(held) == 1 else None
                    log.debug("room %s: handed over to %s", self.room_id, self.handed_to)
                    if self._metrics is not None:
                        self._metrics.handovers.inc()
                return
            if now - self._renewed > renew_every:
                if not await self._store.acquire(self.room_id, self._owner, self._ttl_ms):
                    raise LeaseLost(self.room_id)
                self._renewed = now
                await self._beat()
                await self._find_dead_nodes()
            # Go on only when woken: every append wakes the writer after it lands in the
            # log, and every direct command wakes it, so an empty read is saved.
            if not (self._log_dirty or self._direct or self._wake.is_set()):
                wait = renew_every
                idle_left = idle_since + self._idle - time.monotonic()
                if idle_left > 0:
                    wait = min(wait, idle_left + 0.01)  # look again once idle long enough
                if self._window is not None:
                    wait = min(wait, max(0.0, self._window.deadline - time.monotonic()))
                await self._woken_or_after(wait)

    async def _woken_or_after(self, seconds: float) -> None:
        """Until the writer is woken, or ``seconds`` passed (then as if woken: the loop
        looks again). A timer that sets the event costs one handle per wait, where
        ``asyncio.timeout`` adds a context object, a cancellation and its bookkeeping to
        every action's wake-up."""
        timer = asyncio.get_running_loop().call_later(seconds, self._wake.set)
        try:
            await self._wake.wait()
        finally:
            timer.cancel()

    async def _find_dead_nodes(self) -> None:
        """Turn the connections of nodes whose heartbeat ran out (a node killed without
        closing its sockets) into disconnects, each a change like its own disconnect. Costs
        a store call only while sockets of other nodes are in the room."""
        machine = self._machine
        assert machine is not None
        nodes = connection_nodes(machine.doc)
        nodes.discard(self._owner)
        if not nodes:
            return
        dead = nodes - await self._store.alive(nodes)
        if dead:
            log.warning("room %s: disconnecting the sockets of dead nodes %s", self.room_id, dead)
            # Applied like commands from this node; one found again before it was applied
            # (or twice) changes nothing the second time.
            self._direct.extend(presence.gone(machine, dead))

    async def _take(self, command: commands.Command, log_id: str, direct: bool = False) -> None:
        """Hold ``command`` in the claim window if it is a claim (opening one if none is
        open), else apply it."""
        machine = self._machine
        assert machine is not None
        window = self._window
        if window is not None and window.order is not None:
            # Read while the closed window's claims are being applied: after them.
            window.after.append(command)
            return
        seat = claims.holds(machine, command, window is not None, now_ms())
        if seat is None or not isinstance(command, commands.Action):
            await self._apply(command, log_id, direct)
            return
        now = time.monotonic()
        if window is None:
            # A claim is held only while a match is on (claims.holds): there is a state.
            moves = 0 if machine.state is None else machine.state.moves
            window = self._window = _Window(
                moves, now, now + claims.window_for(machine, command) / 1000
            )
        window.claims.append(Claim(command, log_id, direct, seat, now * 1000))

    async def _resolve(self, window: _Window, cursor: str) -> None:
        """The window closed: apply its claims fastest first. The first the engine accepts
        is the winner, its change carrying the race event; each later one is judged against
        the table it left, and told ``too_late`` with what won if refused.

        :raises LogAhead: a commit was refused (the log holds entries to read first); the
            claims not yet applied stay in the window.
        """
        machine = self._machine
        assert machine is not None
        if window.order is None:
            window.held_ms = round((time.monotonic() - window.opened) * 1000)
            window.order = claims.rank_window(machine, window.claims, window.position)
        ordered = list(window.order)
        while window.order:
            claim = window.order[0]
            if window.won is None:
                marks = claims.race_marks(machine, ordered, claim, window.position, window.held_ms)
                command = dataclasses.replace(claim.command, race=marks)
            else:
                lost = claims.lost_marks(machine, claim, window.won, window.held_ms)
                command = dataclasses.replace(claim.command, lost=lost)
            changed = await self._apply(command, cursor, direct=True)
            window.order.pop(0)
            if window.won is None and changed:
                kind = command.action.type
                window.won = {"seq": machine.seq, "type": kind, "seat": claim.seat}
        self._window = None
        # In their order, before anything handed over later; a claim among them may open
        # the next window.
        self._direct.extendleft(reversed(window.after))

    async def _apply(self, command: commands.Command, log_id: str, direct: bool = False) -> bool:
        """Judge one command and commit what it changed (True if it changed the room).
        ``log_id``: the last log entry this change includes (the command's own entry, or
        for a ``direct`` command the last one applied before it).

        :raises LogAhead: a direct command's commit was refused; nothing changed.
        """
        machine = self._machine
        assert machine is not None
        ts = now_ms()
        seq = machine.seq + 1
        change: dict[str, Any] = {}
        parts, shared = self._parts, self._shared
        try:
            step = machine.handle(command, ts)
            # The room's claims for the seats it plays go the way of every claim (_take).
            self._direct.extend(step.claims)
            if step.changed:
                # A socket's action (or "I'm back"): its ack may ride on the change.
                pid = None
                if isinstance(command, commands.Action | commands.Back):
                    pid = command.pid
                change = self._change(machine, step, seq, ts, pid)
        except Exception:
            # A bug (in judging the command or in building its views) must not wedge the
            # room: refuse this command, keep the room going. Store errors are not caught
            # here: they stop the writer, and the command is applied by the next one.
            log.exception("room %s: command %r failed", self.room_id, command)
            step = Step({"ok": False, "status": 500, "code": "internal", "message": "bug"})
            await self._reload(parts, shared)
        result = {"cid": command.cid, **step.result}
        node = command.node
        local = node == self._owner
        if node:
            self._from_elsewhere = 0 if local else self._from_elsewhere + 1
        if isinstance(command, commands.Watchers):
            self._watchers_armed = False
        if step.quiet:
            await self._commit_quiet(machine, log_id, direct, node, local, result)
            return False  # quiet: no change of the room's seq
        if not step.changed:
            if step.result.get("duplicate"):
                # A retry of an action already applied: its commit may be one the store
                # wrote but could not confirm (no replica in time), so the ack waits for
                # the store to confirm the room as it is.
                await self._store.confirm(self.room_id)
            if self._metrics is not None:
                self._metrics.applied(command.KIND, False)
            if local:
                self._node.answer(result)
            elif node:
                await self._store.deliver(node, orjson.dumps(result))
            self._stale_tick = isinstance(command, commands.Tick)
            await self._arm()  # a timer that found nothing due may have moved on
            return False
        archive = None if step.deal_end is None else outbox_entry(step.deal_end)
        doc = machine.to_doc()
        doc["ts"] = ts
        listed, watched = is_listed(doc), is_watched(doc)
        doc["listed"], doc["watched"] = listed, watched
        commit = Commit(
            seq=seq,
            doc=doc,
            log_id=log_id,
            direct=direct,
            change=orjson.dumps(change),
            deal_reset=step.deal_reset,
            deal_append=step.deal_append,
            results=[(node, orjson.dumps(result))] if node and not local else [],
            listed=None if listed == self._listed else listed,
            watched=None if watched == self._watched else watched,
            lease_ttl_ms=self._lease_extension(),
            archive=archive,
        )
        started = time.perf_counter()
        sent = time.monotonic()
        try:
            await self._store.commit(self.room_id, self._owner, commit)
        except LogAhead:
            await self._reload(parts, shared)
            raise
        self._committed_log = log_id
        if commit.lease_ttl_ms:
            self._renewed = sent
        if self._metrics is not None:
            self._metrics.commit_seconds.observe(time.perf_counter() - started)
            self._metrics.applied(command.KIND, True)
        if archive is not None:
            self._archiver.submit(self.room_id, *archive)
        machine.seq = seq
        self._listed, self._watched = listed, watched
        self._node.change(self.room_id, change)
        if local:
            self._node.answer(result)  # after the commit, as above
        self._stale_tick = False
        if step.end_room:
            # Nobody there for too long: the room leaves the live store, the writer stops.
            self._ended = True
            self._stopping = True
            await self._store.expire_room(self.room_id, 0)
            await self._store.set_due(self.room_id, None)
            await self._store.beat(self.room_id, None)
            return True
        await self._arm()
        return True

    async def _commit_quiet(
        self,
        machine: RoomMachine,
        log_id: str,
        direct: bool,
        node: str | None,
        local: bool,
        result: dict[str, Any],
    ) -> None:
        """Store a document change that is no change of the room (same seq, nothing
        published but the result): a spectator socket opening or closing."""
        commit = Commit(
            seq=machine.seq,
            doc=machine.to_doc(),
            log_id=log_id,
            direct=direct,
            change=b"",
            results=[(node, orjson.dumps(result))] if node and not local else [],
            lease_ttl_ms=self._lease_extension(),
        )
        sent = time.monotonic()
        try:
            await self._store.commit(self.room_id, self._owner, commit)
        except LogAhead:
            await self._reload(self._parts, self._shared)
            raise
        self._committed_log = log_id
        if commit.lease_ttl_ms:
            self._renewed = sent
        if local:
            self._node.answer(result)
        if presence.watchers_stale(machine) and not self._watchers_armed:
            # One refresh of the count the views show per period, however many come and go.
            self._watchers_armed = True
            self._node.schedule(self.room_id, self._watchers_every, commands.Watchers())

    def _lease_extension(self) -> int:
        """What a commit extends the lease by: the whole TTL once a third of it has passed
        since the lease was last extended (as the loop's renewal: a writer busy with a long
        batch never loses its room), else 0 (one Redis call less per commit)."""
        return self._ttl_ms if time.monotonic() - self._renewed > self._ttl_ms / 3000 else 0

    async def _reload(self, parts: dict[str, Mapping[str, Any]], shared: dict[str, Any]) -> None:
        """Back to the room as committed, with the views the sockets hold (their parts):
        the machine may be half-changed by a command that failed or was not committed."""
        record = await self._store.load(self.room_id)
        if record is not None:
            old = self._machine
            self._machine = RoomMachine(
                record.doc, record.seq, record.deal, races=self._races, times=self._times
            )
            if old is not None:
                self._machine.locked = old.locked
                self._machine.delays.update(old.delays)  # reported since the last commit
        self._parts, self._shared = parts, shared
        self._fair = None  # the change that told it may not have been committed

    # The room's timers

    async def _commit_position(self, log_id: str) -> None:
        """Commit the room as it is, read up to ``log_id``: nothing changes but the log
        position the room's next writer starts from."""
        machine = self._machine
        assert machine is not None
        commit = Commit(
            seq=machine.seq,
            doc=machine.to_doc(),
            log_id=log_id,
            direct=False,
            change=b"",
            results=[],
            lease_ttl_ms=self._ttl_ms,
        )
        await self._store.commit(self.room_id, self._owner, commit)
        self._committed_log = log_id

    async def _give_time_back(self, log_id: str) -> None:
        """A writer that died (or a node that stopped) left the room without a writer: the
        decider gets the time that passed meanwhile back, before anything in the log (a
        timer tick appended by another node) is judged."""
        machine = self._machine
        assert machine is not None
        clock = machine.doc.get("clock")
        if clock is None and not machine.doc.get("emptySince"):
            return
        beat = await self._store.last_beat(self.room_id)
        if beat is None or (clock is not None and clock["deadline"] <= beat):
            return
        shift = now_ms() - beat
        if shift > self._ttl_ms / 3:
            await self._apply(commands.Resume(shift=shift), log_id)

    async def _beat(self) -> None:
        """While the room has a timer, the store knows this writer is alive (see
        :meth:`_give_time_back`)."""
        machine = self._machine
        if machine is not None and not self._ended and timers.next_due(machine) is not None:
            await self._store.beat(self.room_id, now_ms())

    def _due_soon(self, within_ms: float) -> bool:
        due = None if self._machine is None else timers.next_due(self._machine)
        return due is not None and due - now_ms() < within_ms

    def _sockets_elsewhere(self) -> bool:
        """The room is better written on another node: its last commands from nodes came
        from others, this node holds none of its sockets (sockets split across nodes keep
        the room where it is: no back and forth), and nothing is pending here.

        The room's sockets send its commands; with the proxy routing by room they are all
        on one node, but a failover or a REST call landing elsewhere can leave the lease on
        a node without them, every action then paying the log and the publication."""
        machine = self._machine
        return (
            self._from_elsewhere >= HAND_OVER_AFTER
            and machine is not None
            and not (self._ended or self._log_dirty or self._direct)
            and self._window is None
            and self._owner not in connection_nodes(machine.doc)
            and not self._due_soon(_HAND_OVER_CLEAR_MS)
        )

    async def _arm(self) -> None:
        """Index the room's next due time in the store and set the local timer for it."""
        machine = self._machine
        if machine is None or self._ended:
            return
        due = timers.next_due(machine)
        if due != self._indexed:
            if self._indexed is None:
                await self._beat()  # a timer from now on: outages count
            await self._store.set_due(self.room_id, due)
            self._indexed = due
        if due == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = due
        if due is not None:
            delay = max(0.0, (due - now_ms()) / 1000) + 0.002
            if self._stale_tick and delay < 0.5:
                delay = 0.5  # due, yet the last tick did nothing: do not spin
            self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_at = None
        self.submit(commands.Tick())

    def poke(self) -> None:
        """The store's index says the room is due (another node's view of it): judge now."""
        if self._timer_at is None or self._timer_at <= now_ms():
            self.submit(commands.Tick())

    def _change(
        self, machine: RoomMachine, step: Step, seq: int, ts: int, pid: str | None
    ) -> dict[str, Any]:
        """The published change: for each audience, its ``patch`` message, serialised once
        (app.rooms.deltas), or None for the public one (``p``);
        ``ack``: the seat (``pid``) and ``ref`` of the action it accepted, for a socket
        whose ack rides on its patch (``app.ws.connection``)."""
        parts, shared = build_parts(
            machine.doc, machine.state, audiences(machine.doc), seq, self._shared
        )
        messages, public = deltas.patches(
            (self._parts, self._shared), (parts, shared), seq, ts, step.events, step.public_events
        )
        self._parts, self._shared = parts, shared
        # ``mv``: the position (moves) the views now show; sockets note when they sent it.
        moves = None if machine.state is None else machine.state.moves
        change = {"seq": seq, "ts": ts, "m": messages, "removed": step.removed, "mv": moves}
        if public is not None:
            change["p"] = public  # the message of every audience ``m`` maps to None
        ref = step.result.get("ref")
        if ref is not None and pid is not None:
            change["ack"] = [pid, ref]
        if step.end_room:
            change["end"] = True  # sockets close after this change: the room is gone
        fair = bool(machine.doc.get("fairRaces", True))
        if fair != self._fair:
            change["fair"] = self._fair = fair  # sockets measure round trips while it is on
        return change
