"""The lobby rooms each client address has open, so that one address cannot keep
hundreds of empty rooms standing (``POST /api/rooms`` past the cap: ``429
too_many_rooms``).

Each address's rooms are a sorted set (room id by creation time) beside the REST limits'
counters (their Redis or Redis Cluster, or this process with the memory store), so that
every node counts one address together. A room counts while it is a lobby: before each
creation the address's rooms are read from the room store, and those that started, ended
or expired are forgotten. A room older than the longest an empty lobby stands is forgotten
too: one that old that still stands has players seated, and is no longer the empty room
the cap is for.
"""

from __future__ import annotations

import time
from typing import Any

from app.limits import RestLimits
from app.rooms.doc import LOBBY
from app.store.base import RoomStore


class OpenLobbies:
    def __init__(self, limits: RestLimits, window_seconds: float) -> None:
        self._redis: Any = limits.redis
        self._prefix = limits.prefix
        self._window_ms = int(window_seconds * 1000)
        self._here: dict[str, dict[str, int]] = {}  # without Redis: address -> rooms

    def _key(self, address: str) -> str:
        # One hash-tagged key per address: a single slot on a Redis Cluster.
        return f"{self._prefix}:limits:lobbies:{{{address}}}"

    async def _recent(self, address: str, now_ms: int) -> list[str]:
        oldest = now_ms - self._window_ms
        if self._redis is None:
            rooms = self._here.get(address, {})
            for room_id in [r for r, at in rooms.items() if at <= oldest]:
                del rooms[room_id]
            return list(rooms)
        key = self._key(address)
        await self._redis.zremrangebyscore(key, "-inf", oldest)
        members = await self._redis.zrange(key, 0, -1)
        return [m.decode() if isinstance(m, bytes) else str(m) for m in members]

    async def _forget(self, address: str, room_ids: list[str]) -> None:
        if not room_ids:
            return
        if self._redis is None:
            for room_id in room_ids:
                self._here.get(address, {}).pop(room_id, None)
            return
        await self._redis.zrem(self._key(address), *room_ids)

    async def count(self, address: str, store: RoomStore) -> int:
        """The address's lobby rooms open now (those no longer lobbies are forgotten)."""
        now_ms = int(time.time() * 1000)
        recent = await self._recent(address, now_ms)
        gone = []
        for room_id in recent:
            record = await store.load(room_id)
            if record is None or record.doc["status"] != LOBBY:
                gone.append(room_id)
        await self._forget(address, gone)
        return len(recent) - len(gone)

    async def opened(self, address: str, room_id: str) -> None:
        now_ms = int(time.time() * 1000)
        if self._redis is None:
            self._here.setdefault(address, {})[room_id] = now_ms
            return
        key = self._key(address)
        await self._redis.zadd(key, {room_id: now_ms})
        await self._redis.pexpire(key, self._window_ms)
