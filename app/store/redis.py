"""The Redis room store: any number of server processes sharing one Redis.

Keys carry the room id as a hash tag (``uno:{room}:...``) so that one room's keys live on
one Redis Cluster slot and the commit script may touch them together.

==================  =========  ===============================================
key                 type       holds
==================  =========  ===============================================
uno:{r}:room        hash       ``doc`` (JSON), ``seq``, ``log`` (last applied id),
                               ``ex``/``hx`` (when the keys/the history expire);
                               format 2 also ``cold``, ``cd``, ``fmt`` (see
                               app.store.redis_common.FORMATS)
uno:{r}:log         stream     commands not yet applied (trimmed on commit)
uno:{r}:lease       string     the writer's id, with a TTL
uno:{r}:hist        list       the last changes as published (capped, expiring)
uno:{r}:deal        list       the current deal's actions, for the SQL archive
uno:{r}:outbox      hash       finished deals not yet stored in SQL, by match:deal
uno:{r}:beat        string     ms of the writer's last renewal (gone after a clean release)
uno:{r}:changes     channel    each committed change
uno:{r}:wake        channel    "a command was appended" for the room's writer
uno:node:{n}        channel    command results for node n
uno:alive:{n}       string     node n's heartbeat, with a TTL
uno:outboxes        set        rooms whose outbox may hold entries
uno:codes           hash       private join code -> room id
uno:lobby           zset       listed rooms by creation time
uno:playing         zset       watched rooms (running public games) by creation time
uno:sweep           string     the node sweeping lobby and codes this period (TTL)
uno:timers          zset       rooms by the time their next timer is due (ms)
==================  =========  ===============================================

Every key of a room but its outbox expires ``room_ttl_ms(doc)`` after the room's last
commit, or up to a sixteenth of that later (the commit script sets the TTLs again only
when less than that is left: see _COMMIT; the history's is the shorter of that and the
history TTL); the outbox hash is deleted by Redis when its last entry is archived. The
lobby and the join codes, outside the room's slot, are swept of rooms that expired
(:meth:`RedisStore.sweep`, on one node per period) and checked on every read.

The Lua scripts and the Python that calls them are read side by side (each script's keys
and arguments beside the call that passes them). The keys of no room (the lobby's
indexes, the join codes and their sweep, the rooms with outbox entries, the room timers,
the nodes' heartbeats) are kept by ``app.store.redis_indexes``; connecting and the
configuration check are in ``app.store.redis_config``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, OutOfMemoryError

from app.store.base import (
    Commit,
    Delivery,
    LeaseLost,
    LogAhead,
    RoomRecord,
    RoomStore,
    StoreFull,
)
from app.store.outage import log_failure
from app.store.redis_common import (
    CREATE_ONCE,
    FORMATS,
    Batcher,
    chunks,
    cold_digest,
    confirmed,
    connection_of,
    queue_room,
    read_doc,
    room_fields,
    split_doc,
    stop,
)
from app.store.redis_config import CONFIG_KEYS, config_risks, open_client
from app.store.redis_indexes import DROP_CODE, Indexes
from app.store.redis_wire import batcher_for

log = logging.getLogger(__name__)

_ACQUIRE = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""

# KEYS: log. ARGV: the command, the log's TTL ms, the wake channel ('': none), the room
# id, the publish command (PUBLISH; SPUBLISH on a cluster). One request for what were three
# (XADD, PEXPIRE, the wake-up): the wake-up comes after the entry, and the writer reads
# what woke it. A log appended to for a room that expired meanwhile must not stay: it
# expires too (NX: a live room's log keeps the TTL its commits set). As long a TTL as a
# commit sets: a log made after the commit that last set the room's TTLs outlives the
# room. Returns the entry's id.
_APPEND = """
local id = redis.call('XADD', KEYS[1], '*', 'c', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2], 'NX')
if ARGV[3] ~= '' then redis.call(ARGV[5], ARGV[3], ARGV[4]) end
return id
"""

# KEYS: log, lease. ARGV: as _APPEND's, then the lease's owner and TTL ms. _APPEND, then
# _ACQUIRE (after the entry: a script that wrote is not refused halfway by a full Redis,
# so an entry refused is never followed by a lease taken for it). Returns {id, 1 or 0}.
_APPEND_ACQUIRE = (
    _APPEND.replace("return id\n", "")
    + """
