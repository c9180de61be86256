"""Where quick-play tickets live: ``tickets`` (ticket id -> its JSON document), ``seen``
(ticket id -> ms its socket last said it is there), ``tables`` (tables claimed and not yet
confirmed: table id -> its JSON) and the matching ``lease`` (the node that matches now).

A ticket's ``state`` is ``queued``, then ``claimed`` (a table holds it: :meth:`claim`, one
atomic step that also checks the lease and that every ticket is still queued), then
``matched`` (its room exists and started; the ticket carries ``room``: roomId, seat and
the seat token, for its socket to hand over). On Redis the keys share one hash tag, so
the claim is one script on one shard, on a cluster too.
"""

from __future__ import annotations

import abc
import time
from typing import Any

import orjson

from app.store.base import RoomStore

Doc = dict[str, Any]


class Queue(abc.ABC):
    @abc.abstractmethod
    async def add(self, ticket: Doc) -> None: ...

    @abc.abstractmethod
    async def get(self, ticket_id: str) -> Doc | None: ...

    @abc.abstractmethod
    async def remove(self, ticket_id: str) -> bool:
        """False if there was no such ticket."""

    @abc.abstractmethod
    async def put(self, ticket: Doc) -> None:
        """Replace a ticket (only the lease holder changes tickets after they are added)."""

    @abc.abstractmethod
    async def tickets(self) -> list[Doc]: ...

    @abc.abstractmethod
    async def see(self, ticket_id: str, now_ms: int) -> None:
        """The ticket's socket is open now."""

    @abc.abstractmethod
    async def seen(self) -> dict[str, int]: ...

    @abc.abstractmethod
    async def lease(self, node: str, ttl_ms: int) -> bool:
        """Take or keep the matching lease for ``ttl_ms``; False if another node holds it."""

    @abc.abstractmethod
    async def claim(self, node: str, table: Doc, tickets: list[Doc]) -> bool:
        """Record ``table`` and write its ``tickets`` (now claimed), if this node holds the
        lease and each ticket is still there and queued; else write nothing, False."""

    @abc.abstractmethod
    async def tables(self) -> list[Doc]: ...

    @abc.abstractmethod
    async def settle(self, table_id: str) -> None:
        """The table's room is made and its tickets matched: forget the table."""


class MemoryQueue(Queue):
    def __init__(self) -> None:
        self._tickets: dict[str, bytes] = {}
        self._seen: dict[str, int] = {}
        self._tables: dict[str, bytes] = {}
        self._lease: tuple[str, float] | None = None

    async def add(self, ticket: Doc) -> None:
        self._tickets[ticket["ticket"]] = orjson.dumps(ticket)

    async def get(self, ticket_id: str) -> Doc | None:
        found = self._tickets.get(ticket_id)
        return None if found is None else dict(orjson.loads(found))

    async def remove(self, ticket_id: str) -> bool:
        self._seen.pop(ticket_id, None)
        return self._tickets.pop(ticket_id, None) is not None

    async def put(self, ticket: Doc) -> None:
        if ticket["ticket"] in self._tickets:
            self._tickets[ticket["ticket"]] = orjson.dumps(ticket)

    async def tickets(self) -> list[Doc]:
        return [orjson.loads(t) for t in self._tickets.values()]

    async def see(self, ticket_id: str, now_ms: int) -> None:
        self._seen[ticket_id] = now_ms

    async def seen(self) -> dict[str, int]:
        return dict(self._seen)

    async def lease(self, node: str, ttl_ms: int) -> bool:
        now = time.monotonic()
        if self._lease is not None and self._lease[0] != node and self._lease[1] > now:
            return False
        self._lease = (node, now + ttl_ms / 1000)
        return True

    async def claim(self, node: str, table: Doc, tickets: list[Doc]) -> bool:
        if self._lease is None or self._lease[0] != node:
            return False
        for ticket in tickets:
            found = self._tickets.get(ticket["ticket"])
            if found is None or orjson.loads(found)["state"] != "queued":
                return False
        self._tables[table["tableId"]] = orjson.dumps(table)
        for ticket in tickets:
            self._tickets[ticket["ticket"]] = orjson.dumps(ticket)
        return True

    async def tables(self) -> list[Doc]:
        return [orjson.loads(t) for t in self._tables.values()]

    async def settle(self, table_id: str) -> None:
        self._tables.pop(table_id, None)


_LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

_CLAIM = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 4, #ARGV, 2 do
  local found = redis.call('HGET', KEYS[2], ARGV[i])
  if not found or cjson.decode(found)['state'] ~= 'queued' then return 0 end
end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
return 1
"""

_PUT = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
return 1
"""


class RedisQueue(Queue):
    def __init__(self, client: Any, prefix: str) -> None:
        self._redis = client
        tag = f"{prefix}:{{quickplay}}"
        self._tickets, self._seen = f"{tag}:tickets", f"{tag}:seen"
        self._tables, self._lease_key = f"{tag}:tables", f"{tag}:lease"
        self._lease_script = client.register_script(_LEASE)
        self._claim_script = client.register_script(_CLAIM)
        self._put_script = client.register_script(_PUT)

    async def add(self, ticket: Doc) -> None:
        await self._redis.hset(self._tickets, ticket["ticket"], orjson.dumps(ticket))

    async def get(self, ticket_id: str) -> Doc | None:
        found = await self._redis.hget(self._tickets, ticket_id)
        return None if found is None else dict(orjson.loads(found))

    async def remove(self, ticket_id: str) -> bool:
        await self._redis.hdel(self._seen, ticket_id)
        return bool(await self._redis.hdel(self._tickets, ticket_id))

    async def put(self, ticket: Doc) -> None:
        await self._put_script(keys=[self._tickets], args=[ticket["ticket"], orjson.dumps(ticket)])

    async def tickets(self) -> list[Doc]:
        return [orjson.loads(t) for t in (await self._redis.hgetall(self._tickets)).values()]

    async def see(self, ticket_id: str, now_ms: int) -> None:
        await self._redis.hset(self._seen, ticket_id, now_ms)

    async def seen(self) -> dict[str, int]:
        found = await self._redis.hgetall(self._seen)
        return {_text(k): int(v) for k, v in found.items()}

    async def lease(self, node: str, ttl_ms: int) -> bool:
        return bool(await self._lease_script(keys=[self._lease_key], args=[node, ttl_ms]))

    async def claim(self, node: str, table: Doc, tickets: list[Doc]) -> bool:
        args: list[Any] = [node, table["tableId"], orjson.dumps(table)]
        for ticket in tickets:
            args += [ticket["ticket"], orjson.dumps(ticket)]
        keys = [self._lease_key, self._tickets, self._tables]
        return bool(await self._claim_script(keys=keys, args=args))

    async def tables(self) -> list[Doc]:
        return [orjson.loads(t) for t in (await self._redis.hgetall(self._tables)).values()]

    async def settle(self, table_id: str) -> None:
        await self._redis.hdel(self._tables, table_id)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def queue_beside(rooms: RoomStore) -> Queue:
    """The queue kept where the rooms are: the same Redis (and prefix), or this process."""
    from app.store.redis import RedisStore

    if isinstance(rooms, RedisStore):
        return RedisQueue(rooms._redis, rooms.prefix)
    return MemoryQueue()
