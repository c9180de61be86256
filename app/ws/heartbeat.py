"""A node's heartbeat: one timer for every open socket, not one per socket.

Every ``interval`` seconds the node sends a WebSocket ping frame on each of its open
sockets that has no ping waiting for its pong; a socket whose pong has not come
``timeout`` seconds after its ping is closed (app.ws.transport: with 4408). The timer
wakes for each round of pings and for the round's deadline, whatever the number of
sockets: at most two wake-ups per interval, each a walk over the node's sockets.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

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
        self._sockets: set[Beating] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._round = 0.0  # loop time of the next round of pings

    def __len__(self) -> int:
        return len(self._sockets)

    def add(self, socket: Beating) -> None:
        """Keep ``socket``: pinged from the next round on."""
        self._sockets.add(socket)
        if self._timer is None:
            self._round = self._loop.time() + self._interval
            self._timer = self._loop.call_at(self._round, self._tick)

    def discard(self, socket: Beating) -> None:
        """``socket`` closed: forgotten, and the timer with the last one."""
        self._sockets.discard(socket)
        if not self._sockets and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self) -> None:
        now = self._loop.time()
        pinging = now + _EARLY >= self._round
        if pinging:
            self._round = now + self._interval
        deadline = self._round  # the earliest time anything is due again
        # A copy: a socket that is closed leaves the set while it is walked.
        for socket in list(self._sockets):
            try:
                deadline = min(deadline, self._keep(socket, now, pinging))
            except Exception:
                # One socket's failure must not stop the others' heartbeat.
                log.exception("heartbeat of a socket failed")
        self._timer = self._loop.call_at(deadline, self._tick) if self._sockets else None

    def _keep(self, socket: Beating, now: float, pinging: bool) -> float:
        """Ping or close ``socket`` where due; when it is due next (inf: nothing)."""
        since = socket.waiting_since()
        if since is None:
            if not pinging:
                return float("inf")
            socket.beat()
            since = socket.waiting_since()
            if since is None:
                return float("inf")  # not open any more: it is on its way out
        if self._timeout is None:
            return float("inf")
        if now + _EARLY >= since + self._timeout:
            socket.keepalive_timeout()
            return float("inf")
        return since + self._timeout
