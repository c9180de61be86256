"""REST for tournaments (docs/tournaments.md, docs/protocol.md): create one with a host
token, register and check in with a player token, withdraw, and read the field and the
standings. Every refusal is a 4xx with a stable code and changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.api.errors import responses
from app.api.rooms import Name, Rules, _rules, _turn_seconds
from app.api.text import ID_MAX, ID_PATTERN
from app.db import Database
from app.deps import Authorization, Db, Rooms, Tournaments, account_for, bearer
from app.errors import RoomError
from app.rooms import tokens
from app.rooms.seat_counts import check_seats
from app.tournaments import rounds, tables
from app.tournaments import service as tour
from app.tournaments.service import TournamentService
from app.tournaments.swiss import MAX_TABLE, MIN_TABLE

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

TournamentId = Annotated[str, Path(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)]


class CreateTournament(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    rules: Rules = Field(default_factory=dict, description="preset plus options")
    tableSize: int = Field(default=4, ge=MIN_TABLE, le=MAX_TABLE)
    rounds: int = Field(ge=1, le=20)
    dealsPerRound: int = Field(default=1, ge=1, le=10)
    turnSeconds: int = Field(ge=5, le=300, description="seconds per decision: tables are timed")
    tableStartSeconds: int = Field(
        default=60,
        ge=0,
        le=3600,
        description="seconds after a round starts until its tables deal (sooner when every"
        " player of a table is there); absent players are played by the autopilot",
    )
    rated: bool = Field(
        default=False,
        description="the tables are rated rooms: their matches rate the seats of accounts",
    )

    @field_validator("turnSeconds")
    @classmethod
    def _timed(cls, value: int) -> int:
        if _turn_seconds(value) == 0:
            raise ValueError("tournament tables are timed: turnSeconds is 5-300")
        return value


class TournamentCreated(BaseModel):
    tournamentId: str
    hostToken: str


class Register(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    seed: int | None = Field(default=None, ge=1, le=10_000, description="the host's seeding")


class Registered(BaseModel):
    playerId: str
    token: str


_NOT_FOUND = {404: ("tournament/not_found",)}
_AUTH = {401: ("missing_token",)}


@dataclass(frozen=True, slots=True)
class Hosting:
    """Who asks to act as the host: the bearer, and the account it is a session of (looked
    up only when it is not the host token and the tournament has a host account)."""

    token: str
    account: str | None = None

    def hosts(self, doc: dict[str, Any]) -> bool:
        if tokens.same_hash(self.token, doc["host"]):
            return True
        return self.account is not None and self.account == doc.get("hostAccount")

    def check(self, doc: dict[str, Any]) -> None:
        if not self.hosts(doc):
            raise RoomError(403, "tournament/not_host", "this token does not host the tournament")


async def hosting(
    db: Database, service: TournamentService, tournament_id: str, auth: str | None
) -> Hosting:
    """The host's credentials: the host token, or a session of the host's account."""
    token = bearer(auth)
    doc = await service.load(tournament_id)
    if tokens.same_hash(token, doc["host"]) or not doc.get("hostAccount"):
        return Hosting(token)
    try:
        account = await account_for(db, auth)
    except RoomError:
        return Hosting(token)  # no account's session: judged as a host token (refused)
    return Hosting(token, account.id)


def _player(doc: dict[str, Any], auth: str | None) -> dict[str, Any]:
    player = tour.player_by_token(doc, bearer(auth))
    if player is None:
        raise RoomError(403, "tournament/not_registered", "this token is not registered here")
    return player


@router.post(
    "",
    status_code=201,
    response_model=TournamentCreated,
    responses=responses(
        {
            401: ("account/bad_token",),
            422: ("rules/unknown_option", "rules/bad_value", "bad_seats", "rules/clash"),
        }
    ),
)
async def create_tournament(
    body: CreateTournament, db: Db, service: Tournaments, authorization: Authorization = None
) -> TournamentCreated:
    """A tournament in registration; the answer's `hostToken` is the bearer of every host
    action. A signed-in host (the account's token as bearer) also hosts it as the account:
    its token works as the host token, on any device it signs in on."""
    rules = _rules(body.rules)
    check_seats(rules, body.tableSize)  # the rules must be able to deal to a full table
    account = None if authorization is None else await account_for(db, authorization)
    host_token = tokens.new_token()
    doc = tour.new_doc(
        name=body.name,
        host_token=host_token,
        table_size=body.tableSize,
        rounds=body.rounds,
        turn_seconds=body.turnSeconds,
        rules=rules,
        deals_per_round=body.dealsPerRound,
        now_ms=tour.now_ms(),
        table_start_seconds=body.tableStartSeconds,
        rated=body.rated,
        host_account=None if account is None else account.id,
    )
    return TournamentCreated(tournamentId=await service.create(doc), hostToken=host_token)


@router.get("", responses=responses({}, validated=False))
async def list_tournaments(service: Tournaments) -> list[dict[str, Any]]:
    """The newest tournaments (up to 50), as `GET /api/tournaments/{id}` shows them."""
    shown = []
    for tournament_id in await service.store.recent(50):
        found = await service.store.load(tournament_id)
        if found is not None:
            shown.append(tour.public(tournament_id, found[0]))
    return shown


async def _archived(db: Database, tournament_id: str) -> dict[str, Any]:
    """A finished tournament the store no longer holds, from the SQL archive."""
    found: dict[str, Any] | None = await db.archived_tournament(tournament_id)
    if found is None:
        raise tour.not_found(tournament_id)
    return found


async def _shown(db: Database, service: TournamentService, tournament_id: str) -> dict[str, Any]:
    """The tournament as anyone may see it: from the store while it holds it, else as the
    SQL archive kept it when it was over."""
    found = await service.store.load(tournament_id)
    if found is not None:
        return tour.public(tournament_id, found[0])
    shown: dict[str, Any] = (await _archived(db, tournament_id))["tournament"]
    return shown


@router.get("/{tournament_id}", responses=responses(_NOT_FOUND))
async def get_tournament(
    tournament_id: TournamentId, db: Db, service: Tournaments
) -> dict[str, Any]:
    return await _shown(db, service, tournament_id)


@router.get("/{tournament_id}/standings", responses=responses(_NOT_FOUND))
async def get_standings(
    tournament_id: TournamentId, db: Db, service: Tournaments
) -> dict[str, Any]:
    """Every player ranked by points, then `tieBreaks` in order (docs/tournaments.md)."""
    found = await service.store.load(tournament_id)
    if found is not None:
        doc = found[0]
        return {
            "tieBreaks": tour.public(tournament_id, doc)["tieBreaks"],
            "rows": tour.standings(doc),
        }
    archived = await _archived(db, tournament_id)
    return {"tieBreaks": archived["tournament"]["tieBreaks"], "rows": archived["standings"]}


@router.post(
    "/{tournament_id}/players",
    status_code=201,
    response_model=Registered,
    responses=responses(
        {
            **_NOT_FOUND,
            401: ("account/bad_token",),
            409: (
                "tournament/registration_closed",
                "tournament/name_taken",
                "tournament/already_registered",
            ),
        }
    ),
)
async def register(
    tournament_id: TournamentId,
    body: Register,
    db: Db,
    service: Tournaments,
    authorization: Authorization = None,
) -> Registered:
    """Register a player by name (until the start; late, until half the rounds have
    started). A bearer that is registered here already is refused. An account's bearer
    registers the account: its id and name (the `name` sent is ignored); its seats at the
    tables show its rating, and a rated tournament's tables rate them."""
    token = tokens.new_token()
    doc = await service.load(tournament_id)
    account = None
    if authorization and tour.player_by_token(doc, bearer(authorization)) is None:
        account = await account_for(db, authorization)
    name = body.name if account is None else account.name

    def step(doc: dict[str, Any]) -> dict[str, Any]:
        if authorization and tour.player_by_token(doc, bearer(authorization)) is not None:
            raise RoomError(409, "tournament/already_registered", "this token is registered")
        pid = None if account is None else account.id
        return tour.register(doc, name, token, body.seed, pid)

    _, player = await service.change(tournament_id, step)
    return Registered(playerId=player["pid"], token=token)


@router.post(
    "/{tournament_id}/check-in/open",
    responses=responses(
        {**_NOT_FOUND, **_AUTH, 403: ("tournament/not_host",), 409: ("tournament/started",)}
    ),
)
async def open_check_in(
    tournament_id: TournamentId,
    db: Db,
    service: Tournaments,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: open check-in; at the start, players who did not check in are dropped."""
    host = await hosting(db, service, tournament_id, authorization)

    def step(doc: dict[str, Any]) -> None:
        host.check(doc)
        tour.open_check_in(doc)

    doc, _ = await service.change(tournament_id, step)
    return tour.public(tournament_id, doc)


@router.post(
    "/{tournament_id}/check-in",
    responses=responses(
        {
            **_NOT_FOUND,
            **_AUTH,
            403: ("tournament/not_registered",),
            409: ("tournament/check_in_closed", "tournament/withdrawn"),
        }
    ),
)
async def check_in(
    tournament_id: TournamentId,
    service: Tournaments,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Player: "I am here" (while check-in is open)."""

    def step(doc: dict[str, Any]) -> None:
        tour.check_in(doc, _player(doc, authorization))

    doc, _ = await service.change(tournament_id, step)
    return tour.public(tournament_id, doc)


@router.post(
    "/{tournament_id}/withdraw",
    responses=responses(
        {
            **_NOT_FOUND,
            **_AUTH,
            403: ("tournament/not_registered",),
            409: ("tournament/withdrawn", "tournament/over"),
        }
    ),
)
async def withdraw(
    tournament_id: TournamentId,
    rooms: Rooms,
    service: Tournaments,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Player: leave the tournament; kept in the standings as withdrawn."""

    def step(doc: dict[str, Any]) -> dict[str, Any] | None:
        player = _player(doc, authorization)
        tour.withdraw(doc, player)
        table = rounds.seat_of(doc, player["pid"])
        rounds.settle(doc, tour.now_ms())  # the last one to leave between rounds ends it
        return table if table is not None and table.get("result") is None else None

    doc, table = await service.change(tournament_id, step)
    if table is not None:
        # Their running table plays on: a bot takes the seat.
        await tables.leave(rooms, table["roomId"], _player(doc, authorization)["pid"])
    return tour.public(tournament_id, doc)


class Seat(BaseModel):
    round: int
    tableId: str
    roomId: str
    seat: int
    token: str = Field(description="the seat's token at the table's room (its socket's token)")
    startAt: int = Field(description="when the table deals (server ms), players there or not")


@router.get(
    "/{tournament_id}/seat",
    response_model=Seat,
    responses=responses(
        {
            **_NOT_FOUND,
            **_AUTH,
            403: ("tournament/not_registered",),
            404: ("tournament/not_seated",),
        }
    ),
)
async def my_seat(
    tournament_id: TournamentId,
    service: Tournaments,
    authorization: Authorization = None,
) -> Seat:
    """Player: your table this round and your seat token at its room."""
    doc = await service.load(tournament_id)
    player = _player(doc, authorization)
    table = rounds.seat_of(doc, player["pid"])
    if table is None:
        raise RoomError(404, "tournament/not_seated", "you have no table this round")
    return Seat(
        round=int(doc["round"]),
        tableId=table["id"],
        roomId=table["roomId"],
        seat=table["players"].index(player["pid"]),
        token=rounds.seat_token(doc, table["roomId"], player["pid"]),
        startAt=table["startAt"],
    )


@router.get("/{tournament_id}/rounds", responses=responses(_NOT_FOUND))
async def get_rounds(
    tournament_id: TournamentId, db: Db, service: Tournaments
) -> list[dict[str, Any]]:
    """Every round so far with its tables (rooms to watch) and their results."""
    shown: list[dict[str, Any]] = (await _shown(db, service, tournament_id))["roundLog"]
    return shown


@router.get(
    "/{tournament_id}/tables/{table_id}",
    responses=responses({404: ("tournament/not_found", "tournament/table_not_found")}),
)
async def get_table(
    tournament_id: TournamentId, table_id: str, db: Db, service: Tournaments
) -> dict[str, Any]:
    for round_ in (await _shown(db, service, tournament_id))["roundLog"]:
        for table in round_["tables"]:
            if table["tableId"] == table_id:
                return {"round": round_["number"], **table}
    raise RoomError(404, "tournament/table_not_found", f"no table {table_id!r}")
