"""Every node's look after running tournaments: open their tables' rooms, start each
table on time, record each table's result when its match ends, archive a tournament that
is over and set it to expire; and, every ``sweep_seconds``, the sweep of the tournament
indexes.

Nothing is kept here between looks: the tournament's document (in the store) and its
tables' rooms say what is to do, so a node that restarts, or another node, carries every
round on. Two nodes looking at once do no harm: a table starts once (the room refuses a
second start) and a result counts once (``rounds.record`` ignores a second copy).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from app.rooms.service import RoomService
from app.store import OUTAGE
from app.tournaments import rounds, tables
from app.tournaments.service import (
    OVER,
    RUNNING,
    DocChange,
    TournamentService,
    now_ms,
    public,
    seat_points,
    standings,
)

log = logging.getLogger(__name__)

# A round's rooms are opened by the node that started it; any node's runner opens one
# still missing this long after (its opener died on the way). Opening is idempotent (a
# room is created only where none is), so the grace only saves the work twice.
OPEN_GRACE_MS = 3000


class TournamentRunner:
    def __init__(
        self, service: TournamentService, rooms: RoomService, db: Any, poll_seconds: float
    ) -> None:
        self.service = service
        self.rooms = rooms
        self.db = db
        self.poll = poll_seconds
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="tournaments")

    async def close(self) -> None:
        """Stop after the current look: a store command cancelled halfway could leave the
        connection it shares with the rooms in an unknown state."""
        self._stop.set()
        if self._task is not None:
            await asyncio.wait([self._task], timeout=10)
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        swept = repaired = time.monotonic()
        store = self.service.store
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.poll)
                return
            try:
                if time.monotonic() - repaired >= store.repair_seconds:
                    repaired = time.monotonic()
                    await store.repair()
                for tid in await store.running():
                    await self.look(tid)
                if time.monotonic() - swept >= store.sweep_seconds:
                    swept = time.monotonic()
                    await store.sweep()
            except OUTAGE as err:
                log.warning("tournaments: the store cannot be reached: %r", err)
            except Exception:
                log.exception("tournaments: a look failed")

    async def look(self, tid: str) -> None:
        found = await self.service.store.load(tid)
        if found is None:
            # An entry of the running index that outlived its tournament: repaired.
            await self.service.store.drop_running(tid, None)
            return
        doc, version = found
        round_ = rounds.current(doc)
        if doc["status"] != RUNNING or round_ is None:
            if doc["status"] == OVER:
                # Kept in SQL before the store forgets it may need looking after; then it
                # expires from the store (its GETs are answered from SQL once it has).
                await self.db.archive_tournament(
                    tid, public(tid, doc), standings(doc), seat_points(doc)
                )
                await self.service.store.expire(tid, self.service.store.finished_ttl_ms)
            await self.service.store.drop_running(tid, version)
            return
        now = now_ms()
        ready: list[str] = []
        finished: list[Finished] = []
        for table in round_["tables"]:
            if table.get("result") is not None or table.get("abandoned"):
                continue
            record = await self.rooms.store.load(table["roomId"])
            if record is None:
                if now - int(round_["startedAt"]) > OPEN_GRACE_MS:
                    await tables.open_table(self.rooms, self.db, tid, doc, table, now)
                continue
            room = record.doc
            if not doc.get("paused") and tables.ready_to_start(room, table, now):
                ready.append(table["id"])
            elif tables.finished(room):
                finished.append((table["id"], *tables.result_of(room), room.get("matchId")))
        # One write of the tournament's document for all the tables of this look: a round's
        # tables end (and start) close together, and each write moves the whole document.
        if finished:
            await self.service.change(tid, _recording(finished))
        if ready:
            await self._start(tid, ready)

    async def _start(self, tid: str, table_ids: list[str]) -> None:
        """Mark the tables started in the tournament first (a re-seat after that is
        refused), give each table's room the seats the tournament says (a re-seat's own
        room commands may not have landed yet), then deal."""
        doc, marked = await self.service.change(tid, _marking_started(table_ids))
        names = {p["pid"]: p["name"] for p in doc["players"]}
        for table_id in marked:  # not those paused, or finished, meanwhile
            _, table = rounds.find_table(doc, table_id)
            await tables.reseat(self.rooms, self.db, doc, (table,), names)
            await tables.start_table(self.rooms, table["roomId"])

    async def open_round(self, tid: str, doc: dict[str, Any], opened: list[dict[str, Any]]) -> None:
        """The rooms of a round this node just started (the write that seated it put the
        tournament in the running index: if this node dies before or during this, every
        node's runner opens the rooms still missing)."""
        now = now_ms()
        for table in opened:
            await tables.open_table(self.rooms, self.db, tid, doc, table, now)


# A finished table's id, its result, the players who never came to it and its match's id
# (for the match's replay).
Finished = tuple[str, list[dict[str, Any]], list[str], str | None]


def _marking_started(table_ids: list[str]) -> DocChange:
    return lambda doc: [t for t in table_ids if rounds.mark_started(doc, t)]


def _recording(finished: list[Finished]) -> DocChange:
    def step(doc: dict[str, Any]) -> None:
        now = now_ms()  # read when the step runs (a retried change reads it again)
        for table_id, seats, absent, match_id in finished:
            rounds.record(doc, table_id, seats, absent, now, match_id)

    return step
