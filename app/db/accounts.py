"""Accounts and their sessions in SQL. Functions take a session inside a transaction the
caller owns (:class:`app.db.Database` opens one per call)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.sessions import USE_GRAIN, expires_at
from app.db.account_models import Account, AccountSession
from app.db.dialect import insert_for, upsert
from app.db.models import Player


class NameTaken(Exception):
    """Another account's name has the same key: the transaction rolls back."""


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """An account as every reader sees it: its password's hash is read only by
    :func:`password_of`, for a sign-in."""

    id: str
    name: str
    created: datetime


def _record(row: Account) -> AccountRecord:
    return AccountRecord(row.id, row.name, row.created)


async def create(
    session: AsyncSession,
    *,
    account_id: str,
    name: str,
    key: str,
    password_hash: str,
    now: datetime,
) -> None:
    """A new account and its ``players`` row.

    :raises NameTaken: the name's key is taken (the caller's transaction must roll back:
        the ``players`` row is written first, for the account's key to refer to).
    """
    await upsert(
        session, Player, {"id": account_id, "name": name, "created": now}, ["id"], ["name"]
    )
    created = await session.execute(
        insert_for(session, Account)
        .values(id=account_id, name=name, name_key=key, password_hash=password_hash, created=now)
        .on_conflict_do_nothing(index_elements=["name_key"])
        .returning(Account.id)
    )
    if created.first() is None:
        raise NameTaken(name)


async def by_key(session: AsyncSession, key: str) -> AccountRecord | None:
    row = await session.scalar(select(Account).where(Account.name_key == key))
    return None if row is None else _record(row)


async def password_of(session: AsyncSession, key: str) -> tuple[AccountRecord, str] | None:
    """The account with the name key ``key`` and its password's hash."""
    row = await session.scalar(select(Account).where(Account.name_key == key))
    return None if row is None else (_record(row), row.password_hash)


async def set_password(
    session: AsyncSession, account_id: str, old_hash: str, new_hash: str
) -> bool:
    """Replace the hash, unless it changed since ``old_hash`` was read (False)."""
    changed = await session.execute(
        update(Account)
        .where(Account.id == account_id, Account.password_hash == old_hash)
        .values(password_hash=new_hash)
        .returning(Account.id)
    )
    return changed.first() is not None


@dataclass(frozen=True, slots=True)
class SessionRecord:
    account: AccountRecord
    opened: datetime
    last_used: datetime

    def expires(self) -> datetime:
        return expires_at(self.opened, self.last_used)

    def stale(self, now: datetime) -> bool:
        """Whether its last use is worth writing (at most every :data:`USE_GRAIN`)."""
        return now - self.last_used >= USE_GRAIN


async def session_of(session: AsyncSession, token_hash: str) -> SessionRecord | None:
    """The session with this token and its account (expired or not)."""
    found = (
        await session.execute(
            select(Account, AccountSession)
            .join(AccountSession, AccountSession.account_id == Account.id)
            .where(AccountSession.token_hash == token_hash)
        )
    ).first()
    if found is None:
        return None
    account, live = found
    return SessionRecord(_record(account), live.created, live.last_used)


async def mark_used(session: AsyncSession, token_hash: str, now: datetime) -> None:
    await session.execute(
        update(AccountSession).where(AccountSession.token_hash == token_hash).values(last_used=now)
    )


async def open_session(
    session: AsyncSession, account_id: str, token_hash: str, now: datetime
) -> datetime:
    """A new session; when it ends unless used."""
    session.add(
        AccountSession(token_hash=token_hash, account_id=account_id, created=now, last_used=now)
    )
    return expires_at(now, now)


async def end_session(session: AsyncSession, token_hash: str) -> bool:
    """False if no session has this token."""
    ended = await session.execute(
        delete(AccountSession)
        .where(AccountSession.token_hash == token_hash)
        .returning(AccountSession.token_hash)
    )
    return ended.first() is not None


async def end_sessions(session: AsyncSession, account_id: str, keep: str | None = None) -> int:
    """End every session of the account but the one whose token hash is ``keep``; how
    many ended."""
    query = delete(AccountSession).where(AccountSession.account_id == account_id)
    if keep is not None:
        query = query.where(AccountSession.token_hash != keep)
    ended = await session.execute(query.returning(AccountSession.token_hash))
    return len(ended.all())
