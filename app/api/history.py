"""REST for the history of played games: a player's matches, a match, a deal's replay.

Everything here reads finished deals from SQL (:mod:`app.db`); live rooms are elsewhere.
Errors are ``4xx {"code", "message"}`` like every route of the API (:mod:`app.api.errors`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel

from app.api.errors import ErrorRoute, responses
from app.api.text import DB_INT_MAX, ID_MAX, ID_PATTERN
from app.db import DealReplay
from app.deps import Db
from app.errors import RoomError
from engine import EngineError, replay_log, state_from_json


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


router = APIRouter(prefix="/api", tags=["history"], route_class=ErrorRoute)
PlayerId = Annotated[str, Path(alias="playerId", max_length=ID_MAX, pattern=ID_PATTERN)]
MatchId = Annotated[str, Path(alias="matchId", max_length=ID_MAX, pattern=ID_PATTERN)]


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
    deal_number: Annotated[int, Path(alias="dealNumber", ge=1, le=DB_INT_MAX)],
) -> dict[str, Any]:
    """A deal of a finished match: its full start state, its action log, and the state
    they lead to.

    The match is over, so nothing is hidden: the start state holds every hand and the
    shuffle seed. ``finalState`` is recomputed by running the log through the engine;
    ``replay.consistent`` says whether that reproduces the recorded scores. While the match
    is played, 409 ``match_in_progress``: every deal's shuffle follows from the match seed,
    so any deal's seed or state would predict the hands and draw pile of the deals to come.
    """
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
    return {**replay.to_json(), **_replay(replay)}


def _replay(replay: DealReplay) -> dict[str, Any]:
    """The engine's final state for the recorded actions, or where the replay broke."""
    try:
        state = state_from_json(replay.start_state)
    except (KeyError, TypeError, ValueError) as error:
        # Recorded by an engine whose state format differs from this one's.
        problem: dict[str, Any] = {
            "index": None,
            "code": "replay/bad_start_state",
            "message": str(error),
        }
        return {"finalState": None, "replay": {"consistent": False, "error": problem}}
    entries = (
        {"seat": e.seat if e.seat is not None else -1, "action": e.action} for e in replay.actions
    )
    done = 0  # the actions replayed: the index of one that breaks the replay
    try:
        for step in replay_log(entries, state):
            if step.after is not None:  # always: the replay starts from a state
                state = step.after
            done += 1
    except EngineError as error:
        problem = {"index": done, "code": error.code, "message": error.message}
        return {"finalState": None, "replay": {"consistent": False, "error": problem}}
    # Every game's state keeps running totals; a deal's scores only where deals are scored.
    scores = state.deal_scores
    consistent = list(state.totals) == replay.totals and (
        replay.scores == [None] * len(replay.scores) or list(scores or ()) == replay.scores
    )
    return {"finalState": state.to_json(), "replay": {"consistent": consistent, "error": None}}
