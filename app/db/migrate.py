"""Running the Alembic migrations from inside the app (and from tests).

The migration scripts live in ``migrations/`` at the top of the project, beside
``alembic.ini``; the command line and the app use the same ``migrations/env.py``.
"""

from __future__ import annotations

import asyncio
import weakref
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./uno.db"
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
# Key of the PostgreSQL advisory lock held while migrating (any fixed 64-bit number).
MIGRATION_LOCK_ID = 7_261_129_001
# Alembic keeps the running migration's context in module globals (``alembic.context``),
# so two migrations interleaved on one event loop (a node and the archive loop starting
# together in one process) tear down each other's context. One at a time per loop.
_loop_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def _one_at_a_time() -> asyncio.Lock:
    loop = asyncio.get_running_loop()
    lock = _loop_locks.get(loop)
    if lock is None:
        lock = _loop_locks[loop] = asyncio.Lock()
    return lock


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config for our migrations, independent of the working directory.

    No ini file: the app's logging setup stays as it is.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.attributes["url"] = url
    return config


def _run(connection: Connection, revision: str, downgrade: bool) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    if downgrade:
        command.downgrade(config, revision)
    else:
        command.upgrade(config, revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Migrate the database behind ``engine`` up to ``revision``, in one transaction."""
    async with _one_at_a_time(), engine.begin() as connection:
        await connection.run_sync(_run, revision, False)


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    """Migrate the database behind ``engine`` down to ``revision`` (``"base"``: empty)."""
    async with _one_at_a_time(), engine.begin() as connection:
        await connection.run_sync(_run, revision, True)
