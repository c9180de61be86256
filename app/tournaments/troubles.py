"""What a node's tournament runner could not look after, so that it never loops on an
error: each failing thing (the store, a tournament, a tournament's table) is logged once
with its reason, then at most once a minute while it keeps failing, and tried again only
after a pause that doubles with each failure (up to a minute). Nothing else waits for it:
the runner goes on with every other tournament and table.

Kept per node and in memory only: what the host is shown lives in the tournament's
document (``rounds.mark_trouble``), written once per trouble.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.errors import RoomError

LOG_EVERY_SECONDS = 60.0
FIRST_PAUSE_SECONDS = 1.0
LONGEST_PAUSE_SECONDS = 60.0


def reason_of(err: BaseException) -> str:
    """One line saying why: a refusal's code and message, else the error's type and text."""
    if isinstance(err, RoomError):
        return f"{err.code}: {err.message}"
    return f"{type(err).__name__}: {err}"[:300]


@dataclass(slots=True)
class Trouble:
    reason: str
    failures: int
    logged_at: float
    retry_at: float


class Troubles:
    def __init__(self, log: logging.Logger, clock: Callable[[], float] = time.monotonic) -> None:
        self._log = log
        self._clock = clock
        self._open: dict[str, Trouble] = {}

    def due(self, key: str) -> bool:
        """Whether ``key`` may be tried now (nothing failing, or its pause is over)."""
        trouble = self._open.get(key)
        return trouble is None or self._clock() >= trouble.retry_at

    def failed(self, key: str, err: BaseException, *, traceback: bool = True) -> bool:
        """``key`` failed again; whether this is a new trouble (or a new reason), which the
        caller shows to the host. ``traceback``: the first line shows where (not for an
        outage, whose reason says it all)."""
        now = self._clock()
        reason = reason_of(err)
        trouble = self._open.get(key)
        if trouble is None:
            # Once with the traceback: the reason alone may not say where.
            self._log.error(
                "%s cannot be looked after: %s", key, reason, exc_info=err if traceback else None
            )
            trouble = self._open[key] = Trouble(reason, 0, now, now)
        elif now - trouble.logged_at >= LOG_EVERY_SECONDS:
            self._log.error(
                "%s still cannot be looked after (%d tries): %s", key, trouble.failures + 1, reason
            )
            trouble.logged_at = now
        news = trouble.failures == 0 or trouble.reason != reason
        trouble.reason = reason
        trouble.failures += 1
        pause = min(LONGEST_PAUSE_SECONDS, FIRST_PAUSE_SECONDS * 2 ** (trouble.failures - 1))
        trouble.retry_at = now + pause
        return news

    def recovered(self, key: str) -> bool:
        """``key`` worked; whether it had been failing (the host's notice is cleared)."""
        trouble = self._open.pop(key, None)
        if trouble is None:
            return False
        self._log.info("%s is looked after again (after %d failures)", key, trouble.failures)
        return True

    def forget(self, key: str) -> None:
        """``key`` needs no looking after any more (the host decided)."""
        self._open.pop(key, None)
