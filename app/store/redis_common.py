"""What the Redis store and the Redis Cluster store share: the batch of commands sent per
loop turn and how its replies reach their callers, the writes that make a room, the wait
for a subscription's confirmation, and how their background tasks stop.

The cluster store (``app.store.redis_cluster``) is the Redis store (``app.store.redis``)
with its sends split by shard; each part here is the one both run.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

import orjson
from redis.asyncio.client import PubSub
from redis.exceptions import OutOfMemoryError

from app.store.base import StoreFull, StoreUnavailable

# Commands of one batch: (arguments, the future its caller awaits).
Queued = list[tuple[tuple[Any, ...], asyncio.Future[Any]]]


class Batcher:
    """Commands issued during one turn of the event loop, sent to Redis as one pipeline.

    redis-py costs ~90 us of client CPU per command sent on its own and ~16 us per command
    in a pipeline. Many rooms act at once on a busy node, so the appends, log reads and
    commits of all of them that are issued in one loop turn share one round trip. Each
    caller still awaits its own reply; an error reply fails only its own command. How a
    batch is sent is :meth:`_send`'s (one pipeline here; one per shard on a cluster; on
    one Redis, the lean wire of ``app.store.redis_wire`` where the URL allows).
    """

    def __init__(self, client: Any) -> None:
        self._client = client
        self.sent = 0  # commands sent so far (GET /metrics: uno_redis_commands_sent)
        self._queued: Queued = []
        self._scheduled = False
        self._sending: set[asyncio.Task[None]] = set()

    def call(self, *args: Any) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue(args, future)
        self.sent += 1
        if not self._scheduled:
            # call_soon: the flush runs once the callbacks ready now have run, so that the
            # commands they issue join this pipeline.
            self._scheduled = True
            loop.call_soon(self._flush)
        return future

    def _queue(self, args: tuple[Any, ...], future: asyncio.Future[Any]) -> None:
        """Add a command to this loop turn's batch."""
        self._queued.append((args, future))

    def _flush(self) -> None:
        self._scheduled = False
        queued, self._queued = self._queued, []
        if queued:
            self._spawn(self._send(queued))

    def _spawn(self, sending: Coroutine[Any, Any, None]) -> None:
        """Send a batch in a task of its own (kept until it ends)."""
        task = asyncio.create_task(sending, name="redis-batch")
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def close(self) -> None:
        """Close what the batcher holds of its own (nothing: its connections are the
        client's)."""

    async def _send(self, queued: Queued) -> None:
        pipe = self._client.pipeline(transaction=False)
        for args, _ in queued:
            pipe.execute_command(*args)
        await answer(queued, pipe.execute(raise_on_error=False))


async def answer(
    queued: Queued,
    replies: Awaitable[list[Any]],
    on_failure: Callable[[], None] | None = None,
    refused: Callable[[Any], Exception | None] | None = None,
) -> None:
    """Hand each queued command its reply, once ``replies`` (one per command, errors as
    exceptions) has come. The connection failing fails every command of the batch (and
    calls ``on_failure``); ``refused`` may turn an error reply into the exception its
    caller gets; Redis out of memory is :class:`StoreFull`."""
    got: list[Any]
    try:
        got = await replies
    except asyncio.CancelledError:
        for _, future in queued:
            future.cancel()
        raise
    except Exception as err:  # the connection failed: every command of the batch did
        if on_failure is not None:
            on_failure()
        got = [err] * len(queued)
    for (_, future), reply in zip(queued, got, strict=True):
        instead = None if refused is None or future.done() else refused(reply)
        settle(future, reply if instead is None else instead)


def settle(future: asyncio.Future[Any], reply: Any) -> None:
    """Hand a caller its command's reply (an exception: raised to it; Redis out of memory
    as :class:`StoreFull`), unless the caller was cancelled meanwhile."""
    if future.done():
        return
    if isinstance(reply, OutOfMemoryError):
        future.set_exception(StoreFull(str(reply)))
    elif isinstance(reply, Exception):
        future.set_exception(reply)
    else:
        future.set_result(reply)


