"""The room service of one server node: submits commands, runs writers, fans changes out.

Every command for a room, whoever sends it (REST or a socket), is appended to the room's
log and answered by the room's writer through this node's result channel. The node that
appends a command makes sure some writer will read it: its own (woken), or a new one if it
can take the room's lease; otherwise the lease holder is woken through the store.

Changes reach this node's sockets from its own writer directly, or, for rooms written on
another node, through the store's publication (the node subscribes to a room's changes
only while it has sockets in the room and does not write it).

One file, though long: submitting, waking writers and the fan-out share one node's maps of
rooms, writers and sockets, kept consistent by being changed in one place.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from app.errors import RoomError, not_found, store_full, store_unavailable
from app.metrics import Metrics
from app.rooms import commands
from app.rooms.archive_outbox import Archive, Archiver
from app.rooms.autoplay import RoomTimes
from app.rooms.clock import now_ms
from app.rooms.races import RaceSettings
from app.rooms.writer import RoomWriter
from app.store import OUTAGE, log_failure
from app.store.base import RoomRecord, RoomStore, StoreFull

log = logging.getLogger(__name__)


class Listener(Protocol):
    """A socket (or anything) that wants a room's changes as they are published."""

    def on_change(self, change: dict[str, Any]) -> None: ...

    def close(self, code: int = 1000) -> None: ...

    @property
    def queued(self) -> int:
        """Changes taken and not yet passed on (a socket's frames not yet written)."""
        ...


# How long a socket's closing that the store refused (an outage) is offered again: the
# seat would otherwise count the gone socket for as long as the room lives.
_DISCONNECT_RETRY_SECONDS = 600.0

# A due time this far past belongs to a room that is gone (see _send_ticks).
_STALE_DUE_MS = 3_600_000

# Closes this node's sockets when its heartbeat lapsed: their connections may have been
# taken away by other nodes' writers; reconnecting counts them again.
CLOSE_RESTART = 1012
# Closes sockets while the store cannot be reached ("try again later"): their clients
# reconnect once it answers again, and resume.
CLOSE_UNAVAILABLE = 1013


@dataclass(slots=True)
class _Pending:
    """A command appended by this node, waiting for its writer's answer."""

    room_id: str
    future: asyncio.Future[dict[str, Any]]
    since: float  # loop time of the append
    deadline: float  # loop time after which the sender is told the room did not answer


