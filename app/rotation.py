"""Periodic work spread over its interval: each tick serves the least recently served
share of a set, so that a node's thousand sockets never all get their turn in one loop
turn (app.pinger's round-trip pings, app.ws.heartbeat's ping frames)."""

from __future__ import annotations

import itertools
from typing import TypeVar

SLICES = 10  # ticks per interval over which the set is served

T = TypeVar("T")


def next_slice(served: dict[T, None]) -> list[T]:
    """The least recently served ``1 / SLICES`` of ``served`` (a dict as an ordered set,
    least recently served first), rounded up, moved to the back: so over ``SLICES`` ticks
    each is served once."""
    due = list(itertools.islice(served, -(-len(served) // SLICES)))
    for item in due:
        del served[item]
        served[item] = None
    return due
