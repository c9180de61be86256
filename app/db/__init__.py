"""SQL persistence: SQLAlchemy 2 async models, Alembic migrations, and the repositories.

The app opens one :class:`Database` at start (``await Database.connect(url)``, which also
migrates the schema), keeps it on ``app.state.db`` and closes it at shutdown; routes get it
with the ``Db`` dependency of :mod:`app.deps`. See ``docs/persistence.md``.
"""

from __future__ import annotations

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
from app.deal_record import DealRecord

__all__ = [
    "DEFAULT_DATABASE_URL",
    "ActionRecord",
    "Database",
    "DealRecord",
    "DealReplay",
    "DealSummary",
    "MatchRecord",
    "PlayerMatch",
    "ScoresheetRecord",
    "SeatRecord",
]
