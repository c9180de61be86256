"""INSERT ... ON CONFLICT for the two backends we run on (SQLite and PostgreSQL).

Both spell it the same way in SQLAlchemy but through their own ``insert``; this picks the
right one from the session's dialect so the repositories stay backend-neutral.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_for(session: AsyncSession, model: Any) -> Any:
    """A dialect-specific ``insert(model)`` that has ``on_conflict_do_*``."""
    name = session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert(model)
    if name == "sqlite":
        return sqlite.insert(model)
    raise NotImplementedError(f"unsupported database dialect {name!r}")


async def insert_ignore(session: AsyncSession, model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert rows, skipping any whose key is already there (another writer won)."""
    if rows:
        await session.execute(insert_for(session, model).on_conflict_do_nothing(), rows)


async def upsert(
    session: AsyncSession, model: Any, row: dict[str, Any], key: list[str], update: list[str]
) -> None:
    """Insert a row, or update the ``update`` columns of the row already under ``key``."""
    stmt = insert_for(session, model).values(**row)
    stmt = stmt.on_conflict_do_update(
        index_elements=key, set_={column: stmt.excluded[column] for column in update}
    )
    await session.execute(stmt)
