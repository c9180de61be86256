"""Rate limits on REST writes, per client address, counted by the ``limits`` library.

Every write (``POST``, ``PUT``, ``PATCH``, ``DELETE`` under ``/api/``) counts against the
client address's write limit; creating a room (``POST /api/rooms``) also counts against a
tighter limit of its own, since it costs a room in the store and a row in SQL and needs no
token. Past a limit the request is answered ``429 {"code": "rate_limited", "message"}``
with ``Retry-After``, before any route runs. The same counters count the rooms' chat
(app.ws.chat), which every node relays.

The counters live where the rooms do, so that every node counts the same address
together: in the room store's Redis, or on its Redis Cluster (each counter's two windows
hash-tagged into one slot), and in this process only with the memory store. Counting costs
one script call per REST write, none per game action. The address is the connection's
peer (``request.client.host``); behind a proxy, uvicorn's ``--proxy-headers`` with the
proxy trusted makes it the real client's. Should the counters' Redis fail, requests are let
through: the route itself then meets the outage and answers it.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any, cast

import orjson
import redis.asyncio as aioredis
from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisClusterStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from starlette.types import ASGIApp, Receive, Scope, Send

from app.store.outage import log_failure

log = logging.getLogger(__name__)

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CREATE_PATH = "/api/rooms"


def rate_items(spec: str) -> list[RateLimitItem]:
    """``"120/minute;1000/hour"`` (the ``limits`` notation); empty: no limit."""
    return list(parse_many(spec)) if spec.strip() else []


class RestLimits:
    """The write and room-creation limits of one server, and their counters."""

    def __init__(
        self,
        writes: str,
        creates: str,
        redis_url: str | None = None,
        prefix: str = "uno",
        redis_cluster: str | None = None,
    ) -> None:
        """Counters in the Redis at ``redis_url``, else on the Redis Cluster whose seeds
        (``HOST:PORT,...``) are ``redis_cluster``, else in this process."""
        self.writes = rate_items(writes)
        self.creates = rate_items(creates)
        storage: Storage
        self._pool: aioredis.ConnectionPool | None = None
        self._cluster: Any = None
        if redis_url is None and redis_cluster:
            storage = RedisClusterStorage(
                "async+redis+cluster://" + redis_cluster.replace(" ", ""),
                implementation="redispy",
                key_prefix=f"{prefix}:limits",
                # As the room store's client: a shard down fails its own counters soon
                # (the request is let through), not every one after seconds of retries.
                require_full_coverage=False,
                socket_connect_timeout=5.0,
                socket_timeout=5.0,
                max_connections=32,
                retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=3),  # type: ignore[arg-type]
            )
            self._cluster = cast(Any, storage.bridge).storage  # its RedisCluster client
        elif redis_url is None:
            storage = MemoryStorage()
        else:
            # A pool of our own, so that the counters' connections close with the app.
            self._pool = aioredis.ConnectionPool.from_url(redis_url)
            storage = RedisStorage(
                "async+" + redis_url,
                implementation="redispy",
                key_prefix=f"{prefix}:limits",
                connection_pool=self._pool,  # type: ignore[arg-type]
            )
        self._storage = storage
        self._limiter = SlidingWindowCounterRateLimiter(storage)
        self.prefix = prefix

    @property
    def redis(self) -> Any:
        """The counters' Redis (or Redis Cluster) client; None: counted in this process."""
        if self._pool is not None:
            return aioredis.Redis(connection_pool=self._pool)
        return self._cluster

    @property
    def storage(self) -> Storage:
        """Where the counters live (other limits count beside them: app.sign_in)."""
        return self._storage

    async def retry_after(self, address: str, method: str, path: str) -> int | None:
        """None if the request may go on (and it is counted), else seconds to wait."""
        if method not in WRITE_METHODS or not path.startswith("/api/"):
            return None
        checks = [("w", item) for item in self.writes]
        if method == "POST" and path.rstrip("/") == CREATE_PATH:
            checks += [("c", item) for item in self.creates]
        try:
            for kind, item in checks:
                if not await self._limiter.hit(item, kind, address):
                    stats = await self._limiter.get_window_stats(item, kind, address)
                    return max(1, math.ceil(stats.reset_time - time.time()))
        except Exception:
            log_failure(log, "rate limit counters unavailable; letting the request through")
        return None

    async def hit(self, items: list[RateLimitItem], *keys: str) -> bool:
        """Count one event of ``keys`` against each of ``items``: False once one is over
        (the chat's limits, app.ws.chat). Should the counters fail, True: talk goes on."""
        try:
            for item in items:
                if not await self._limiter.hit(item, *keys):
                    return False
        except Exception:
            log_failure(log, "rate limit counters unavailable; letting a message through")
        return True

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.disconnect()
        if self._cluster is not None:
            await self._cluster.aclose()


class RateLimitMiddleware:
    """Answers 429 before routing when the client's address is over a limit. The limits are
    read from ``state.rest_limits`` (set by the app's lifespan; none yet: no limit)."""

    def __init__(self, app: ASGIApp, state: Any) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limits: RestLimits | None = getattr(self.state, "rest_limits", None)
        if scope["type"] == "http" and limits is not None:
            client = scope.get("client")
            address = client[0] if client else "unknown"
            wait = await limits.retry_after(address, scope["method"], scope["path"])
            if wait is not None:
                await _too_many(send, wait)
                return
        await self.app(scope, receive, send)


async def _too_many(send: Send, wait: int) -> None:
    body = orjson.dumps(
        {
            "code": "rate_limited",
            "message": f"too many requests from this address; retry in {wait} s",
        }
    )
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(wait).encode()),
    ]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})


RATE_LIMITED_RESPONSE: dict[str, Any] = {
    "description": "Too many writes from this client address (see `Retry-After`)",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {"code": {"const": "rate_limited"}, "message": {"type": "string"}},
                "required": ["code", "message"],
            }
        }
    },
}


def _both_429(own: dict[str, Any]) -> dict[str, Any]:
    """A route's own 429 (a cap of its own, app.open_rooms) beside the rate limit's."""
    return {
        "description": f"{RATE_LIMITED_RESPONSE['description']}; or {own['description']}",
        "content": own["content"],
    }


def document_429(schema: dict[str, Any]) -> dict[str, Any]:
    """Add the 429 answer to every write operation of an OpenAPI schema."""
    for path, operations in schema.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if method.upper() in WRITE_METHODS:
                answers = operation.setdefault("responses", {})
                own = answers.get("429")
                answers["429"] = RATE_LIMITED_RESPONSE if own is None else _both_429(own)
    return schema


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
