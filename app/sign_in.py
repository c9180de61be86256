"""The limit on failed sign-ins: more than 5 a minute for one name (compared as names
are) or from one client address, and the next attempt is answered 429
``account/too_many_failures`` before the password is looked at.

The failures are counted where the REST write limits are (app.limits: the room
store's Redis, or this process), so every node counts the same name together.
"""

from __future__ import annotations

import logging
import math
import time

from limits import parse
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter

from app.errors import RoomError
from app.store.outage import log_failure

log = logging.getLogger(__name__)

FAILURES = parse("5/minute")


class SignInLimits:
    def __init__(self, storage: Storage) -> None:
        self._limiter: MovingWindowRateLimiter | SlidingWindowCounterRateLimiter
        try:
            self._limiter = MovingWindowRateLimiter(storage)
        except NotImplementedError:
            self._limiter = SlidingWindowCounterRateLimiter(storage)

    async def check(self, key: str, address: str) -> None:
        """:raises RoomError: 429 ``account/too_many_failures`` past the limit."""
        try:
            for kind, who in (("signin-name", key), ("signin-addr", address)):
                if not await self._limiter.test(FAILURES, kind, who):
                    stats = await self._limiter.get_window_stats(FAILURES, kind, who)
                    wait = max(1, math.ceil(stats.reset_time - time.time()))
                    raise RoomError(
                        429,
                        "account/too_many_failures",
                        f"too many failed sign-ins; retry in {wait} s",
                        {"retryAfter": wait},
                    )
        except RoomError:
            raise
        except Exception:
            log_failure(log, "sign-in counters unavailable; not limiting")

    async def failed(self, key: str, address: str) -> None:
        try:
            await self._limiter.hit(FAILURES, "signin-name", key)
            await self._limiter.hit(FAILURES, "signin-addr", address)
        except Exception:
            log_failure(log, "sign-in counters unavailable; failure not counted")
