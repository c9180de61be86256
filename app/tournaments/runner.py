"""Every node's look after running tournaments: open their tables' rooms, start each
table on time, record each table's result when its match ends, archive a tournament that
is over and set it to expire; and, every ``sweep_seconds``, the sweep of the tournament
indexes.

Nothing is kept here between looks: the tournament's document (in the store) and its
tables' rooms say what is to do, so a node that restarts, or another node, carries every
round on. Two nodes looking at once do no harm: a table starts once (the room refuses a
second start) and a result counts once (``rounds.record`` ignores a second copy).

A tournament or a table that cannot be looked after never stops the others and is never
retried in a loop (:mod:`app.tournaments.troubles`: logged once, then at most once a
minute, tried again after a growing pause); the host is shown it on the tournament (its
``trouble``, or the table's) and decides: correct the table's result, or end early.
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
from app.tournaments.troubles import Troubles, reason_of

log = logging.getLogger(__name__)

STORE = "the tournament store"

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
        self.troubles = Troubles(log)

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
            if not self.troubles.due(STORE):
                continue
            try:
                if time.monotonic() - repaired >= store.repair_seconds:
                    repaired = time.monotonic()
                    await store.repair()
                running = await store.running()
                if time.monotonic() - swept >= store.sweep_seconds:
                    swept = time.monotonic()
                    await store.sweep()
            except Exception as err:
                self.troubles.failed(STORE, err, traceback=not isinstance(err, OUTAGE))
                continue
            self.troubles.recovered(STORE)
            for tid in running:
                await self._look_after(tid)

    async def _look_after(self, tid: str) -> None:
        """One tournament's look; a failure is its own (the others go on)."""
        key = f"tournament {tid}"
        if not self.troubles.due(key):
            return
        try:
            await self.look(tid)
        except Exception as err:
            if self.troubles.failed(key, err, traceback=not isinstance(err, OUTAGE)):
                await self._show(tid, None, reason_of(err))
            return
        if self.troubles.recovered(key):
            await self._show(tid, None, None)

    async def _show(self, tid: str, table_id: str | None, reason: str | None) -> None:
        """Tell the host (in the tournament's document) that a table or the round cannot
        be looked after, or no longer; best effort: the failure is logged already."""

        def step(doc: dict[str, Any]) -> bool:
            now = now_ms()
            if reason is None:
                return rounds.clear_trouble(doc, table_id, now)
            return rounds.mark_trouble(doc, table_id, reason, now)

        try:
            await self.service.change(tid, step)
        except Exception as err:
            log.debug("tournament %s: the trouble could not be shown: %r", tid, err)

    async def _table_failed(self, tid: str, table_id: str, err: BaseException) -> None:
        if self.troubles.failed(_table_key(tid, table_id), err):
            await self._show(tid, table_id, reason_of(err))

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
        if rounds.round_done(round_) and not round_.get("done"):
            # A round with nothing left to play that nobody closed (no table at all, as a
            # round seated with nobody left once was): over, and the tournament with it
            # when nobody is left.
            await self.service.change(tid, lambda d: rounds.settle(d, now_ms()))
            return
        now = now_ms()
        ready: list[str] = []
        finished: list[Finished] = []
        for table in round_["tables"]:
            key = _table_key(tid, table["id"])
            if table.get("result") is not None or table.get("abandoned"):
                self.troubles.forget(key)  # decided by the host (corrected, ended)
                continue
            if not self.troubles.due(key):
                continue
            try:
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
            except Exception as err:
                await self._table_failed(tid, table["id"], err)
        # One write of the tournament's document for all the tables of this look: a round's
        # tables end (and start) close together, and each write moves the whole document.
        if finished:
            await self.service.change(tid, _recording(finished))
            for table_id, *_ in finished:
                self.troubles.recovered(_table_key(tid, table_id))
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
            try:
                await tables.reseat(self.rooms, self.db, doc, (table,), names)
                await tables.start_table(self.rooms, table["roomId"])
            except Exception as err:
                await self._table_failed(tid, table_id, err)
                continue
            if self.troubles.recovered(_table_key(tid, table_id)):
                await self._show(tid, table_id, None)

    async def open_round(self, tid: str, doc: dict[str, Any], opened: list[dict[str, Any]]) -> None:
        """The rooms of a round this node just started (the write that seated it put the
        tournament in the running index: if this node dies before or during this, every
        node's runner opens the rooms still missing)."""
        now = now_ms()
        for table in opened:
            await tables.open_table(self.rooms, self.db, tid, doc, table, now)


def _table_key(tid: str, table_id: str) -> str:
    return f"tournament {tid} table {table_id}"


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