local v = redis.call('GET', KEYS[2])
if v == ARGV[6] then
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
  return {id, 1}
end
if not v then
  redis.call('SET', KEYS[2], ARGV[6], 'PX', ARGV[7])
  return {id, 1}
end
return {id, 0}
"""
)

# KEYS: room, lease, hist, log, deal, outbox.
# ARGV: owner, seq, doc, log id, change, history size, history ttl ms, changes channel,
#       deal reset (0/1), number of deal entries, lease ttl ms (0: keep), outbox key ('':
#       none), outbox record, direct (0/1), room ttl ms, the digest of the document's cold
#       fields ('': the document is in format 1, whole in ARGV[3]), those fields ('': as
#       stored, if the stored digest is this one), the deal entries, then (channel,
#       payload) pairs of results. An empty change is a quiet commit (see Commit.change):
#       the stored seq must be seq itself, and only the results are published. Everything
#       is written before anything is published. Returns 1, or 0 (no lease), -1 (out of
#       order), -2 (direct, and the log holds entries after the log id), -3 (the cold
#       fields were left out and the stored ones are not those: nothing was written).
#
# What it does not do on every commit, to keep a commit at about 8 Redis calls: the TTLs
# of the room's keys are set again only when less than the TTL is left (to the TTL plus a
# sixteenth, see _renewed_ttl), with the time each group of keys expires kept in the room
# hash (``ex``: room, log and deal; ``hx``: the history; Redis's own clock, ms); the log is
# trimmed only when the log id moved; the history is trimmed in steps of an eighth of its
# size (reads take its last ``history size`` entries). A key created by this commit (a new
# history or deal list) gets its TTL at once. So every key lives at least its TTL after
# the room's last commit, and at most a sixteenth longer.
_COMMIT = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
local seq = tonumber(ARGV[2])
local quiet = ARGV[5] == ''
if quiet then seq = seq + 1 end
local stored = redis.call('HMGET', KEYS[1], 'seq', 'log', 'ex', 'hx', 'cd')
if tonumber(stored[1]) ~= seq - 1 then return -1 end
if ARGV[14] == '1' and #redis.call('XRANGE', KEYS[4], '(' .. ARGV[4], '+', 'COUNT', 1) > 0 then
  return -2
end
if ARGV[16] ~= '' and ARGV[17] == '' and stored[5] ~= ARGV[16] then return -3 end
if ARGV[11] ~= '0' then redis.call('PEXPIRE', KEYS[2], ARGV[11]) end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function due(at, ttl)
  return not at or tonumber(at) < now + ttl or tonumber(at) > now + ttl + math.floor(ttl / 16)
end
local fields = {'doc', ARGV[3], 'seq', ARGV[2]}
if ARGV[17] ~= '' then
  for _, v in ipairs({'cold', ARGV[17], 'cd', ARGV[16], 'fmt', '2'}) do table.insert(fields, v) end
end
if stored[2] ~= ARGV[4] then
  redis.call('XTRIM', KEYS[4], 'MINID', ARGV[4])
  table.insert(fields, 'log')
  table.insert(fields, ARGV[4])
end
local ttl = tonumber(ARGV[15])
local keep = ttl + math.floor(ttl / 16)
local renew = due(stored[3], ttl)
if renew then
  table.insert(fields, 'ex')
  table.insert(fields, now + keep)
end
local hist_keep
if not quiet then
  local size = tonumber(ARGV[6])
  local held = redis.call('RPUSH', KEYS[3], ARGV[5])
  if held > size + math.ceil(size / 8) then redis.call('LTRIM', KEYS[3], -size, -1) end
  local hist_ttl = tonumber(ARGV[7])
  if held == 1 or due(stored[4], hist_ttl) then
    hist_keep = hist_ttl + math.floor(hist_ttl / 16)
    table.insert(fields, 'hx')
    table.insert(fields, now + hist_keep)
  end
end
redis.call('HSET', KEYS[1], unpack(fields))
if ARGV[16] == '' and stored[5] then redis.call('HDEL', KEYS[1], 'cold', 'cd', 'fmt') end
if hist_keep then redis.call('PEXPIRE', KEYS[3], hist_keep) end
if ARGV[9] == '1' then redis.call('DEL', KEYS[5]) end
local n = tonumber(ARGV[10])
local dealt = 0
if n > 0 then dealt = redis.call('RPUSH', KEYS[5], unpack(ARGV, 18, 17 + n)) end
if renew then
  redis.call('PEXPIRE', KEYS[1], keep)
  redis.call('PEXPIRE', KEYS[4], keep)
  redis.call('PEXPIRE', KEYS[5], keep)
elseif n > 0 and dealt == n then
  redis.call('PEXPIRE', KEYS[5], keep)  -- a deal list this commit created
end
if ARGV[12] ~= '' then redis.call('HSET', KEYS[6], ARGV[12], ARGV[13]) end
if not quiet then redis.call('PUBLISH', ARGV[8], ARGV[5]) end
for i = 18 + n, #ARGV, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end
return 1
"""


