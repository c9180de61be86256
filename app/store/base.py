"""The room store interface.

A room is kept as one JSON document plus the ``seq`` of its last change and the id of the
last log entry applied; these three change together, in one atomic :meth:`RoomStore.commit`
that also appends to the bounded change history, puts a finished deal into the room's
archive outbox, and publishes the change. Every command for
a room is first appended to the room's log (:meth:`RoomStore.append`); the one writer that
holds the room's lease reads the log in order and commits. Ids of log entries are strings
that sort in log order (Redis Stream ids in the Redis store).
"""

from __future__ import annotations

import abc
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# Called with (room_id, payload) for a published change, and with (None, payload) for a
# command result addressed to this node.
Delivery = Callable[[str | None, bytes], Awaitable[None] | None]


@dataclass(slots=True)
class RoomRecord:
    """A room as committed: its document, the seq of its last change, the last log id, and
    the current deal's log (its start state, then every action applied since), from which
    the engine state is rebuilt."""

    doc: dict[str, Any]
    seq: int
    log_id: str
    deal: list[dict[str, Any]]


@dataclass(slots=True)
class Commit:
    """One change, written all together or not at all."""

    seq: int  # the new seq; the store refuses it unless the stored seq is seq - 1
    doc: dict[str, Any]
    log_id: str  # the last log entry this change includes
    # Published to the room's subscribers and kept in the history. Empty: a quiet commit,
    # a document change no view shows (a spectator socket opening or closing): ``seq`` is
    # the stored seq (refused unless it still is), nothing is published or kept in the
    # history but the results.
    change: bytes
    # The current deal's action log (for the SQL archive): cleared first when reset is set.
    deal_reset: bool = False
    deal_append: list[dict[str, Any]] = field(default_factory=list)
    # Command results to deliver: (node id, payload).
    results: list[tuple[str, bytes]] = field(default_factory=list)
    listed: bool | None = None  # whether the room belongs in the public lobby now
    watched: bool | None = None  # whether it belongs in the lobby's running games now
    # A finished deal's SQL record, (key, record), into the room's outbox: kept until the
    # archiver has stored it (``app.rooms.archive_outbox``).
    archive: tuple[str, bytes] | None = None
    lease_ttl_ms: int = 0  # extend the writer's lease by this much (0: leave it)
    # Every key of the room expires this long after the commit (0: the store's TTL for the
    # document: see RoomStore.room_ttl_ms).
    ttl_ms: int = 0
    # The change applies a command that is not in the log (handed to the writer on its own
    # node): refused if the log holds entries after log_id, which come first.
    direct: bool = False


class LeaseLost(Exception):
    """The writer no longer holds the room's lease (it expired and another node took it)."""


class LogAhead(Exception):
    """A direct commit was refused: the log holds entries the writer has not applied."""


class StoreFull(Exception):
    """The store refused a write for lack of memory, and wrote nothing (Redis at its
    ``maxmemory`` with ``maxmemory-policy noeviction``). Retrying later may succeed."""


class StoreUnavailable(Exception):
    """The store could not be reached while the server runs (down, restarting, or not
    confirming in time). Retrying later may succeed."""


class StoreUnreachable(Exception):
    """The store did not answer when the server started."""


