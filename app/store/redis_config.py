"""Reaching a Redis and reading what its configuration puts at risk: the parts of the
Redis stores (:mod:`app.store.redis`, :mod:`app.store.redis_cluster`) that run once, at
start, beside none of a room's commands."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis

from app.store.base import StoreUnreachable

# What CONFIG GET reads for config_risks.
CONFIG_KEYS = ("appendonly", "save", "maxmemory-policy")


def safe_url(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


async def open_client(url: str, connect_timeout: float, max_connections: int) -> aioredis.Redis:
    """A client of the Redis at ``url`` that has answered a ping.

    :raises StoreUnreachable: Redis did not answer within ``connect_timeout`` s (refused,
        unknown host, or a port that accepts and never replies).
    """
    # A blocking pool: under load, commands wait for one of a bounded set of
    # connections instead of failing with "Too many connections".
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=20,
        socket_connect_timeout=connect_timeout,
    )
    client = aioredis.Redis.from_pool(pool)  # closes the pool with the client
    try:
        async with asyncio.timeout(connect_timeout):
            await client.ping()
    except (aioredis.RedisError, OSError, TimeoutError) as err:
        await client.aclose()
        reason = str(err) or type(err).__name__
        raise StoreUnreachable(f"cannot reach Redis at {safe_url(url)}: {reason}") from None
    except BaseException:
        await client.aclose()
        raise
    return client


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def config_risks(reply: dict[Any, Any]) -> list[str]:
    """What CONFIG GET appendonly save maxmemory-policy (:data:`CONFIG_KEYS`) says is at
    risk: nothing kept on disk (a restart loses every room), or an eviction policy (memory
    pressure drops rooms instead of refusing writes)."""
    config = {_text(k): _text(v) for k, v in reply.items()}
    warnings = []
    if config.get("appendonly") != "yes":
        if config.get("save", "").strip():
            warnings.append(
                "Redis keeps rooms on disk only in its periodic snapshots (appendonly no): "
                "a restart loses what changed since the last one; set appendonly yes"
            )
        else:
            warnings.append(
                "Redis keeps nothing on disk (appendonly no, no snapshots): a Redis "
                "restart loses every room; set appendonly yes"
            )
    policy = config.get("maxmemory-policy", "noeviction")
    if policy != "noeviction":
        warnings.append(
            f"Redis may evict keys (maxmemory-policy {policy}): under memory pressure it "
            "drops rooms instead of refusing writes; set maxmemory-policy noeviction"
        )
    return warnings
