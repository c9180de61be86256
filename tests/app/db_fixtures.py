"""Database fixtures shared by the db, history and scoresheet tests.

Import the fixtures a test module uses (``from db_fixtures import fixture_db, ...``):
non-root conftest files may not declare ``pytest_plugins``. Each fixture function is named
``fixture_<name>`` and registered as ``<name>``, so a test's ``db`` parameter does not
shadow an imported name. A module needs every fixture its fixtures use
(``fixture_db`` needs ``fixture_database_url`` and ``fixture_postgres_session_url``).

Every database test runs twice: on a fresh SQLite file, and on a real PostgreSQL in a
database created for this test session (``uno_test_<pid>_<random>``, dropped at the end),
so parallel runs never share tables. PostgreSQL comes from ``UNO_TEST_POSTGRES_URL``
(default ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``, used only to create and
drop the throwaway databases). Unreachable: the PostgreSQL tests skip, except with
``CI=true``, where they fail.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.api import history, scoresheets
from app.db import Database
from app.db.base import Base

POSTGRES_URL = os.environ.get(
    "UNO_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _admin(sql: str) -> None:
    """Run one statement on the admin database, outside any event loop the test has."""
    dsn = make_url(POSTGRES_URL).set(drivername="postgresql").render_as_string(hide_password=False)

    async def run() -> None:
        connection = await asyncpg.connect(dsn, timeout=5)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@contextmanager
def throwaway_postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database; its async URL; dropped afterwards."""
    name = f"uno_test_{os.getpid()}_{secrets.token_hex(4)}"
    try:
        _admin(f'CREATE DATABASE "{name}"')
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        message = f"PostgreSQL at {POSTGRES_URL} is not usable: {error!r}"
        if _in_ci():
            pytest.fail(message + " (CI=true: PostgreSQL tests must run)")
        pytest.skip(message)
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session", name="postgres_session_url")
def fixture_postgres_session_url() -> Iterator[str]:
    """One migrated-on-first-use database for the whole session; tables emptied per test."""
    with throwaway_postgres_database() as url:
        yield url


@pytest.fixture(params=BACKENDS, name="database_url")
def fixture_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"
    url: str = request.getfixturevalue("postgres_session_url")
    return url


@pytest.fixture(params=BACKENDS, name="empty_database_url")
def fixture_empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database nobody has migrated yet (for the migration tests)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
        return
    with throwaway_postgres_database() as url:
        yield url


@pytest.fixture(name="db")
async def fixture_db(database_url: str) -> AsyncIterator[Database]:
    database = await Database.connect(database_url)
    try:
        yield database
    finally:
        if database.engine.dialect.name == "postgresql":
            # The session database is shared by every test: leave it empty for the next.
            tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
            async with database.engine.begin() as connection:
                await connection.execute(text(f"TRUNCATE {tables} CASCADE"))
        await database.close()


@pytest.fixture(name="client")
async def fixture_client(db: Database) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client for an app with the history and scoresheet routers on ``db``."""
    app = FastAPI()
    app.include_router(history.router)
    app.include_router(scoresheets.router)
    app.state.db = db
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http
