"""Every dependency of the REST routes and the sockets, each named once as an ``Annotated`` alias.

A route asks for what it needs by type (``db: Db``, ``rooms: Rooms``, ``host: RoomHost``)
and never reads ``request.app.state`` itself; the app sets those objects up at start
(:mod:`app.main`).

The token checks (:data:`RoomHost`, :data:`RoomSeat`) are handed to the route as a check
it awaits, not run while FastAPI resolves the dependencies: that resolution runs before
the body is validated, and a malformed request must stay a 422 ``invalid_request``
whatever its token (as it has always been answered).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from app.accounts.passwords import Passwords
from app.db import Database
from app.db.accounts import AccountRecord, SessionRecord
from app.errors import RoomError
from app.frame_cache import FrameCache
from app.limits import RestLimits, SpectatorSockets
from app.open_rooms import OpenLobbies
from app.pinger import Pinger
from app.quickplay.queue import Queue
from app.rooms import tokens
from app.rooms.doc import player_by_pid, player_by_token
from app.rooms.service import RoomService
from app.settings import Settings
from app.sign_in import SignInLimits
from app.store.base import RoomRecord
from app.tournaments.runner import TournamentRunner
from app.tournaments.service import TournamentService


def get_database(conn: HTTPConnection) -> Database:
    db: Database = conn.app.state.db
    return db


def get_rooms(conn: HTTPConnection) -> RoomService:
    service: RoomService = conn.app.state.rooms
    return service


def get_tournaments(conn: HTTPConnection) -> TournamentService:
    service: TournamentService = conn.app.state.tournaments
    return service


def get_runner(conn: HTTPConnection) -> TournamentRunner:
    runner: TournamentRunner = conn.app.state.tournament_runner
    return runner


def get_limits(conn: HTTPConnection) -> RestLimits:
    limits: RestLimits = conn.app.state.rest_limits
    return limits


def get_spectator_sockets(conn: HTTPConnection) -> SpectatorSockets:
    sockets: SpectatorSockets = conn.app.state.spectator_sockets
    return sockets


def get_open_lobbies(conn: HTTPConnection) -> OpenLobbies:
    lobbies: OpenLobbies = conn.app.state.open_lobbies
    return lobbies


def client_address(conn: HTTPConnection) -> str:
    """The client's address (the real client's behind a trusted proxy)."""
    return conn.client.host if conn.client is not None else "unknown"


def get_pinger(conn: HTTPConnection) -> Pinger:
    pinger: Pinger = conn.app.state.pinger
    return pinger


def get_settings(conn: HTTPConnection) -> Settings:
    settings: Settings = conn.app.state.settings
    return settings


def get_sign_in(conn: HTTPConnection) -> SignInLimits:
    limits: SignInLimits = conn.app.state.sign_in
    return limits


def get_passwords(conn: HTTPConnection) -> Passwords:
    passwords: Passwords = conn.app.state.passwords
    return passwords


def get_queue(conn: HTTPConnection) -> Queue:
    queue: Queue = conn.app.state.quickplay_queue
    return queue


Db = Annotated[Database, Depends(get_database)]


def get_frame_cache(conn: HTTPConnection) -> FrameCache:
    # Made on first use: every app serving the history routes gets one, however assembled.
    state = conn.app.state
    if getattr(state, "frame_cache", None) is None:
        state.frame_cache = FrameCache()
    cache: FrameCache = state.frame_cache
    return cache


Frames = Annotated[FrameCache, Depends(get_frame_cache)]
SignIn = Annotated[SignInLimits, Depends(get_sign_in)]
Hasher = Annotated[Passwords, Depends(get_passwords)]
QuickplayQueue = Annotated[Queue, Depends(get_queue)]
Rooms = Annotated[RoomService, Depends(get_rooms)]
Tournaments = Annotated[TournamentService, Depends(get_tournaments)]
Runner = Annotated[TournamentRunner, Depends(get_runner)]
AppSettings = Annotated[Settings, Depends(get_settings)]
Limits = Annotated[RestLimits, Depends(get_limits)]
Spectating = Annotated[SpectatorSockets, Depends(get_spectator_sockets)]
Pinging = Annotated[Pinger, Depends(get_pinger)]
Lobbies = Annotated[OpenLobbies, Depends(get_open_lobbies)]
ClientAddress = Annotated[str, Depends(client_address)]
# The raw ``Authorization`` header (``Bearer <token>``), for the checks below.
Authorization = Annotated[str | None, Header()]


def bearer(authorization: str | None) -> str:
    """The token of ``Authorization: Bearer <token>``; 401 ``missing_token`` without one."""
    if not authorization or not authorization.lower().startswith("bearer "):
        raise RoomError(401, "missing_token", "send Authorization: Bearer <token>")
    return authorization[7:].strip()


@dataclass(frozen=True, slots=True)
class HostCheck:
    """``await host(room_id)``: the room, if the bearer hosts it."""

    rooms: RoomService
    authorization: str | None

    async def __call__(self, room_id: str) -> RoomRecord:
        # The host token, or once the host role has passed on (the host's seat left or
        # went away), the seat token of the seat it passed to.
        token = bearer(self.authorization)
        record = await self.rooms.load(room_id)
        doc = record.doc
        if doc["host"]:
            if tokens.same_hash(token, doc["host"]):
                return record
            raise RoomError(403, "not_host", "this token does not host the room")
        seat = None if doc.get("hostPid") is None else player_by_pid(doc, doc["hostPid"])
        if seat is not None and seat["token"] and tokens.same_hash(token, seat["token"]):
            return record
        raise RoomError(403, "not_host", "this token does not host the room")


@dataclass(frozen=True, slots=True)
class SeatCheck:
    """``await seat(room_id)``: the player id of the bearer's seat in the room."""

    rooms: RoomService
    authorization: str | None

    async def __call__(self, room_id: str) -> str:
        token = bearer(self.authorization)
        record = await self.rooms.load(room_id)
        player = player_by_token(record.doc, token)
        if player is None:
            raise RoomError(403, "not_seated", "this token holds no seat in the room")
        return str(player["pid"])