class RoomStore(abc.ABC):
    """Live rooms, their logs, leases, history and the fan-out of changes between nodes.

    Nothing of a room is kept for ever: every key of a room expires a while after its last
    commit (:meth:`room_ttl_ms`; each commit and :meth:`create` set it again), and entries
    of the cross-room indexes (the lobby, join codes) that point at a room gone are swept
    (:meth:`sweep`, every ``sweep_seconds`` on one node). The archive outbox is the one
    exception: its entries stay until the archiver has stored them (a room that expires
    with entries left keeps only those, and they go once archived).
    """

    history_size: int
    # A room with no commit for this long expires; a room whose match is over (status
    # "over") sooner.
    room_ttl_seconds: int = 86_400
    finished_room_ttl_seconds: int = 3_600
    sweep_seconds: float = 300.0

    def room_ttl_ms(self, doc: dict[str, Any]) -> int:
        """How long the room may stay untouched before every key of it expires."""
        finished = doc.get("status") == "over"  # app.rooms.doc.OVER: the match ended
        return 1000 * (self.finished_room_ttl_seconds if finished else self.room_ttl_seconds)

    @abc.abstractmethod
    async def expire_room(self, room_id: str, ttl_ms: int) -> None:
        """Every key of the room expires in ``ttl_ms`` (0: now, with its index entries)
        unless a commit comes first. Outbox entries stay until archived."""

    @abc.abstractmethod
    async def sweep(self) -> int:
        """Drop index entries (lobby, join codes) of rooms that expired; returns how many."""

    # Rooms

    @abc.abstractmethod
    async def create(
        self,
        room_id: str,
        doc: dict[str, Any],
        code: str | None,
        listed: bool,
        deal: list[dict[str, Any]] | None = None,
    ) -> None:
        """Store a new room at seq 0, with its private join code if any, listed or not
        (and a deal log, for a room restored mid-deal)."""

    @abc.abstractmethod
    async def create_once(self, room_id: str, doc: dict[str, Any], code: str | None) -> bool:
        """Store a new unlisted room as :meth:`create` does, unless a room of that id is
        there (then nothing is written: two nodes opening one tournament table make one
        room). Whether it was written."""

    @abc.abstractmethod
    async def load(self, room_id: str) -> RoomRecord | None:
        """The room as last committed (document, seq, log id and deal log read together),
        or None."""

    @abc.abstractmethod
    async def room_for_code(self, code: str) -> str | None:
        """The id of the room with this private join code."""

    @abc.abstractmethod
    async def listed(self, limit: int, playing: bool = False) -> list[dict[str, Any]]:
        """Documents of rooms marked listed (the public lobby: rooms open to join), or
        with ``playing`` those marked watched (running games), at most ``limit``."""

    # The command log

    @abc.abstractmethod
    async def append(self, room_id: str, command: dict[str, Any], wake: bool = True) -> str:
        """Add a command to the room's log; returns the entry's id. ``wake``: also wake the
        room's writer on whichever node holds it (not needed when it runs here)."""

    @abc.abstractmethod
    async def read_log(self, room_id: str, after: str, count: int) -> list[tuple[str, Any]]:
        """Up to ``count`` entries after the id ``after``, oldest first, without waiting."""

    async def append_and_acquire(
        self, room_id: str, command: dict[str, Any], owner: str, ttl_ms: int
    ) -> tuple[str, bool]:
        """:meth:`append` (waking the writer) then :meth:`acquire`: a node with a command
        for a room it does not write takes the room if nobody holds it (the Redis store
        does both in one request)."""
        entry_id = await self.append(room_id, command, wake=True)
        return entry_id, await self.acquire(room_id, owner, ttl_ms)

    # The writer's lease

    @abc.abstractmethod
    async def acquire(self, room_id: str, owner: str, ttl_ms: int) -> bool:
        """Take the room's lease, or extend it if ``owner`` holds it already."""

    @abc.abstractmethod
    async def release(self, room_id: str, owner: str) -> None:
        """Give the lease up if ``owner`` holds it."""

    @abc.abstractmethod
    async def commit(self, room_id: str, owner: str, commit: Commit) -> None:
        """Write a change atomically, then publish it and its results.

        :raises LeaseLost: ``owner`` no longer holds the lease, or the stored seq is not
            ``commit.seq - 1``; nothing was written.
        :raises LogAhead: ``commit.direct`` and the log holds entries after
            ``commit.log_id``; nothing was written.
        """

    # The archive outbox

    @abc.abstractmethod
    async def outbox(self, room_id: str) -> list[tuple[str, bytes]]:
        """The room's finished deals not yet stored in SQL: (key, record), any order."""

    @abc.abstractmethod
    async def archived(self, room_id: str, key: str) -> None:
        """Drop an outbox entry: SQL has it."""

    @abc.abstractmethod
    async def outbox_rooms(self) -> list[str]:
        """Rooms that may hold outbox entries (every room that does, and perhaps a few
        whose outbox was emptied since: see :meth:`outbox_settled`)."""

    @abc.abstractmethod
    async def outbox_settled(self, room_id: str) -> None:
        """The room's outbox was found empty: drop it from :meth:`outbox_rooms` (unless an
        entry arrived meanwhile)."""

    async def confirm(self, room_id: str) -> None:
        """Return once what the store holds of the room is as safe as a commit makes it
        (a store whose commits wait for a replica: held by one); raise
        :class:`StoreUnavailable` if it cannot say so. An answer drawn from stored state
        without a commit of its own (a retried action's ack) is sent only after this.
        Stores that confirm nothing beyond their commits need do nothing."""
        return None

    @abc.abstractmethod
    async def leased(self, room_id: str) -> bool:
        """Whether some writer holds the room's lease now."""

    # Room timers: an index of when each room next needs its writer (a turn deadline, a
    # bot's move, an absent seat, an empty room), so that a due room always gets one

    @abc.abstractmethod
    async def set_due(self, room_id: str, due_ms: int | None) -> None:
        """Index the room's next due time (server ms; None: nothing due)."""

    @abc.abstractmethod
    async def due_rooms(self, now_ms: int, limit: int) -> list[tuple[str, int]]:
        """Rooms due at ``now_ms`` or before, with their due times, earliest first."""

    @abc.abstractmethod
    async def beat(self, room_id: str, now_ms: int | None) -> None:
        """The room's writer is alive at ``now_ms`` (None: it gave the room up cleanly)."""

    @abc.abstractmethod
    async def last_beat(self, room_id: str) -> int | None:
        """The last :meth:`beat` of a writer that did not give the room up cleanly."""

    # Nodes

    @abc.abstractmethod
    async def heartbeat(self, node: str, ttl_ms: int) -> bool:
        """Mark ``node`` alive for ``ttl_ms``; False if it was not alive just before (its
        first heartbeat, or one that came too late: other nodes may have taken it for dead)."""

    @abc.abstractmethod
    async def alive(self, nodes: Iterable[str]) -> set[str]:
        """Those of ``nodes`` whose heartbeat has not run out."""

    # Fan-out

    @abc.abstractmethod
    async def history(self, room_id: str, after_seq: int) -> list[bytes] | None:
        """Changes with seq > ``after_seq``, oldest first; None if some are no longer kept."""

    @abc.abstractmethod
    async def deliver(self, node: str, payload: bytes) -> None:
        """Send a command result to one node."""

    @abc.abstractmethod
    async def start(self, node: str, on_message: Delivery, on_wake: Callable[[str], None]) -> None:
        """Begin receiving: results for ``node``, changes of subscribed rooms, and wake-ups
        (``on_wake(room_id)``) for rooms whose writer runs here."""

    @abc.abstractmethod
    async def subscribe(self, room_id: str) -> None:
        """Receive the room's changes from now on (returns once the subscription holds)."""

    @abc.abstractmethod
    async def unsubscribe(self, room_id: str) -> None: ...

    @abc.abstractmethod
    async def watch_log(self, room_id: str) -> None:
        """Receive wake-ups for this room's log (while this node writes the room)."""

    @abc.abstractmethod
    async def unwatch_log(self, room_id: str) -> None: ...

    @abc.abstractmethod
    async def close(self) -> None: ...

    async def config_warnings(self) -> list[str] | None:
        """Settings of the store that put acknowledged changes at risk, one sentence each;
        None when the store does not let the server read them."""
        return []

    async def ping(self) -> bool:
        return True
