"""SQL persistence: SQLAlchemy 2 async models, Alembic migrations, and the repositories.

The app opens one :class:`Database` at start (``await Database.connect(url)``, which also
migrates the schema), keeps it on ``app.state.db`` and closes it at shutdown; routers get it
with the :func:`get_database` dependency. See ``docs/persistence.md``.
"""

from __future__ import annotations

from fastapi import Request

from app.db.database import Database
from app.db.migrate import DEFAULT_DATABASE_URL
from app.db.records import (
    ActionRecord,
    DealReplay,
    DealSummary,
    MatchRecord,
    PlayerMatch,
    ScoresheetRecord,
    SeatRecord,
)

__all__ = [
    "DEFAULT_DATABASE_URL",
    "ActionRecord",
    "Database",
    "DealReplay",
    "DealSummary",
    "MatchRecord",
    "PlayerMatch",
    "ScoresheetRecord",
    "SeatRecord",
    "get_database",
]


def get_database(request: Request) -> Database:
    """FastAPI dependency: the app's database, opened at startup on ``app.state.db``."""
    db: Database = request.app.state.db
    return db
