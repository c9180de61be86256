"""What the database hands back: plain frozen values, detached from any session.

Each has ``to_json()`` giving the REST shape (camelCase keys, ISO 8601 UTC times), so the
routers and any other reader agree on one spelling.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a match: who sat there and their running total (None before any deal)."""

    seat: int
    player_id: str | None
    name: str
    total: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "playerId": self.player_id,
            "name": self.name,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A finished deal of a match, without its action log."""

    number: int
    dealer: int | None
    winner: int | None
    match_over: bool
    finished: datetime
    scores: list[int | None]
    totals: list[int]
    actions: int

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "winner": self.winner,
            "matchOver": self.match_over,
            "finished": iso(self.finished),
            "scores": self.scores,
            "totals": self.totals,
            "actions": self.actions,
        }


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match with its seats and every recorded deal."""

    id: str
    room_id: str
    room_name: str
    rules: dict[str, Any]
    started: datetime
    finished: datetime | None
    winner: int | None
    seats: list[SeatRecord]
    deals: list[DealSummary]

    def to_json(self) -> dict[str, Any]:
        return {
            "matchId": self.id,
            "roomId": self.room_id,
            "roomName": self.room_name,
            "rules": self.rules,
            "started": iso(self.started),
            "finished": iso(self.finished),
            "matchOver": self.finished is not None,
            "winner": self.winner,
            "players": [s.to_json() for s in self.seats],
            "deals": [d.to_json() for d in self.deals],
        }


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One finished match as seen from one player's history."""

    match_id: str
    room_id: str
    room_name: str
    started: datetime
    finished: datetime
    seat: int
    winner: int | None
    deals: int
    players: list[SeatRecord]

    def to_json(self) -> dict[str, Any]:
        return {
            "matchId": self.match_id,
            "roomId": self.room_id,
            "roomName": self.room_name,
            "started": iso(self.started),
            "finished": iso(self.finished),
            "seat": self.seat,
            "winner": self.winner,
            "won": self.winner == self.seat,
            "deals": self.deals,
            "players": [p.to_json() for p in self.players],
        }


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One entry of a deal's action log, in the form the room service recorded it."""

    seq: int
    ts: int
    seat: int | None
    action: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "seat": self.seat, "action": self.action}


@dataclass(frozen=True, slots=True)
class DealReplay:
    """Everything needed to replay one finished deal: its start state and action log."""

    match_id: str
    number: int
    seed: str | None
    dealer: int | None
    start_state: dict[str, Any]
    actions: list[ActionRecord]
    scores: list[int | None]
    totals: list[int]
    winner: int | None
    match_over: bool
    finished: datetime
    seats: list[SeatRecord]

    def to_json(self) -> dict[str, Any]:
        return {
            "matchId": self.match_id,
            "deal": self.number,
            "seed": self.seed,
            "dealer": self.dealer,
            "players": [s.to_json() for s in self.seats],
            "startState": self.start_state,
            "actions": [a.to_json() for a in self.actions],
            "scores": self.scores,
            "totals": self.totals,
            "winner": self.winner,
            "matchOver": self.match_over,
            "finished": iso(self.finished),
        }


@dataclass(frozen=True, slots=True)
class ScoresheetRecord:
    """A scoresheet match as stored: rules, players and the entries of every deal.

    Standings are not stored: they are always recomputed from the entries under the
    current rules (docs/rules.md and docs/scoresheet.md), by ``engine.scoresheet``.
    """

    id: str
    name: str
    rules: dict[str, Any]
    players: list[str]
    deals: list[list[int]]
    created: datetime
    updated: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "players": self.players,
            "deals": self.deals,
            "created": iso(self.created),
            "updated": iso(self.updated),
        }
