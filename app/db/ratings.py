"""Ratings in SQL: rating a finished match (once), and the profile and leaderboard reads.

:func:`rate_match` runs in the transaction that stores the match's last deal, so a match
is rated exactly when its end is stored: an archive write retried (on this node or
another) finds the deal stored and rates nothing, and should two writes race, the
``rated_matches`` key lets one of them through.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

import engine
from app.accounts.ratings import (
    NEWCOMER,
    POOLS,
    PROVISIONAL_GAMES,
    Belief,
    pool_of,
    public,
    rate,
    shown,
)
from app.db.account_models import Account, RatedMatch, Rating, RatingChange
from app.db.dialect import insert_for, upsert
from app.deal_record import DealRecord
from app.placings import SeatResult, places


def _results(deal: DealRecord) -> list[SeatResult]:
    return [
        SeatResult(
            seat=int(s["seat"]),
            total=int(deal.totals[int(s["seat"])]),
            left=bool(s.get("left")),
            moves=int(s.get("moves", 0)),
            auto=int(s.get("auto", 0)),
        )
        for s in sorted(deal.seats, key=lambda s: int(s["seat"]))
    ]


def rated_beliefs(
    beliefs: list[Belief | None], results: list[SeatResult], winner: int | None, lowest: bool
) -> tuple[list[int], list[Belief | None]]:
    """Each seat's place and belief after the match. The seats still playing at its end
    are rated among themselves alone, so nobody gains from a seat that left (or was
    played by the autopilot); each gone seat is rated as last among all."""
    placings = places(results, winner, lowest)
    playing = [i for i, r in enumerate(results) if not r.gone]
    among = [results[i] for i in playing]
    after_playing = rate([beliefs[i] for i in playing], places(among, winner, lowest))
    after_all = rate(beliefs, placings)
    after = list(after_all)
    for i, belief in zip(playing, after_playing, strict=True):
        after[i] = belief
    return placings, after


async def rate_match(session: AsyncSession, deal: DealRecord, now: datetime) -> bool:
    """Rate the match that ``deal`` (its last) ends; False if it is not rated (fewer than
    two accounts still playing at its end) or was rated before."""
    seats = sorted(deal.seats, key=lambda s: int(s["seat"]))
    pids = [s.get("playerId") for s in seats]
    accounts = set(
        await session.scalars(select(Account.id).where(Account.id.in_([p for p in pids if p])))
    )
    results = _results(deal)
    playing = {pid for pid, r in zip(pids, results, strict=True) if pid in accounts and not r.gone}
    if len(playing) < 2:
        return False
    rules = deal.start_state.get("rules") or {}
    pool = pool_of(rules)
    claimed = await session.execute(
        insert_for(session, RatedMatch)
        .values(match_id=deal.match_id, pool=pool, rated=now)
        .on_conflict_do_nothing()
        .returning(RatedMatch.match_id)
    )
    if claimed.first() is None:
        return False
    # populate_existing: a match rated earlier in the same transaction (a batch of
    # Database.record_deals) upserted these rows past any copy the session still holds.
    rows = {
        r.account_id: r
        for r in await session.scalars(
            select(Rating)
            .where(Rating.pool == pool, Rating.account_id.in_(accounts))
            .execution_options(populate_existing=True)
        )
    }
    beliefs: list[Belief | None] = [_belief(rows, pid) if pid in accounts else None for pid in pids]
    lowest = engine.rules_from_json(rules).lowest_wins
    placings, afters = rated_beliefs(beliefs, results, deal.winner, lowest)
    for seat, pid, before, after, place in zip(
        results, pids, beliefs, afters, placings, strict=True
    ):
        if pid is None or before is None or after is None:
            continue
        old = rows.get(pid)
        games = (old.games if old else 0) + 1
        value = shown(after.mu)
        await upsert(
            session,
            Rating,
            {
                "account_id": pid,
                "pool": pool,
                "mu": after.mu,
                "sigma": after.sigma,
                "value": value,
                "games": games,
                "updated": now,
            },
            ["account_id", "pool"],
            ["mu", "sigma", "value", "games", "updated"],
        )
        session.add(
            RatingChange(
                match_id=deal.match_id,
                account_id=pid,
                seat=seat.seat,
                place=place,
                before=shown(before.mu),
                after=value,
                games=games,
                rated=now,
            )
        )
    await session.flush()
    return True


def _belief(rows: dict[str, Rating], pid: str) -> Belief:
    row = rows.get(pid)
    return Belief() if row is None else Belief(row.mu, row.sigma)


async def ratings_of(session: AsyncSession, account_id: str) -> dict[str, dict[str, Any]]:
    """Every pool's shown rating of an account (a newcomer's where it has played none)."""
    found = {
        r.pool: public(r.value, r.games)
        for r in await session.scalars(select(Rating).where(Rating.account_id == account_id))
    }
    return {pool: found.get(pool, NEWCOMER) for pool in POOLS}


async def rating_in(session: AsyncSession, account_id: str, pool: str) -> dict[str, Any]:
    row = await session.get(Rating, (account_id, pool))
    return NEWCOMER if row is None else public(row.value, row.games)


async def changes(session: AsyncSession, match_id: str) -> dict[int, dict[str, Any]]:
    """The rating changes of a rated match, by seat (empty: not rated)."""
    rows = await session.scalars(select(RatingChange).where(RatingChange.match_id == match_id))
    return {r.seat: _change(r) for r in rows}


def _change(row: RatingChange) -> dict[str, Any]:
    return {
        "place": row.place,
        "ratingBefore": row.before,
        "ratingAfter": row.after,
        "games": row.games,
        "provisional": row.games < PROVISIONAL_GAMES,
    }


async def changes_of(
    session: AsyncSession, account_id: str, match_ids: list[str]
) -> dict[str, dict[str, Any]]:
    rows = await session.scalars(
        select(RatingChange).where(
            RatingChange.account_id == account_id, RatingChange.match_id.in_(match_ids)
        )
    )
    return {r.match_id: _change(r) for r in rows}


async def placings_of(session: AsyncSession, account_id: str) -> dict[str, int]:
    """How often the account took each place in rated matches (``{"1": 4, "2": 1}``)."""
    rows = await session.execute(
        select(RatingChange.place, func.count())
        .where(RatingChange.account_id == account_id)
        .group_by(RatingChange.place)
        .order_by(RatingChange.place)
    )
    return {str(place): count for place, count in rows}


async def leaderboard(session: AsyncSession, pool: str, limit: int) -> list[dict[str, Any]]:
    """Accounts with a rated game in ``pool``, by OpenSkill's conservative ordinal (mu - 3
    sigma: a newcomer's few lucky games do not put it above a steady player)."""
    rows = await session.execute(
        select(Account.name, Rating.value, Rating.games)
        .join(Account, Account.id == Rating.account_id)
        .where(Rating.pool == pool, Rating.games >= 1)
        .order_by((Rating.mu - 3 * Rating.sigma).desc(), Rating.games.desc(), Account.name_key)
        .limit(limit)
    )
    return [
        {"rank": rank, "name": name, **public(value, games)}
        for rank, (name, value, games) in enumerate(rows, start=1)
    ]