@dataclass(slots=True)
class _Sync:
    """The lock that keeps a room's (un)subscribes in order, while some are in flight."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # syncs holding or waiting for the lock


class RoomService:
    def __init__(
        self,
        store: RoomStore,
        archive: Archive | None,
        *,
        lease_ttl_ms: int = 5000,
        writer_idle_seconds: float = 30.0,
        command_timeout_seconds: float = 10.0,
        outbox_drain_seconds: float = 60.0,
        metrics: Metrics | None = None,
        watchers_refresh_seconds: float = 5.0,
        races: RaceSettings | None = None,
        timer_poll_seconds: float = 0.5,
        times: RoomTimes | None = None,
        archive_elsewhere: bool = False,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.races = races or RaceSettings()
        self.archive = archive
        # archive_elsewhere: an archive process of its own stores the finished deals.
        self.archiver = Archiver(
            store, archive, drain_seconds=outbox_drain_seconds, passive=archive_elsewhere
        )
        self.node = secrets.token_hex(8)
        self._cids = itertools.count(1)
        self._ttl_ms = lease_ttl_ms
        self._idle = writer_idle_seconds
        self._timeout = command_timeout_seconds
        self._watchers_every = watchers_refresh_seconds
        self._writers: dict[str, RoomWriter] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.times = times or RoomTimes()
        self._poll_every = timer_poll_seconds
        self._timers: set[asyncio.Task[None]] = set()
        self._poller: asyncio.Task[None] | None = None
        self._ticked: dict[str, float] = {}  # room -> loop time this node last sent a tick
        self._pending: dict[str, _Pending] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._listeners: dict[str, set[Listener]] = {}
        self._subscribing: dict[str, _Sync] = {}  # rooms whose subscription is being synced
        self._subscribed: set[str] = set()
        self._writing: set[str] = set()  # rooms whose changes this node's writer hands over
        self._closing = False

    async def start(self) -> None:
        # Alive before any socket of this node counts in a room (see _beat).
        await self.store.heartbeat(self.node, self._ttl_ms)
        self._heartbeat = asyncio.create_task(self._beat(), name="heartbeat")
        await self.store.start(self.node, self._on_message, self._on_wake)
        self._sweeper = asyncio.create_task(self._sweep(), name="pending-commands")
        self._poller = asyncio.create_task(self._poll_timers(), name="room-timers")
        self.archiver.start()

    async def close(self) -> None:
        """Let every writer finish what is in its log, then stop."""
        self._closing = True
        if self._poller is not None:
            self._poller.cancel()
        # A short timer lost here (a view refresh) is set again by the room's next writer;
        # the room's own timers live in its document and the store's index.
        for timer in list(self._timers):
            timer.cancel()
        for writer in list(self._writers.values()):
            writer.stop()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=self._ttl_ms / 1000)
        for task in self._tasks:
            task.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        await self.archiver.close(timeout=self._ttl_ms / 1000)

    # Commands

    async def load(self, room_id: str) -> RoomRecord:
        record = await self.store.load(room_id)
        if record is None:
            raise not_found(room_id)
        return record

    async def submit(
        self, room_id: str, command: commands.Command | dict[str, Any]
    ) -> dict[str, Any]:
        """Append a command to the room's log and wait for the writer's answer.

        :raises RoomError: the writer refused the command, or no answer came in time.
        """
        future = await self.enqueue(room_id, command)
        await future
        return answer(future)

    async def tell(self, room_id: str, hint: commands.Delay) -> bool:
        """Pass a hint (a seat's measured network delay) to the room's writer, where one
        runs: unlike a command, a hint neither starts a writer nor waits for an answer, so
        a socket's measurements never draw a room's writing to the socket's node. False
        when no writer runs anywhere: the hint is dropped, and the sender tells it again
        with its next measurement.
        """
        if self._closing:
            return False
        writer = self._writers.get(room_id)
        if writer is not None and writer.submit(hint):
            return True
        if room_id in self._writers or not await self.store.leased(room_id):
            return False
        # No cid and no node: the writer sends no answer for it.
        await self.store.append(room_id, commands.encode(hint), wake=True)
        return True

    def try_local(
        self, room_id: str, command: commands.Command
    ) -> asyncio.Future[dict[str, Any]] | None:
        """:meth:`enqueue` where it needs no waiting: the command handed to the room's
        writer when that runs on this node and takes commands, and the future of its
        result; None, nothing done, otherwise (:meth:`enqueue` it). Its place in the
        room's order is fixed when it returns, as :meth:`enqueue`'s is."""
        if self._closing:
            raise RoomError(503, "shutting_down", "the server is shutting down")
        writer = self._writers.get(room_id)
        if writer is None:
            return None
        cid, command, future = self._expect(room_id, command)
        if writer.submit(command):
            # The room's writer runs here: no log entry (see RoomWriter.submit).
            return future
        self._pending.pop(cid, None)  # it is giving the room up: through the log
        return None

    def _expect(
        self, room_id: str, command: commands.Command
    ) -> tuple[str, commands.Command, asyncio.Future[dict[str, Any]]]:
        """``command`` addressed for its answer, and the future that answer settles."""
        # Unique on this node, which is all a result's address needs (the node id is random).
        cid = str(next(self._cids))
        command = commands.addressed(command, cid, self.node)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        now = loop.time()
        self._pending[cid] = _Pending(room_id, future, now, now + self._timeout)
        return cid, command, future

    async def enqueue(
        self, room_id: str, command: commands.Command | dict[str, Any]
    ) -> asyncio.Future[dict[str, Any]]:
        """Append a command to the room's log (its place in the room's order is now fixed)
        and make sure a writer will read it; returns the future of the writer's result
        (read it with :func:`answer`). The future fails with a ``RoomError`` if no answer
        comes in time.
        """
        if not isinstance(command, commands.Command):
            command = commands.read(command)  # a log entry as written
        local = self.try_local(room_id, command)
        if local is not None:
            return local
        cid, command, future = self._expect(room_id, command)
        entry = commands.encode(command)
        acquired: bool | None = None  # not tried yet
        try:
            if room_id in self._writers or self._closing:
                # A writer running here (busy) is woken directly.
                await self.store.append(room_id, entry, wake=room_id not in self._writers)
            else:
                # Woken through the store where it runs; taken here if it runs nowhere.
                _, acquired = await self.store.append_and_acquire(
                    room_id, entry, self.node, self._ttl_ms
                )
        except StoreFull:
            # Redis is full and refused the entry: the command is not in the log.
            self._pending.pop(cid, None)
            raise store_full() from None
        except BaseException:
            self._pending.pop(cid, None)
            raise
        try:
            await self._ensure_writer(room_id, acquired)
        except StoreFull:
            # Logged, and now no writer may take the room: the sweeper tries again.
            log.warning("room %s: the store is full; no writer could take the room", room_id)
        except BaseException:
            self._pending.pop(cid, None)
            raise
        return future

    async def _beat(self) -> None:
        """Keep this node's heartbeat in the store, renewed every third of its TTL (the
        lease's). Rooms remember which node each socket lives on; a writer turns the
        sockets of a node whose heartbeat ran out into disconnects (``RoomWriter``)."""
        every = self._ttl_ms / 3000
        down = False  # the store was found unreachable (said once per outage)
        while True:
            await asyncio.sleep(every)
            try:
                fresh = await self.store.heartbeat(self.node, self._ttl_ms)
                down = False
            except OUTAGE as err:
                # Nothing reaches this node's sockets while the store is down, and their
                # actions cannot be logged: closed, their clients come back when it is up.
                if not down:
                    log.warning("the store cannot be reached (%r); closing sockets", err)
                down = True
                for listener in list(self.listeners()):
                    listener.close(CLOSE_UNAVAILABLE)
                continue
            except Exception:
                log.exception("could not renew this node's heartbeat")
                continue
            if not fresh:
                # Late (a stalled loop, or the store unreachable for a TTL): other nodes may
                # have disconnected this node's sockets in their rooms. Closed, their
                # clients reconnect and are counted again.
                log.warning("this node's heartbeat had run out; closing its sockets")
                for listener in list(self.listeners()):
                    listener.close(CLOSE_RESTART)

    async def _sweep(self) -> None:
        """Look after commands waiting for long: their writer may have died (its lease runs
        out and this node takes the room), or the room does not answer at all.

        One task for all commands, instead of a timer per command: most are answered
        within milliseconds.
        """
        every = self._ttl_ms / 2000
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            now = loop.time()
            stale: set[str] = set()
            for cid, pending in list(self._pending.items()):
                if pending.future.done():
                    self._pending.pop(cid, None)
                elif now > pending.deadline:
                    self._pending.pop(cid, None)
                    pending.future.set_exception(
                        RoomError(503, "timeout", "the room did not answer in time; retry")
                    )
                elif now - pending.since > every:
                    stale.add(pending.room_id)
            for room_id in stale:
                try:
                    await self._ensure_writer(room_id)
                except Exception:
                    log_failure(log, "room %s: could not start a writer", room_id)

    async def _ensure_writer(self, room_id: str, acquired: bool | None = None) -> None:
        """Wake the room's writer here, or start one if this node gets the lease
        (``acquired``: the lease was just tried, with this outcome)."""
        writer = self._writers.get(room_id)
        if writer is not None:
            writer.wake()
            return
        if self._closing:
            if acquired:
                await self.store.release(room_id, self.node)  # taken on the way out
            return
        if acquired is None:
            acquired = await self.store.acquire(room_id, self.node, self._ttl_ms)
        if acquired:
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
                node=_WriterLink(self),
                metrics=self.metrics,
                watchers_refresh_seconds=self._watchers_every,
                races=self.races,
                times=self.times,
            )
            self._writers[room_id] = writer
            self._writing.add(room_id)
            # The writer hands its changes over: reading them back from the store would
            # only cost (duplicates are dropped by their seq until this is done).
            self._spawn(self._sync_subscription(room_id), f"unsubscribe-{room_id}")
            self._spawn(self._run_writer(writer), f"writer-{room_id}")

    def disconnect_later(
        self, room_id: str, command: commands.Disconnect | commands.Unwatch
    ) -> None:
        """Log a socket's closing that could not be logged (the store was unreachable)
        once the store answers again, so that its seat stops counting the socket (a seat's
        sockets are capped: its client's reconnects would be refused)."""
        self._spawn(self._retry_disconnect(room_id, command), f"disconnect-{room_id}")

    async def _retry_disconnect(
        self, room_id: str, command: commands.Disconnect | commands.Unwatch
    ) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _DISCONNECT_RETRY_SECONDS
        delay = 0.5
        while not self._closing:
            await asyncio.sleep(delay)
            if await self._disconnected(room_id, command):
                return
            if loop.time() > deadline:
                log.warning("room %s: a socket's closing could not be logged", room_id)
                return
            delay = min(delay * 2, 5.0)

    async def _disconnected(
        self, room_id: str, command: commands.Disconnect | commands.Unwatch
    ) -> bool:
        """Submit a socket's closing; False if it must be sent again: the store refused it
        (nothing logged), or, for a seat's socket (closed by its id: counted once however
        often it is sent), it went unanswered."""
        try:
            await self.submit(room_id, command)
        except RoomError as err:
            # "unavailable": in no log. "timeout": perhaps lost with a failed commit.
            # Otherwise answered (a room gone, a seat given up: nothing to count off).
            return not (
                err.code == "unavailable"
                or (err.code == "timeout" and commands.closes_by_id(command))
            )
        except OUTAGE:
            return False
        return True

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _writer_stopping(self, room_id: str, seq: int) -> None:
        """Before this node's writer gives the room up: receive its changes from the store
        again. If another node wrote meanwhile (this writer lost its lease), hand what the
        sockets here missed over from the room's history."""
        self._writing.discard(room_id)
        await self._sync_subscription(room_id)
        if seq < 0 or not self._listeners.get(room_id):
            return
        missed = await self.store.history(room_id, seq)
        for payload in missed or ():
            self._on_message(room_id, payload)

    async def _run_writer(self, writer: RoomWriter) -> None:
        room_id = writer.room_id
        try:
            await writer.run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log_failure(log, "room %s: writer failed", room_id)
        finally:
            if self._writers.get(room_id) is writer:
                del self._writers[room_id]
                self._writing.discard(room_id)
        # A command appended while the writer was giving up would wait for its sender's
        # retry; look once more so it is applied now: here, or by the node the room was
        # handed over to (where its sockets are, and its command came from).
        if not self._closing:
            with contextlib.suppress(Exception):
                record = await self.store.load(room_id)
                if record is not None and await self.store.read_log(room_id, record.log_id, 1):
                    if writer.handed_to is None:
                        await self._ensure_writer(room_id)
                    else:
                        await self.store.deliver(writer.handed_to, orjson.dumps({"take": room_id}))

    async def _take_handed(self, room_id: str) -> None:
        try:
            await self._ensure_writer(room_id)
        except Exception:  # this node's waiting commands look again (_sweep)
            log_failure(log, "room %s: could not take the room handed over", room_id)

    def _on_wake(self, room_id: str) -> None:
        writer = self._writers.get(room_id)
        if writer is not None:
            writer.wake()

    def schedule(
        self, room_id: str, delay: float, command: commands.Command | dict[str, Any]
    ) -> None:
        """Send ``command`` to the room's log after ``delay`` s (a short timer of no
        consequence if lost, such as a view refresh). It goes through the log like any
        command, so a player's action before it wins."""

        async def fire() -> None:
            await asyncio.sleep(delay)
            try:
                await self.submit(room_id, command)
            except RoomError:
                pass
            except OUTAGE as err:
                # Lost with the store; the room's next writer sets it again when it loads.
                log.warning("room %s: a timer could not reach the store: %r", room_id, err)

        task = asyncio.create_task(fire(), name=f"timer-{room_id}")
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    async def _poll_timers(self) -> None:
        """Every node looks for rooms whose timer is due in the store's index: a room whose
        writer gave it up (idle) or died still gets one in time. A tick goes through the
        room's log like any command; the room judges what is due, so a tick sent twice (by
        two nodes, or beside the writer's own) changes nothing the second time."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self._poll_every)
            try:
                await self._send_ticks(loop.time())
            except Exception:
                log_failure(log, "could not look for due room timers")

    async def _send_ticks(self, now: float) -> None:
        wall = now_ms()
        for room_id, due in await self.store.due_rooms(wall, 100):
            writer = self._writers.get(room_id)
            if writer is not None:
                writer.poke()
                continue
            if wall - due > _STALE_DUE_MS:
                # A live room's due time is indexed again with each of its changes; this one
                # expired (or waited out a long outage: its next command re-arms it).
                await self.store.set_due(room_id, None)
                continue
            if now - self._ticked.get(room_id, -1e9) < 1.0:
                continue
            # A room some writer holds has its own timer; only one overdue past a lease
            # renewal may have a dead writer (the tick waits for the next one).
            if wall - due < self._ttl_ms / 3 and await self.store.leased(room_id):
                continue
            self._ticked[room_id] = now
            try:
                future = await self.enqueue(room_id, commands.Tick())
            except Exception:
                log_failure(log, "room %s: could not send its timer tick", room_id)
                continue
            future.add_done_callback(_ignore)
        for room_id, sent in list(self._ticked.items()):
            if now - sent > 60:
                del self._ticked[room_id]

    async def created(self, room_id: str, doc: dict[str, Any]) -> None:
        """A new room: its timer (a lobby nobody sits in ends) goes into the index."""
        await self.store.set_due(room_id, doc["emptySince"] + self.times.empty_lobby_ms)

    def _resolve(self, result: dict[str, Any]) -> None:
        pending = self._pending.pop(result.get("cid", ""), None)
        if pending is not None and not pending.future.done():
            pending.future.set_result(result)

    def _lost(self, command: commands.Command, err: Exception) -> None:
        """A command of this node's that its writer could not apply nor log: its sender
        is told the store is unavailable (the command is in no log: a retry is applied
        once), rather than that the room did not answer."""
        pending = self._pending.pop(command.cid or "", None)
        if pending is not None and not pending.future.done():
            pending.future.set_exception(store_unavailable())

    async def say(self, room_id: str, message: dict[str, Any], nodes: Iterable[str]) -> None:
        """Relay a chat line or reaction (app.ws.chat) to the room's sockets on this node
        and on ``nodes``: no command, no change, nothing kept."""
        self._say_here(room_id, message)
        payload = orjson.dumps({"say": room_id, "message": message})
        for node in set(nodes) - {self.node}:
            await self.store.deliver(node, payload)

    def _say_here(self, room_id: str, message: dict[str, Any]) -> None:
        for listener in list(self._listeners.get(room_id, ())):
            hear = getattr(listener, "on_say", None)
            if hear is not None:
                hear(message)

    def _on_message(self, room_id: str | None, payload: bytes) -> None:
        if room_id is None:
            data = orjson.loads(payload)
            if "say" in data:  # another node relays a chat line to this node's sockets
                self._say_here(str(data["say"]), data["message"])
                return
            if "take" in data:  # a room handed over to this node, its log not empty
                self._spawn(self._take_handed(str(data["take"])), f"take-{data['take']}")
                return
            self._resolve(data)
        elif self._listeners.get(room_id):
            self._deliver(room_id, orjson.loads(payload))

    def _deliver(self, room_id: str, change: dict[str, Any]) -> None:
        listeners = self._listeners.get(room_id)
        if not listeners:
            return
        for listener in list(listeners):
            try:
                listener.on_change(change)
            except Exception:
                log.exception("room %s: a listener failed", room_id)

    # Fan-out to this node's sockets

    async def listen(self, room_id: str, listener: Listener) -> None:
        """Deliver the room's changes to ``listener`` from now on (when this returns, every
        change committed later reaches it)."""
        self._listeners.setdefault(room_id, set()).add(listener)
        await self._sync_subscription(room_id)

    async def unlisten(self, room_id: str, listener: Listener) -> None:
        listeners = self._listeners.get(room_id)
        if listeners is None:
            return
        listeners.discard(listener)
        if not listeners:
            del self._listeners[room_id]
        await self._sync_subscription(room_id)

    async def _sync_subscription(self, room_id: str) -> None:
        """Subscribe to the room's published changes while this node has listeners in it
        and no writer of its own handing changes over; unsubscribe otherwise."""
        sync = self._subscribing.get(room_id)
        if sync is None:
            sync = self._subscribing[room_id] = _Sync()
        sync.users += 1
        try:
            async with sync.lock:
                want = bool(self._listeners.get(room_id)) and room_id not in self._writing
                if want and room_id not in self._subscribed:
                    await self.store.subscribe(room_id)
                    self._subscribed.add(room_id)
                elif not want and room_id in self._subscribed:
                    self._subscribed.discard(room_id)
                    await self.store.unsubscribe(room_id)
        finally:
            sync.users -= 1
            # Nobody holds or waits for the lock: it goes (the next sync makes a new one),
            # or a node would keep one for every room it ever served.
            if sync.users == 0 and self._subscribing.get(room_id) is sync:
                del self._subscribing[room_id]

    def gauges(self) -> dict[str, tuple[str, float]]:
        """This node's state for the metrics endpoint (``app.metrics``)."""
        sent = getattr(self.store, "commands_sent", None)
        redis = (
            {}
            if sent is None
            else {
                "uno_redis_commands_sent": (
                    "Commands this node has sent to Redis in its batches since it started "
                    "(a count that only grows: bench/load.py reads it per action)",
                    sent,
                )
            }
        )
        return {
            **redis,
            "uno_rooms": ("Rooms whose writer runs on this node", len(self._writers)),
            "uno_sockets": (
                "Open WebSockets (seats and spectators) on this node",
                sum(len(group) for group in self._listeners.values()),
            ),
            "uno_frames_queued": (
                "Frames queued for this node's sockets and not yet written (slow readers)",
                sum(listener.queued for listener in self.listeners()),
            ),
            "uno_commands_waiting": (
                "Commands sent from this node and not answered yet",
                len(self._pending),
            ),
            "uno_archive_backlog": (
                "Finished deals handed to this node's archiver and not yet stored in SQL",
                self.archiver.pending,
            ),
        }

    def listeners(self) -> Iterable[Listener]:
        for group in self._listeners.values():
            yield from group

    @staticmethod
    def now_ms() -> int:
        return now_ms()


def _ignore(future: asyncio.Future[dict[str, Any]]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved: a tick nobody waits for


def answer(future: asyncio.Future[dict[str, Any]]) -> dict[str, Any]:
    """The result of a finished command.

    :raises RoomError: the writer refused it, or it was not answered in time.
    """
    result = future.result()
    if not result.get("ok"):
        raise RoomError.from_result(result)
    return result


class _WriterLink:
    """This node as its writers see it (``app.rooms.writer.WriterNode``)."""

    __slots__ = ("_service",)

    def __init__(self, service: RoomService) -> None:
        self._service = service

    def answer(self, result: dict[str, Any]) -> None:
        self._service._resolve(result)

    def change(self, room_id: str, change: dict[str, Any]) -> None:
        self._service._deliver(room_id, change)

    async def stopping(self, room_id: str, seq: int) -> None:
        await self._service._writer_stopping(room_id, seq)

    def lost(self, command: commands.Command, error: Exception) -> None:
        self._service._lost(command, error)

    def schedule(self, room_id: str, delay: float, command: commands.Command) -> None:
        self._service.schedule(room_id, delay, command)
