"""Room stores: where live rooms, their command logs and their change history are kept.

Two implementations share one interface and one test suite: :class:`MemoryStore` (one
process, the embedded default) and :class:`RedisStore` (any number of processes sharing one
Redis). The room writer (``app.rooms.writer``) uses only what :class:`RoomStore` declares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.store.base import Commit, Delivery, RoomRecord, RoomStore, StoreUnavailable
from app.store.memory import MemoryStore

# What a store raises while it cannot be reached (an outage): answered 503 ``unavailable``
# by REST, closing 1013 on sockets (see app.store.outage).
from app.store.outage import OUTAGE, log_failure

if TYPE_CHECKING:
    from app.settings import Settings


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


async def open_room_store(settings: Settings) -> RoomStore:
    """The room store the settings name (a node's, and the archive process's)."""
    return await open_store(
        settings.redis_url,
        settings.redis_cluster,
        wait_replicas=settings.redis_wait_replicas,
        wait_timeout_ms=settings.redis_wait_timeout_ms,
        history_size=settings.history_size,
        history_ttl_seconds=settings.history_ttl_seconds,
        prefix=settings.redis_prefix,
        connect_timeout=settings.redis_connect_timeout_seconds,
        room_ttl_seconds=settings.room_ttl_seconds,
        finished_room_ttl_seconds=settings.finished_room_ttl_seconds,
        sweep_seconds=settings.store_sweep_seconds,
        room_format=settings.room_format,
    )


__all__ = [
    "OUTAGE",
    "Commit",
    "Delivery",
    "MemoryStore",
    "RoomRecord",
    "RoomStore",
    "StoreUnavailable",
    "log_failure",
    "open_room_store",
    "open_store",
]
