"""The node-wide quick-play matcher: every second, the node holding the lease seats the
tables :func:`app.quickplay.tables.form` proposes.

Only tickets whose socket is open now (seen within :data:`OPEN_MS`) are seated. A table
goes in three steps, so that a node killed at any point loses no ticket and seats
nobody twice: (1) the table is claimed in the queue (one atomic write: the table with its
room id, seats and seat tokens, and its tickets marked claimed, only if this node holds
the lease and every ticket is still queued); (2) its room is made, already seated, in one
store write, then started; (3) its tickets are marked matched and the table forgotten. A
table claimed and not forgotten is finished by whichever node holds the lease next: step
2 again if the room does not exist yet (built from the claim, so it is the same room),
else only the start (which a started room refuses, changing nothing) and step 3. A table
that cannot be made (its room refuses a seat, say) blocks no other: if its room did not
start, its tickets go back to the queue (:meth:`Queue.release`) and the round goes on;
the failure is logged once, then at most once a minute while it lasts.

Tickets whose socket has not been seen for 10 s are dropped while queued; matched tickets
go a minute after matching (their sockets have had the news by then).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

import engine
from app.db import Database
from app.errors import RoomError
from app.quickplay.queue import Queue
from app.quickplay.tables import BOT_LEVEL, POOL_RULES, form
from app.rooms import commands, tokens
from app.rooms.clock import now_ms
from app.rooms.doc import LOBBY, new_doc
from app.rooms.machine import RoomMachine
from app.rooms.service import RoomService
from app.store.outage import log_failure

log = logging.getLogger(__name__)

LEASE_MS = 5000
GONE_MS = 10_000  # a queued ticket whose socket is not seen this long is dropped
OPEN_MS = 2500  # a socket says it is open every second (app.ws.quickplay)
QUIET_MS = 60_000  # a failure that goes on is logged again after this long
MATCHED_KEPT_MS = 60_000
TURN_SECONDS = 20


def is_open(seen: int | None, now: int) -> bool:
    """Whether a ticket's socket, last seen at ``seen`` (negated: closed then), is open."""
    return seen is not None and 0 <= now - seen <= OPEN_MS