# The room document's stored formats (docs/architecture.md, "The room document's format"):
# 1, the whole document in the room hash's ``doc``; 2, the fields below apart, in ``cold``
# (JSON), with ``cd`` (their digest) and ``fmt`` ("2"), and the rest in ``doc``. These
# fields (~2 KB: the rules, the shuffle's secret and commitments, the finished deals'
# scores, the match's tally) change once a deal at most, while the rest changes with
# every action: format 2 writes them only when they changed.
def chunks(items: list[Any], size: int) -> list[list[Any]]:
    """``items`` in consecutive lists of ``size`` (the last one shorter)."""
    return [items[i : i + size] for i in range(0, len(items), size)]


FORMATS = (1, 2)
# In the order a new room's document has them (the order ``cold`` holds them in).
COLD_FIELDS = ("rules", "shuffle", "tally", "deals")


def split_doc(doc: dict[str, Any]) -> tuple[bytes, bytes]:
    """A document as format 2 stores it: (``doc``, ``cold``); ``cd`` is
    :func:`cold_digest` of the latter."""
    # A copy less four keys: a third of the CPU of a comprehension over the ~35 keys (it
    # runs on every commit).
    hot = doc.copy()
    cold: dict[str, Any] = {}
    for key in COLD_FIELDS:
        if key in hot:
            cold[key] = hot.pop(key)
    return orjson.dumps(hot), orjson.dumps(cold)


def cold_digest(cold: bytes) -> str:
    return hashlib.blake2b(cold, digest_size=12).hexdigest()


def read_doc(fields: dict[bytes, bytes]) -> dict[str, Any]:
    """The document of a room hash in either format.

    :raises ValueError: a format this version does not know (written by a newer one).
    """
    doc: dict[str, Any] = orjson.loads(fields[b"doc"])
    stored = fields.get(b"fmt")
    if stored is None:
        return doc
    if int(stored) not in FORMATS:
        raise ValueError(f"a room document in format {int(stored)}, newer than this server's")
    doc.update(orjson.loads(fields[b"cold"]))
    return doc


def queue_room(
    pipe: Any,
    room_key: str,
    deal_key: str,
    doc: dict[str, Any],
    deal: list[dict[str, Any]] | None,
    ttl_ms: int,
    room_format: int = 1,
) -> None:
    """Queue on ``pipe`` (a transaction) the writes of a new room: its hash at seq 0 (in
    ``room_format``) and its deal log, each with the room's TTL."""
    if deal:
        pipe.rpush(deal_key, *(orjson.dumps(e) for e in deal))
        pipe.pexpire(deal_key, ttl_ms)
    pipe.delete(room_key)  # nothing of an older room of the same id (a restored room)
    pipe.hset(room_key, mapping=room_fields(doc, room_format))
    pipe.pexpire(room_key, ttl_ms)


def room_fields(doc: dict[str, Any], room_format: int = 1) -> dict[str, Any]:
    """The hash of a new room at seq 0, in ``room_format``."""
    fields: dict[str, Any] = {"doc": orjson.dumps(doc), "seq": 0, "log": "0-0"}
    if room_format == 2:
        fields["doc"], fields["cold"] = split_doc(doc)
        fields["cd"] = cold_digest(fields["cold"])
        fields["fmt"] = 2
    return fields


# A new room's hash unless a room of that id is there (KEYS[1] the room's hash; ARGV[1]
# its TTL in ms, then its fields and values): 1 if it was written.
CREATE_ONCE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""


async def confirmed(event: asyncio.Event, channel: bytes) -> None:
    """Until Redis confirms subscribing ``channel`` (``event`` is set then). A change
    published before Redis has processed the subscribe would be missed: the caller reads
    the room only after this returns.

    :raises StoreUnavailable: no confirmation within 5 s.
    """
    try:
        await asyncio.wait_for(event.wait(), timeout=5)
    except TimeoutError:
        raise StoreUnavailable(f"Redis did not confirm subscribing {channel!r}") from None


def connection_of(pubsub: PubSub | None) -> Any:
    """A pub/sub's connection, or None (redis-py leaves the attribute unannotated)."""
    return None if pubsub is None else cast(Any, pubsub).connection


async def stop(task: asyncio.Task[Any] | None) -> None:
    """Cancel a background task (a listener, a sweeper) and wait until it has stopped."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
