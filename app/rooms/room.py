"""What the handlers of :mod:`app.rooms.seats`, :mod:`~app.rooms.presence`,
:mod:`~app.rooms.timers` and :mod:`~app.rooms.claims` read and change of the room: the
:class:`Room` they are given. :class:`~app.rooms.machine.RoomMachine` is one; the handlers
import this module, never the machine, so the machine imports them and no circle forms."""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any, Protocol

import engine
from app.rooms.autoplay import Recall, RoomTimes
from app.rooms.races import RaceSettings
from app.rooms.step import Step

# The change that left a position of the deal, what a race's loser is told it lost to:
# (seq, action type, seat). A plain tuple of plain values, which the collector stops
# scanning after one look (a NamedTuple it never lets go), where the deal-log entry it
# is read from (three objects) would stay in its generations for the whole deal.
Won = tuple[int, str | None, int]


class Room(Protocol):
    """The room as its command handlers see it (see RoomMachine for what each holds)."""

    doc: dict[str, Any]
    seq: int
    state: engine.GameState | None
    races: RaceSettings
    times: RoomTimes
    rng: random.Random
    recall: Recall
    # Claims: who is locked out until when, each seat's credited delay, what won each position.
    locked: dict[str, int]
    delays: dict[str, int]
    positions: dict[int, Won]
    acks: OrderedDict[str, int]
    # The deal log: its start and the actions applied since.
    deal_start: dict[str, Any] | None
    deal_actions: list[bytes]  # each action's archived entry, marshalled
    position_ms: int | None
    bots_idle: int | None

    def player(self, pid: str) -> dict[str, Any]:
        """The seated player of ``pid``; refused (``not_seated``) if there is none."""
        ...

    def acks_entry(self) -> list[list[Any]]: ...

    def apply(
        self,
        seat: int,
        action: engine.Action,
        key: str | None,
        now_ms: int,
        by: str | None = None,
    ) -> Step:
        """Apply ``action`` for ``seat``: the change it made, or a refusal raised."""
        ...

    def end_room(self, reason: str, now_ms: int) -> Step: ...
