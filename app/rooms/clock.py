"""The server's clock: the one place that reads the time of day.

Rooms and tournaments stamp their changes (``ts``), deadlines and timers with
:func:`now_ms`, milliseconds since the epoch (docs/protocol.md); the room machine
never reads it but is handed it (``handle(command, now_ms)``), so it stays pure and its
tests choose the time. Durations measured inside one process (a lease's age, a claim
window) use ``time.monotonic()`` where they are measured, not this.
"""

from __future__ import annotations

import time


def now_ms() -> int:
    """The wall-clock time in whole milliseconds since the epoch."""
    return time.time_ns() // 1_000_000
