"""REST for rooms (docs/protocol.md): create, lobby, get, join, start, leave, kick,
settings. Changes to a room go through the room's log like every socket action, so that
REST and sockets share one order; only reads come straight from the store.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

import engine
from app.accounts.ratings import pool_of
from app.api.errors import RULE_CODES, responses
from app.api.rules_schema import RULES_SCHEMA
from app.api.text import ID_MAX, ID_PATTERN, NAME_PATTERN, cleaned_name
from app.deps import (
    AppSettings,
    Authorization,
    ClientAddress,
    CurrentAccount,
    Db,
    Lobbies,
    QuickplayQueue,
    RoomHost,
    Rooms,
    RoomSeat,
    bearer,
)
from app.errors import RoomError
from app.rooms import commands, tokens
from app.rooms.doc import new_doc, player_by_token, summary
from app.rooms.eventlog import deal_events
from app.rooms.seat_counts import check_seats
from app.wire.summary import RoomSummary
from engine.bots import RoomLevel

router = APIRouter(prefix="/api/rooms", tags=["rooms"])

# Stored cleaned (app.names.clean_name): trimmed, no format characters.
Name = Annotated[
    str, Field(min_length=1, max_length=40, pattern=NAME_PATTERN), AfterValidator(cleaned_name)
]
RoomId = Annotated[str, Path(max_length=ID_MAX, pattern=ID_PATTERN)]
# Join codes are 6 characters; a little room for spaces typed around them.
Code = Annotated[str, Field(max_length=16)]
MAX_SEATS = 10
Rules = Annotated[dict[str, Any], WithJsonSchema(RULES_SCHEMA)]
# 5-300 seconds, or off (0, "off" or null); the validator below says the same.
TurnSeconds = Annotated[
    int | Literal["off"] | None,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": 5, "maximum": 300},
                {"const": 0},
                {"const": "off"},
                {"type": "null"},
            ]
        }
    ),
]


TURN_SECONDS_DOC = (
    'seconds per decision, 5-300, or "off" (also 0 or null): no turn timer; a decision'
    " past it spends the seat's time bank, then the room plays it (docs/rules.md)"
)


def _turn_seconds(value: Any) -> int:
    """``turnSeconds`` as stored: 0 for off, else 5-300."""
    if value is None or value == "off" or value == 0:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 5 <= value <= 300:
        raise ValueError('turnSeconds is 5-300 or "off"')
    return value


class Timers(BaseModel):
    """The room's timer settings (docs/rules.md, "Timers and absent players")."""

    turnSeconds: TurnSeconds = Field(default=None, description=TURN_SECONDS_DOC)
    timeBank: int | None = Field(
        default=None, ge=0, le=300, description="seconds of extra time per player per match"
    )
    absentAfter: int | None = Field(
        default=None,
        ge=5,
        le=600,
        description="seconds a seat may be disconnected before the autopilot plays it",
    )

    @field_validator("turnSeconds")
    @classmethod
    def _check_turn(cls, value: Any) -> Any:
        _turn_seconds(value)
        return value


class CreateRoom(Timers):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    rules: Rules = Field(default_factory=dict, description="preset plus options")
    seats: int = Field(default=4, ge=2, le=MAX_SEATS)
    private: bool = False
    spectators: bool = Field(default=True, description="whether token-less sockets may watch")
    nextDealDelay: int = Field(
        default=0,
        ge=0,
        le=600,
        description="seconds after a deal ends until the room deals the next (0: a player"
        " sends nextDeal)",
    )
    fairRaces: bool = Field(
        default=True,
        description="judge out-of-turn races by reaction time, not arrival (docs/fairness.md)",
    )
    rated: bool = Field(
        default=False, description="rate its matches with two or more accounts seated"
    )


class RoomCreated(BaseModel):
    roomId: str
    code: str = Field(description="the join code (required to join a private room)")
    hostToken: str = Field(description="proof of hosting: start, kick, settings")


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    code: Code | None = None
    ageConfirmed: bool = Field(
        default=False, description="of legal drinking age (required where drinks are on)"
    )