class Matcher:
    def __init__(
        self,
        queue: Queue,
        rooms: RoomService,
        db: Database,
        *,
        fill_seconds: float = 20.0,
        poll_seconds: float = 1.0,
        node: str | None = None,
    ) -> None:
        self.queue = queue
        self.rooms = rooms
        self.db = db
        self.fill_ms = int(fill_seconds * 1000)
        self.poll_seconds = poll_seconds
        self.node = node or rooms.node
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._logged: dict[str, int] = {}  # failure -> when it was last logged

    def _failed(self, what: str, message: str, *args: object) -> None:
        """Log the exception being handled, unless ``what`` was logged in the last minute."""
        now = now_ms()
        if now - self._logged.get(what, -QUIET_MS) >= QUIET_MS:
            self._logged[what] = now
            log_failure(log, message, *args)

    def _recovered(self, what: str) -> None:
        self._logged.pop(what, None)

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="quickplay-matcher")

    async def close(self) -> None:
        # A cancellation can land in a call that waits out its own answer (a room command
        # on its way): the flag ends the loop at its next turn all the same.
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.round(now_ms())
                self._recovered("round")
            except Exception:
                self._failed("round", "quick play: a matching round failed")
            await asyncio.sleep(self.poll_seconds)

    async def round(self, now: int) -> int:
        """One round, if this node holds the lease; the number of tables seated."""
        queue = self.queue
        if not await queue.lease(self.node, LEASE_MS):
            return 0
        for table in await queue.tables():
            # Ours finish within the round that claims them: one found here is a dead
            # (or stopped) node's.
            await self._finish_or_release(table)
        tickets = await queue.tickets()
        seen = await queue.seen()
        queued = []
        for ticket in tickets:
            last = max(ticket["at"], abs(seen.get(ticket["ticket"], 0)))
            if ticket["state"] == "queued" and now - last > GONE_MS:
                await queue.remove(ticket["ticket"])
            elif (
                ticket["state"] == "matched"
                and now - ticket.get("matchedAt", now) > MATCHED_KEPT_MS
            ):
                await queue.remove(ticket["ticket"])
            elif ticket["state"] == "queued" and is_open(seen.get(ticket["ticket"]), now):
                queued.append(ticket)
        seated = 0
        for proposal in form(queued, now, self.fill_ms):
            if not await queue.lease(self.node, LEASE_MS):
                return seated
            table, claimed = self._table(proposal.pool, proposal.tickets, proposal.bots, now)
            if await queue.claim(self.node, table, claimed) and await self._finish_or_release(
                table
            ):
                seated += 1
        return seated

    async def _finish_or_release(self, table: dict[str, Any]) -> bool:
        """Finish ``table``; if that fails before its room started, give its tickets back
        to the queue (a started room keeps its claim, finished by a later round)."""
        try:
            await self._finish(table)
        except Exception:
            self._failed("table", "quick play: table %s could not be made", table["tableId"])
            record = await self.rooms.store.load(table["tableId"])
            if record is None or record.doc["status"] == LOBBY:
                await self.queue.release(table)
            return False
        return True

    def _table(
        self, pool: str, tickets: list[dict[str, Any]], bots: int, now: int
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        room_id = tokens.new_room_id()
        seats, claimed = [], []
        for seat, ticket in enumerate(tickets):
            seats.append(
                {
                    "ticket": ticket["ticket"],
                    "pid": ticket["pid"],
                    "name": ticket["name"],
                    "rating": ticket.get("rating"),
                    "token": ticket["seat"],  # the seat token's hash (app.quickplay.tickets)
                }
            )
            room = {"roomId": room_id, "seat": seat}
            claimed.append({**ticket, "state": "claimed", "room": room})
        table = {
            "tableId": room_id,
            "pool": pool,
            "node": self.node,
            "at": now,
            "seats": seats,
            "bots": bots,
            "host": tokens.hash_token(tokens.new_token()),  # nobody hosts a quick-play room
            "code": tokens.new_code(),
            "secret": secrets.token_hex(32),
        }
        return table, claimed

    async def _finish(self, table: dict[str, Any]) -> None:
        room_id = table["tableId"]
        if await self.rooms.store.load(room_id) is None:
            doc = self._seated_room(table)
            await self.db.record_room(room_id, doc["name"], doc["rules"], doc["seats"], True)
            for seat in table["seats"]:
                if seat["rating"] is None:
                    await self.db.record_player(seat["pid"], seat["name"])
            # Seated already: no empty-lobby timer (RoomService.created) to set.
            await self.rooms.store.create(room_id, doc, doc["code"], False)
        try:
            await self.rooms.submit(room_id, commands.Start())
        except RoomError as err:
            if err.code != "match_in_progress":
                raise
        for seat in table["seats"]:
            ticket = await self.queue.get(seat["ticket"])
            if ticket is not None and ticket["state"] == "claimed":
                await self.queue.put({**ticket, "state": "matched", "matchedAt": now_ms()})
        await self.queue.settle(room_id)

    def _seated_room(self, table: dict[str, Any]) -> dict[str, Any]:
        """The table's room, its seats taken (by the room's own join and bot handlers)."""
        rules = engine.rules_from_json(POOL_RULES[table["pool"]]).to_json()
        size = len(table["seats"]) + table["bots"]
        now = now_ms()
        doc = new_doc(
            room_id=table["tableId"],
            name="Quick play",
            code=table["code"],
            private=True,
            spectators=True,
            seats=size,
            rules=rules,
            host_hash=table["host"],
            now_ms=now,
            turn_seconds=TURN_SECONDS,
        )
        doc["rated"] = True
        doc["quickplay"] = table["pool"]
        doc["shuffle"]["secret"] = table["secret"]  # the same room from the same claim
        machine = RoomMachine(doc, 0, [])
        for seat in table["seats"]:
            join = commands.Join(
                pid=seat["pid"],
                name=seat["name"],
                token=seat["token"],
                age=True,
                rating=seat["rating"],
            )
            _seated(machine.handle(join, now).result)
        for _ in range(table["bots"]):
            _seated(machine.handle(commands.Bot(level=BOT_LEVEL), now).result)
        doc = machine.to_doc()
        doc["listed"] = False
        return doc


def _seated(result: dict[str, Any]) -> None:
    if not result.get("ok"):
        raise RoomError.from_result(result)
