"""Played games: recording rooms, players and finished deals, and reading history back.

Functions take an ``AsyncSession`` inside a transaction the caller owns
(:class:`app.db.Database` opens one per call), so several writes commit together.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from app.db.dialect import insert_for, insert_ignore, upsert
from app.db.models import Deal, DealAction, DealScore, Match, MatchSeat, Player, Room
from app.db.records import (
    ActionRecord,
    DealReplay,
    DealSummary,
    MatchRecord,
    PlayerMatch,
    SeatRecord,
)
from app.deal_record import DealRecord


async def record_room(
    session: AsyncSession,
    *,
    room_id: str,
    name: str,
    rules: dict[str, Any],
    seats: int,
    private: bool,
    now: datetime,
) -> None:
    # An upsert: a room's settings may change before it starts, and the last word counts.
    row = {"id": room_id, "name": name, "rules": rules, "seats": seats, "private": private}
    await upsert(
        session, Room, {**row, "created": now}, ["id"], ["name", "rules", "seats", "private"]
    )


async def record_player(session: AsyncSession, *, player_id: str, name: str, now: datetime) -> None:
    await upsert(session, Player, {"id": player_id, "name": name, "created": now}, ["id"], ["name"])


async def record_deal(
    session: AsyncSession, *, room_id: str, deal: DealRecord, now: datetime
) -> bool:
    """Store one finished deal; False (and nothing written) if it was stored before."""
    return bool(await record_deals(session, [(room_id, deal)], now))


async def record_deals(
    session: AsyncSession, deals: Sequence[tuple[str, DealRecord]], now: datetime
) -> list[DealRecord]:
    """Store many finished deals (room id, deal) at once; the deals that were new, in
    the order given (those stored before are skipped, as :func:`record_deal` does).

    One statement per kind of row for all of them, not per deal: most of a deal's cost
    in SQL is the round of statements, not the rows (``docs/performance.md``).
    """
    unique: dict[tuple[str, int], tuple[str, DealRecord]] = {}
    for room_id, deal in deals:
        unique.setdefault((deal.match_id, deal.deal_number), (room_id, deal))
    if not unique:
        return []
    # A match's later deals find it stored with its room, players and seats: one read
    # instead of four inserts that would each find their row there.
    stored = set(
        await session.scalars(
            select(Match.id).where(Match.id.in_(sorted({match_id for match_id, _ in unique})))
        )
    )
    for room_id, deal in unique.values():
        if deal.match_id not in stored:
            # The match's first deal in this batch records it (any deal of a match can).
            await _record_match(
                session, room_id, deal.match_id, deal.start_state, deal.actions, deal.seats, now
            )
            stored.add(deal.match_id)
    inserted = await session.execute(
        insert_for(session, Deal)
        .values([_deal_row(deal, now) for _, deal in unique.values()])
        .on_conflict_do_nothing()
        .returning(Deal.match_id, Deal.number)
    )
    new_keys = {(match_id, number) for match_id, number in inserted}
    new = [deal for key, (_, deal) in unique.items() if key in new_keys]
    await _record_results(session, new, now)
    return new


def _deal_row(deal: DealRecord, now: datetime) -> dict[str, Any]:
    start_state = deal.start_state
    return {
        "match_id": deal.match_id,
        "number": deal.deal_number,
        "seed": _str_or_none(start_state.get("seed")),
        "dealer": _int_or_none(start_state.get("dealer")),
        "start_state": start_state,
        "winner": deal.winner,
        "match_over": deal.match_over,
        "finished": now,
    }


async def _record_results(session: AsyncSession, deals: list[DealRecord], now: datetime) -> None:
    """The scores and action logs of newly stored deals, and the end of the matches they
    end: one executemany each."""
    if not deals:
        return
    await session.execute(
        insert_for(session, DealScore),
        [
            {
                "match_id": deal.match_id,
                "deal_number": deal.deal_number,
                "seat": seat,
                "score": None if deal.scores is None else deal.scores[seat],
                "total": total,
            }
            for deal in deals
            for seat, total in enumerate(deal.totals)
        ],
    )
    actions = [
        {
            "match_id": deal.match_id,
            "deal_number": deal.deal_number,
            "idx": idx,
            "seq": a["seq"],
            "ts": a["ts"],
            "seat": a.get("seat"),
            "action": a["action"],
        }
        for deal in deals
        for idx, a in enumerate(deal.actions)
    ]
    if actions:
        await session.execute(insert_for(session, DealAction), actions)
    for deal in deals:
        if deal.match_over:
            await session.execute(
                update(Match)
                .where(Match.id == deal.match_id)
                .values(finished=now, winner=deal.winner)
            )


async def _record_match(
    session: AsyncSession,
    room_id: str,
    match_id: str,
    start_state: dict[str, Any],
    actions: Sequence[dict[str, Any]],
    seats: Sequence[dict[str, Any]],
    now: datetime,
) -> None:
    """The match of a deal and what it refers to, each skipped if already stored."""
    rules = await _match_rules(session, room_id, start_state)
    # The room and players normally exist already (record_room / record_player); if a
    # call was lost, keep the history anyway with what we know instead of failing.
    await insert_ignore(
        session,
        Room,
        [
            {
                "id": room_id,
                "name": room_id,
                "rules": rules,
                "seats": len(seats),
                "private": False,
                "created": now,
            }
        ],
    )
    await insert_ignore(
        session,
        Player,
        [
            {"id": s["playerId"], "name": s["name"], "created": now}
            for s in seats
            if s.get("playerId")
        ],
    )
    started = datetime.fromtimestamp(actions[0]["ts"] / 1000, UTC) if actions else now
    await insert_ignore(
        session,
        Match,
        [{"id": match_id, "room_id": room_id, "rules": rules, "started": started}],
    )
    await insert_ignore(
        session,
        MatchSeat,
        [
            {
                "match_id": match_id,
                "seat": s["seat"],
                "player_id": s.get("playerId"),
                "name": s["name"],
            }
            for s in seats
        ],
    )


async def _match_rules(
    session: AsyncSession, room_id: str, start_state: dict[str, Any]
) -> dict[str, Any]:
    # The engine state carries the rules it plays by; the room's are the fallback.
    rules = start_state.get("rules")
    if isinstance(rules, dict):
        return rules
    room_rules = await session.scalar(select(Room.rules).where(Room.id == room_id))
    return room_rules or {}


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


async def player_exists(session: AsyncSession, player_id: str) -> bool:
    return await session.get(Player, player_id) is not None


async def player_matches(
    session: AsyncSession, player_id: str, *, limit: int, offset: int
) -> list[PlayerMatch]:
    """The player's finished matches, most recently finished first."""
    rows = (
        await session.execute(
            select(Match, MatchSeat.seat, Room.name)
            .join(MatchSeat, MatchSeat.match_id == Match.id)
            .join(Room, Room.id == Match.room_id)
            .where(MatchSeat.player_id == player_id, Match.finished.is_not(None))
            .order_by(Match.finished.desc(), Match.id)
            .limit(limit)
            .offset(offset)
            .options(selectinload(Match.seats))
        )
    ).all()
    totals, deal_counts = await _final_totals(session, [m.id for m, _, _ in rows])
    result = []
    for match, seat, room_name in rows:
        assert match.finished is not None
        final = totals.get(match.id, {})
        result.append(
            PlayerMatch(
                match_id=match.id,
                room_id=match.room_id,
                room_name=room_name,
                started=match.started,
                finished=match.finished,
                seat=seat,
                winner=match.winner,
                deals=deal_counts.get(match.id, 0),
                players=[
                    SeatRecord(s.seat, s.player_id, s.name, final.get(s.seat)) for s in match.seats
                ],
            )
        )
    return result


