"""Room stores: where live rooms, their command logs and their change history are kept.

Two implementations share one interface and one test suite: :class:`MemoryStore` (one
process, the embedded default) and :class:`RedisStore` (any number of processes sharing one
Redis). The room writer (``app.rooms.writer``) uses only what :class:`RoomStore` declares.
"""

from __future__ import annotations

from typing import Any

from app.store.base import Commit, Delivery, RoomRecord, RoomStore, StoreUnavailable
from app.store.memory import MemoryStore

# What a store raises while it cannot be reached (an outage): answered 503 ``unavailable``
# by REST, closing 1013 on sockets (see app.store.outage).
from app.store.outage import OUTAGE, log_failure


async def open_store(
    redis_url: str | None, redis_cluster: str | None = None, **options: Any
) -> RoomStore:
    """The Redis Cluster store when seeds are given, the Redis store when a URL is (each
    checked reachable now), else the memory store."""
    if redis_cluster is not None:
        from app.store.redis_cluster import RedisClusterStore

        return await RedisClusterStore.connect(redis_cluster, **options)
    options.pop("wait_replicas", None)
    options.pop("wait_timeout_ms", None)
    if redis_url is None:
        options.pop("connect_timeout", None)
        return MemoryStore(**options)
    from app.store.redis import RedisStore

    return await RedisStore.connect(redis_url, **options)


__all__ = [
    "OUTAGE",
    "Commit",
    "Delivery",
    "MemoryStore",
    "RoomRecord",
    "RoomStore",
    "StoreUnavailable",
    "log_failure",
    "open_store",
]
