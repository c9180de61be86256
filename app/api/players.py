"""REST for players with accounts: profiles, leaderboards, and a match's rating changes
(docs/ratings.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from app.accounts.account_names import name_key
from app.accounts.ratings import Pool
from app.api.errors import ErrorRoute, responses
from app.api.text import ID_MAX, ID_PATTERN
from app.deps import Db
from app.errors import RoomError

router = APIRouter(prefix="/api", tags=["players"], route_class=ErrorRoute)


class RatingOut(BaseModel):
    value: int = Field(description="the shown rating (1500 for a newcomer)")
    provisional: bool = Field(description="fewer than 20 rated games: shown with a ?")
    games: int = Field(description="rated games in the pool")


class Stats(BaseModel):
    matches: int
    wins: int
    placings: dict[str, int] = Field(description='rated matches per place: {"1": 3, "2": 1}')
    deals: int
    cardsPlayed: int


class RecentMatch(BaseModel):
    matchId: str
    roomId: str
    roomName: str
    started: str
    finished: str
    seat: int
    winner: int | None
    won: bool
    deals: int
    players: list[dict[str, Any]]
    place: int | None = Field(description="the place in a rated match, else null")
    ratingBefore: int | None
    ratingAfter: int | None


class Profile(BaseModel):
    name: str
    ratings: dict[str, RatingOut]
    stats: Stats
    recent: list[RecentMatch] = Field(description="the last 20 finished matches, newest first")


class Leader(RatingOut):
    rank: int
    name: str


class Leaderboard(BaseModel):
    pool: Pool
    players: list[Leader]


class SeatChange(BaseModel):
    seat: int
    place: int
    ratingBefore: int
    ratingAfter: int
    games: int = Field(description="its rated games in the pool after this match")
    provisional: bool = Field(description="ratingAfter is provisional (shown with a ?)")


class MatchRatings(BaseModel):
    matchId: str
    rated: bool = Field(description="false: not rated (yet: a match is rated once stored)")
    seats: list[SeatChange]


Name = Annotated[str, Path(max_length=ID_MAX, pattern=ID_PATTERN)]
MatchId = Annotated[str, Path(alias="matchId", max_length=ID_MAX, pattern=ID_PATTERN)]


@router.get(
    "/players/{name}", response_model=Profile, responses=responses({404: ("player_not_found",)})
)
async def profile(name: Name, db: Db) -> dict[str, Any]:
    """An account's public profile: ratings per pool, stats, its last 20 matches."""
    found = await db.profile(name_key(name))
    if found is None:
        raise RoomError(404, "player_not_found", f"no account is named {name!r}")
    return found


@router.get("/leaderboard", response_model=Leaderboard, responses=responses({}))
async def leaderboard(
    db: Db,
    pool: Pool = "classic",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """The pool's best rated players with at least 30 rated games, best first."""
    return {"pool": pool, "players": await db.leaderboard(pool, limit)}


@router.get("/matches/{matchId}/ratings", response_model=MatchRatings, responses=responses({}))
async def match_ratings(match_id: MatchId, db: Db) -> dict[str, Any]:
    """The rating change of each rated seat of a match (shown at its end)."""
    changes = await db.rating_changes(match_id)
    return {
        "matchId": match_id,
        "rated": bool(changes),
        "seats": [{"seat": seat, **change} for seat, change in sorted(changes.items())],
    }
