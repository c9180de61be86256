"""Room stores: where live rooms, their command logs and their change history are kept.

Two implementations share one interface and one test suite: :class:`MemoryStore` (one
process, the embedded default) and :class:`RedisStore` (any number of processes sharing one
Redis). The room writer (``app.rooms.writer``) uses only what :class:`RoomStore` declares.
"""

from __future__ import annotations

from typing import Any

from app.store.base import Commit, Delivery, RoomRecord, RoomStore
from app.store.memory import MemoryStore


async def open_store(redis_url: str | None, **options: Any) -> RoomStore:
    """The Redis store when a URL is given (checked reachable now), else the memory store."""
    if redis_url is None:
        options.pop("connect_timeout", None)
        return MemoryStore(**options)
    from app.store.redis import RedisStore

    return await RedisStore.connect(redis_url, **options)


__all__ = ["Commit", "Delivery", "MemoryStore", "RoomRecord", "RoomStore", "open_store"]
