"""Finished tournaments in SQL: archived once over (from the store's document, the
standings computed from it) and read back for the REST routes and the exports.

Archiving twice writes nothing more (every row has its natural key), so any node may
archive a tournament it finds over. A result the host corrects after the end archives it
again in place (``replace``): the rows are written anew from the newer document.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.dialect import insert_ignore
from app.db.tournament_models import (
    Tournament,
    TournamentAudit,
    TournamentParticipant,
    TournamentRound,
    TournamentTable,
    TournamentTableResult,
)


def _time(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC)


async def forget_older(session: AsyncSession, tournament_id: str, seq: int) -> bool:
    """Drop the archive of the tournament if it was written from an older document than
    event ``seq``; False (nothing dropped) if the archive is as new or newer."""
    row = await session.get(Tournament, tournament_id, with_for_update=True)
    if row is not None and int(row.summary.get("seq", 0)) >= seq:
        return False
    # Children first: the rows point at their tournament.
    for model in (
        TournamentAudit,
        TournamentTableResult,
        TournamentTable,
        TournamentRound,
        TournamentParticipant,
    ):
        await session.execute(delete(model).where(model.tournament_id == tournament_id))
    await session.execute(delete(Tournament).where(Tournament.id == tournament_id))
    return True


async def archive(
    session: AsyncSession,
    tournament_id: str,
    shown: dict[str, Any],
    standings: list[dict[str, Any]],
    points: dict[tuple[str, str], float],
) -> None:
    """``shown``: the tournament as GET shows it; ``points``: (table, player) -> points."""
    await insert_ignore(
        session,
        Tournament,
        [
            {
                "id": tournament_id,
                "name": shown["name"],
                "rules": shown["rules"],
                "table_size": shown["tableSize"],
                "rounds": shown["rounds"],
                "deals_per_round": shown["dealsPerRound"],
                "turn_seconds": shown["turnSeconds"],
                "created": _time(shown["createdAt"]),
                "started": _time(shown.get("startedAt")),
                "finished": _time(shown.get("finishedAt")) or datetime.now(UTC),
                "ended_early": bool(shown.get("endedEarly")),
                "summary": shown,
            }
        ],
    )
    seeds = {p["playerId"]: p["seed"] for p in shown["players"]}
    await insert_ignore(
        session,
        TournamentParticipant,
        [
            {
                "tournament_id": tournament_id,
                "player_id": row["playerId"],
                "name": row["name"],
                "status": row["status"],
                "seed": seeds.get(row["playerId"]),
                "rank": row["rank"],
                "points": row["points"],
                "mates_average": row["matesAverage"],
                "left_in_hand": row["leftInHand"],
                "deals_won": row["dealsWon"],
                "tables": row["tables"],
            }
            for row in standings
        ],
    )
    rounds = shown["roundLog"]
    await insert_ignore(
        session,
        TournamentRound,
        [
            {
                "tournament_id": tournament_id,
                "number": r["number"],
                "started": _time(r["startedAt"]),
            }
            for r in rounds
        ],
    )
    tables = [(r["number"], t) for r in rounds for t in r["tables"]]
    await insert_ignore(
        session,
        TournamentTable,
        [
            {
                "tournament_id": tournament_id,
                "table_id": t["tableId"],
                "round": number,
                "number": t["number"],
                "room_id": t["roomId"],
                "abandoned": t["abandoned"],
            }
            for number, t in tables
        ],
    )
    await insert_ignore(
        session,
        TournamentTableResult,
        [
            {
                "tournament_id": tournament_id,
                "table_id": t["tableId"],
                "player_id": seat["pid"],
                "place": seat["place"],
                "points": points[(t["tableId"], seat["pid"])],
                "left_in_hand": seat["leftInHand"],
                "deals_won": seat["dealsWon"],
            }
            for _, t in tables
            for seat in t["result"] or ()
        ],
    )
    await insert_ignore(
        session,
        TournamentAudit,
        [
            {
                "tournament_id": tournament_id,
                "position": index,
                "at": _time(entry["at"]),
                "action": entry["action"],
                "detail": {k: v for k, v in entry.items() if k not in ("at", "action")},
            }
            for index, entry in enumerate(shown["audit"])
        ],
    )


async def summary(session: AsyncSession, tournament_id: str) -> dict[str, Any] | None:
    row = await session.get(Tournament, tournament_id)
    return None if row is None else dict(row.summary)


async def standings(session: AsyncSession, tournament_id: str) -> list[dict[str, Any]]:
    rows = await session.scalars(
        select(TournamentParticipant)
        .where(TournamentParticipant.tournament_id == tournament_id)
        .order_by(TournamentParticipant.rank)
    )
    return [
        {
            "rank": r.rank,
            "playerId": r.player_id,
            "name": r.name,
            "status": r.status,
            "points": r.points,
            "matesAverage": r.mates_average,
            "leftInHand": r.left_in_hand,
            "dealsWon": r.deals_won,
            "tables": r.tables,
        }
        for r in rows
    ]


async def results(session: AsyncSession, tournament_id: str) -> list[dict[str, Any]]:
    """Every seat's result, by round, table and place."""
    query = (
        select(TournamentTable, TournamentTableResult, TournamentParticipant.name)
        .join(
            TournamentTableResult,
            (TournamentTableResult.tournament_id == TournamentTable.tournament_id)
            & (TournamentTableResult.table_id == TournamentTable.table_id),
        )
        .join(
            TournamentParticipant,
            (TournamentParticipant.tournament_id == TournamentTableResult.tournament_id)
            & (TournamentParticipant.player_id == TournamentTableResult.player_id),
        )
        .where(TournamentTable.tournament_id == tournament_id)
        .order_by(TournamentTable.round, TournamentTable.number, TournamentTableResult.place)
    )
    return [
        {
            "round": table.round,
            "tableId": table.table_id,
            "table": table.number,
            "roomId": table.room_id,
            "playerId": seat.player_id,
            "name": name,
            "place": seat.place,
            "points": seat.points,
            "leftInHand": seat.left_in_hand,
            "dealsWon": seat.deals_won,
        }
        for table, seat, name in await session.execute(query)
    ]


async def audit(session: AsyncSession, tournament_id: str) -> list[dict[str, Any]]:
    rows = await session.scalars(
        select(TournamentAudit)
        .where(TournamentAudit.tournament_id == tournament_id)
        .order_by(TournamentAudit.position)
    )
    return [{"at": int(r.at.timestamp() * 1000), "action": r.action, **r.detail} for r in rows]
