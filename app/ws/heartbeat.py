"""A node's heartbeat: one timer for every open socket, not one per socket.

Each socket gets a WebSocket ping frame once every ``interval`` seconds, unless it is
still waiting for the pong of its last one; a socket whose pong has not come ``timeout``
seconds after its ping is closed (app.ws.transport: with 4408). The pings are spread over
the interval in :data:`SLICES` ticks, the least recently pinged slice of the sockets each,
as the round-trip pings are (app.pinger): a node's thousand sockets pinged in one loop
turn, and their thousand pongs read back together, would hold up every room's changes
behind them for tens of milliseconds (the actions' latency). The sockets waiting for a
pong are kept in the order they were pinged, which is the order of their deadlines (one
timeout for all), so that a tick looks only at the pings that ran out, never at every
socket. The timer wakes ``SLICES`` times per interval and at the deadlines, whatever the
number of sockets.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import weakref
from typing import Protocol

from app.rotation import SLICES, next_slice

log = logging.getLogger(__name__)

# A timer may fire this much before the time it was set for (the loop's clock resolution).
_EARLY = 0.001


class Beating(Protocol):
    """A socket the heartbeat keeps: the ping it waits on, and what to do about it."""

    def waiting_since(self) -> float | None:
        """When the ping still unanswered was sent (loop time), None if none is."""
        ...

    def beat(self) -> None:
        """Send a ping frame now."""
        ...

    def keepalive_timeout(self) -> None:
        """Its pong did not come in time: close it."""
        ...


class Heartbeat:
    def __init__(
        self, loop: asyncio.AbstractEventLoop, interval: float, timeout: float | None
    ) -> None:
        self._loop = loop
        self._interval = interval
        self._timeout = timeout
        # Every socket, least recently pinged first (a dict as an ordered set).
        self._sockets: dict[Beating, None] = {}
        # The pings sent (loop time, socket), oldest first: so by deadline. Weakly: a
        # socket closed meanwhile is let go at once, not when its ping runs out.
        self._waiting: collections.deque[tuple[float, weakref.ref[Beating]]] = collections.deque()
        self._timer: asyncio.TimerHandle | None = None
        self._round = 0.0  # loop time of the next slice of pings

    def __len__(self) -> int:
        return len(self._sockets)

    def add(self, socket: Beating) -> None:
        """Keep ``socket``: pinged once the sockets kept before it have been."""
        self._sockets[socket] = None
        if self._timer is None:
            self._round = self._loop.time() + self._interval / SLICES
            self._timer = self._loop.call_at(self._round, self._tick)

    def discard(self, socket: Beating) -> None:
        """``socket`` closed: forgotten, and the timer with the last one."""
        self._sockets.pop(socket, None)
        if not self._sockets:
            self._waiting.clear()
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def _tick(self) -> None:
        now = self._loop.time()
        if now + _EARLY >= self._round:
            self._round = now + self._interval / SLICES
            for socket in next_slice(self._sockets):
                try:
                    self._ping(socket)
                except Exception:
                    # One socket's failure must not stop the others' heartbeat.
                    log.exception("heartbeat of a socket failed")
        due = self._round
        if self._timeout is not None:
            due = min(due, self._close_silent(now))
        self._timer = self._loop.call_at(due, self._tick) if self._sockets else None

    def _ping(self, socket: Beating) -> None:
        """A ping frame on ``socket``, unless it still waits for the last one's pong."""
        if socket.waiting_since() is not None:
            return
        socket.beat()
        since = socket.waiting_since()
        if since is not None and self._timeout is not None:  # None: it is closing
            self._waiting.append((since, weakref.ref(socket)))

    def _close_silent(self, now: float) -> float:
        """Close the sockets whose ping ran out unanswered; when the next ping runs out
        (inf: none is waiting)."""
        assert self._timeout is not None
        waiting = self._waiting
        while waiting:
            since, ref = waiting[0]
            deadline = since + self._timeout
            if now + _EARLY < deadline:
                return deadline
            waiting.popleft()
            socket = ref()
            # Gone, answered (None) or pinged again since (a later entry): nothing to do.
            if socket is not None and socket in self._sockets and socket.waiting_since() == since:
                try:
                    socket.keepalive_timeout()
                except Exception:
                    log.exception("closing a silent socket failed")
        return float("inf")
