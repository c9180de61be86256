"""``python -m app``: run the server (CONTRACT.md section 5)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

import uvicorn

from app.main import create_app
from app.settings import Settings
from app.ws.transport import uvicorn_options


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app", description="Run the UNO server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--redis",
        default=os.environ.get("UNO_REDIS_URL"),
        help="Redis URL for the room store (env UNO_REDIS_URL; none: in-process store)",
    )
    parser.add_argument(
        "--redis-cluster",
        default=os.environ.get("UNO_REDIS_CLUSTER"),
        metavar="HOST:PORT[,HOST:PORT...]",
        help="seeds of a Redis Cluster for the room store (env UNO_REDIS_CLUSTER); "
        "instead of --redis",
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("UNO_DATABASE_URL"),
        help="SQLAlchemy async URL (env UNO_DATABASE_URL; none: ./uno.db SQLite)",
    )
    parser.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="behind a reverse proxy: take client addresses from X-Forwarded-For, on "
        "connections from --trusted-proxies only (env UNO_PROXY_HEADERS; default off)",
    )
    parser.add_argument(
        "--trusted-proxies",
        default=None,
        help="comma-separated addresses or networks whose X-Forwarded-* headers are "
        "believed (env UNO_TRUSTED_PROXIES; default 127.0.0.1,::1)",
    )
    parser.add_argument(
        "--public-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="an origin (scheme://host[:port]) browsers load the client from; only these may "
        "open a socket; repeatable (env UNO_PUBLIC_ORIGINS, a JSON list; default: "
        "http://HOST:PORT the server is started on)",
    )
    parser.add_argument("--log-level", default="info")
    return parser.parse_args(argv)


def settings_from(args: argparse.Namespace) -> Settings:
    overrides: dict[str, object] = {"host": args.host, "port": args.port}
    overrides["redis_url"] = args.redis or None
    overrides["redis_cluster"] = args.redis_cluster or None
    if args.database:
        overrides["database_url"] = args.database
    if args.proxy_headers is not None:
        overrides["proxy_headers"] = args.proxy_headers
    if args.trusted_proxies is not None:
        overrides["trusted_proxies"] = args.trusted_proxies
    if args.public_origin:
        overrides["public_origins"] = args.public_origin
    return Settings(**overrides)  # type: ignore[arg-type]


def check_store(settings: Settings) -> None:
    """Exit with a clear message now if the Redis (or Redis Cluster) given cannot be
    reached (instead of a traceback from the server's startup, or a hang on an address that
    never answers)."""
    if settings.redis_url is None and settings.redis_cluster is None:
        return
    from app.store.base import RoomStore, StoreUnreachable
    from app.store.redis import RedisStore
    from app.store.redis_cluster import RedisClusterStore

    async def reach() -> None:
        timeout = settings.redis_connect_timeout_seconds
        store: RoomStore
        if settings.redis_cluster is not None:
            store = await RedisClusterStore.connect(settings.redis_cluster, timeout)
        else:
            store = await RedisStore.connect(settings.redis_url, timeout)  # type: ignore[arg-type]
        await store.close()

    try:
        asyncio.run(reach())
    except StoreUnreachable as err:
        sys.exit(f"python -m app: {err}")


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    settings = settings_from(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s %(message)s")
    check_store(settings)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        **uvicorn_options(settings),
        # uvicorn would believe X-Forwarded-For from 127.0.0.1 unless told otherwise; the
        # server does only when asked to, and only from the proxies named.
        proxy_headers=settings.proxy_headers,
        forwarded_allow_ips=settings.trusted_proxies,
    )


if __name__ == "__main__":
    main()
