"""The Alembic migrations: up, down and up again on SQLite and PostgreSQL; the models and
the migrations describe the same schema; the documented command works; the app migrates a
fresh SQLite file on start."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_database_url,
    fixture_empty_database_url,
    fixture_postgres_session_url,
)
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import Database
from app.db.base import Base
from app.db.migrate import MIGRATIONS_DIR, alembic_config, downgrade, upgrade
from app.names import name_key

ROOT = Path(__file__).resolve().parents[2]
TABLES = {
    "players",
    "rooms",
    "matches",
    "match_seats",
    "deals",
    "deal_scores",
    "deal_actions",
    "scoresheets",
    "scoresheet_players",
    "scoresheet_deals",
    "scoresheet_entries",
    "tournaments",
    "tournament_participants",
    "tournament_rounds",
    "tournament_tables",
    "tournament_table_results",
    "tournament_audit",
    "accounts",
    "account_sessions",
    "ratings",
    "rated_matches",
    "rating_changes",
}


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names()) - {"alembic_version"}


def _revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _schema_diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_migrations_upgrade_downgrade_upgrade(empty_database_url: str) -> None:
    engine = create_async_engine(empty_database_url)
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    try:
        await upgrade(engine)
        async with engine.connect() as connection:
            assert await connection.run_sync(_tables) == TABLES
            assert await connection.run_sync(_revision) == head

        await downgrade(engine, "base")
        async with engine.connect() as connection:
            assert await connection.run_sync(_tables) == set()
            assert await connection.run_sync(_revision) is None

        await upgrade(engine)
        async with engine.connect() as connection:
            assert await connection.run_sync(_tables) == TABLES
            assert await connection.run_sync(_revision) == head
    finally:
        await engine.dispose()


async def test_migrations_match_the_models(empty_database_url: str) -> None:
    # A model changed without a migration (or the reverse) shows up here as a diff.
    engine = create_async_engine(empty_database_url)
    try:
        await upgrade(engine)
        async with engine.connect() as connection:
            assert await connection.run_sync(_schema_diff) == []
    finally:
        await engine.dispose()


def test_revision_ids_are_date_prefixed() -> None:
    script = ScriptDirectory(str(MIGRATIONS_DIR))
    for revision in script.walk_revisions():
        assert revision.revision[:8].isdigit() and revision.revision[8] == "_", revision.revision
        assert Path(revision.path).name.startswith(revision.revision)


async def test_connect_migrates_a_fresh_sqlite_file_and_reconnects(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "uno.db"
    path.parent.mkdir()
    db = await Database.connect(f"sqlite+aiosqlite:///{path}")
    await db.record_player("p1", "Anna")
    await db.close()
    assert path.exists()
    # Connecting again finds the schema at head and keeps the data.
    db = await Database.connect(f"sqlite+aiosqlite:///{path}")
    try:
        assert await db.player_exists("p1")
    finally:
        await db.close()


async def test_connect_is_a_noop_on_a_database_at_head(database_url: str) -> None:
    first = await Database.connect(database_url)
    second = await Database.connect(database_url)
    try:
        async with second.engine.connect() as connection:
            assert await connection.run_sync(_tables) == TABLES
    finally:
        await first.close()
        await second.close()


async def test_databases_connected_at_once_in_one_process_all_migrate(tmp_path: Path) -> None:
    """A node and the archive loop may open their databases together in one process:
    Alembic's context is module-global, so interleaved migrations must take turns."""
    urls = [f"sqlite+aiosqlite:///{tmp_path}/uno{i}.db" for i in range(4)]
    dbs = await asyncio.gather(*(Database.connect(url) for url in urls))
    try:
        for db in dbs:
            async with db.engine.connect() as connection:
                assert await connection.run_sync(_tables) == TABLES
    finally:
        for db in dbs:
            await db.close()


def test_documented_migrate_command(tmp_path: Path) -> None:
    """``alembic upgrade head`` / ``downgrade base`` with UNO_DATABASE_URL (docs/persistence.md)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    env = {**os.environ, "UNO_DATABASE_URL": url}
    alembic = [sys.executable, "-m", "alembic"]
    for command in (["upgrade", "head"], ["current"], ["downgrade", "base"], ["upgrade", "head"]):
        done = subprocess.run(
            alembic + command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
    assert (
        "(head)"
        in subprocess.run(
            alembic + ["current"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        ).stdout
    )
    assert (tmp_path / "cli.db").exists()


async def test_sessions_get_their_last_use_and_accounts_their_new_name_keys(
    empty_database_url: str,
) -> None:
    # Made under the accounts' first revision: keys folded before the skeleton.
    engine = create_async_engine(empty_database_url)
    opened = datetime(2026, 12, 1, tzinfo=UTC)
    accounts = [("a1", "Will", "will"), ("a2", "WiII", "wiii"), ("a3", "Anna", "anna")]
    try:
        await upgrade(engine, "20261202_0003")
        async with engine.begin() as connection:
            for n, (pid, name, key) in enumerate(accounts):
                row = {"id": pid, "name": name, "key": key, "at": opened + timedelta(n)}
                await connection.execute(
                    text("INSERT INTO players (id, name, created) VALUES (:id, :name, :at)"), row
                )
                await connection.execute(
                    text(
                        "INSERT INTO accounts (id, name, name_key, password_hash, created)"
                        " VALUES (:id, :name, :key, 'x', :at)"
                    ),
                    row,
                )
            await connection.execute(
                text(
                    "INSERT INTO account_sessions (token_hash, account_id, created)"
                    " VALUES ('t1', 'a1', :at)"
                ),
                {"at": opened},
            )
        await upgrade(engine)
        async with engine.connect() as connection:
            keys = dict((await connection.execute(text("SELECT id, name_key FROM accounts"))).all())
            used = (await connection.execute(text("SELECT last_used FROM account_sessions"))).all()
    finally:
        await engine.dispose()
    # "WiII" now reads as the older "Will": it is left under no name, not merged.
    assert keys == {"a1": name_key("Will"), "a2": "#a2", "a3": name_key("Anna")}
    assert len(used) == 1 and str(used[0][0])[:10] == "2026-12-01"