class JoinByCode(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    code: Code
    ageConfirmed: bool = False


class Joined(BaseModel):
    roomId: str
    seat: int
    token: str = Field(description="the only proof of the seat; send it on the socket")
    playerId: str
    code: str | None = Field(
        default=None, description="the room's join code, for the player to share"
    )


class Kick(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, lt=MAX_SEATS)


class Settings(Timers):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name | None = None
    rules: Rules | None = None
    seats: int | None = Field(default=None, ge=2, le=MAX_SEATS)
    private: bool | None = None
    spectators: bool | None = None
    nextDealDelay: int | None = Field(default=None, ge=0, le=600)
    fairRaces: bool | None = None
    rated: bool | None = None


class Started(BaseModel):
    seq: int = Field(description="the seq of the start change in the room's order")


# What each route can answer besides success (see app.api.errors.responses).
_BUSY = {503: ("shutting_down", "timeout")}
_HOST = {401: ("missing_token",), 403: ("not_host",), 404: ("room_not_found",)}
CREATE_ERRORS = responses({422: (*RULE_CODES, "bad_seats"), 429: ("too_many_rooms",)})
GET_ERRORS = responses({404: ("room_not_found",)})
_ACCOUNT = {401: ("missing_token", "account/bad_token")}
CODE_ERRORS = responses({404: ("bad_code", "room_not_found")})
JOIN_ERRORS = responses(
    {
        **_ACCOUNT,
        403: ("bad_code", "age_confirmation_required", "banned"),
        404: ("room_not_found",),
        409: ("room_full", "name_taken", "match_in_progress", "account/already_seated"),
        **_BUSY,
    }
)
JOIN_CODE_ERRORS = responses(
    {
        **_ACCOUNT,
        403: ("age_confirmation_required", "banned"),
        404: ("bad_code",),
        409: ("room_full", "name_taken", "match_in_progress", "account/already_seated"),
        **_BUSY,
    }
)
START_ERRORS = responses(
    {
        **_HOST,
        409: ("match_in_progress", "not_enough_players", "age_confirmation_required"),
        **_BUSY,
    }
)
_SEAT = {401: ("missing_token",), 403: ("not_seated",), 404: ("room_not_found",)}
LEAVE_ERRORS = responses({**_SEAT, **_BUSY})
BACK_ERRORS = responses({**_SEAT, 409: ("not_away",), **_BUSY})
CLAIM_ERRORS = responses({**_SEAT, 409: ("not_playing", "cannot_claim"), **_BUSY})
BOT_ERRORS = responses({**_HOST, 409: ("match_in_progress", "room_full"), **_BUSY})
UNBAN_ERRORS = responses({**_HOST, 404: ("room_not_found", "not_banned"), **_BUSY})
KICK_ERRORS = responses(
    {
        **_HOST,
        404: ("room_not_found", "seat_empty"),
        409: ("match_in_progress", "seat_left"),
        **_BUSY,
    }
)
RACES_ERRORS = responses(_HOST)
SETTINGS_ERRORS = responses(
    {**_HOST, 409: ("match_in_progress", "seats_taken"), 422: (*RULE_CODES, "bad_seats"), **_BUSY}
)
RACES_ERRORS = responses(_HOST)


def _rules(data: dict[str, Any]) -> dict[str, Any]:
    try:
        rules: dict[str, Any] = engine.rules_from_json(data).to_json()
    except engine.EngineError as err:
        raise RoomError.from_engine(err, 422) from None
    return rules


@router.post("", status_code=201, response_model=RoomCreated, responses=CREATE_ERRORS)
async def create_room(
    body: CreateRoom,
    db: Db,
    rooms: Rooms,
    settings: AppSettings,
    lobbies: Lobbies,
    address: ClientAddress,
    queue: QuickplayQueue,
) -> RoomCreated:
    """Open a room; its creator hosts it (and joins it like anyone else). An address
    holds at most ``max_open_lobbies_per_address`` lobby rooms open (``429
    too_many_rooms``)."""
    rules = _rules(body.rules)
    check_seats(rules, body.seats)
    cap = settings.max_open_lobbies_per_address
    # The address's waiting quick-play tickets count too: each becomes a started room.
    if await lobbies.count(address, rooms.store) + await queue.held(address) >= cap:
        raise RoomError(
            429,
            "too_many_rooms",
            f"this address has {cap} lobby rooms open; start one, or wait for one to end",
        )
    room_id, code, host_token = tokens.new_room_id(), tokens.new_code(), tokens.new_token()
    doc = new_doc(
        room_id=room_id,
        name=body.name,
        code=code,
        private=body.private,
        spectators=body.spectators,
        seats=body.seats,
        rules=rules,
        host_hash=tokens.hash_token(host_token),
        now_ms=rooms.now_ms(),
        next_deal_delay=body.nextDealDelay,
        turn_seconds=_turn_seconds(body.turnSeconds),
        time_bank=30 if body.timeBank is None else body.timeBank,
        absent_after=30 if body.absentAfter is None else body.absentAfter,
    )
    doc["fairRaces"] = body.fairRaces
    doc["rated"] = body.rated
    await db.record_room(room_id, body.name, rules, body.seats, body.private)
    await rooms.store.create(room_id, doc, code, doc["listed"])
    await rooms.created(room_id, doc)
    await lobbies.opened(address, room_id)
    return RoomCreated(roomId=room_id, code=code, hostToken=host_token)


@router.get("", response_model=list[RoomSummary], responses=responses({}))
async def list_rooms(
    rooms: Rooms,
    settings: AppSettings,
    status: Annotated[Literal["lobby", "playing"], Query()] = "lobby",
) -> list[dict[str, Any]]:
    """The lobby: public rooms somebody is in, oldest first. `status=lobby` (the
    default): those not started with a free seat; `status=playing`: running games,
    to watch."""
    docs = await rooms.store.listed(settings.lobby_limit, playing=status == "playing")
    return [summary(doc) for doc in docs]


@router.get("/{room_id}", response_model=RoomSummary, responses=GET_ERRORS)
async def get_room(room_id: RoomId, rooms: Rooms) -> dict[str, Any]:
    record = await rooms.load(room_id)
    return summary(record.doc, record.seq)


@router.get("/code/{code}", response_model=RoomSummary, responses=CODE_ERRORS)
async def room_by_code(code: Annotated[str, Path(max_length=16)], rooms: Rooms) -> dict[str, Any]:
    """The room with this join code, as `GET /api/rooms/{roomId}` shows it: a client
    holding a code learns whether its match has begun (to watch it) before joining."""
    room_id = await rooms.store.room_for_code(code.strip().upper())
    if room_id is None:
        raise RoomError(404, "bad_code", "no room has this code")
    record = await rooms.load(room_id)
    return summary(record.doc, record.seq)


async def _join(
    db: Db,
    rooms: Rooms,
    room_id: str,
    name: str,
    code: str,
    age: bool = False,
    account: CurrentAccount | None = None,
) -> Joined:
    token, pid = tokens.new_token(), tokens.new_id()
    signed_in = None if account is None else await account.optional()
    rating = None
    if signed_in is None:
        await db.record_player(pid, name)
    else:
        # The seat is the account's: its id, its name, its rating in the room's pool.
        pid, name = signed_in.id, signed_in.name
        rules = (await rooms.load(room_id)).doc["rules"]
        rating = await db.rating_in(pid, pool_of(rules))
    command = commands.Join(
        pid=pid, name=name, token=tokens.hash_token(token), age=age, rating=rating
    )
    result = await rooms.submit(room_id, command)
    return Joined(roomId=room_id, seat=result["seat"], token=token, playerId=pid, code=code)


@router.post("/join", status_code=201, response_model=Joined, responses=JOIN_CODE_ERRORS)
async def join_by_code(body: JoinByCode, db: Db, rooms: Rooms, account: CurrentAccount) -> Joined:
    """Take a seat in the room with this join code (private or not)."""
    code = body.code.strip().upper()
    room_id = await rooms.store.room_for_code(code)
    if room_id is None:
        raise RoomError(404, "bad_code", "no room has this code")
    try:
        return await _join(db, rooms, room_id, body.name, code, body.ageConfirmed, account)
    except RoomError as err:
        if err.code == "match_in_progress":
            # The code was right: say which room, so that the player may watch it.
            raise RoomError(err.status, err.code, err.message, {"roomId": room_id}) from None
        raise


@router.post("/{room_id}/join", status_code=201, response_model=Joined, responses=JOIN_ERRORS)
async def join_room(
    room_id: RoomId, body: JoinRoom, db: Db, rooms: Rooms, account: CurrentAccount
) -> Joined:
    """Take the lowest free seat. A private room wants its ``code``."""
    record = await rooms.load(room_id)
    if record.doc["private"]:
        if body.code is None or body.code.strip().upper() != record.doc["code"]:
            raise RoomError(403, "bad_code", "this room is private; its code is needed")
    return await _join(
        db, rooms, room_id, body.name, record.doc["code"], body.ageConfirmed, account
    )


class EventHistory(BaseModel):
    seq: int = Field(description="the seq of the room's last change; later events come as patches")
    events: list[dict[str, Any]] = Field(
        description="the current deal's events, oldest first, each with the seq and ts of its"
        " change (and faceUp, the side in play, for UNO Flip)"
    )


@router.get(
    "/{room_id}/events",
    response_model=EventHistory,
    responses=responses(
        {401: ("missing_token",), 403: ("no_spectators",), 404: ("room_not_found",)}
    ),
)
async def event_history(
    room_id: RoomId, rooms: Rooms, authorization: Authorization = None
) -> EventHistory:
    """The current deal's events, for a client's log after a reload. With a seat's token as
    bearer the seat's own draws name their cards; without one, as a spectator sees them."""
    record = await rooms.load(room_id)
    seat = None
    if authorization:
        player = player_by_token(record.doc, bearer(authorization))
        seat = None if player is None else int(player["seat"])
    if seat is None and not record.doc["spectators"]:
        raise RoomError(403, "no_spectators", "this room has no spectators")
    return EventHistory(seq=record.seq, events=deal_events(record.deal, seat))


class Mute(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, le=MAX_SEATS)
    muted: bool = True


@router.post(
    "/{room_id}/mute",
    status_code=204,
    responses=responses({**_HOST, 404: ("room_not_found", "seat_empty"), **_BUSY}),
)
async def mute_seat(
    room_id: RoomId,
    body: Mute,
    rooms: Rooms,
    host: RoomHost,
) -> Response:
    """Mute (``muted: false``: unmute) a seat's chat and reactions (host only; any time).
    The game is not touched; ``room.muted`` lists the muted seats."""
    await host(room_id)
    await rooms.submit(room_id, commands.Mute(seat=body.seat, muted=body.muted))
    return Response(status_code=204)


@router.post("/{room_id}/start", response_model=Started, responses=START_ERRORS)
async def start_room(room_id: RoomId, rooms: Rooms, host: RoomHost) -> Started:
    """Deal the first hand (host only; at least two seated players)."""
    await host(room_id)
    result = await rooms.submit(room_id, commands.Start())
    return Started(seq=result["seq"])


@router.post("/{room_id}/leave", status_code=204, responses=LEAVE_ERRORS)
async def leave_room(room_id: RoomId, rooms: Rooms, seat: RoomSeat) -> Response:
    """Give a seat up (bearer: the seat's token). During a match a bot plays the seat to
    the end (its score kept, marked ``left``); before or after one the seat is freed. The
    token dies either way."""
    pid = await seat(room_id)
    await rooms.submit(room_id, commands.Leave(pid=pid))
    return Response(status_code=204)


@router.post("/{room_id}/back", status_code=204, responses=BACK_ERRORS)
async def back_to_seat(room_id: RoomId, rooms: Rooms, seat: RoomSeat) -> Response:
    """ "I'm back" (bearer: the seat's token): the autopilot gives an ``away`` seat back.
    (Opening a socket with the seat's token does the same.)"""
    pid = await seat(room_id)
    await rooms.submit(room_id, commands.Back(pid=pid))
    return Response(status_code=204)


@router.post("/{room_id}/claim", status_code=204, responses=CLAIM_ERRORS)
async def claim_win(room_id: RoomId, rooms: Rooms, seat: RoomSeat) -> Response:
    """Two seats, the opponent away (or left): the present player ends the match as its
    winner (bearer: the seat's token)."""
    pid = await seat(room_id)
    await rooms.submit(room_id, commands.Claim(pid=pid))
    return Response(status_code=204)


class AddBot(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    level: RoomLevel = Field(
        default="normal",
        description="easy: first legal card; normal: the autopilot's policy; hard: decides"
        " by simulation",
    )


class BotSeated(BaseModel):
    seat: int


@router.post("/{room_id}/bots", status_code=201, response_model=BotSeated, responses=BOT_ERRORS)
async def add_bot(
    room_id: RoomId,
    body: AddBot,
    rooms: Rooms,
    host: RoomHost,
) -> BotSeated:
    """Seat a bot in the lowest free seat (host only; not during a match)."""
    await host(room_id)
    result = await rooms.submit(room_id, commands.Bot(level=body.level))
    return BotSeated(seat=result["seat"])


class Unban(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name


@router.post("/{room_id}/unban", status_code=204, responses=UNBAN_ERRORS)
async def unban(
    room_id: RoomId,
    body: Unban,
    rooms: Rooms,
    host: RoomHost,
) -> Response:
    """Lift a kick's ban: the name may take a seat again (host only)."""
    await host(room_id)
    await rooms.submit(room_id, commands.Unban(name=body.name))
    return Response(status_code=204)


@router.post("/{room_id}/kick", status_code=204, responses=KICK_ERRORS)
async def kick_player(
    room_id: RoomId,
    body: Kick,
    rooms: Rooms,
    host: RoomHost,
) -> Response:
    """Remove the player in ``seat`` (host only). Their token dies and their name is banned
    from the room until the host lifts it; during a match a bot plays the seat on."""
    await host(room_id)
    await rooms.submit(room_id, commands.Kick(seat=body.seat))
    return Response(status_code=204)


class RaceStats(BaseModel):
    seat: int
    name: str
    claims: int = Field(description="claims that took part in a claim window")
    wins: int
    superhuman: int = Field(
        description="claims faster than humanly possible (under 100 ms after compensation)"
    )
    invalid: int = Field(description="claims of nothing (each locked the claimant out briefly)")


class RoomRaces(BaseModel):
    fairRaces: bool
    seats: list[RaceStats]


@router.get("/{room_id}/races", response_model=RoomRaces, responses=RACES_ERRORS)
async def race_stats(room_id: RoomId, host: RoomHost) -> dict[str, Any]:
    """Each seat's claim windows in this room (host only): claims, wins, claims faster than
    a person can react, and claims of nothing. See docs/fairness.md."""
    record = await host(room_id)
    empty = {"claims": 0, "wins": 0, "superhuman": 0, "invalid": 0}
    seats = [
        {"seat": p["seat"], "name": p["name"], **empty, **p.get("races", {})}
        for p in record.doc["players"]
    ]
    return {"fairRaces": record.doc.get("fairRaces", True), "seats": seats}


@router.patch("/{room_id}", response_model=RoomSummary, responses=SETTINGS_ERRORS)
async def change_settings(
    room_id: RoomId,
    body: Settings,
    db: Db,
    rooms: Rooms,
    host: RoomHost,
) -> dict[str, Any]:
    """Change name, rules, seats, privacy, spectators or timers (host only; not during a
    match)."""
    await host(room_id)
    changes = body.model_dump(exclude_none=True)
    if "turnSeconds" in changes:
        changes["turnSeconds"] = _turn_seconds(changes["turnSeconds"])
    if "rules" in changes:
        changes["rules"] = _rules(changes["rules"])
    if changes:
        await rooms.submit(room_id, commands.Settings(changes=changes))
    record = await rooms.load(room_id)
    doc = record.doc
    await db.record_room(room_id, doc["name"], doc["rules"], doc["seats"], doc["private"])
    return summary(doc, record.seq)
