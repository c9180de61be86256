"""Accounts, their sessions, ratings per pool, rated matches and rating changes.

Revision ID: 20261202_0003
Revises: 20261201_0002
Create Date: 2026-12-02 00:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "20261202_0003"
down_revision: str | None = "20261201_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the model column types: a migration must not change when the models do.
ID = sa.String(length=64)
POOL = sa.String(length=16)


def TIME() -> sa.DateTime:  # noqa: N802 (reads like the constants above)
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", ID, nullable=False),
        sa.Column("name", sa.String(length=20), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("created", TIME(), nullable=False),
        sa.ForeignKeyConstraint(["id"], ["players.id"], name=op.f("fk_accounts_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("name_key", name=op.f("uq_accounts_name_key")),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", ID, nullable=False),
        sa.Column("created", TIME(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_sessions_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_account_sessions")),
    )
    op.create_index(
        op.f("ix_account_sessions_account_id"), "account_sessions", ["account_id"], unique=False
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", ID, nullable=False),
        sa.Column("pool", POOL, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", TIME(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_ratings_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "pool", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_pool_value", "ratings", ["pool", "value"], unique=False)
    op.create_table(
        "rated_matches",
        sa.Column("match_id", ID, nullable=False),
        sa.Column("pool", POOL, nullable=False),
        sa.Column("rated", TIME(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_rated_matches_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_rated_matches")),
    )
    op.create_table(
        "rating_changes",
        sa.Column("match_id", ID, nullable=False),
        sa.Column("account_id", ID, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("before", sa.Integer(), nullable=False),
        sa.Column("after", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("rated", TIME(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_rating_changes_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["rated_matches.match_id"],
            name=op.f("fk_rating_changes_match_id_rated_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "account_id", name=op.f("pk_rating_changes")),
    )
    op.create_index(
        op.f("ix_rating_changes_account_id"), "rating_changes", ["account_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_rating_changes_account_id"), table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("rated_matches")
    op.drop_index("ix_ratings_pool_value", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index(op.f("ix_account_sessions_account_id"), table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
