"""REST for the history of played games: a player's matches, a match, a deal's replay
and its frames.

Everything here reads finished deals from SQL (:mod:`app.db`); live rooms are elsewhere.
Errors are ``4xx {"code", "message"}`` like every route of the API (:mod:`app.api.errors`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response
from pydantic import BaseModel

from app.api.deal_frames import frames, replay_check
from app.api.errors import ErrorRoute, responses
from app.api.text import DB_INT_MAX, ID_MAX, ID_PATTERN
from app.db import Database, DealReplay
from app.deps import Db, Frames
from app.errors import RoomError


# Response shapes, for /openapi.json: what app.db.records' to_json() produce.
class SeatOut(BaseModel):
    seat: int
    playerId: str | None
    name: str
    total: int | None


class PlayerMatchOut(BaseModel):
    matchId: str
    roomId: str
    roomName: str
    started: str
    finished: str
    seat: int
    winner: int | None
    won: bool
    deals: int
    players: list[SeatOut]


class PlayerMatchesOut(BaseModel):
    playerId: str
    limit: int
    offset: int
    matches: list[PlayerMatchOut]


class DealOut(BaseModel):
    number: int
    dealer: int | None
    winner: int | None
    matchOver: bool
    finished: str
    scores: list[int | None]
    totals: list[int]
    actions: int


class MatchOut(BaseModel):
    matchId: str
    roomId: str
    roomName: str
    rules: dict[str, Any]
    started: str
    finished: str | None
    matchOver: bool
    winner: int | None
    players: list[SeatOut]
    deals: list[DealOut]


class ActionOut(BaseModel):
    seq: int
    ts: int
    seat: int | None
    action: dict[str, Any]


class ReplayProblem(BaseModel):
    index: int | None
    code: str
    message: str


class ReplayCheck(BaseModel):
    consistent: bool
    error: ReplayProblem | None


class ReplayOut(BaseModel):
    matchId: str
    deal: int
    seed: str | None
    dealer: int | None
    players: list[SeatOut]
    startState: dict[str, Any]
    actions: list[ActionOut]
    scores: list[int | None]
    totals: list[int]
    winner: int | None
    matchOver: bool
    finished: str
    finalState: dict[str, Any] | None
    replay: ReplayCheck


class FrameOut(BaseModel):
    index: int
    seq: int | None
    seat: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    view: dict[str, Any]


class FramesOut(BaseModel):
    matchId: str
    deal: int
    deals: list[int]
    players: list[SeatOut]
    rules: dict[str, Any] | None
    scores: list[int | None]
    totals: list[int]
    winner: int | None
    matchOver: bool
    shuffle: dict[str, Any] | None
    checks: dict[str, str]
    replay: ReplayCheck
    frames: list[FrameOut]


router = APIRouter(prefix="/api", tags=["history"], route_class=ErrorRoute)
PlayerId = Annotated[str, Path(alias="playerId", max_length=ID_MAX, pattern=ID_PATTERN)]
MatchId = Annotated[str, Path(alias="matchId", max_length=ID_MAX, pattern=ID_PATTERN)]
DealNumber = Annotated[int, Path(alias="dealNumber", ge=1, le=DB_INT_MAX)]


@router.get(
    "/players/{playerId}/matches",
    response_model=PlayerMatchesOut,
    responses=responses({404: ("player_not_found",)}),
)
async def player_matches(
    db: Db,
    player_id: PlayerId,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=DB_INT_MAX)] = 0,
) -> dict[str, Any]:
    """The player's finished matches, most recently finished first (paged)."""
    matches = await db.player_matches(player_id, limit=limit, offset=offset)
    if not matches and not await db.player_exists(player_id):
        raise RoomError(404, "player_not_found", f"no player {player_id!r}")
    return {
        "playerId": player_id,
        "limit": limit,
        "offset": offset,
        "matches": [m.to_json() for m in matches],
    }


@router.get(
    "/matches/{matchId}", response_model=MatchOut, responses=responses({404: ("match_not_found",)})
)
async def match(db: Db, match_id: MatchId) -> dict[str, Any]:
    """A match (finished or still being played) with its players and every recorded deal."""
    found = await db.match(match_id)
    if found is None:
        raise RoomError(404, "match_not_found", f"no match {match_id!r}")
    return found.to_json()


@router.get(
    "/matches/{matchId}/deals/{dealNumber}/replay",
    response_model=ReplayOut,
    responses=responses({404: ("match_not_found", "deal_not_found"), 409: ("match_in_progress",)}),
)
async def deal_replay(
    db: Db,
    match_id: MatchId,
    deal_number: DealNumber,
) -> dict[str, Any]:
    """A deal of a finished match: its full start state, its action log, and the state
    they lead to.

    The match is over, so nothing is hidden: the start state holds every hand and the
    shuffle seed. ``finalState`` is recomputed by running the log through the engine;
    ``replay.consistent`` says whether that reproduces the recorded scores. While the match
    is played, 409 ``match_in_progress``: every deal's shuffle follows from the match seed,
    so any deal's seed or state would predict the hands and draw pile of the deals to come.
    """
    replay, _ = await _finished_deal(db, match_id, deal_number)
    return {**replay.to_json(), **replay_check(replay)}


@router.get(
    "/matches/{matchId}/deals/{dealNumber}/frames",
    response_model=FramesOut,
    responses=responses({404: ("match_not_found", "deal_not_found"), 409: ("match_in_progress",)}),
)
async def deal_frames(
    db: Db, cache: Frames, match_id: MatchId, deal_number: DealNumber
) -> Response:
    """A deal of a finished match frame by frame, for the replay page: the start and each
    action, with the table as an all-seeing spectator sees it (every hand, in seat order).

    Built by the engine's replay of the recorded log, once per deal and node (a finished
    deal never changes). 409 ``match_in_progress`` while the match is played, as the
    replay route.
    """
    body = cache.get((match_id, deal_number))
    if body is None:
        replay, deals = await _finished_deal(db, match_id, deal_number)
        body = cache.put((match_id, deal_number), frames(replay, deals))
    return Response(body, media_type="application/json")


async def _finished_deal(
    db: Database, match_id: str, deal_number: int
) -> tuple[DealReplay, list[int]]:
    """A finished match's deal and the match's deal numbers; 404 or 409 otherwise."""
    found = await db.match(match_id)
    if found is None:
        raise RoomError(404, "match_not_found", f"no match {match_id!r}")
    if found.finished is None:
        raise RoomError(
            409,
            "match_in_progress",
            f"match {match_id!r} is still being played; its replays are served once it is over",
        )
    replay = await db.deal_replay(match_id, deal_number)
    if replay is None:
        raise RoomError(404, "deal_not_found", f"match {match_id!r} has no deal {deal_number}")
    return replay, [d.number for d in found.deals]