async def _final_totals(
    session: AsyncSession, match_ids: list[str]
) -> tuple[dict[str, dict[int, int]], dict[str, int]]:
    """Per match: the totals after its last deal, and how many deals it had."""
    if not match_ids:
        return {}, {}
    last = (
        select(Deal.match_id, func.max(Deal.number).label("number"))
        .where(Deal.match_id.in_(match_ids))
        .group_by(Deal.match_id)
        .subquery()
    )
    rows = await session.execute(
        select(DealScore.match_id, DealScore.seat, DealScore.total, last.c.number).join(
            last,
            (DealScore.match_id == last.c.match_id) & (DealScore.deal_number == last.c.number),
        )
    )
    totals: dict[str, dict[int, int]] = {}
    counts: dict[str, int] = {}
    for match_id, seat, total, number in rows:
        totals.setdefault(match_id, {})[seat] = total
        counts[match_id] = number
    return totals, counts


def _match_end(found: Match) -> tuple[datetime | None, int | None]:
    """When the match ended and who won, as its deals say. The deal that ends a match and
    the match's end are one commit, but the match row and its deals are read by separate
    queries (each sees what was committed when it ran): a match row read just before
    that commit comes with its last deal read just after it."""
    last = found.deals[-1] if found.deals else None
    if found.finished is None and last is not None and last.match_over:
        return last.finished, last.winner
    return found.finished, found.winner


