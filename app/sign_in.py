"""The limits on signing in and signing up, held together by every node.

Sign-in: at most 5 wrong passwords a minute are checked for one name (compared as names
are) and from one client address. An attempt takes a place in both windows *before* its
password is checked, and gives it back when the password was right (or was never
checked: hashing busy). So however many attempts arrive at once, on however many nodes,
no more than 5 wrong ones per name and per address are ever checked in a minute; the
next is answered 429 ``account/too_many_failures`` (``retryAfter``) without a look at its
password, the right one included.

Sign-up: at most ``sign_up_rate`` accounts made from one address (``"10/hour"``); past
it, 429 ``account/too_many_sign_ups``.

Each window is a sorted set beside the REST limits' counters (app.limits: the room
store's Redis, or one key on its Redis Cluster), checked and taken in one Lua script on
Redis's clock; with the memory store, in this process. The limits fail closed: while
their Redis cannot be reached, no password is checked and no account made (503
``unavailable``).
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem

from app.accounts.passwords import Cost, Passwords
from app.errors import RoomError
from app.limits import RestLimits, rate_items
from app.settings import Settings
from app.store.outage import log_failure

log = logging.getLogger(__name__)

FAILURES, FAILURE_SECONDS = 5, 60.0

# KEYS[1]: the window; ARGV: limit, window (ms), member. 0: the place is taken; else the
# milliseconds until the oldest place in the window is freed.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""


class Window:
    """At most ``limit`` places taken per key in any ``seconds``."""

    def __init__(self, redis: Any, prefix: str, kind: str, limit: int, seconds: float) -> None:
        self._redis = redis
        self._prefix = f"{prefix}:limits:{kind}"
        self._limit = limit
        self._window_ms = int(seconds * 1000)
        self._here: dict[str, dict[str, float]] = {}  # without Redis: who -> member -> ms

    async def take(self, who: str, member: str) -> int:
        """0 if ``member`` took a place for ``who``, else the seconds until one frees."""
        if self._redis is None:
            wait_ms = self._take_here(who, member)
        else:
            args = (self._limit, self._window_ms, member)
            wait_ms = int(await self._redis.eval(_TAKE, 1, f"{self._prefix}:{who}", *args))
        return 0 if wait_ms <= 0 else max(1, math.ceil(wait_ms / 1000))

    def _take_here(self, who: str, member: str) -> float:
        now = time.monotonic() * 1000
        places = {m: at for m, at in self._here.get(who, {}).items() if at > now - self._window_ms}
        self._here[who] = places
        if len(places) >= self._limit:
            return min(places.values()) + self._window_ms - now
        places[member] = now
        return 0

    async def give_back(self, who: str, member: str) -> None:
        if self._redis is None:
            self._here.get(who, {}).pop(member, None)
        else:
            await self._redis.zrem(f"{self._prefix}:{who}", member)


@dataclass(frozen=True, slots=True)
class Attempt:
    """A sign-in's places in the name's and the address's windows."""

    key: str
    address: str
    member: str


def _unavailable() -> RoomError:
    return RoomError(503, "unavailable", "sign-in is unavailable for now; retry later")


class SignInLimits:
    def __init__(self, redis: Any, prefix: str, sign_ups: RateLimitItem | None) -> None:
        """``redis``: the REST limits' client (None: this process only)."""
        self._names = Window(redis, prefix, "signin-name", FAILURES, FAILURE_SECONDS)
        self._addresses = Window(redis, prefix, "signin-addr", FAILURES, FAILURE_SECONDS)
        self._sign_ups = (
            None
            if sign_ups is None
            else Window(redis, prefix, "signup-addr", sign_ups.amount, sign_ups.get_expiry())
        )

    async def attempt(self, key: str, address: str) -> Attempt:
        """Places for a sign-in of the name ``key`` from ``address``: give them back
        (:meth:`give_back`) unless a wrong password was checked.

        :raises RoomError: 429 ``account/too_many_failures`` past either limit (no place
            taken); 503 ``unavailable`` while the windows cannot be reached.
        """
        attempt = Attempt(key, address, secrets.token_hex(8))
        try:
            wait = await self._names.take(key, attempt.member)
            if not wait:
                wait = await self._addresses.take(address, attempt.member)
                if wait:
                    await self._names.give_back(key, attempt.member)
        except Exception:
            log_failure(log, "sign-in limits unavailable; refusing the sign-in")
            raise _unavailable() from None
        if wait:
            raise RoomError(
                429,
                "account/too_many_failures",
                f"too many failed sign-ins; retry in {wait} s",
                {"retryAfter": wait},
            )
        return attempt

    async def give_back(self, attempt: Attempt) -> None:
        """The attempt's password was right, or not checked: it counts as no failure."""
        try:
            await self._names.give_back(attempt.key, attempt.member)
            await self._addresses.give_back(attempt.address, attempt.member)
        except Exception:
            # Its places free themselves within the window.
            log_failure(log, "sign-in limits unavailable; a place was not given back")

    async def sign_up(self, address: str) -> None:
        """Count an account made from ``address``.

        :raises RoomError: 429 ``account/too_many_sign_ups`` past the limit; 503
            ``unavailable`` while the window cannot be reached.
        """
        if self._sign_ups is None:
            return
        try:
            wait = await self._sign_ups.take(address, secrets.token_hex(8))
        except Exception:
            log_failure(log, "sign-up limit unavailable; refusing the sign-up")
            raise _unavailable() from None
        if wait:
            raise RoomError(
                429,
                "account/too_many_sign_ups",
                f"too many accounts made from this address; retry in {wait} s",
                {"retryAfter": wait},
            )


def sign_in_limits_for(limits: RestLimits, settings: Settings) -> SignInLimits:
    """The limits, counted beside the REST limits' counters."""
    sign_ups = rate_items(settings.sign_up_rate)
    return SignInLimits(limits.redis, limits.prefix, sign_ups[0] if sign_ups else None)


def passwords_for(settings: Settings) -> Passwords:
    cost = Cost(settings.argon2_time_cost, settings.argon2_memory_kib, settings.argon2_parallelism)
    return Passwords(cost, settings.password_hash_workers, settings.password_hash_queue)
