"""Sessions end: each session's last use (it lives 30 days after it); account name keys
taken anew (the confusables skeleton before case folding).

Revision ID: 20261206_0004
Revises: 20261202_0003
Create Date: 2026-12-06 17:30:00
"""

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.names import name_key

revision: str = "20261206_0004"
down_revision: str | None = "20261202_0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger(__name__)


def TIME() -> sa.DateTime:  # noqa: N802 (a frozen copy of the model's column type)
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    # Added empty, filled with each session's opening, then required (SQLite cannot add a
    # required column without a default: a batch copies the table).
    with op.batch_alter_table("account_sessions") as batch:
        batch.add_column(sa.Column("last_used", TIME(), nullable=True))
    op.execute("UPDATE account_sessions SET last_used = created")
    with op.batch_alter_table("account_sessions") as batch:
        batch.alter_column("last_used", existing_type=TIME(), nullable=False)
    _rekey_accounts()


def _rekey_accounts() -> None:
    """Each account's name key by today's rule, oldest account first. Of two accounts
    whose names now read the same, the younger is left under no name (``#`` and its id,
    which no name's key is) until it is renamed by hand; each is logged."""
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, name FROM accounts ORDER BY created, id")).all()
    # Out of each other's way first: a new key may be another account's old one.
    bind.execute(sa.text("UPDATE accounts SET name_key = '#' || id"))
    taken: set[str] = set()
    for account_id, name in rows:
        key = name_key(name)
        if key in taken:
            log.warning("account %s (%r): its name reads as an older account's", account_id, name)
            continue
        taken.add(key)
        bind.execute(
            sa.text("UPDATE accounts SET name_key = :key WHERE id = :id"),
            {"key": key, "id": account_id},
        )


def downgrade() -> None:
    with op.batch_alter_table("account_sessions") as batch:
        batch.drop_column("last_used")
