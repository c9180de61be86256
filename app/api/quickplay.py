"""REST for quick play: join the queue (an account, or a guest, named or not) and leave
it. The ticket's socket, ``/ws/quickplay?ticket=``, says how the search goes and hands
over the seat (app.ws.quickplay). An address's waiting tickets count toward its cap of
open rooms, as its lobby rooms do (app.api.rooms)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.ratings import NEWCOMER, Pool
from app.api.errors import ErrorRoute, responses
from app.api.text import ID_MAX, ID_PATTERN, NAME_PATTERN
from app.deps import AppSettings, ClientAddress, CurrentAccount, Db, Lobbies, QuickplayQueue, Rooms
from app.errors import RoomError
from app.quickplay.queue import ALREADY_QUEUED
from app.quickplay.tickets import guest_name, new_ticket, seat_token, ticket_id
from app.rooms import tokens

router = APIRouter(prefix="/api/quickplay", tags=["quick play"], route_class=ErrorRoute)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pool: Pool = "classic"
    name: Annotated[str, Field(min_length=1, max_length=40, pattern=NAME_PATTERN)] | None = Field(
        default=None,
        description="a guest's name (an account plays under its own); without one, the"
        ' server names the guest ("Guest 4821")',
    )


class Ticket(BaseModel):
    ticket: str = Field(description="open /ws/quickplay?ticket= within 10 s, keep it open")


TicketId = Annotated[str, Path(max_length=ID_MAX, pattern=ID_PATTERN)]
JOIN_ERRORS = responses(
    {
        401: ("missing_token", "account/bad_token"),
        409: ("quickplay/already_queued",),
        429: ("too_many_rooms",),
    }
)


@router.post("", status_code=202, response_model=Ticket, responses=JOIN_ERRORS)
async def join_queue(
    body: Join,
    db: Db,
    rooms: Rooms,
    queue: QuickplayQueue,
    account: CurrentAccount,
    settings: AppSettings,
    lobbies: Lobbies,
    address: ClientAddress,
) -> dict[str, Any]:
    """Wait for a quick-play table in ``pool``: one rated deal, 20 s a turn. One account
    holds one ticket at a time; an address holds as many waiting tickets and lobby rooms
    together as its cap of open rooms."""
    signed_in = await account.optional()
    if signed_in is None:
        pid, name, rating = tokens.new_id(), body.name or guest_name(), None
    else:
        pid, name = signed_in.id, signed_in.name
        rating = await db.rating_in(pid, body.pool)
    raw = new_ticket()
    ticket = {
        "ticket": ticket_id(raw),
        "seat": tokens.hash_token(seat_token(raw)),
        "pool": body.pool,
        "pid": pid,
        "account": signed_in is not None,
        "address": address,
        "name": name,
        "rating": rating,
        "value": int((rating or NEWCOMER)["value"]),
        "at": rooms.now_ms(),
        "state": "queued",
    }
    cap = settings.max_open_lobbies_per_address - await lobbies.count(address, rooms.store)
    refused = await queue.add(ticket, cap)
    if refused == ALREADY_QUEUED:
        raise RoomError(409, refused, "this account waits already")
    if refused is not None:
        raise RoomError(
            429,
            refused,
            f"this address has {settings.max_open_lobbies_per_address} lobby rooms and"
            " quick-play tickets open; wait for one to end",
        )
    return {"ticket": raw}


@router.delete(
    "/{ticket}",
    status_code=204,
    responses=responses({404: ("quickplay/no_ticket",), 409: ("quickplay/matched",)}),
)
async def leave_queue(ticket: TicketId, queue: QuickplayQueue) -> Response:
    """Leave the queue (before a table is found)."""
    found = await queue.get(ticket_id(ticket))
    if found is None:
        raise RoomError(404, "quickplay/no_ticket", "no such ticket in the queue")
    if found["state"] != "queued":
        raise RoomError(409, "quickplay/matched", "a table has been found for this ticket")
    await queue.remove(found["ticket"])
    return Response(status_code=204)
