"""Finished tournaments: tournaments, participants, rounds, tables, table results, audit.

Revision ID: 20261201_0002
Revises: 20261129_0001
Create Date: 2026-12-01 13:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "20261201_0002"
down_revision: str | None = "20261129_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the model column types: a migration must not change when the models do.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
ID = sa.String(length=64)
NAME = sa.String(length=100)
TABLE_ID = sa.String(length=20)


def TIME() -> sa.DateTime:  # noqa: N802 (reads like the constants above)
    return sa.DateTime(timezone=True)


def _parent(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tournament_id"],
        ["tournaments.id"],
        name=op.f(f"fk_{table}_tournament_id_tournaments"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", ID, nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("deals_per_round", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("created", TIME(), nullable=False),
        sa.Column("started", TIME(), nullable=True),
        sa.Column("finished", TIME(), nullable=False),
        sa.Column("ended_early", sa.Boolean(), nullable=False),
        sa.Column("summary", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_table(
        "tournament_participants",
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("mates_average", sa.Float(), nullable=False),
        sa.Column("left_in_hand", sa.Integer(), nullable=False),
        sa.Column("deals_won", sa.Integer(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        _parent("tournament_participants"),
        sa.PrimaryKeyConstraint(
            "tournament_id", "player_id", name=op.f("pk_tournament_participants")
        ),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started", TIME(), nullable=False),
        _parent("tournament_rounds"),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_rounds")),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("table_id", TABLE_ID, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("room_id", ID, nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["tournament_rounds.tournament_id", "tournament_rounds.number"],
            name=op.f("fk_tournament_tables_tournament_id_tournament_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "table_id", name=op.f("pk_tournament_tables")),
    )
    op.create_table(
        "tournament_table_results",
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("table_id", TABLE_ID, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("left_in_hand", sa.Integer(), nullable=False),
        sa.Column("deals_won", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id", "table_id"],
            ["tournament_tables.tournament_id", "tournament_tables.table_id"],
            name=op.f("fk_tournament_table_results_tournament_id_tournament_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "tournament_id", "table_id", "player_id", name=op.f("pk_tournament_table_results")
        ),
    )
    op.create_table(
        "tournament_audit",
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("at", TIME(), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("detail", JSON, nullable=False),
        _parent("tournament_audit"),
        sa.PrimaryKeyConstraint("tournament_id", "position", name=op.f("pk_tournament_audit")),
    )


def downgrade() -> None:
    for table in (
        "tournament_audit",
        "tournament_table_results",
        "tournament_tables",
        "tournament_rounds",
        "tournament_participants",
    ):
        op.drop_table(table)
    op.drop_table("tournaments")
