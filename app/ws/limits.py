"""Per-connection limits, and the spectator sockets this node holds per client address."""

from __future__ import annotations

import time


class TokenBucket:
    """Allows ``rate`` messages a second on average and bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._tokens = float(burst)
        self._last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class SpectatorSockets:
    """The spectator sockets open on this node, per room and client address.

    Counted per node, not in the store: a socket costs the node that holds it (its memory,
    its share of every frame the room sends), and counting it room-wide would need each
    node's count taken back when that node dies. Behind a proxy that spreads sockets over
    n nodes, one address may hold n times the cap in a room; what they can say together
    is bounded room-wide (app.ws.chat).
    """

    def __init__(self) -> None:
        self._open: dict[tuple[str, str], int] = {}

    def take(self, room_id: str, address: str, cap: int) -> bool:
        """One more socket of ``address`` in the room, unless it holds ``cap`` already."""
        key = (room_id, address)
        held = self._open.get(key, 0)
        if held >= cap:
            return False
        self._open[key] = held + 1
        return True

    def give_back(self, room_id: str, address: str) -> None:
        key = (room_id, address)
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)
