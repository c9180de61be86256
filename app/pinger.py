"""A node's round-trip pings: one timer for every socket whose round trip is measured.

Only the seats' sockets of rooms with ``fairRaces`` on are measured (app.ws.connection
decides, and follows the setting): the round trips size claim windows and credit claims
(app.rooms.races), and nothing else reads them. A socket that starts being measured is
pinged at once and at the next three quarter-second ticks (an estimate before its first
race), then once every ``interval`` seconds. The steady sockets' pings are spread over
the interval in :data:`SLICES` ticks, a slice of them each, so that a node's thousand
sockets do not all queue a ping in one loop turn (their frames would hold up every room's
changes behind them: the actions' latency). So the timer wakes four times a second while
some socket is that new, else ``SLICES`` times per interval, whatever the number of
sockets.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from app.rotation import SLICES, next_slice

log = logging.getLogger(__name__)

FIRST_PINGS = 4  # pings in a socket's first second of being measured
FIRST_GAP = 0.25  # seconds between those
_EARLY = 0.001  # a timer may fire this much before its time (the clock's resolution)


class Pinged(Protocol):
    def ping(self) -> None:
        """Send one timed ping."""
        ...


class Pinger:
    def __init__(self, interval: float) -> None:
        self._interval = interval
        # The steady sockets, least recently pinged first (a dict as an ordered set).
        self._steady: dict[Pinged, None] = {}
        self._new: dict[Pinged, int] = {}  # a new socket's first pings still to send
        self._timer: asyncio.TimerHandle | None = None
        self._round = 0.0  # loop time of the next slice of the steady sockets' pings

    def __len__(self) -> int:
        return len(self._steady) + len(self._new)

    def add(self, socket: Pinged) -> None:
        """Measure ``socket`` (pinged now); nothing if it is measured already."""
        if socket in self._steady or socket in self._new:
            return
        socket.ping()
        self._new[socket] = FIRST_PINGS - 1
        loop = asyncio.get_running_loop()
        soon = loop.time() + FIRST_GAP
        if self._timer is None:
            self._round = loop.time() + self._interval / SLICES
        elif self._timer.when() > soon + _EARLY:
            self._timer.cancel()
        else:
            return
        self._timer = loop.call_at(min(soon, self._round), self._tick)

    def discard(self, socket: Pinged) -> None:
        """Measure ``socket`` no more (it closed, or its room turned fair races off)."""
        self._steady.pop(socket, None)
        self._new.pop(socket, None)
        if not self and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self) -> None:
        self._timer = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now + _EARLY >= self._round:
            self._round = now + self._interval / SLICES
            self._ping(next_slice(self._steady))
        new = list(self._new)
        self._ping(new)
        for socket in new:
            left = self._new.get(socket, 0) - 1
            if left > 0:
                self._new[socket] = left
            elif self._new.pop(socket, None) is not None:
                self._steady[socket] = None
        if self:
            when = min(self._round, now + FIRST_GAP) if self._new else self._round
            self._timer = loop.call_at(when, self._tick)

    def _ping(self, sockets: list[Pinged]) -> None:
        for socket in sockets:
            try:
                socket.ping()
            except Exception:
                # One socket's failure must not stop the others' pings.
                log.exception("round-trip ping of a socket failed")
