"""Where tournaments live while they run: one JSON document per tournament with a version,
replaced only by a compare-and-set (:meth:`TournamentStore.replace`), so that two nodes
changing one tournament at once never lose either change: the loser reloads and retries.

The memory store is for one process; the Redis store shares the room store's Redis (and
key prefix), so a tournament survives a node restart and goes on from any node. On a Redis
Cluster each tournament's hash is one slot of its own (hash-tagged with its id), and the
two indexes (the ids by creation, the ids running) sit in the slot of the room store's
other indexes. An index entry whose tournament is gone is passed over by the reads (the
list skips it, the runner drops it from the running set); a tournament whose index entry
could not be written (its shard down) was refused to its creator, who is told.

A tournament's document and its place in the running index change in one atomic write
(:meth:`TournamentStore.replace` with ``running``): the start and each new round seat
their tables and put the tournament before every node's runner at once, so no node dying
between the two leaves a round that nobody looks after. On one Redis that is one script
over both keys; on a Redis Cluster the tournament's hash (its slot) carries the flag in
the same script and the running set (the indexes' slot) is written after it, and every
node's runner repairs the set from the flags (:meth:`TournamentStore.repair`, every
``repair_seconds``): a node dying between the two delays the round by that much at most.
A tournament leaves the running index (:meth:`TournamentStore.drop_running`) only as its
runner loaded it: a change since (a start, a new round) keeps it there.

A tournament that is over expires (:meth:`TournamentStore.expire`: the runner sets it
once SQL holds the archive, which answers its GETs from then on), and the index entries
of tournaments gone are dropped (:meth:`TournamentStore.sweep`, every node's runner, every
``sweep_seconds``): nothing of a finished tournament stays in the store for ever.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable
from typing import Any

import orjson

from app.store.base import RoomStore


class VersionConflict(Exception):
    """The document changed since it was loaded: nothing was written."""


class TournamentStore(abc.ABC):
    # How long a finished tournament stays (the room store's finished_room_ttl_seconds),
    # and how often the indexes are swept.
    finished_ttl_ms: int = 3_600_000
    sweep_seconds: float = 300.0
    # How often the runners repair the running index (where it is not written atomically).
    repair_seconds: float = 5.0

    @abc.abstractmethod
    async def expire(self, tournament_id: str, ttl_ms: int) -> None:
        """The tournament's document goes in ``ttl_ms`` (its index entries at the next
        :meth:`sweep` after that)."""

    @abc.abstractmethod
    async def sweep(self) -> int:
        """Drop the index entries (newest, running) of tournaments gone; how many."""

    @abc.abstractmethod
    async def create(self, tournament_id: str, doc: dict[str, Any]) -> None:
        """Store a new tournament at version 1."""

    @abc.abstractmethod
    async def load(self, tournament_id: str) -> tuple[dict[str, Any], int] | None:
        """The document and its version, or None."""

    @abc.abstractmethod
    async def replace(
        self, tournament_id: str, doc: dict[str, Any], version: int, running: bool = False
    ) -> int:
        """Write ``doc`` if the stored version is still ``version``; the new version.
        ``running``: the tournament is in the running index from the same write on.

        :raises VersionConflict: it is not; nothing was written.
        """

    @abc.abstractmethod
    async def recent(self, limit: int) -> list[str]:
        """Ids of the newest tournaments, newest first (perhaps some gone since the last
        :meth:`sweep`: their loads say None)."""

    @abc.abstractmethod
    async def drop_running(self, tournament_id: str, version: int | None) -> None:
        """The tournament needs no runner (over and archived, or gone: ``version`` None):
        out of the running index, unless its document changed since ``version``."""

    @abc.abstractmethod
    async def running(self) -> list[str]:
        """Ids of the tournaments with tables to look after (every node's runner does)."""

    async def repair(self) -> int:
        """Put back in the running index every tournament whose write put it there but
        whose index entry was lost on the way; how many (none where the write is one)."""
        return 0


class MemoryTournaments(TournamentStore):
    def __init__(self) -> None:
        self._docs: dict[str, tuple[bytes, int]] = {}
        self._order: list[str] = []
        self._running: set[str] = set()
        self._expires: dict[str, float] = {}  # monotonic s

    def _live(self, tournament_id: str) -> tuple[bytes, int] | None:
        at = self._expires.get(tournament_id)
        if at is not None and time.monotonic() >= at:
            del self._expires[tournament_id]
            self._docs.pop(tournament_id, None)
        return self._docs.get(tournament_id)

    async def expire(self, tournament_id: str, ttl_ms: int) -> None:
        if tournament_id in self._docs:
            self._expires[tournament_id] = time.monotonic() + ttl_ms / 1000

    async def sweep(self) -> int:
        gone = {t for t in self._order if self._live(t) is None}
        self._order = [t for t in self._order if t not in gone]
        dropped = [t for t in self._running if self._live(t) is None]
        self._running.difference_update(dropped)
        return len(gone) + len(dropped)

    async def create(self, tournament_id: str, doc: dict[str, Any]) -> None:
        self._docs[tournament_id] = (orjson.dumps(doc), 1)
        self._order.append(tournament_id)

    async def load(self, tournament_id: str) -> tuple[dict[str, Any], int] | None:
        found = self._live(tournament_id)
        return None if found is None else (orjson.loads(found[0]), found[1])

    async def replace(
        self, tournament_id: str, doc: dict[str, Any], version: int, running: bool = False
    ) -> int:
        found = self._live(tournament_id)
        if found is None or found[1] != version:
            raise VersionConflict(tournament_id)
        self._docs[tournament_id] = (orjson.dumps(doc), version + 1)
        if running:
            self._running.add(tournament_id)
        return version + 1

    async def recent(self, limit: int) -> list[str]:
        return self._order[::-1][:limit]

    async def drop_running(self, tournament_id: str, version: int | None) -> None:
        found = self._live(tournament_id)
        if found is None or found[1] == version:
            self._running.discard(tournament_id)

    async def running(self) -> list[str]:
        return sorted(self._running)


# The compare-and-set (KEYS[1] the tournament's hash; ARGV doc, version, running, id).
# Running: the hash's flag is set, and the running set (KEYS[2], on one Redis) gets the id
# in the same script.
_REPLACE = """
if tonumber(redis.call('HGET', KEYS[1], 'version')) ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'version', tonumber(ARGV[2]) + 1)
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'running', 1)
  if KEYS[2] then redis.call('SADD', KEYS[2], ARGV[4]) end
end
return tonumber(ARGV[2]) + 1
"""

# Out of the running index if the hash is gone or still at the version loaded (ARGV[1];
# '' for gone); KEYS[2] the running set on one Redis. 1 if it may go from the set.
_DROP_RUNNING = """
local version = redis.call('HGET', KEYS[1], 'version')
if version and version ~= ARGV[1] then return 0 end
if version then redis.call('HDEL', KEYS[1], 'running') end
if KEYS[2] then redis.call('SREM', KEYS[2], ARGV[2]) end
return 1
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisTournaments(TournamentStore):
    """A hash per tournament (``doc``, ``version``), a sorted set of ids by creation and a
    set of the ids running. ``index`` names a key of no tournament (the room store's
    ``index_key``: on a cluster, in the slot of its indexes)."""

    def __init__(
        self,
        client: Any,
        prefix: str,
        index: Callable[[str], str] | None = None,
        cluster: bool = False,
    ) -> None:
        self._redis = client
        self._prefix = prefix
        index = index or (lambda name: f"{prefix}:{name}")
        self._ids = index("tournaments")
        self._running = index("tournaments:running")
        # On a cluster the running set is in another slot than each tournament's hash.
        self._cluster = cluster
        self._replace = client.register_script(_REPLACE)
        self._drop_running = client.register_script(_DROP_RUNNING)

    def _keys(self, tournament_id: str) -> list[str]:
        """The keys a script of one tournament touches: its hash, and on one Redis the
        running set."""
        key = self._key(tournament_id)
        return [key] if self._cluster else [key, self._running]

    def _key(self, tournament_id: str) -> str:
        return f"{self._prefix}:tournament:{{{tournament_id}}}"

    async def expire(self, tournament_id: str, ttl_ms: int) -> None:
        # A later replace (a result corrected after the end) keeps the TTL: HSET does.
        await self._redis.pexpire(self._key(tournament_id), ttl_ms)

    async def sweep(self) -> int:
        removed = 0
        for index, ids in (
            (self._ids, [t async for t, _ in self._redis.zscan_iter(self._ids, count=500)]),
            (self._running, list(await self._redis.smembers(self._running))),
        ):
            # One EXISTS per tournament (on a cluster each hash is a slot of its own).
            gone = [t for t in ids if not await self._redis.exists(self._key(_text(t)))]
            if gone:
                if index == self._ids:
                    removed += await self._redis.zrem(index, *gone)
                else:
                    removed += await self._redis.srem(index, *gone)
        return removed

    async def create(self, tournament_id: str, doc: dict[str, Any]) -> None:
        # Before the index entry: an entry is never without its tournament but at the end.
        await self._redis.hset(
            self._key(tournament_id), mapping={"doc": orjson.dumps(doc), "version": 1}
        )
        await self._redis.zadd(self._ids, {tournament_id: int(doc.get("createdAt", 0))})

    async def load(self, tournament_id: str) -> tuple[dict[str, Any], int] | None:
        doc, version = await self._redis.hmget(self._key(tournament_id), "doc", "version")
        if doc is None:
            return None
        return orjson.loads(doc), int(version)

    async def replace(
        self, tournament_id: str, doc: dict[str, Any], version: int, running: bool = False
    ) -> int:
        written = await self._replace(
            keys=self._keys(tournament_id),
            args=[orjson.dumps(doc), version, "1" if running else "0", tournament_id],
        )
        if not written:
            raise VersionConflict(tournament_id)
        if running and self._cluster:
            # The set's slot is another: lost if this node dies now, put back by repair.
            await self._redis.sadd(self._running, tournament_id)
        return int(written)

    async def recent(self, limit: int) -> list[str]:
        ids = await self._redis.zrevrange(self._ids, 0, limit - 1)
        return [_text(i) for i in ids]

    async def drop_running(self, tournament_id: str, version: int | None) -> None:
        loaded = "" if version is None else str(version)
        dropped = await self._drop_running(
            keys=self._keys(tournament_id), args=[loaded, tournament_id]
        )
        if dropped and self._cluster:
            # A start after the script puts the id back (its own SADD, or the repair).
            await self._redis.srem(self._running, tournament_id)

    async def running(self) -> list[str]:
        ids = await self._redis.smembers(self._running)
        return sorted(_text(i) for i in ids)

    async def repair(self) -> int:
        if not self._cluster:
            return 0
        ids = [_text(t) async for t, _ in self._redis.zscan_iter(self._ids, count=500)]
        listed = {_text(t) for t in await self._redis.smembers(self._running)}
        pipe = self._redis.pipeline(transaction=False)  # one batch per shard
        for tournament_id in ids:
            pipe.hget(self._key(tournament_id), "running")
        flags = await pipe.execute() if ids else []
        missing = [t for t, flag in zip(ids, flags, strict=True) if flag and t not in listed]
        if missing:
            await self._redis.sadd(self._running, *missing)
        return len(missing)


def tournaments_beside(rooms: RoomStore) -> TournamentStore:
    """The tournament store kept where the rooms are: the same Redis, or this process."""
    from app.store.redis import RedisStore
    from app.store.redis_cluster import RedisClusterStore

    store: TournamentStore
    if isinstance(rooms, RedisStore):
        cluster = isinstance(rooms, RedisClusterStore)
        store = RedisTournaments(rooms._redis, rooms.prefix, rooms.index_key, cluster)
    else:
        store = MemoryTournaments()
    # A finished tournament stays as long as a finished room does.
    store.finished_ttl_ms = rooms.finished_room_ttl_seconds * 1000
    store.sweep_seconds = rooms.sweep_seconds
    return store
