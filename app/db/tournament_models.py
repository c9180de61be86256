"""The SQL tables of finished tournaments (``app.db.tournaments`` writes and reads them).

``tournaments`` (settings, how it ended, and its public summary as shown at the end),
``tournament_participants`` (the final standings row of each player), ``tournament_rounds``,
``tournament_tables``, ``tournament_table_results`` (one row per seat) and
``tournament_audit`` (the host's actions, in order). Child rows use composite keys
(tournament id + ...), so archiving a tournament twice is a no-op.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, ForeignKeyConstraint, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, JSONType, UTCDateTime

ID = String(64)
NAME = String(100)
_PARENT = "tournaments.id"


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(NAME)
    rules: Mapped[dict[str, Any]] = mapped_column(JSONType)
    table_size: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    deals_per_round: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    started: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_early: Mapped[bool] = mapped_column(Boolean, default=False)
    # GET /api/tournaments/{id} as it answered when the tournament ended (no secrets).
    summary: Mapped[dict[str, Any]] = mapped_column(JSONType)


class TournamentParticipant(Base):
    __tablename__ = "tournament_participants"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey(_PARENT, ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(NAME)
    status: Mapped[str] = mapped_column(String(20))
    seed: Mapped[int | None] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    points: Mapped[float] = mapped_column(Float)
    mates_average: Mapped[float] = mapped_column(Float)
    left_in_hand: Mapped[int] = mapped_column(Integer)
    deals_won: Mapped[int] = mapped_column(Integer)
    tables: Mapped[int] = mapped_column(Integer)


class TournamentRound(Base):
    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey(_PARENT, ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    started: Mapped[datetime] = mapped_column(UTCDateTime)


class TournamentTable(Base):
    __tablename__ = "tournament_tables"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["tournament_rounds.tournament_id", "tournament_rounds.number"],
            ondelete="CASCADE",
        ),
    )

    tournament_id: Mapped[str] = mapped_column(ID, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    room_id: Mapped[str] = mapped_column(ID)
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False)


class TournamentTableResult(Base):
    __tablename__ = "tournament_table_results"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "table_id"],
            ["tournament_tables.tournament_id", "tournament_tables.table_id"],
            ondelete="CASCADE",
        ),
    )

    tournament_id: Mapped[str] = mapped_column(ID, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    player_id: Mapped[str] = mapped_column(ID, primary_key=True)
    place: Mapped[int] = mapped_column(Integer)
    points: Mapped[float] = mapped_column(Float)
    left_in_hand: Mapped[int] = mapped_column(Integer)
    deals_won: Mapped[int] = mapped_column(Integer)


class TournamentAudit(Base):
    __tablename__ = "tournament_audit"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey(_PARENT, ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(JSONType)
