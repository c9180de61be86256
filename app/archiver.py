"""``python -m app.archiver``: the SQL archive of finished deals, in a process of its own.

Every ``archive_poll_seconds`` it reads the rooms' archive outboxes from the Redis store
(the set of rooms with entries, then each such room's entries), writes each finished deal
to SQL, and only then removes the entry from the outbox (``app.rooms.archive_outbox``). The
server nodes, started with ``archiver`` = ``process`` or ``external``, leave the SQL work
to it, so their event loops never run SQLAlchemy. A crash of this process loses nothing
(an entry stays in its outbox until SQL has it, and the next start takes it); a crash of
a node neither (the entry went into the outbox in the same atomic commit as the change).
The SQL write is idempotent: an entry written twice, by a restart between the write and
the removal or by two archive processes, is stored once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

from app.db import Database
from app.rooms.archive_outbox import Archiver
from app.settings import Settings
from app.store import MemoryStore, open_room_store
from app.store.base import StoreUnreachable

log = logging.getLogger("app.archiver")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m app.archiver",
        description="Write the finished deals of the rooms' outboxes to the SQL archive.",
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("UNO_REDIS_URL"),
        help="Redis URL of the room store (env UNO_REDIS_URL)",
    )
    parser.add_argument(
        "--redis-cluster",
        default=os.environ.get("UNO_REDIS_CLUSTER"),
        metavar="HOST:PORT[,HOST:PORT...]",
        help="seeds of a Redis Cluster room store (env UNO_REDIS_CLUSTER); instead of --redis",
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("UNO_DATABASE_URL"),
        help="SQLAlchemy async URL (env UNO_DATABASE_URL; none: ./uno.db SQLite)",
    )
    parser.add_argument("--log-level", default="info")
    return parser.parse_args(argv)


def settings_from(args: argparse.Namespace) -> Settings:
    overrides: dict[str, object] = {
        "redis_url": args.redis or None,
        "redis_cluster": args.redis_cluster or None,
    }
    if args.database:
        overrides["database_url"] = args.database
    return Settings(**overrides)  # type: ignore[arg-type]


async def run(settings: Settings, stop: asyncio.Event) -> None:
    """Archive until ``stop`` is set, then finish the write in hand (a lease at most)."""
    store = await open_room_store(settings)
    if isinstance(store, MemoryStore):
        await store.close()
        raise ValueError("the archive process reads the rooms from Redis: give --redis")
    try:
        db = await Database.connect(settings.database_url)
        try:
            archiver = Archiver(
                store, db, drain_seconds=settings.archive_poll_seconds, every_room=True
            )
            archiver.start()
            log.info("archiving the outboxes every %g s", settings.archive_poll_seconds)
            try:
                await stop.wait()
            finally:
                # Cancelled: at once (what is not in SQL yet stays in its outbox).
                timeout = settings.lease_ttl_ms / 1000 if stop.is_set() else 0
                await archiver.close(timeout=timeout)
        finally:
            await db.close()
    finally:
        await store.close()


async def _main(settings: Settings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await run(settings, stop)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s %(message)s")
    settings = settings_from(args)
    if settings.redis_url is None and settings.redis_cluster is None:
        sys.exit("python -m app.archiver: give --redis or --redis-cluster (the room store)")
    import uvloop

    try:
        uvloop.run(_main(settings))
    except StoreUnreachable as err:
        sys.exit(f"python -m app.archiver: {err}")


if __name__ == "__main__":
    main()
