"""What a room's summary holds: the lobby's entries, ``GET /api/rooms/{id}`` and the lobby
socket's pushes share one shape (made from a room document by ``app.rooms.doc.summary``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.wire.content import SeatRating


class PlayerSummary(BaseModel):
    seat: int
    name: str
    connected: bool
    bot: str | None = Field(default=None, description="a bot's level: the room plays the seat")
    away: bool = Field(default=False, description="the autopilot plays the seat meanwhile")
    left: bool = Field(default=False, description="its player left mid-match; a bot plays on")
    rating: SeatRating | None = Field(default=None, description="an account's seat: its rating")


class RoomSummary(BaseModel):
    roomId: str
    name: str
    seats: int
    private: bool
    spectators: bool
    status: str = Field(description="lobby, playing or over")
    rules: dict[str, Any]
    players: list[PlayerSummary]
    createdAt: int
    nextDealDelay: int = 0
    fairRaces: bool = True
    rated: bool = Field(default=False, description="its matches are rated (docs/ratings.md)")
    turnSeconds: int | Literal["off"] = "off"
    timeBank: int = 0
    absentAfter: int = 30
    hostSeat: int | None = Field(default=None, description="the hosting seat (None: no seat hosts)")
    bans: list[str] = Field(default_factory=list, description="names the host kicked")
    seq: int | None = None
