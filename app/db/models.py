"""The SQL tables, as SQLAlchemy 2 typed models.

Played games: ``players`` (guest accounts), ``rooms``, ``matches`` with their
``match_seats``, ``deals`` with per-seat ``deal_scores`` and the full ordered
``deal_actions`` log (with the deal's start state that is enough to replay it exactly).
Scoresheet matches typed in from a physical table: ``scoresheets``,
``scoresheet_players``, ``scoresheet_deals`` and their ``scoresheet_entries``.

Child rows use composite keys (match id + deal number + ...) rather than surrogate ids:
the natural key is what makes recording a deal twice a no-op.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base, JSONType, UTCDateTime, utcnow

ID = String(64)
NAME = String(100)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(NAME)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(NAME)
    rules: Mapped[dict[str, Any]] = mapped_column(JSONType)
    seats: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSONType)
    started: Mapped[datetime] = mapped_column(UTCDateTime)
    # Null while the match is being played; set by the deal that ends it.
    finished: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    winner: Mapped[int | None] = mapped_column(Integer)

    seats: Mapped[list[MatchSeat]] = relationship(
        order_by="MatchSeat.seat", cascade="all, delete-orphan", lazy="raise"
    )
    deals: Mapped[list[Deal]] = relationship(
        order_by="Deal.number", cascade="all, delete-orphan", lazy="raise"
    )


class MatchSeat(Base):
    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    # The name the player had in this match (guests may rename later).
    name: Mapped[str] = mapped_column(NAME)


class Deal(Base):
    __tablename__ = "deals"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str | None] = mapped_column(String(128))
    dealer: Mapped[int | None] = mapped_column(Integer)
    # The engine's State.to_json() when the deal began: with the action log, a replay.
    start_state: Mapped[dict[str, Any]] = mapped_column(JSONType)
    winner: Mapped[int | None] = mapped_column(Integer)
    match_over: Mapped[bool] = mapped_column(Boolean, default=False)
    finished: Mapped[datetime] = mapped_column(UTCDateTime)

    scores: Mapped[list[DealScore]] = relationship(
        order_by="DealScore.seat", cascade="all, delete-orphan", lazy="raise"
    )
    actions: Mapped[list[DealAction]] = relationship(
        order_by="DealAction.idx", cascade="all, delete-orphan", lazy="raise"
    )


class DealScore(Base):
    __tablename__ = "deal_scores"
    __table_args__ = (
        ForeignKeyConstraint(
            ["match_id", "deal_number"], ["deals.match_id", "deals.number"], ondelete="CASCADE"
        ),
    )

    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    deal_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Null when the deal had no scoring (one-and-done, an aborted deal).
    score: Mapped[int | None] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)


class DealAction(Base):
    __tablename__ = "deal_actions"
    __table_args__ = (
        ForeignKeyConstraint(
            ["match_id", "deal_number"], ["deals.match_id", "deals.number"], ondelete="CASCADE"
        ),
    )

    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    deal_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Position in the log; replay order. ``seq`` is the room's sequence number and may
    # skip values (server-made changes between actions are not actions).
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    ts: Mapped[int] = mapped_column(BigInteger)
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSONType)


class Scoresheet(Base):
    __tablename__ = "scoresheets"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(NAME)
    # Rules in wire form, every option spelled out, so later default changes leave old
    # scoresheets alone.
    rules: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    players: Mapped[list[ScoresheetPlayer]] = relationship(
        order_by="ScoresheetPlayer.position", cascade="all, delete-orphan", lazy="raise"
    )
    deals: Mapped[list[ScoresheetDeal]] = relationship(
        order_by="ScoresheetDeal.number", cascade="all, delete-orphan", lazy="raise"
    )


class ScoresheetPlayer(Base):
    __tablename__ = "scoresheet_players"

    scoresheet_id: Mapped[str] = mapped_column(
        ForeignKey("scoresheets.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(NAME)


class ScoresheetDeal(Base):
    __tablename__ = "scoresheet_deals"

    scoresheet_id: Mapped[str] = mapped_column(
        ForeignKey("scoresheets.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    entries: Mapped[list[ScoresheetEntry]] = relationship(
        order_by="ScoresheetEntry.position", cascade="all, delete-orphan", lazy="raise"
    )


class ScoresheetEntry(Base):
    __tablename__ = "scoresheet_entries"
    __table_args__ = (
        ForeignKeyConstraint(
            ["scoresheet_id", "deal_number"],
            ["scoresheet_deals.scoresheet_id", "scoresheet_deals.number"],
            ondelete="CASCADE",
        ),
    )

    scoresheet_id: Mapped[str] = mapped_column(ID, primary_key=True)
    deal_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
