"""Where quick-play tickets live: ``tickets`` (ticket id -> its JSON document), ``seen``
(ticket id -> ms its socket last said it is open, negated once it closed), ``tables``
(tables claimed and not yet confirmed: table id -> its JSON), ``accounts`` (account id ->
its ticket), one set per client address of its tickets, and the matching ``lease`` (the
node that matches now). A ticket id is the hash of the ticket (app.quickplay.tickets).

A ticket's ``state`` is ``queued``, then ``claimed`` (a table holds it: :meth:`claim`, one
atomic step that also checks the lease and that every ticket is still queued), then
``matched`` (its room exists and started; the ticket carries ``room``: roomId and seat,
for its socket to hand over with the seat token only the ticket's holder can derive). A
table that cannot be made gives its tickets back (:meth:`release`). Adding a ticket is
one atomic step too: an account holds at most one ticket not yet matched, an address at
most its cap of waiting tickets, whatever arrives at once on any node. On Redis the keys
share one hash tag, so each step is one script on one shard, on a cluster too.
"""

from __future__ import annotations

import abc
import time
from typing import Any

import orjson

from app.store.base import RoomStore

Doc = dict[str, Any]


ALREADY_QUEUED, TOO_MANY = "quickplay/already_queued", "too_many_rooms"
SNAPSHOT_SECONDS = 1.0


def waiting(ticket: Doc) -> bool:
    """Queued or claimed: the ticket holds its place (and counts toward its address's cap)."""
    return bool(ticket["state"] != "matched")


class Queue(abc.ABC):
    _snapshot: tuple[float, list[Doc], dict[str, int]] | None = None

    @abc.abstractmethod
    async def add(self, ticket: Doc, cap: int) -> str | None:
        """Add ``ticket``, unless its account (``pid``, when ``account``) holds a ticket
        not yet matched (:data:`ALREADY_QUEUED`) or its ``address`` holds ``cap`` waiting
        tickets (:data:`TOO_MANY`): the refusal, or None when added."""

    @abc.abstractmethod
    async def held(self, address: str) -> int:
        """The waiting tickets of ``address``."""

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
        """The ticket's socket is open now (``now_ms``), or closed now (``-now_ms``)."""

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

    @abc.abstractmethod
    async def release(self, table: Doc) -> None:
        """The table cannot be made: its claimed tickets are queued again, the table is
        forgotten."""

    async def snapshot(self) -> tuple[list[Doc], dict[str, int]]:
        """The tickets and their sockets, read at most once a second for every socket of
        this process that reports on the wait."""
        now = time.monotonic()
        if self._snapshot is None or now - self._snapshot[0] >= SNAPSHOT_SECONDS:
            self._snapshot = (now, await self.tickets(), await self.seen())
        return self._snapshot[1], self._snapshot[2]


class MemoryQueue(Queue):
    def __init__(self) -> None:
        self._tickets: dict[str, bytes] = {}
        self._seen: dict[str, int] = {}
        self._tables: dict[str, bytes] = {}
        self._lease: tuple[str, float] | None = None

    async def add(self, ticket: Doc, cap: int) -> str | None:
        others = await self.tickets()
        if ticket.get("account") and any(t["pid"] == ticket["pid"] and waiting(t) for t in others):
            return ALREADY_QUEUED
        if await self.held(ticket["address"]) >= cap:
            return TOO_MANY
        self._tickets[ticket["ticket"]] = orjson.dumps(ticket)
        return None

    async def held(self, address: str) -> int:
        return sum(1 for t in await self.tickets() if t["address"] == address and waiting(t))

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

    async def release(self, table: Doc) -> None:
        for seat in table["seats"]:
            found = await self.get(seat["ticket"])
            if found is not None and found["state"] == "claimed":
                await self.put(_queued_again(found))
        self._tables.pop(table["tableId"], None)


def _queued_again(ticket: Doc) -> Doc:
    return {k: v for k, v in ticket.items() if k != "room"} | {"state": "queued"}


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

# KEYS: tickets, accounts, the address's set; ARGV: id, doc, account id or "", cap.
_ADD = """
local function waiting(id)
  local doc = redis.call('HGET', KEYS[1], id)
  return doc and cjson.decode(doc)['state'] ~= 'matched'
end
if ARGV[3] ~= '' then
  local held = redis.call('HGET', KEYS[2], ARGV[3])
  if held and waiting(held) then return 1 end
end
local count = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  if waiting(id) then count = count + 1 else redis.call('SREM', KEYS[3], id) end
end
if count >= tonumber(ARGV[4]) then return 2 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[3], ARGV[1]) end
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('PEXPIRE', KEYS[3], 3600000)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 0
"""

# KEYS: tickets, seen, accounts; ARGV: id.
_REMOVE = """
local doc = redis.call('HGET', KEYS[1], ARGV[1])
if not doc then return 0 end
local pid = cjson.decode(doc)['pid']
if redis.call('HGET', KEYS[3], pid) == ARGV[1] then redis.call('HDEL', KEYS[3], pid) end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""

# KEYS: tickets, tables; ARGV: table id, then each ticket id and its queued document.
_RELEASE = """
for i = 2, #ARGV, 2 do
  local doc = redis.call('HGET', KEYS[1], ARGV[i])
  if doc and cjson.decode(doc)['state'] == 'claimed' then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
redis.call('HDEL', KEYS[2], ARGV[1])
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
        self._accounts, self._tag = f"{tag}:accounts", tag
        self._lease_script = client.register_script(_LEASE)
        self._claim_script = client.register_script(_CLAIM)
        self._put_script = client.register_script(_PUT)
        self._add_script = client.register_script(_ADD)
        self._remove_script = client.register_script(_REMOVE)
        self._release_script = client.register_script(_RELEASE)

    def _address(self, address: str) -> str:
        return f"{self._tag}:address:{address}"

    async def add(self, ticket: Doc, cap: int) -> str | None:
        account = ticket["pid"] if ticket.get("account") else ""
        keys = [self._tickets, self._accounts, self._address(ticket["address"])]
        args = [ticket["ticket"], orjson.dumps(ticket), account, cap]
        refused = int(await self._add_script(keys=keys, args=args))
        return (None, ALREADY_QUEUED, TOO_MANY)[refused]

    async def held(self, address: str) -> int:
        ids = [_text(i) for i in await self._redis.smembers(self._address(address))]
        docs = await self._redis.hmget(self._tickets, ids) if ids else []
        return sum(1 for d in docs if d is not None and waiting(orjson.loads(d)))

    async def get(self, ticket_id: str) -> Doc | None:
        found = await self._redis.hget(self._tickets, ticket_id)
        return None if found is None else dict(orjson.loads(found))

    async def remove(self, ticket_id: str) -> bool:
        keys = [self._tickets, self._seen, self._accounts]
        return bool(await self._remove_script(keys=keys, args=[ticket_id]))

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

    async def release(self, table: Doc) -> None:
        args: list[Any] = [table["tableId"]]
        for seat in table["seats"]:
            found = await self.get(seat["ticket"])
            if found is not None:
                args += [seat["ticket"], orjson.dumps(_queued_again(found))]
        await self._release_script(keys=[self._tickets, self._tables], args=args)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def queue_beside(rooms: RoomStore) -> Queue:
    """The queue kept where the rooms are: the same Redis (and prefix), or this process."""
    from app.store.redis import RedisStore

    if isinstance(rooms, RedisStore):
        return RedisQueue(rooms._redis, rooms.prefix)
    return MemoryQueue()