def _renewed_ttl(ttl_ms: int) -> int:
    """The TTL the commit script gives a key when it sets it again (see _COMMIT)."""
    return ttl_ms + ttl_ms // 16


# KEYS: room, deal. The room and its current deal, read together. A script rather than
# MULTI: a Redis at its memory limit refuses every command queued in a MULTI, reads too,
# while a script that only reads runs.
_LOAD = """
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1)}
"""

# KEYS: room, hist; ARGV: history size. The room's seq and its history (the last history
# size entries: the commit trims it in steps), read together (as _LOAD).
_HISTORY = """
return {redis.call('HGET', KEYS[1], 'seq'), redis.call('LRANGE', KEYS[2], -tonumber(ARGV[1]), -1)}
"""


# Where the commit script's cold fields are among its arguments (ARGV[17]).
_COLD_ARG = 16
# The commit script's keys, in order (KEYS[1] to KEYS[6]).
_COMMIT_KEYS = ("room", "lease", "hist", "log", "deal", "outbox")


class RedisStore(Indexes, RoomStore):
    """Rooms in Redis; one pub/sub connection per process carries changes and wake-ups."""

    # How changes, wake-ups and results are published (the cluster store: SPUBLISH, to the
    # shard of the channel's slot only), and whether the commit script publishes the
    # command results itself (the cluster store's script cannot: a node's result channel
    # is in another slot).
    _PUBLISH = "PUBLISH"
    _COMMIT_SCRIPT = _COMMIT
    _RESULTS_IN_SCRIPT = True

    def __init__(
        self,
        client: aioredis.Redis,
        history_size: int = 64,
        history_ttl_seconds: int = 300,
        prefix: str = "uno",
        room_ttl_seconds: int = 86_400,
        finished_room_ttl_seconds: int = 3_600,
        sweep_seconds: float = 300.0,
        room_format: int = 1,
        **_: int,
    ) -> None:
        # Every key and channel starts with ``prefix`` (tests run side by side on one Redis).
        self.prefix = prefix
        self.history_size = history_size
        self._history_ttl_ms = history_ttl_seconds * 1000
        self.room_ttl_seconds = room_ttl_seconds
        self.finished_room_ttl_seconds = finished_room_ttl_seconds
        self.sweep_seconds = sweep_seconds
        # The format rooms are written in (both are read): 2 once every node reads it
        # (docs/architecture.md, "The room document's format").
        if room_format not in FORMATS:
            raise ValueError(f"room format {room_format}: this server writes {FORMATS}")
        self.room_format = room_format
        # The cold fields each room holds (their bytes and digest), as this node last
        # wrote or read them: a commit leaves those fields out when its own are the same
        # bytes (the script checks the stored digest and asks for them otherwise), and
        # hashes them only when they are not. Forgotten on release.
        self._cold: dict[str, tuple[bytes, str]] = {}
        self._room_keys: dict[str, tuple[tuple[str, ...], str]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        # Any: redis-py's annotations cannot tell that replies are bytes
        # (decode_responses=False).
        self._redis: Any = client
        self._acquire = client.register_script(_ACQUIRE)
        self._release = client.register_script(_RELEASE)
        self._commit = client.register_script(self._COMMIT_SCRIPT)
        self._append = client.register_script(_APPEND)
        self._append_acquire = client.register_script(_APPEND_ACQUIRE)
        self._drop_code_script = client.register_script(DROP_CODE)
        self._load = client.register_script(_LOAD)
        self._create_once = client.register_script(CREATE_ONCE)
        self._history = client.register_script(_HISTORY)
        self._batch = self._batcher(client)
        self._pubsub: PubSub | None = None
        self._listener: asyncio.Task[None] | None = None
        self._confirmed: dict[bytes, asyncio.Event] = {}
        # Every channel this node listens on: subscribed again on each new connection.
        self._wanted: set[bytes] = set()
        self._channel_room: dict[bytes, str] = {}
        self._node_channel = b""
        self._outboxes = self._global("outboxes")
        self._timers = self._global("timers")
        self._on_message: Delivery | None = None
        self._on_wake: Callable[[str], None] | None = None

    @classmethod
    async def connect(cls, url: str, connect_timeout: float = 5.0, **options: Any) -> RedisStore:
        """A store on the Redis at ``url``.

        :raises StoreUnreachable: Redis did not answer within ``connect_timeout`` s
            (app.store.redis_config.open_client).
        """
        max_connections = options.pop("max_connections", 64)
        return cls(await open_client(url, connect_timeout, max_connections), **options)

    async def config_warnings(self) -> list[str] | None:
        """What in this Redis's configuration puts acknowledged changes at risk
        (app.store.redis_config.config_risks). None when CONFIG GET is refused (managed
        services often rename or forbid it)."""
        try:
            reply = await self._redis.config_get(*CONFIG_KEYS)
        except aioredis.ResponseError:
            return None
        return config_risks(reply)

    def _batcher(self, client: Any) -> Batcher:
        """How the hot path's commands are batched: on the lean wire where the URL allows
        (app.store.redis_wire; the cluster store: a pipeline per shard)."""
        return batcher_for(client)

    @property
    def commands_sent(self) -> int:
        """Commands this store sent to Redis in its batches (every command of a room's
        hot path: appends, log reads, commits, publishes, timers, heartbeats)."""
        return self._batch.sent

    def _key(self, room_id: str, part: str) -> str:
        return f"{self.prefix}:{{{room_id}}}:{part}"

    def _node_ch(self, node: str) -> str:
        return self._global(f"node:{node}")

    def _global(self, name: str) -> str:
        """A key (or channel) of no room: the lobby, the join codes, the indexes, the
        nodes' heartbeats and result channels."""
        return f"{self.prefix}:{name}"

    def index_key(self, name: str) -> str:
        """The key of an index kept beside the rooms' (the tournaments'), where the
        store keeps its own indexes."""
        return self._global(name)

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except aioredis.RedisError:
            return False

    # Rooms

    async def create(
        self,
        room_id: str,
        doc: dict[str, Any],
        code: str | None,
        listed: bool,
        deal: list[dict[str, Any]] | None = None,
    ) -> None:
        pipe = self._redis.pipeline(transaction=True)
        self._queue_room(pipe, room_id, doc, deal)
        if code is not None:
            pipe.hset(self._global("codes"), code, room_id)
        if listed:
            pipe.zadd(self._global("lobby"), {room_id: doc.get("createdAt", 0)})
        try:
            await pipe.execute()
        except OutOfMemoryError as err:  # a transaction: nothing of it was written
            raise StoreFull(str(err)) from None

    async def create_once(self, room_id: str, doc: dict[str, Any], code: str | None) -> bool:
        # The room's hash alone (one key: one slot on a cluster), then its join code.
        fields = room_fields(doc, self.room_format)
        args = [self.room_ttl_ms(doc), *(x for pair in fields.items() for x in pair)]
        try:
            written = await self._create_once(keys=[self._key(room_id, "room")], args=args)
        except OutOfMemoryError as err:
            raise StoreFull(str(err)) from None
        if written and code is not None:
            await self._redis.hset(self._global("codes"), code, room_id)
        return bool(written)

    def _queue_room(
        self, pipe: Any, room_id: str, doc: dict[str, Any], deal: list[dict[str, Any]] | None
    ) -> None:
        room, deal_key = self._key(room_id, "room"), self._key(room_id, "deal")
        queue_room(pipe, room, deal_key, doc, deal, self.room_ttl_ms(doc), self.room_format)

    async def load(self, room_id: str) -> RoomRecord | None:
        flat, deal = await self._eval(
            self._load, [self._key(room_id, "room"), self._key(room_id, "deal")], []
        )
        if not flat:
            return None
        raw = dict(zip(flat[::2], flat[1::2], strict=True))
        if b"cd" in raw:
            self._remember_cold(room_id, raw[b"cold"], raw[b"cd"].decode())
        return RoomRecord(
            read_doc(raw),
            int(raw[b"seq"]),
            raw[b"log"].decode(),
            [orjson.loads(e) for e in deal],
        )

    # The command log

    async def append(self, room_id: str, command: dict[str, Any], wake: bool = True) -> str:
        entry_id: bytes = await self._eval(
            self._append, [self._key(room_id, "log")], self._append_args(room_id, command, wake)
        )
        return entry_id.decode()

    def _append_args(self, room_id: str, command: dict[str, Any], wake: bool) -> list[Any]:
        return [
            orjson.dumps(command),
            _renewed_ttl(self.room_ttl_seconds * 1000),
            self._key(room_id, "wake") if wake else "",
            room_id,
            self._PUBLISH,
        ]

    async def append_and_acquire(
        self, room_id: str, command: dict[str, Any], owner: str, ttl_ms: int
    ) -> tuple[str, bool]:
        keys = [self._key(room_id, "log"), self._key(room_id, "lease")]
        args = [*self._append_args(room_id, command, True), owner, ttl_ms]
        entry_id, got = await self._eval(self._append_acquire, keys, args)
        return entry_id.decode(), bool(got)

    async def read_log(self, room_id: str, after: str, count: int) -> list[tuple[str, Any]]:
        entries = await self._batch.call(
            "XRANGE", self._key(room_id, "log"), f"({after}", "+", "COUNT", count
        )
        return [(entry_id.decode(), orjson.loads(fields[b"c"])) for entry_id, fields in entries]

    async def _eval(self, script: AsyncScript, keys: Sequence[str], args: list[Any]) -> Any:
        """Run a script in the current batch (by its SHA; loaded on first NOSCRIPT)."""
        try:
            return await self._batch.call("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:
            # Not run: Redis did not know the script (first use, or Redis restarted).
            try:
                return await script(keys=keys, args=args)
            except OutOfMemoryError as err:
                raise StoreFull(str(err)) from None

    # The lease

    async def acquire(self, room_id: str, owner: str, ttl_ms: int) -> bool:
        return bool(await self._eval(self._acquire, [self._key(room_id, "lease")], [owner, ttl_ms]))

    async def release(self, room_id: str, owner: str) -> None:
        self._cold.pop(room_id, None)
        await self._release(keys=[self._key(room_id, "lease")], args=[owner])

    def _remember_cold(self, room_id: str, cold: bytes, digest: str) -> None:
        # A bound, in case (~3 KB a room): a room forgotten only has its next commit
        # hash and send its cold fields.
        if room_id not in self._cold and len(self._cold) >= 10_000:
            del self._cold[next(iter(self._cold))]  # the oldest
        self._cold[room_id] = (cold, digest)

    def _cold_digest(self, room_id: str, cold: bytes) -> tuple[str, bool]:
        """The digest of a commit's cold fields, and whether they are the ones the room
        holds as this node last wrote or read them. Compared as bytes: serialising them
        costs less than hashing them, and equal bytes are exactly the same fields."""
        last = self._cold.get(room_id)
        if last is not None and last[0] == cold:
            return last[1], True
        return cold_digest(cold), False

    def _commit_keys(self, room_id: str) -> tuple[tuple[str, ...], str]:
        """The commit script's keys for a room, and its changes channel: made once a room
        rather than seven strings every commit. Names only, a function of the room id."""
        known = self._room_keys.get(room_id)
        if known is None:
            if len(self._room_keys) >= 10_000:
                del self._room_keys[next(iter(self._room_keys))]  # the oldest
            keys = tuple(self._key(room_id, part) for part in _COMMIT_KEYS)
            known = self._room_keys[room_id] = (keys, self._key(room_id, "changes"))
        return known

    async def commit(self, room_id: str, owner: str, commit: Commit) -> None:
        ttl_ms = commit.ttl_ms or self.room_ttl_ms(commit.doc)
        cold, digest, known = b"", "", False
        if self.room_format == 2:
            doc, cold = split_doc(commit.doc)
            digest, known = self._cold_digest(room_id, cold)
        else:
            doc = orjson.dumps(commit.doc)
        keys, changes = self._commit_keys(room_id)
        args: list[Any] = [
            owner,
            commit.seq,
            doc,
            commit.log_id,
            commit.change,
            self.history_size,
            min(self._history_ttl_ms, ttl_ms),
            changes,
            "1" if commit.deal_reset else "0",
            len(commit.deal_append),
            commit.lease_ttl_ms,
            *(commit.archive or ("", b"")),
            "1" if commit.direct else "0",
            ttl_ms,
            digest,
            b"" if known else cold,
        ]
        if commit.deal_append:
            args.extend([orjson.dumps(entry) for entry in commit.deal_append])
        if self._RESULTS_IN_SCRIPT:
            for node, payload in commit.results:
                args.extend((self._node_ch(node), payload))
        # A finished deal: the room goes into the set of rooms with outbox entries first
        # (same pipeline, just before the script: the set lives outside the room's slot),
        # so that the set holds every room with entries, and perhaps a few without.
        marked = (
            None if commit.archive is None else self._batch.call("SADD", self._outboxes, room_id)
        )
        try:
            ok = await self._run_commit(keys, args)
            if ok == -3:
                # Another node wrote other cold fields since: written again, with them.
                args[_COLD_ARG] = cold
                ok = await self._run_commit(keys, args)
        finally:
            if marked is not None:
                try:
                    await marked
                except Exception:
                    # The entry is still found by the room's next writer.
                    log_failure(log, "room %s: could not mark its outbox", room_id)
        if ok == 1 and commit.listed is not None:
            await self._index(self._global("lobby"), room_id, commit.listed, commit.doc)
        if ok == 1 and commit.watched is not None:
            await self._index(self._global("playing"), room_id, commit.watched, commit.doc)
        if ok == -2:
            raise LogAhead(room_id)
        if ok != 1:
            self._cold.pop(room_id, None)
            raise LeaseLost(room_id)
        if digest and not known:
            self._remember_cold(room_id, cold, digest)
        if not self._RESULTS_IN_SCRIPT:
            await self._published(room_id, commit)

    def _run_commit(self, keys: Sequence[str], args: list[Any]) -> Awaitable[Any]:
        """Run the commit script (the cluster store may wait for a replica too). Not a
        coroutine of its own here: one frame less per commit."""
        return self._eval(self._commit, keys, args)

    async def _published(self, room_id: str, commit: Commit) -> None:
        """After a commit: publish what the script did not (nothing here: not called
        while the script publishes everything, ``_RESULTS_IN_SCRIPT``)."""

    # Expiry

    _EXPIRING = ("room", "log", "deal", "hist")

    async def expire_room(self, room_id: str, ttl_ms: int) -> None:
        keys = [self._key(room_id, part) for part in self._EXPIRING]
        if ttl_ms > 0:
            pipe = self._redis.pipeline(transaction=True)
            for key in keys:
                pipe.pexpire(key, ttl_ms)
            # The next commit sets every TTL again (they no longer say when the keys expire).
            pipe.hdel(keys[0], "ex", "hx")
            await pipe.execute()
            return
        raw = await self._redis.hget(self._key(room_id, "room"), "doc")
        await self._redis.delete(*keys, self._key(room_id, "lease"))
        await self._redis.zrem(self._global("lobby"), room_id)
        await self._redis.zrem(self._global("playing"), room_id)
        code = None if raw is None else orjson.loads(raw).get("code")
        if code:
            await self._drop_code(code, room_id.encode())

    # The archive outbox

    async def outbox(self, room_id: str) -> list[tuple[str, bytes]]:
        entries = await self._redis.hgetall(self._key(room_id, "outbox"))
        return [(key.decode(), record) for key, record in entries.items()]

    async def archived(self, room_id: str, key: str) -> None:
        await self._batch.call("HDEL", self._key(room_id, "outbox"), key)

    async def leased(self, room_id: str) -> bool:
        return bool(await self._batch.call("EXISTS", self._key(room_id, "lease")))

    # The writer's beats (app.rooms.writer: how long the room had no writer)

    async def beat(self, room_id: str, now_ms: int | None) -> None:
        key = self._key(room_id, "beat")
        if now_ms is None:
            await self._batch.call("DEL", key)
        else:
            # Kept as long as an untouched room (a day by default): long enough for any
            # outage to be given back, and never longer than the room it belongs to.
            await self._batch.call("SET", key, now_ms, "PX", 1000 * self.room_ttl_seconds)

    async def last_beat(self, room_id: str) -> int | None:
        raw = await self._batch.call("GET", self._key(room_id, "beat"))
        return None if raw is None else int(raw)

    # Fan-out

    async def history(self, room_id: str, after_seq: int) -> list[bytes] | None:
        seq_raw, entries = await self._eval(
            self._history,
            [self._key(room_id, "room"), self._key(room_id, "hist")],
            [self.history_size],
        )
        if not seq_raw:  # Lua's nil: no such room
            return None
        seq = int(seq_raw)
        if after_seq >= seq:
            return []
        kept = [e for e in entries if orjson.loads(e)["seq"] > after_seq]
        if len(kept) != seq - after_seq:
            return None
        return kept

    async def deliver(self, node: str, payload: bytes) -> None:
        await self._batch.call(self._PUBLISH, self._node_ch(node), payload)

    async def start(self, node: str, on_message: Delivery, on_wake: Callable[[str], None]) -> None:
        self._on_message = on_message
        self._on_wake = on_wake
        self._node_channel = self._node_ch(node).encode()
        self._listener = self._start_listener()
        await self._subscribe_channel(self._node_channel)
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="redis-sweep")

    def _start_listener(self) -> asyncio.Task[None] | None:
        """The reader of this node's pub/sub connection (the cluster store has one per
        shard, made as channels are subscribed: none here)."""
        return asyncio.create_task(self._listen(), name="redis-pubsub")

    def _send_pubsub(self, *args: bytes | str) -> Awaitable[None] | None:
        """Send a (un)subscribe on the live pub/sub connection, or None when there is none
        (the listener subscribes every wanted channel when it connects again). Only written:
        the listener alone reads that connection, and redis-py's own reconnect (which reads
        the handshake's replies) is never started from here."""
        conn = connection_of(self._pubsub)
        if conn is None or not conn.is_connected:
            return None
        sending: Awaitable[None] = conn.send_command(*args)
        return sending

    async def _subscribe_channel(self, channel: bytes) -> None:
        self._wanted.add(channel)
        # A fresh event each time: one set before an outage would confirm nothing.
        event = self._confirmed[channel] = asyncio.Event()
        sending = self._send_pubsub("SUBSCRIBE", channel)
        if sending is not None:
            with contextlib.suppress(aioredis.ConnectionError, aioredis.TimeoutError, OSError):
                await sending  # lost: the listener resubscribes when it reconnects
        await confirmed(event, channel)

    async def _unsubscribe_channel(self, channel: bytes) -> None:
        self._wanted.discard(channel)
        self._confirmed.pop(channel, None)
        sending = self._send_pubsub("UNSUBSCRIBE", channel)
        if sending is not None:
            with contextlib.suppress(aioredis.ConnectionError, aioredis.TimeoutError, OSError):
                await sending  # lost: the channel is not resubscribed on reconnecting

    async def _connect_pubsub(self) -> tuple[PubSub, set[bytes]]:
        """A new pub/sub connection, and the wanted channels it was subscribed to (their
        confirmations arrive through the listener's reads)."""
        pubsub = self._redis.pubsub()
        sent = set(self._wanted)
        try:
            await pubsub.connect()
            for chunk in chunks(sorted(sent), 500):
                await connection_of(pubsub).send_command("SUBSCRIBE", *chunk)
        except BaseException:
            await pubsub.aclose()
            raise
        return pubsub, sent

    async def _listen(self) -> None:
        """The only reader of the pub/sub connection: one connection per period of Redis
        being reachable, made (with every wanted channel subscribed) after each loss."""
        lost = False
        while True:
            try:
                pubsub, sent = await self._connect_pubsub()
            except asyncio.CancelledError:
                raise
            except (aioredis.RedisError, OSError):
                await asyncio.sleep(0.5)
                continue
            if lost:
                log.warning("redis pub/sub connection back; %d channels subscribed", len(sent))
            self._pubsub = pubsub
            try:
                # Wanted while the connection was being made: subscribed now.
                missing = sorted(self._wanted - sent)
                if missing:
                    await connection_of(pubsub).send_command("SUBSCRIBE", *missing)
                await self._read(pubsub)
            except asyncio.CancelledError:
                raise
            except (aioredis.RedisError, OSError) as err:
                log.warning("redis pub/sub connection lost (%r); reconnecting", err)
                lost = True
            finally:
                self._pubsub = None
                await pubsub.aclose()
            await asyncio.sleep(0.5)

    async def _read(self, pubsub: PubSub) -> None:
        while True:
            # Blocking (timeout None): no timer per message, as a timeout would cost.
            message = await pubsub.get_message(timeout=None)
            if message is None:
                continue
            try:
                await self._dispatch(message)
            except Exception:
                log.exception("error handling a published message")

    async def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        channel: bytes = message["channel"]
        if kind == "subscribe":
            event = self._confirmed.get(channel)
            if event is not None:
                event.set()
            return
        if kind != "message":
            return
        data: bytes = message["data"]
        if channel == self._node_channel:
            room_id: str | None = None
        elif channel.endswith(b":wake"):
            if self._on_wake is not None:
                self._on_wake(data.decode())
            return
        else:
            room_id = self._channel_room.get(channel)
            if room_id is None:
                return
        if self._on_message is not None:
            result = self._on_message(room_id, data)
            if result is not None:
                await result

    async def subscribe(self, room_id: str) -> None:
        channel = self._key(room_id, "changes").encode()
        self._channel_room[channel] = room_id
        await self._subscribe_channel(channel)

    async def unsubscribe(self, room_id: str) -> None:
        channel = self._key(room_id, "changes").encode()
        self._channel_room.pop(channel, None)
        await self._unsubscribe_channel(channel)

    async def watch_log(self, room_id: str) -> None:
        await self._subscribe_channel(self._key(room_id, "wake").encode())

    async def unwatch_log(self, room_id: str) -> None:
        await self._unsubscribe_channel(self._key(room_id, "wake").encode())

    async def close(self) -> None:
        await stop(self._sweeper)
        await stop(self._listener)
        await self._batch.close()
        await self._redis.aclose()
