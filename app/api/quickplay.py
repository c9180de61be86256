"""REST for quick play: join the queue (an account, or a guest with a name) and leave it.
The ticket's socket, ``/ws/quickplay?ticket=``, says how the search goes and hands over
the seat (app.ws.quickplay)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.ratings import NEWCOMER, shown
from app.api.errors import ErrorRoute, responses
from app.api.text import ID_MAX, ID_PATTERN, NAME_PATTERN
from app.deps import CurrentAccount, Db, QuickplayQueue, Rooms
from app.errors import RoomError
from app.rooms import tokens

router = APIRouter(prefix="/api/quickplay", tags=["quick play"], route_class=ErrorRoute)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pool: Literal["classic", "duo", "flip", "party"] = "classic"
    name: Annotated[str, Field(min_length=1, max_length=40, pattern=NAME_PATTERN)] | None = Field(
        default=None, description="a guest's name (an account plays under its own)"
    )


class Ticket(BaseModel):
    ticket: str = Field(description="open /ws/quickplay?ticket= within 10 s, keep it open")


TicketId = Annotated[str, Path(max_length=ID_MAX, pattern=ID_PATTERN)]
JOIN_ERRORS = responses(
    {
        401: ("missing_token", "account/bad_token"),
        409: ("quickplay/already_queued",),
        422: ("quickplay/name_required",),
    }
)


@router.post("", status_code=202, response_model=Ticket, responses=JOIN_ERRORS)
async def join_queue(
    body: Join, db: Db, rooms: Rooms, queue: QuickplayQueue, account: CurrentAccount
) -> dict[str, Any]:
    """Wait for a quick-play table in ``pool``: one rated deal, 20 s a turn."""
    signed_in = await account.optional()
    if signed_in is None:
        if body.name is None:
            raise RoomError(422, "quickplay/name_required", "a guest says a name")
        pid, name, rating = tokens.new_id(), body.name, None
        value = shown(25.0)
    else:
        for other in await queue.tickets():
            if other["pid"] == signed_in.id and other["state"] != "matched":
                raise RoomError(409, "quickplay/already_queued", "this account waits already")
        pid, name = signed_in.id, signed_in.name
        rating = await db.rating_in(pid, body.pool)
        value = int(rating["value"])
    ticket = {
        "ticket": tokens.new_token(),
        "pool": body.pool,
        "pid": pid,
        "name": name,
        "rating": rating,
        "value": value if rating is not None else int(NEWCOMER["value"]),
        "at": rooms.now_ms(),
        "state": "queued",
    }
    await queue.add(ticket)
    return {"ticket": ticket["ticket"]}


@router.delete(
    "/{ticket}",
    status_code=204,
    responses=responses({404: ("quickplay/no_ticket",), 409: ("quickplay/matched",)}),
)
async def leave_queue(ticket: TicketId, queue: QuickplayQueue) -> Response:
    """Leave the queue (before a table is found)."""
    found = await queue.get(ticket)
    if found is None:
        raise RoomError(404, "quickplay/no_ticket", "no such ticket in the queue")
    if found["state"] != "queued":
        raise RoomError(409, "quickplay/matched", "a table has been found for this ticket")
    await queue.remove(ticket)
    return Response(status_code=204)
