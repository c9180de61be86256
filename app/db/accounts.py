"""Accounts and their sessions in SQL. Functions take a session inside a transaction the
caller owns (:class:`app.db.Database` opens one per call)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.account_models import Account, AccountSession
from app.db.dialect import insert_for, upsert
from app.db.models import Player


class NameTaken(Exception):
    """Another account's name has the same key: the transaction rolls back."""


@dataclass(frozen=True, slots=True)
class AccountRecord:
    id: str
    name: str
    password_hash: str
    created: datetime


def _record(row: Account) -> AccountRecord:
    return AccountRecord(row.id, row.name, row.password_hash, row.created)


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


async def by_token(session: AsyncSession, token_hash: str) -> AccountRecord | None:
    row = await session.scalar(
        select(Account)
        .join(AccountSession, AccountSession.account_id == Account.id)
        .where(AccountSession.token_hash == token_hash)
    )
    return None if row is None else _record(row)


async def open_session(
    session: AsyncSession, account_id: str, token_hash: str, now: datetime
) -> None:
    session.add(AccountSession(token_hash=token_hash, account_id=account_id, created=now))


async def end_session(session: AsyncSession, token_hash: str) -> bool:
    """False if no session has this token."""
    ended = await session.execute(
        delete(AccountSession)
        .where(AccountSession.token_hash == token_hash)
        .returning(AccountSession.token_hash)
    )
    return ended.first() is not None