def _host_check(rooms: Rooms, authorization: Authorization = None) -> HostCheck:
    return HostCheck(rooms, authorization)


def _seat_check(rooms: Rooms, authorization: Authorization = None) -> SeatCheck:
    return SeatCheck(rooms, authorization)


RoomHost = Annotated[HostCheck, Depends(_host_check)]
RoomSeat = Annotated[SeatCheck, Depends(_seat_check)]


async def session_for(db: Database, authorization: str | None) -> tuple[SessionRecord, str]:
    """The live session whose token ``Authorization: Bearer`` holds, and the token's hash.

    :raises RoomError: 401 ``missing_token``, or 401 ``account/bad_token`` (no live session
        has this token: never issued, signed out, expired, or not an account token).
    """
    token_hash = tokens.hash_token(bearer(authorization))
    found = await db.session_by_token(token_hash)
    if found is None:
        raise RoomError(401, "account/bad_token", "this token is no account's session")
    return found, token_hash


async def account_for(db: Database, authorization: str | None) -> AccountRecord:
    """The account whose token ``Authorization: Bearer`` holds (see :func:`session_for`)."""
    found, _ = await session_for(db, authorization)
    return found.account


@dataclass(frozen=True, slots=True)
class AccountCheck:
    """``await account()``: the bearer's account; ``await account.optional()``: the same,
    or None when the request has no ``Authorization`` (a guest); ``await
    account.session()``: the bearer's session and its token's hash."""

    db: Database
    authorization: str | None

    async def __call__(self) -> AccountRecord:
        return await account_for(self.db, self.authorization)

    async def optional(self) -> AccountRecord | None:
        if self.authorization is None:
            return None
        return await account_for(self.db, self.authorization)

    async def session(self) -> tuple[SessionRecord, str]:
        return await session_for(self.db, self.authorization)


def _account_check(db: Db, authorization: Authorization = None) -> AccountCheck:
    return AccountCheck(db, authorization)


CurrentAccount = Annotated[AccountCheck, Depends(_account_check)]
