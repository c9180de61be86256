"""The Redis Cluster room store: the Redis store's keys and scripts, on a Redis Cluster.

Every key of a room carries the room id as its hash tag (``uno:{room}:...``), so one
room lives in one slot, on one shard: the commit script, the lease, the log, the history
and the outbox are single-slot, as on one Redis. What differs:

- **Publishing is sharded.** A room's changes (``uno:{r}:changes``) and wake-ups
  (``uno:{r}:wake``) are shard channels of the room's slot: the commit script
  ``SPUBLISH``-es the change on the room's shard, and only that shard (and its replicas)
  carries it, not every node of the cluster as a plain ``PUBLISH`` would. A server node
  ``SSUBSCRIBE``-s, on the shard of each room, the rooms it holds sockets of (and the
  wake channel of each room it writes): its subscriptions grow with its own rooms, never
  with the cluster's. Command results go to a node's own channel (``uno:node:{n}``, a
  shard channel in the slot of its name), published after the commit by the writer (the
  script cannot: another slot).
- **One pub/sub connection per shard**, each with its own reader (:class:`_Shard`). When a
  shard's connection is lost (its master died, a slot moved) the store reads the
  cluster's layout again and subscribes each channel where its slot is now served.
- **Global indexes in slots of their own**: the outbox set, the timer index, the lobby,
  the join codes and the node heartbeats are one key each (not hash-tagged with a room),
  written beside the room's commit, not in it; each is an index that the rooms repair
  (the sweep drops lobby and code entries of rooms gone, a drain that finds an outbox
  empty drops its room from the outbox set, a writer re-indexes its timer on start).
- **Optionally, a commit waits for a replica** (``wait_replicas``, setting
  ``UNO_REDIS_WAIT_REPLICAS``): the script writes, then ``WAIT`` on the same connection,
  and only then is the change published and the command answered. See
  docs/architecture.md, "Running on Redis Cluster", for what each mode guarantees.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterNode, PipelineCommand, RedisCluster
from redis.asyncio.connection import ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.crc import key_slot
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    OutOfMemoryError,
    RedisClusterException,
    RedisError,
    ResponseError,
    TryAgainError,
)

from app.store.base import (
    Commit,
    StoreFull,
    StoreUnavailable,
    StoreUnreachable,
)
from app.store.redis import _COMMIT, RedisStore
from app.store.redis_common import Batcher, Queued, answer, confirmed, connection_of, stop
from app.store.redis_config import CONFIG_KEYS, config_risks

log = logging.getLogger(__name__)

# The commit script with the change SPUBLISH-ed on the room's shard (the results, in other
# slots, are published by the client after it), and a variant that publishes nothing (the
# client publishes after WAIT).
_CLUSTER_COMMIT = _COMMIT.replace(
    "redis.call('PUBLISH', ARGV[8], ARGV[5])", "redis.call('SPUBLISH', ARGV[8], ARGV[5])"
)
_SILENT_COMMIT = _COMMIT.replace(
    "if not quiet then redis.call('PUBLISH', ARGV[8], ARGV[5]) end\n", ""
)
assert _CLUSTER_COMMIT != _COMMIT and _SILENT_COMMIT != _COMMIT


def parse_seeds(seeds: str) -> list[tuple[str, int]]:
    """``HOST:PORT[,HOST:PORT...]`` as (host, port) pairs.

    :raises ValueError: an entry that is not HOST:PORT.
    """
    found = []
    for entry in seeds.split(","):
        entry = entry.strip()
        host, sep, port = entry.rpartition(":")
        if not sep or not host or not port.isdigit() or "/" in host:
            raise ValueError(f"not HOST:PORT: {entry!r}")
        found.append((host.strip("[]"), int(port)))
    if not found:
        raise ValueError("no HOST:PORT given")
    return found


class _Shard:
    """One pub/sub connection to one master, carrying the shard channels of its slots.

    The reader is the only one that reads the connection; (un)subscribes are only written
    to it. A lost connection is made again, with every channel still homed here subscribed
    again, after the store has had the chance to home channels elsewhere (a failover)."""

    def __init__(self, store: RedisClusterStore, name: str) -> None:
        self.store = store
        self.name = name
        host, _, port = name.rpartition(":")
        self._pool = ConnectionPool(
            host=host, port=int(port), socket_connect_timeout=store.connect_timeout
        )
        self.channels: set[bytes] = set()
        self.pubsub: PubSub | None = None
        self.task = asyncio.create_task(self._run(), name=f"redis-shard-{name}")

    def send(self, command: str, *channels: bytes) -> None:
        """Write an (un)subscribe on the live connection (the reader subscribes every
        channel of this shard when it connects again)."""
        conn = connection_of(self.pubsub)
        if conn is None or not conn.is_connected:
            return
        sending = asyncio.ensure_future(conn.send_command(command, *channels))
        sending.add_done_callback(_ignore_error)

    async def _run(self) -> None:
        lost = False
        while True:
            pubsub = PubSub(self._pool)
            try:
                await pubsub.connect()  # type: ignore[no-untyped-call]
                sent = set(self.channels)
                for group in _by_slot(sent):
                    await connection_of(pubsub).send_command("SSUBSCRIBE", *group)
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except (RedisError, OSError):
                await pubsub.aclose()
                await self.store.rehome(self)
                await asyncio.sleep(0.5)
                continue
            if lost:
                log.warning("shard %s: pub/sub back; %d channels subscribed", self.name, len(sent))
            self.pubsub = pubsub
            try:
                for group in _by_slot(self.channels - sent):
                    await connection_of(pubsub).send_command("SSUBSCRIBE", *group)
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is not None:
                        await self.store.dispatch_shard(self, message)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as err:
                log.warning("shard %s: pub/sub lost (%r)", self.name, err)
                lost = True
            finally:
                self.pubsub = None
                await pubsub.aclose()
            await self.store.rehome(self)
            await asyncio.sleep(0.5)

    async def close(self) -> None:
        await stop(self.task)
        await self._pool.aclose()


def _ignore_error(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # lost with the connection: the reader subscribes again


def _by_slot(channels: set[bytes]) -> list[list[bytes]]:
    """Channels grouped by slot: one SSUBSCRIBE may name channels of one slot only."""
    groups: dict[int, list[bytes]] = {}
    for channel in sorted(channels):
        groups.setdefault(key_slot(channel), []).append(channel)
    return list(groups.values())


class _ShardBatcher(Batcher):
    """The batch split by shard, one pipeline each on the shard's own connection, sent
    side by side. Not redis-py's cluster pipeline: on a connection error it closes every
    connection of the client, failing the commands in flight to the shards that are up;
    here a shard down fails its own commands only. A command refused because its slot
    moved (MOVED, ASK, CLUSTERDOWN) or sent to a shard that is gone fails as unavailable
    (callers retry) and has the store read the cluster's layout again."""

    def __init__(self, client: RedisCluster, on_moved: Callable[[], None]) -> None:
        super().__init__(client)
        self._cluster = client
        self._on_moved = on_moved

    async def _send(self, queued: Queued) -> None:
        groups: dict[str, Queued] = {}
        nodes: dict[str, ClusterNode | None] = {}
        for item in queued:
            args = item[0]
            # Every command batched names its key first, but a script (after sha, numkeys).
            key = args[3] if args[0] == "EVALSHA" else args[1]
            try:
                node: ClusterNode | None = self._cluster.get_node_from_key(key)
            except (RedisError, RedisClusterException):
                node = None
            name = "" if node is None else node.name
            nodes[name] = node
            groups.setdefault(name, []).append(item)
        await asyncio.gather(*(self._send_to(nodes[name], group) for name, group in groups.items()))

    async def _send_to(self, node: ClusterNode | None, queued: Queued) -> None:
        await answer(queued, self._pipeline(node, queued), self._on_moved, self._refused)

    @staticmethod
    async def _pipeline(node: ClusterNode | None, queued: Queued) -> list[Any]:
        if node is None:
            raise StoreUnavailable("no shard serves the slot")
        commands = [PipelineCommand(i, *args) for i, (args, _) in enumerate(queued)]
        await node.execute_pipeline(commands)
        return [command.result for command in commands]

    def _refused(self, reply: Any) -> Exception | None:
        if isinstance(reply, AskError | ClusterDownError | TryAgainError):
            self._on_moved()  # MovedError is an AskError
            return StoreUnavailable(f"the slot is moving: {reply}")
        return None


