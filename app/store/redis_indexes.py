"""The Redis store's keys of no room: the lobby's indexes of listed and watched rooms, the
private join codes and the sweep that drops the entries of rooms that expired, the set of
rooms whose archive outbox may hold entries, the rooms' timers, and the nodes' heartbeats.
They live outside any room's slot: updated after a room's commit, never with it, and the
lobby and the codes are checked on every read.
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from redis.commands.core import AsyncScript

from app.store.outage import log_failure
from app.store.redis_common import Batcher, chunks, read_doc

log = logging.getLogger(__name__)

# KEYS: codes. ARGV: a join code, the room id it must still name.
DROP_CODE = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""

# A reply that did not come: see Indexes._each.
_FAILED: Any = object()


class Indexes(abc.ABC):
    """The keys of no room of :class:`~app.store.redis.RedisStore`."""

    _redis: Any
    _batch: Batcher
    _drop_code_script: AsyncScript
    sweep_seconds: float
    _outboxes: str
    _timers: str

    @abc.abstractmethod
    def _key(self, room_id: str, part: str) -> str: ...

    @abc.abstractmethod
    def _global(self, name: str) -> str: ...

    async def room_for_code(self, code: str) -> str | None:
        raw = await self._redis.hget(self._global("codes"), code)
        if raw is None:
            return None
        room_id: str = raw.decode()
        if not await self._redis.exists(self._key(room_id, "room")):
            # The room expired: so does its code (the sweep would drop it too).
            await self._drop_code(code, raw)
            return None
        return room_id

    async def _drop_code(self, code: str, room_id: bytes) -> None:
        """Remove a join code if it still names ``room_id``."""
        await self._drop_code_script(keys=[self._global("codes")], args=[code, room_id])

    async def listed(self, limit: int, playing: bool = False) -> list[dict[str, Any]]:
        lobby = self._global("playing" if playing else "lobby")
        docs: list[dict[str, Any]] = []
        start = 0
        # Entries of rooms that expired are dropped as they are met, and more are read.
        while len(docs) < limit:
            ids = await self._redis.zrange(lobby, start, start + limit - len(docs) - 1)
            if not ids:
                break
            fields = (b"doc", b"cold", b"fmt")
            found = await self._each(
                [("HMGET", self._key(room_id.decode(), "room"), *fields) for room_id in ids]
            )
            gone = [
                room_id
                for room_id, d in zip(ids, found, strict=True)
                if d is not _FAILED and d[0] is None
            ]
            # A room whose Cluster shard is down is left out this time, not dropped.
            docs.extend(
                read_doc({k: v for k, v in zip(fields, d, strict=True) if v is not None})
                for d in found
                if d is not _FAILED and d[0] is not None
            )
            if gone:
                await self._redis.zrem(lobby, *gone)
            start += len(ids) - len(gone)
        return docs

    async def _index(self, key: str, room_id: str, member: bool, doc: dict[str, Any]) -> None:
        # The lobby's indexes live outside the room's slot; they are only indexes, so they
        # are updated after the commit rather than with it.
        if member:
            await self._batch.call("ZADD", key, doc.get("createdAt", 0), room_id)
        else:
            await self._batch.call("ZREM", key, room_id)

    async def sweep(self) -> int:
        removed = 0
        codes = self._global("codes")
        for lobby in (self._global("lobby"), self._global("playing")):
            ids = [room_id async for room_id in self._redis.zscan_iter(lobby, count=500)]
            for chunk in chunks([room_id for room_id, _ in ids], 500):
                gone = await self._gone(chunk)
                if gone:
                    removed += await self._redis.zrem(lobby, *gone)
        pairs = [pair async for pair in self._redis.hscan_iter(codes, count=500)]
        for chunk in chunks(pairs, 500):
            gone_rooms = set(await self._gone([room_id for _, room_id in chunk]))
            for code, room_id in chunk:
                if room_id in gone_rooms:
                    await self._drop_code(code.decode(), room_id)
                    removed += 1
        return removed

    async def _gone(self, room_ids: list[bytes]) -> list[bytes]:
        """Those of ``room_ids`` whose room key expired."""
        found = await self._each([("EXISTS", self._key(r.decode(), "room")) for r in room_ids])
        # Not known (a Cluster shard down): not gone.
        return [room_id for room_id, exists in zip(room_ids, found, strict=True) if exists == 0]

    async def _each(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Replies to commands of many rooms, in one batch; a command that failed (its
        Cluster shard is down) answers ``_FAILED``, unless every one did: then the first
        error is raised (the store is down)."""
        replies = await asyncio.gather(
            *(self._batch.call(*command) for command in commands), return_exceptions=True
        )
        errors = [r for r in replies if isinstance(r, BaseException)]
        if errors and len(errors) == len(replies):
            raise errors[0]
        return [_FAILED if isinstance(r, BaseException) else r for r in replies]

    async def _sweep_loop(self) -> None:
        """One node per period sweeps (the first to take the period's key)."""
        every_ms = max(1, int(self.sweep_seconds * 1000))
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                if await self._redis.set(self._global("sweep"), 1, nx=True, px=every_ms):
                    await self.sweep()
            except Exception:
                log_failure(log, "could not sweep the lobby and join codes")

    # The rooms with outbox entries

    async def outbox_rooms(self) -> list[str]:
        return [room_id.decode() async for room_id in self._redis.sscan_iter(self._outboxes)]

    async def outbox_settled(self, room_id: str) -> None:
        await self._batch.call("SREM", self._outboxes, room_id)
        # An entry committed meanwhile (its SADD came before the SREM): mark it again.
        if await self._batch.call("HLEN", self._key(room_id, "outbox")):
            await self._batch.call("SADD", self._outboxes, room_id)

    # Room timers

    async def set_due(self, room_id: str, due_ms: int | None) -> None:
        if due_ms is None:
            await self._batch.call("ZREM", self._timers, room_id)
        else:
            await self._batch.call("ZADD", self._timers, due_ms, room_id)

    async def due_rooms(self, now_ms: int, limit: int) -> list[tuple[str, int]]:
        found = await self._batch.call(
            "ZRANGEBYSCORE", self._timers, "-inf", now_ms, "WITHSCORES", "LIMIT", 0, limit
        )
        if found and isinstance(found[0], list | tuple):  # parsed into (member, score) pairs
            return [(member.decode(), int(float(score))) for member, score in found]
        return [(found[i].decode(), int(float(found[i + 1]))) for i in range(0, len(found), 2)]

    # Nodes

    def _alive_key(self, node: str) -> str:
        return self._global(f"alive:{node}")

    async def heartbeat(self, node: str, ttl_ms: int) -> bool:
        # PEXPIRE first: Redis allows it when full (noeviction refuses SET), so a node stays
        # alive while writes are refused, and its sockets are not taken for dead.
        if await self._batch.call("PEXPIRE", self._alive_key(node), ttl_ms):
            return True
        previous = await self._batch.call("SET", self._alive_key(node), 1, "PX", ttl_ms, "GET")
        return previous is not None

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        nodes = list(nodes)
        # One EXISTS per node, in one batch (the keys may live on different cluster slots).
        found = await asyncio.gather(
            *(self._batch.call("EXISTS", self._alive_key(node)) for node in nodes)
        )
        return {node for node, exists in zip(nodes, found, strict=True) if exists}