async def match(session: AsyncSession, match_id: str) -> MatchRecord | None:
    """A match with its seats and deals (scores, totals, action counts), or None."""
    found = await session.scalar(
        select(Match)
        .where(Match.id == match_id)
        .options(selectinload(Match.seats), selectinload(Match.deals).selectinload(Deal.scores))
    )
    if found is None:
        return None
    room_name = await session.scalar(select(Room.name).where(Room.id == found.room_id))
    action_counts = dict(
        (
            await session.execute(
                select(DealAction.deal_number, func.count())
                .where(DealAction.match_id == match_id)
                .group_by(DealAction.deal_number)
            )
        ).all()
    )
    deals = [_deal_summary(d, action_counts.get(d.number, 0)) for d in found.deals]
    final = {s.seat: s.total for s in found.deals[-1].scores} if found.deals else {}
    finished, winner = _match_end(found)
    return MatchRecord(
        id=found.id,
        room_id=found.room_id,
        room_name=room_name or found.room_id,
        rules=found.rules,
        started=found.started,
        finished=finished,
        winner=winner,
        seats=[SeatRecord(s.seat, s.player_id, s.name, final.get(s.seat)) for s in found.seats],
        deals=deals,
    )


def _deal_summary(deal: Deal, actions: int) -> DealSummary:
    return DealSummary(
        number=deal.number,
        dealer=deal.dealer,
        winner=deal.winner,
        match_over=deal.match_over,
        finished=deal.finished,
        scores=[s.score for s in deal.scores],
        totals=[s.total for s in deal.scores],
        actions=actions,
    )


async def deal_replay(session: AsyncSession, match_id: str, number: int) -> DealReplay | None:
    """A deal's start state and full action log, or None if there is no such deal."""
    deal = await session.scalar(
        select(Deal)
        .where(Deal.match_id == match_id, Deal.number == number)
        .options(selectinload(Deal.scores), selectinload(Deal.actions))
    )
    if deal is None:
        return None
    seats = (
        await session.scalars(
            select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
        )
    ).all()
    totals = {s.seat: s.total for s in deal.scores}
    return DealReplay(
        match_id=match_id,
        number=deal.number,
        seed=deal.seed,
        dealer=deal.dealer,
        start_state=deal.start_state,
        actions=[ActionRecord(a.seq, a.ts, a.seat, a.action) for a in deal.actions],
        scores=[s.score for s in deal.scores],
        totals=[s.total for s in deal.scores],
        winner=deal.winner,
        match_over=deal.match_over,
        finished=deal.finished,
        seats=[SeatRecord(s.seat, s.player_id, s.name, totals.get(s.seat)) for s in seats],
    )


async def player_stats(session: AsyncSession, player_id: str) -> dict[str, Any]:
    """``{matches, wins, deals, cardsPlayed}`` over the player's finished matches."""
    seats = (
        select(MatchSeat.match_id, MatchSeat.seat)
        .join(Match, Match.id == MatchSeat.match_id)
        .where(MatchSeat.player_id == player_id, Match.finished.is_not(None))
        .subquery()
    )
    matches, wins = (
        await session.execute(
            select(func.count(), func.count().filter(Match.winner == seats.c.seat))
            .select_from(seats)
            .join(Match, Match.id == seats.c.match_id)
        )
    ).one()
    deals = await session.scalar(
        select(func.count()).select_from(Deal).join(seats, seats.c.match_id == Deal.match_id)
    )
    plays = await session.scalars(
        select(DealAction.action).join(
            seats,
            (seats.c.match_id == DealAction.match_id) & (seats.c.seat == DealAction.seat),
        )
    )
    cards = sum(
        len(a.get("cards") or ()) for a in plays if isinstance(a, dict) and a.get("type") == "play"
    )
    return {"matches": matches, "wins": wins, "deals": deals or 0, "cardsPlayed": cards}
