"""The replay frames each node keeps: a finished deal's frames never change, so they are
built once per deal and node (:func:`app.api.deal_frames.frames`) and served from here."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import orjson


class FrameCache:
    """Frames bodies (JSON bytes) by ``(matchId, deal)``, the least recently read dropped
    beyond ``limit`` bytes in all. A finished match's deal never changes, so an entry is
    never stale; each node keeps its own."""

    def __init__(self, limit: int = 32 * 1024 * 1024) -> None:
        self.limit = limit
        self._bodies: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._size = 0

    def get(self, key: tuple[str, int]) -> bytes | None:
        body = self._bodies.get(key)
        if body is not None:
            self._bodies.move_to_end(key)
        return body

    def put(self, key: tuple[str, int], body: dict[str, Any]) -> bytes:
        data = orjson.dumps(body)
        old = self._bodies.pop(key, None)
        self._size -= len(old) if old is not None else 0
        if len(data) <= self.limit:
            self._bodies[key] = data
            self._size += len(data)
        while self._size > self.limit:
            _, dropped = self._bodies.popitem(last=False)
            self._size -= len(dropped)
        return data
