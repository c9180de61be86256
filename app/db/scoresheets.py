"""Scoresheet matches: tables playing with real cards type in one number per player per deal.

Only entries and rules are stored; standings are recomputed from them on every read
(docs/scoresheet.md: changing an option recomputes the match, entries never change).
Checks that need the scoring rules run in a callback inside the writing transaction, with
the scoresheet row locked, so two concurrent writers cannot both pass a check against the
same old state.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from app.db.models import Scoresheet, ScoresheetDeal, ScoresheetEntry, ScoresheetPlayer
from app.db.records import ScoresheetRecord

# Called with the scoresheet as stored and the proposed new entries and their deal number;
# raises to refuse the deal (nothing is written).
DealCheck = Callable[[ScoresheetRecord, list[int], int], None]
# Called with the scoresheet as stored; returns its new rules or raises to refuse.
RulesChange = Callable[[ScoresheetRecord], dict[str, Any]]


async def create(
    session: AsyncSession, *, name: str, players: list[str], rules: dict[str, Any], now: datetime
) -> ScoresheetRecord:
    # Unguessable: a scoresheet has no owner account, the id is the only key to it.
    sheet = Scoresheet(
        id=secrets.token_urlsafe(12),
        name=name,
        rules=rules,
        created=now,
        updated=now,
        players=[ScoresheetPlayer(position=i, name=p) for i, p in enumerate(players)],
        deals=[],
    )
    session.add(sheet)
    await session.flush()
    return _record(sheet)


async def get(
    session: AsyncSession, scoresheet_id: str, *, for_update: bool = False
) -> ScoresheetRecord | None:
    sheet = await _load(session, scoresheet_id, for_update=for_update)
    return None if sheet is None else _record(sheet)


async def add_deal(
    session: AsyncSession,
    scoresheet_id: str,
    entries: list[int],
    check: DealCheck,
    now: datetime,
) -> ScoresheetRecord | None:
    """Append a deal after ``check`` accepts it; None if there is no such scoresheet."""
    sheet = await _load(session, scoresheet_id, for_update=True)
    if sheet is None:
        return None
    number = len(sheet.deals) + 1
    check(_record(sheet), entries, number)
    sheet.deals.append(
        ScoresheetDeal(
            number=number,
            created=now,
            entries=[ScoresheetEntry(position=i, points=p) for i, p in enumerate(entries)],
        )
    )
    sheet.updated = now
    await session.flush()
    return _record(sheet)


async def change_rules(
    session: AsyncSession, scoresheet_id: str, change: RulesChange, now: datetime
) -> ScoresheetRecord | None:
    """Replace the rules with ``change(sheet)``; None if there is no such scoresheet."""
    sheet = await _load(session, scoresheet_id, for_update=True)
    if sheet is None:
        return None
    sheet.rules = change(_record(sheet))
    sheet.updated = now
    await session.flush()
    return _record(sheet)


async def _load(
    session: AsyncSession, scoresheet_id: str, *, for_update: bool
) -> Scoresheet | None:
    query = (
        select(Scoresheet)
        .where(Scoresheet.id == scoresheet_id)
        .options(
            selectinload(Scoresheet.players),
            selectinload(Scoresheet.deals).selectinload(ScoresheetDeal.entries),
        )
    )
    if for_update:
        # PostgreSQL: writers to one scoresheet queue here. SQLite ignores it; there two
        # racing writers may pick the same deal number, and the primary key refuses the
        # second (the caller retries it).
        query = query.with_for_update(of=Scoresheet)
    return await session.scalar(query)


def _record(sheet: Scoresheet) -> ScoresheetRecord:
    return ScoresheetRecord(
        id=sheet.id,
        name=sheet.name,
        rules=dict(sheet.rules),
        players=[p.name for p in sheet.players],
        deals=[[e.points for e in d.entries] for d in sheet.deals],
        created=sheet.created,
        updated=sheet.updated,
    )
