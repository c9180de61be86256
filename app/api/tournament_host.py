"""The host's console for a running tournament (docs/tournaments.md, "Host console"):
start, next round, pause and resume, re-seat, disqualify, correct a table's result, end
early. Each is one REST call with the tournament's host token; a refusal is a 4xx with a
stable code and changes nothing. Host actions are kept in the public audit log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.api.errors import responses
from app.api.text import NAME_PATTERN, cleaned_name
from app.api.tournaments import Hosting, TournamentId, hosting
from app.deps import Authorization, Db, Rooms, Runner, Tournaments
from app.rooms import commands
from app.tournaments import rounds, tables
from app.tournaments import service as tour

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
# A host's reason, public in the audit log: a line of text, stored as names are.
Reason = Annotated[
    str,
    Field(min_length=1, max_length=200, pattern=NAME_PATTERN),
    AfterValidator(cleaned_name),
]

_HOST = {
    401: ("missing_token",),
    403: ("tournament/not_host",),
    404: ("tournament/not_found",),
}


def _as_host(host: Hosting, step: Callable[[dict[str, Any]], Any]) -> Any:
    """``step``, judged with the host check inside the same compare-and-set."""

    def hosted(doc: dict[str, Any]) -> Any:
        host.check(doc)
        return step(doc)

    return hosted


@router.post(
    "/{tournament_id}/start",
    responses=responses({**_HOST, 409: ("tournament/started", "tournament/too_few_players")}),
)
async def start(
    tournament_id: TournamentId,
    runner: Runner,
    service: Tournaments,
    db: Db,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: drop who did not check in (if check-in was opened) and seat round 1."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    doc, opened = await service.change(
        tournament_id, _as_host(host, lambda d: rounds.start(d, now)), running=True
    )
    await runner.open_round(tournament_id, doc, opened)
    return tour.public(tournament_id, doc)


class NextRound(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    round: int | None = Field(
        default=None, ge=1, description="the round meant (a second call for it is refused)"
    )


@router.post(
    "/{tournament_id}/rounds",
    responses=responses(
        {
            **_HOST,
            409: (
                "tournament/not_started",
                "tournament/over",
                "tournament/round_started",
                "tournament/round_in_progress",
                "tournament/no_rounds_left",
                "tournament/bad_round",
                "tournament/paused",
                "tournament/too_few_players",
            ),
        }
    ),
)
async def next_round(
    tournament_id: TournamentId,
    runner: Runner,
    service: Tournaments,
    db: Db,
    body: NextRound | None = None,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: seat the next round, once every table of this one has its result. No table
    is below the rules' fewest players (tables grow by one, or a player sits out with a
    bye); too few players left to make one table is `409 tournament/too_few_players`."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    number = None if body is None else body.round
    doc, opened = await service.change(
        tournament_id,
        _as_host(host, lambda d: rounds.next_round(d, number, now)),
        running=True,
    )
    await runner.open_round(tournament_id, doc, opened)
    return tour.public(tournament_id, doc)


_RUNNING = ("tournament/not_started", "tournament/over")


@router.post(
    "/{tournament_id}/pause",
    responses=responses({**_HOST, 409: (*_RUNNING, "tournament/paused")}),
)
async def pause(
    tournament_id: TournamentId,
    rooms: Rooms,
    service: Tournaments,
    db: Db,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: every table's clocks stop and nobody moves; tables not started wait."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    doc, room_ids = await service.change(
        tournament_id, _as_host(host, lambda d: rounds.pause(d, now))
    )
    await tables.tell(rooms, room_ids, commands.Pause())
    return tour.public(tournament_id, doc)


@router.post(
    "/{tournament_id}/resume",
    responses=responses({**_HOST, 409: (*_RUNNING, "tournament/not_paused")}),
)
async def resume(
    tournament_id: TournamentId,
    rooms: Rooms,
    service: Tournaments,
    db: Db,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: the tables go on; every running clock gets the paused time back."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    doc, room_ids = await service.change(
        tournament_id, _as_host(host, lambda d: rounds.resume(d, now))
    )
    await tables.tell(rooms, room_ids, commands.Unpause())
    return tour.public(tournament_id, doc)


class Reseat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    playerId: str = Field(max_length=64)
    withPlayerId: str = Field(max_length=64, description="the player to change tables with")


@router.post(
    "/{tournament_id}/reseat",
    responses=responses(
        {
            **_HOST,
            404: ("tournament/not_found", "tournament/player_not_found"),
            409: (
                *_RUNNING,
                "tournament/not_seated",
                "tournament/same_table",
                "tournament/table_started",
            ),
        }
    ),
)
async def reseat(
    tournament_id: TournamentId,
    body: Reseat,
    db: Db,
    rooms: Rooms,
    service: Tournaments,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: two players of this round change tables (before either table starts)."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    doc, moved = await service.change(
        tournament_id,
        _as_host(host, lambda d: rounds.reseat(d, body.playerId, body.withPlayerId, now)),
    )
    names = {p["pid"]: p["name"] for p in doc["players"]}
    await tables.reseat(rooms, db, doc, moved, names)
    return tour.public(tournament_id, doc)


class Disqualify(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    reason: Reason


@router.post(
    "/{tournament_id}/players/{player_id}/disqualify",
    responses=responses(
        {
            **_HOST,
            404: ("tournament/not_found", "tournament/player_not_found"),
            409: ("tournament/over", "tournament/disqualified"),
        }
    ),
)
async def disqualify(
    tournament_id: TournamentId,
    player_id: str,
    body: Disqualify,
    rooms: Rooms,
    service: Tournaments,
    db: Db,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: the player is listed last and seated no more (a bot plays their running
    table's seat to its end)."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    doc, table = await service.change(
        tournament_id,
        _as_host(host, lambda d: rounds.disqualify(d, player_id, body.reason, now)),
    )
    if table is not None:
        await tables.leave(rooms, table["roomId"], player_id)
    return tour.public(tournament_id, doc)


@router.post(
    "/{tournament_id}/players/{player_id}/reinstate",
    responses=responses(
        {
            **_HOST,
            404: ("tournament/not_found", "tournament/player_not_found"),
            409: ("tournament/over", "tournament/disqualified", "tournament/not_withdrawn"),
        }
    ),
)
async def reinstate(
    tournament_id: TournamentId,
    player_id: str,
    service: Tournaments,
    db: Db,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: take a withdrawn player back (withdrawn by their own word, or for never coming
    to their table); they are seated from the next round."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    doc, _ = await service.change(
        tournament_id, _as_host(host, lambda d: rounds.reinstate(d, player_id, now))
    )
    return tour.public(tournament_id, doc)


class SeatOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    playerId: str = Field(max_length=64)
    place: int = Field(ge=1, le=10)
    leftInHand: int = Field(default=0, ge=0, le=10_000)
    dealsWon: int = Field(default=0, ge=0, le=100)


class Correction(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    result: list[SeatOutcome] = Field(min_length=1, max_length=10)
    reason: Reason = Field(description="shown in the audit log")


@router.put(
    "/{tournament_id}/tables/{table_id}/result",
    responses=responses(
        {
            **_HOST,
            404: ("tournament/not_found", "tournament/table_not_found"),
            409: ("tournament/not_started",),
            422: ("tournament/bad_result",),
        }
    ),
)
async def correct(
    tournament_id: TournamentId,
    table_id: str,
    body: Correction,
    service: Tournaments,
    db: Db,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: replace a table's result, with a reason (kept in the public audit log)."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    seats = [
        {"pid": s.playerId, "place": s.place, "leftInHand": s.leftInHand, "dealsWon": s.dealsWon}
        for s in body.result
    ]
    doc, _ = await service.change(
        tournament_id,
        _as_host(host, lambda d: rounds.correct(d, table_id, seats, body.reason, now)),
    )
    shown = tour.public(tournament_id, doc)
    if doc["status"] == tour.OVER:
        # Over, it may be archived already: the archive and its exports follow the change.
        await db.archive_tournament(
            tournament_id, shown, tour.standings(doc), tour.seat_points(doc), replace=True
        )
    return shown


@router.post(
    "/{tournament_id}/end",
    responses=responses({**_HOST, 409: ("tournament/over",)}),
)
async def end(
    tournament_id: TournamentId,
    service: Tournaments,
    db: Db,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: end now; tables without a result count for nobody; the standings are final."""
    host = await hosting(db, service, tournament_id, authorization)
    now = tour.now_ms()
    # The runner archives it and sets it to expire (one ended before it ever ran too): the
    # same write puts it before the runners.
    doc, _ = await service.change(
        tournament_id, _as_host(host, lambda d: rounds.end_early(d, now)), running=True
    )
    return tour.public(tournament_id, doc)
