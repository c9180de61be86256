"""Initial schema: players, rooms, matches, deals with scores and action logs, scoresheets.

Revision ID: 20261129_0001
Revises:
Create Date: 2026-11-29 12:19:08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "20261129_0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the model column types: a migration must not change when the models do.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
ID = sa.String(length=64)
NAME = sa.String(length=100)


def TIME() -> sa.DateTime:  # noqa: N802 (reads like the constants above)
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", ID, nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("created", TIME(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_table(
        "rooms",
        sa.Column("id", ID, nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("created", TIME(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
    )
    op.create_table(
        "matches",
        sa.Column("id", ID, nullable=False),
        sa.Column("room_id", ID, nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("started", TIME(), nullable=False),
        sa.Column("finished", TIME(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_matches_room_id_rooms")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    op.create_index(op.f("ix_matches_finished"), "matches", ["finished"])
    op.create_index(op.f("ix_matches_room_id"), "matches", ["room_id"])
    op.create_table(
        "match_seats",
        sa.Column("match_id", ID, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", ID, nullable=True),
        sa.Column("name", NAME, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_match_seats_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_match_seats_player_id_players")
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_seats")),
    )
    op.create_index(op.f("ix_match_seats_player_id"), "match_seats", ["player_id"])
    op.create_table(
        "deals",
        sa.Column("match_id", ID, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=128), nullable=True),
        sa.Column("dealer", sa.Integer(), nullable=True),
        sa.Column("start_state", JSON, nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("match_over", sa.Boolean(), nullable=False),
        sa.Column("finished", TIME(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_deals_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", "number", name=op.f("pk_deals")),
    )
    op.create_table(
        "deal_scores",
        sa.Column("match_id", ID, nullable=False),
        sa.Column("deal_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id", "deal_number"],
            ["deals.match_id", "deals.number"],
            name=op.f("fk_deal_scores_match_id_deals"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "deal_number", "seat", name=op.f("pk_deal_scores")),
    )
    op.create_table(
        "deal_actions",
        sa.Column("match_id", ID, nullable=False),
        sa.Column("deal_number", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("ts", sa.BigInteger(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id", "deal_number"],
            ["deals.match_id", "deals.number"],
            name=op.f("fk_deal_actions_match_id_deals"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "deal_number", "idx", name=op.f("pk_deal_actions")),
    )
    op.create_table(
        "scoresheets",
        sa.Column("id", ID, nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("created", TIME(), nullable=False),
        sa.Column("updated", TIME(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scoresheets")),
    )
    op.create_table(
        "scoresheet_players",
        sa.Column("scoresheet_id", ID, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.ForeignKeyConstraint(
            ["scoresheet_id"],
            ["scoresheets.id"],
            name=op.f("fk_scoresheet_players_scoresheet_id_scoresheets"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("scoresheet_id", "position", name=op.f("pk_scoresheet_players")),
    )
    op.create_table(
        "scoresheet_deals",
        sa.Column("scoresheet_id", ID, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("created", TIME(), nullable=False),
        sa.ForeignKeyConstraint(
            ["scoresheet_id"],
            ["scoresheets.id"],
            name=op.f("fk_scoresheet_deals_scoresheet_id_scoresheets"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("scoresheet_id", "number", name=op.f("pk_scoresheet_deals")),
    )
    op.create_table(
        "scoresheet_entries",
        sa.Column("scoresheet_id", ID, nullable=False),
        sa.Column("deal_number", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["scoresheet_id", "deal_number"],
            ["scoresheet_deals.scoresheet_id", "scoresheet_deals.number"],
            name=op.f("fk_scoresheet_entries_scoresheet_id_scoresheet_deals"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "scoresheet_id", "deal_number", "position", name=op.f("pk_scoresheet_entries")
        ),
    )


def downgrade() -> None:
    # Children before parents, so no foreign key is ever left dangling.
    for table in (
        "scoresheet_entries",
        "scoresheet_deals",
        "scoresheet_players",
        "scoresheets",
        "deal_actions",
        "deal_scores",
        "deals",
    ):
        op.drop_table(table)
    op.drop_index(op.f("ix_match_seats_player_id"), table_name="match_seats")
    op.drop_table("match_seats")
    op.drop_index(op.f("ix_matches_room_id"), table_name="matches")
    op.drop_index(op.f("ix_matches_finished"), table_name="matches")
    for table in ("matches", "rooms", "players"):
        op.drop_table(table)
