"""What a command did to a room: a :class:`Step`, the machine's answer to one command."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.deal_record import DealRecord
from app.errors import RoomError
from app.rooms import commands


@dataclass(slots=True)
class Step:
    result: dict[str, Any]  # sent to the command's node: {"ok": True, ...} or an error
    changed: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)  # engine events, raw
    public_events: list[dict[str, Any]] = field(default_factory=list)  # the room's own
    deal_reset: bool = False
    deal_append: list[dict[str, Any]] = field(default_factory=list)
    deal_end: DealRecord | None = None  # a deal just ended: its record for SQL
    removed: list[str] = field(default_factory=list)  # player ids whose sockets must close
    # The document changed in a way no view shows (a spectator socket opening or closing):
    # stored, but no change of the room: no seq, no patch.
    quiet: bool = False
    actor: int | None = None  # the seat whose own action this was (its clock stops)
    end_room: bool = False  # the room is over for good: remove it from the live store
    # Claims the room makes for the seats it plays (a bot's jump-in, UNO call or catch,
    # challenge): the writer takes them like a person's, through the claim window.
    claims: list[commands.Action] = field(default_factory=list)


def refuse(err: RoomError) -> Step:
    result = {"ok": False, "status": err.status, "code": err.code, "message": err.message}
    return Step({**result, **err.detail})


def merge(step: Step, more: Step) -> None:
    """Fold a further engine transition of the same change into ``step``."""
    step.events.extend(more.events)
    if more.deal_reset:
        step.deal_reset = True
        step.deal_append = list(more.deal_append)
    else:
        step.deal_append.extend(more.deal_append)
    if more.deal_end is not None:
        step.deal_end = more.deal_end
