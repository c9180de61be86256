"""Finished tournaments from SQL: the export as JSON and CSV (docs/tournaments.md,
"Archive and export"). A tournament is archived when it is over; until then its export is
refused with ``409 tournament/not_over``."""

from __future__ import annotations

import csv
import io
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from app.api.errors import responses
from app.api.tournaments import TournamentId
from app.deps import Db, Tournaments
from app.errors import RoomError

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

# Validated: the tournament id in the path (and the CSV's `what`) may answer 422.
_ERRORS = responses({404: ("tournament/not_found",), 409: ("tournament/not_over",)})
STANDINGS_COLUMNS = (
    "rank",
    "playerId",
    "name",
    "status",
    "points",
    "matesAverage",
    "leftInHand",
    "dealsWon",
    "tables",
)
RESULTS_COLUMNS = (
    "round",
    "tableId",
    "table",
    "roomId",
    "playerId",
    "name",
    "place",
    "points",
    "leftInHand",
    "dealsWon",
)


async def archived(db: Db, service: Tournaments, tournament_id: str) -> dict[str, Any]:
    """The archived tournament, or the refusal that says why there is none."""
    found = await db.archived_tournament(tournament_id)
    if found is not None:
        return dict(found)
    if await service.store.load(tournament_id) is not None:
        raise RoomError(409, "tournament/not_over", "a tournament is exported once it is over")
    raise RoomError(404, "tournament/not_found", f"no tournament {tournament_id!r}")


@router.get("/{tournament_id}/export.json", responses=_ERRORS)
async def export_json(tournament_id: TournamentId, db: Db, service: Tournaments) -> dict[str, Any]:
    """The finished tournament as SQL keeps it: `tournament` (as GET showed it at the end),
    `standings`, `results` (one row per seat of every table) and `audit`."""
    return await archived(db, service, tournament_id)


@router.get("/{tournament_id}/export.csv", responses=_ERRORS)
async def export_csv(
    tournament_id: TournamentId,
    db: Db,
    service: Tournaments,
    what: Annotated[Literal["standings", "results"], Query()] = "standings",
) -> Response:
    """The final standings (`what=standings`) or every seat's table result
    (`what=results`) as CSV with a header row."""
    found = await archived(db, service, tournament_id)
    columns = STANDINGS_COLUMNS if what == "standings" else RESULTS_COLUMNS
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(found[what])
    name = f"tournament-{tournament_id}-{what}.csv"
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
