"""The SQL tables of accounts and ratings (``app.db.accounts`` and ``app.db.ratings``
write and read them).

``accounts`` (a player who signed up: name, the name's comparison key, the password's
argon2id hash; its id is also a ``players`` row, so its seats are in ``match_seats``),
``account_sessions`` (the sha256 of each live token, when it was opened and last used:
deleting the row ends the session),
``ratings`` (one row per account and pool), ``rated_matches`` (one row per rated match:
its key is what makes rating a match twice impossible) and ``rating_changes`` (each rated
seat's rating before and after the match).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, UTCDateTime, utcnow

ID = String(64)
POOL = String(16)


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(20))
    # The name as compared (app.accounts.account_names.name_key): unique, so two accounts never
    # share a name that reads the same.
    name_key: Mapped[str] = mapped_column(String(100), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class AccountSession(Base):
    __tablename__ = "account_sessions"

    # sha256 of the token, hex: the token itself is never stored.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Its end moves on with each use (app.accounts.sessions.expires_at).
    last_used: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Rating(Base):
    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_pool_value", "pool", "value"),)

    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(POOL, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # The shown rating (app.accounts.ratings.shown), kept for the leaderboard's order.
    value: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatedMatch(Base):
    __tablename__ = "rated_matches"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(POOL)
    rated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingChange(Base):
    __tablename__ = "rating_changes"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("rated_matches.match_id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    rated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
