"""INSERT ... ON CONFLICT for the two backends we run on (SQLite and PostgreSQL).

Both spell it the same way in SQLAlchemy but through their own ``insert``; this picks the
right one from the session's dialect so the repositories stay backend-neutral.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_for(session: AsyncSession, model: Any) -> Any:
    """A dialect-specific ``insert`` into ``model``'s table that has ``on_conflict_do_*``.

    The insert targets the table, not the mapped class: given a list of rows, an insert
    into the class runs through the ORM's bulk machinery; into the table it is a plain
    executemany of the same rows (archiving a 45-action deal on PostgreSQL went from 4.45
    to 4.1 ms of CPU; most of the rest is the eight statements of a deal).
    """
    table = getattr(model, "__table__", model)
    name = session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert(table)
    if name == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"unsupported database dialect {name!r}")


async def insert_ignore(session: AsyncSession, model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert rows, skipping any whose key is already there (another writer won)."""
    if rows:
        await session.execute(insert_for(session, model).on_conflict_do_nothing(), rows)


async def upsert(
    session: AsyncSession, model: Any, row: dict[str, Any], key: list[str], update: list[str]
) -> None:
    """Insert a row, or update the ``update`` columns of the row already under ``key``."""
    await session.execute(_upsert_statement(session, model, tuple(row), key, update), row)


# Each upsert's statement, built once: building it makes the table's ``excluded`` alias
# (a copy of every column, held in reference cycles), which per call would cost a
# statement's construction and leave garbage that only the cycle collector frees, in
# pauses of tens of ms on a busy node (docs/performance.md).
_UPSERTS: dict[tuple[str, Any, tuple[str, ...], tuple[str, ...], tuple[str, ...]], Any] = {}


def _upsert_statement(
    session: AsyncSession,
    model: Any,
    columns: tuple[str, ...],
    key: list[str],
    update: list[str],
) -> Any:
    table = getattr(model, "__table__", model)
    cache_key = (session.get_bind().dialect.name, table, columns, tuple(key), tuple(update))
    stmt = _UPSERTS.get(cache_key)
    if stmt is None:
        insert = insert_for(session, model)
        stmt = _UPSERTS[cache_key] = insert.on_conflict_do_update(
            index_elements=key, set_={column: insert.excluded[column] for column in update}
        )
    return stmt