class RedisClusterStore(RedisStore):
    """Rooms on a Redis Cluster (see the module's docstring)."""

    _PUBLISH = "SPUBLISH"
    _COMMIT_SCRIPT = _CLUSTER_COMMIT
    _RESULTS_IN_SCRIPT = False

    def __init__(
        self,
        client: RedisCluster,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
        connect_timeout: float = 5.0,
        **options: Any,
    ) -> None:
        super().__init__(client, **options)  # type: ignore[arg-type]
        self._cluster = client
        self.connect_timeout = connect_timeout
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self._silent = client.register_script(_SILENT_COMMIT)
        self._shards: dict[str, _Shard] = {}
        self._home: dict[bytes, _Shard] = {}
        self._refreshing: asyncio.Task[None] | None = None
        self._closed = False

    def _batcher(self, client: Any) -> Batcher:
        return _ShardBatcher(client, self._schedule_refresh)

    @classmethod
    async def connect(  # type: ignore[override]
        cls, seeds: str, connect_timeout: float = 5.0, **options: Any
    ) -> RedisClusterStore:
        """A store on the cluster that ``seeds`` (HOST:PORT,...) belong to.

        :raises StoreUnreachable: no seed answered with the cluster's layout within
            ``connect_timeout`` s, or the seeds are not HOST:PORT.
        """
        try:
            nodes = [ClusterNode(host, port) for host, port in parse_seeds(seeds)]
        except ValueError as err:
            raise StoreUnreachable(f"--redis-cluster {seeds!r}: {err}") from None
        client = RedisCluster(
            startup_nodes=nodes,
            # A shard down must not stop the others' rooms: commands for its slots fail,
            # the rest go on.
            require_full_coverage=False,
            socket_connect_timeout=connect_timeout,
            socket_timeout=max(connect_timeout, 5.0),
            max_connections=options.pop("max_connections", 64),
            # redis-py's default backs off for up to seconds per command before it gives
            # up on a shard that is down; the server answers ``unavailable`` soon instead
            # (clients retry), within about a second.
            retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=3),
        )
        try:
            async with asyncio.timeout(connect_timeout):
                await client.initialize()
                await client.ping()
        except (RedisError, RedisClusterException, OSError, TimeoutError) as err:
            with contextlib.suppress(Exception):
                await client.aclose()
            reason = str(err) or type(err).__name__
            raise StoreUnreachable(f"cannot reach the Redis Cluster at {seeds}: {reason}") from None
        except BaseException:
            with contextlib.suppress(Exception):
                await client.aclose()
            raise
        return cls(client, connect_timeout=connect_timeout, **options)

    def _global(self, name: str) -> str:
        # Every key of no room in one slot (``{index}``), on one shard: a shard down takes
        # either some rooms or the indexes, and a server node whose heartbeat and results
        # shard is up goes on serving the rooms of every other shard up.
        return f"{self.prefix}:{{index}}:{name}"

    async def config_warnings(self) -> list[str] | None:
        try:
            nodes = self._cluster.get_primaries()
            reply = await self._cluster.config_get(*CONFIG_KEYS, target_nodes=nodes[:1])
        except (RedisError, RedisClusterException):
            return None
        warnings = config_risks(reply)
        if self.wait_replicas == 0:
            warnings.append(
                "commits do not wait for a replica (UNO_REDIS_WAIT_REPLICAS=0): a master "
                "killed before replicating loses its last acknowledged actions at failover"
            )
        return warnings

    async def ping(self) -> bool:
        try:
            return bool(await self._cluster.ping())
        except (RedisError, RedisClusterException):
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
        # The room's keys together (one slot, one transaction), then its index entries,
        # each in its own slot: a room whose code or lobby entry was not written is a room
        # nobody finds by them, which the creator is told (the error propagates).
        pipe = self._cluster.pipeline(transaction=True)
        self._queue_room(pipe, room_id, doc, deal)
        try:
            await pipe.execute()
        except OutOfMemoryError as err:
            raise StoreFull(str(err)) from None
        if code is not None:
            await self._cluster.hset(self._global("codes"), code, room_id)
        if listed:
            await self._cluster.zadd(self._global("lobby"), {room_id: doc.get("createdAt", 0)})

    # The commit

    async def _run_commit(self, keys: Sequence[str], args: list[Any]) -> Any:
        if self.wait_replicas <= 0:
            return await self._eval(self._commit, keys, args)
        return await self._commit_and_wait(keys, args)

    async def _commit_and_wait(self, keys: Sequence[str], args: list[Any]) -> Any:
        """The silent commit script, then WAIT on the same connection (WAIT counts the
        replicas that have this connection's writes), outside the batch."""
        for attempt in range(2):
            node = self._cluster.get_node_from_key(keys[0])
            if node is None:
                raise StoreUnavailable("no shard serves the room's slot")
            ok, acked = await self._then_wait(
                node, ("EVALSHA", self._silent.sha, len(keys), *keys, *args)
            )
            if isinstance(ok, NoScriptError) and attempt == 0:
                await self._cluster.script_load(_SILENT_COMMIT)
                continue
            if isinstance(ok, MovedError) and attempt == 0:
                await self._refresh()
                continue
            if isinstance(ok, OutOfMemoryError):
                raise StoreFull(str(ok))
            if isinstance(ok, Exception):
                raise ok
            if ok == 1 and (isinstance(acked, Exception) or acked < self.wait_replicas):
                # Written on the master, not confirmed by a replica in time: neither
                # published nor acknowledged. The writer stops (an outage); the client
                # retries, and the command, already applied, is answered once.
                raise StoreUnavailable(
                    f"no replica confirmed the commit within {self.wait_timeout_ms} ms"
                )
            return ok
        raise StoreUnavailable("the room's slot moved twice during one commit")

    async def _then_wait(self, node: ClusterNode, write: tuple[Any, ...]) -> list[Any]:
        """``write``, then ``WAIT`` for the replicas, on one connection of ``node`` (WAIT
        counts the replicas that have this connection's writes), outside the batch; the
        two replies, an error reply as its exception."""
        conn = node.acquire_connection()
        self._batch.sent += 2
        try:
            await conn.send_packed_command(
                conn.pack_commands([write, ("WAIT", self.wait_replicas, self.wait_timeout_ms)])
            )
            replies: list[Any] = []
            for _ in range(2):
                try:
                    replies.append(await conn.read_response())
                except ResponseError as err:
                    replies.append(err)
        except BaseException:
            await conn.disconnect()
            raise
        finally:
            node.release(conn)
        return replies

    async def confirm(self, room_id: str) -> None:
        if self.wait_replicas <= 0:
            return
        # WAIT counts the replicas that have this connection's writes; replication is one
        # ordered stream, so a replica that has this write has every earlier write of the
        # room's shard too (a commit written before its WAIT failed, say).
        key = self._key(room_id, "sync")
        node = self._cluster.get_node_from_key(key)
        if node is None:
            raise StoreUnavailable("no shard serves the room's slot")
        written, acked = await self._then_wait(
            node, ("SET", key, "1", "PX", self.room_ttl_seconds * 1000)
        )
        if isinstance(written, Exception) or isinstance(acked, Exception):
            raise StoreUnavailable(f"could not confirm the room's state: {written!r} {acked!r}")
        if acked < self.wait_replicas:
            raise StoreUnavailable(
                f"no replica confirmed the room's state within {self.wait_timeout_ms} ms"
            )

    async def _published(self, room_id: str, commit: Commit) -> None:
        calls = []
        if self.wait_replicas > 0 and commit.change:
            calls.append(self._batch.call("SPUBLISH", self._key(room_id, "changes"), commit.change))
        for node, payload in commit.results:
            calls.append(self._batch.call("SPUBLISH", self._node_ch(node), payload))
        if calls:
            await asyncio.gather(*calls)

    # Pub/sub: one connection per shard

    def _start_listener(self) -> None:
        return None  # a reader per shard (_Shard), started with its first channel

    def _owner_of(self, channel: bytes) -> _Shard:
        node = self._cluster.get_node_from_key(channel.decode())
        if node is None:
            raise RedisClusterException(f"no shard serves {channel!r}")
        shard = self._shards.get(node.name)
        if shard is None:
            shard = self._shards[node.name] = _Shard(self, node.name)
        return shard

    async def _subscribe_channel(self, channel: bytes) -> None:
        self._wanted.add(channel)
        event = self._confirmed[channel] = asyncio.Event()
        old = self._home.get(channel)
        if old is not None:
            old.channels.discard(channel)
        try:
            shard = self._owner_of(channel)
        except (RedisError, RedisClusterException) as err:
            raise StoreUnavailable(f"no shard serves {channel!r}: {err}") from None
        self._home[channel] = shard
        shard.channels.add(channel)
        shard.send("SSUBSCRIBE", channel)
        await confirmed(event, channel)

    async def _unsubscribe_channel(self, channel: bytes) -> None:
        self._wanted.discard(channel)
        self._confirmed.pop(channel, None)
        shard = self._home.pop(channel, None)
        if shard is not None:
            shard.channels.discard(channel)
            shard.send("SUNSUBSCRIBE", channel)

    async def dispatch_shard(self, shard: _Shard, message: dict[str, Any]) -> None:
        kind = message["type"]
        channel = message["channel"]
        if kind == "sunsubscribe":
            # Not asked for: the shard gave the slot up (moved, or this node is a replica
            # now). Subscribed again where the slot is served.
            if channel in shard.channels:
                self._schedule_refresh()
            return
        if kind == "ssubscribe":
            kind = "subscribe"
        elif kind == "smessage":
            kind = "message"
        else:
            return
        try:
            await self._dispatch({**message, "type": kind})
        except Exception:
            log.exception("error handling a published message")

    async def _refresh(self) -> None:
        """Read the cluster's layout again (slots and who serves them)."""
        try:
            async with asyncio.timeout(self.connect_timeout):
                await self._cluster.nodes_manager.initialize()
        except (RedisError, RedisClusterException, OSError, TimeoutError) as err:
            log.warning("could not read the cluster's layout: %r", err)

    def _schedule_refresh(self) -> None:
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.create_task(self._refresh_and_rehome())

    async def _refresh_and_rehome(self) -> None:
        await self._refresh()
        for shard in list(self._shards.values()):
            self._move_channels(shard)

    async def rehome(self, shard: _Shard) -> None:
        """``shard``'s connection is lost: read the layout, and subscribe each of its
        channels where its slot is served now (the same shard, if it still is)."""
        if self._closed:
            return
        await self._refresh()
        self._move_channels(shard)

    def _move_channels(self, shard: _Shard) -> None:
        for channel in list(shard.channels):
            try:
                owner = self._owner_of(channel)
            except (RedisError, RedisClusterException):
                continue  # no one serves the slot yet: tried again on the next loss
            if owner is not shard:
                shard.channels.discard(channel)
                shard.send("SUNSUBSCRIBE", channel)
                owner.channels.add(channel)
                self._home[channel] = owner
                owner.send("SSUBSCRIBE", channel)

    async def close(self) -> None:
        self._closed = True
        await stop(self._sweeper)
        await stop(self._refreshing)
        for shard in list(self._shards.values()):
            await shard.close()
        await self._cluster.aclose()
