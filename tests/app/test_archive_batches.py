"""The archive stores the deals waiting in its queue together, in one SQL transaction, and
keeps every promise of storing them one at a time: a deal stored before is not stored
again, one bad entry does not hold the others back, and a match is rated once, at its end,
in order. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import orjson
from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)
from sqlalchemy import func, select, text

from app.accounts.account_names import name_key
from app.db import Database, DealRecord
from app.db.account_models import RatedMatch, RatingChange
from app.db.models import Deal, DealAction, DealScore, Match
from app.rooms.archive_outbox import Archiver, outbox_entry
from app.store.base import RoomStore

SEATS = [
    {"seat": 0, "playerId": "p-anna", "name": "Anna", "moves": 3, "auto": 0},
    {"seat": 1, "playerId": "p-ben", "name": "Ben", "moves": 3, "auto": 0},
]


def _deal(
    match_id: str,
    number: int,
    *,
    totals: list[int] | None = None,
    match_over: bool = False,
    seats: list[dict[str, Any]] | None = None,
    rated: bool = False,
) -> DealRecord:
    totals = totals or [10 * number, 0]
    return DealRecord(
        match_id=match_id,
        deal_number=number,
        start_state={"rules": {"preset": "classic", "targetScore": 500}, "seed": f"s{number}"},
        actions=[
            {"seq": i, "ts": 1_764_000_000_000 + i, "seat": i % 2, "action": {"type": "draw"}}
            for i in range(1, 4)
        ],
        scores=totals,
        totals=totals,
        winner=0,
        match_over=match_over,
        seats=seats or SEATS,
        rated=rated,
    )


async def _count(db: Database, model: Any) -> int:
    async with db.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_a_batch_with_a_deal_stored_before_stores_the_others_and_keeps_the_first_write(
    db: Database,
) -> None:
    await db.record_deal("r1", _deal("m1", 2, totals=[20, 0]))
    await db.record_deals(
        [
            ("r1", _deal("m1", 1)),
            ("r1", _deal("m1", 2, totals=[999, 0])),
            ("r1", _deal("m1", 3, totals=[30, 0], match_over=True)),
            ("r2", _deal("m2", 1)),
        ]
    )
    replay = await db.deal_replay("m1", 2)
    assert replay is not None and replay.totals == [20, 0]
    assert await _count(db, Match) == 2
    assert await _count(db, Deal) == 4
    assert await _count(db, DealScore) == 4 * 2
    assert await _count(db, DealAction) == 4 * 3
    match = await db.match("m1")
    assert match is not None and match.finished is not None and match.winner == 0
    assert [s.name for s in match.seats] == ["Anna", "Ben"]
    # The same batch again stores nothing more.
    await db.record_deals([("r1", _deal("m1", 1)), ("r2", _deal("m2", 1))])
    assert await _count(db, DealAction) == 4 * 3


class _Outboxes:
    """The archiver's view of a store: the entries it cleared, in order."""

    def __init__(self) -> None:
        self.cleared: list[tuple[str, str]] = []

    async def archived(self, room_id: str, key: str) -> None:
        self.cleared.append((room_id, key))

    async def outbox_rooms(self) -> list[str]:
        return []


def _archiver(
    db: Database, first_retry_seconds: float, max_retry_seconds: float = 30.0
) -> tuple[_Outboxes, Archiver]:
    """An archiver into ``db``, retrying as told, and the outboxes it clears."""
    store = _Outboxes()
    archiver = Archiver(
        cast(RoomStore, store),
        db,
        first_retry_seconds=first_retry_seconds,
        max_retry_seconds=max_retry_seconds,
    )
    return store, archiver


async def _archive(db: Database, entries: list[tuple[str, str, bytes]], stored: int) -> _Outboxes:
    """Hand ``entries`` over to a running archiver at once (its first batch takes them
    all), wait until ``stored`` of them left their outboxes, and close it."""
    store, archiver = _archiver(db, first_retry_seconds=0.05)
    archiver.start()
    for room_id, key, record in entries:
        archiver.submit(room_id, key, record)
    async with asyncio.timeout(20):
        while len(store.cleared) < stored:
            await asyncio.sleep(0.02)
    await archiver.close(timeout=0)
    return store


async def test_an_entry_that_fails_in_a_batch_leaves_the_others_stored_and_stays_itself(
    db: Database,
) -> None:
    # A record SQL cannot take (fewer scores than seats) among good ones: the batch's
    # transaction fails as a whole, and each entry is then stored on its own.
    bad = _deal("m1", 2, totals=[20, 0])
    bad_record = orjson.dumps({**bad.to_json(), "scores": [20]})
    entries = [
        ("r1", *outbox_entry(_deal("m1", 1))),
        ("r1", f"{bad.match_id}:{bad.deal_number}", bad_record),
        ("r1", *outbox_entry(_deal("m1", 3))),
        ("r2", *outbox_entry(_deal("m2", 1))),
    ]
    store = await _archive(db, entries, stored=3)
    assert store.cleared == [("r1", "m1:1"), ("r1", "m1:3"), ("r2", "m2:1")]
    match = await db.match("m1")
    assert match is not None and [d.number for d in match.deals] == [1, 3]
    assert await db.deal_replay("m2", 1) is not None


async def test_a_batch_of_good_entries_clears_them_all_from_their_outboxes(db: Database) -> None:
    entries = [("r1", *outbox_entry(_deal("m1", n))) for n in range(1, 6)]
    store = await _archive(db, entries, stored=5)
    assert sorted(store.cleared) == [("r1", f"m1:{n}") for n in range(1, 6)]
    assert await _count(db, Deal) == 5


async def _account(db: Database, name: str) -> str:
    account_id = f"acc-{name.lower()}"
    assert await db.create_account(account_id, name, name_key(name), "hash")
    return account_id


async def _rated_seats(db: Database, first: str, second: str) -> list[dict[str, Any]]:
    one, two = await _account(db, first), await _account(db, second)
    return [{**SEATS[0], "playerId": one, "name": first}, {**SEATS[1], "playerId": two}]


def _rated_matches(seats: list[dict[str, Any]], match_ids: list[str]) -> list[DealRecord]:
    """Matches of the same two accounts, three deals each, won by seat 0 and seat 1 in
    turn: the ratings after each depend on those before (the third reads rows that the
    second read and then changed)."""
    deals = []
    for i, match_id in enumerate(match_ids):
        end = [520, 10] if i % 2 == 0 else [10, 520]
        for number in (1, 2, 3):
            over = number == 3
            totals = end if over else [number, 0]
            deals.append(
                _deal(match_id, number, totals=totals, match_over=over, seats=seats, rated=True)
            )
    return deals


MATCHES = ["m1", "m2", "m3"]


async def test_matches_ended_in_a_batch_are_rated_once_at_their_ends_in_order(
    db: Database,
) -> None:
    batch = [("r1", d) for d in _rated_matches(await _rated_seats(db, "Anna", "Ben"), MATCHES)]
    await db.record_deals(batch)
    await db.record_deals(batch)  # again: stored before, rated before
    assert await _count(db, RatedMatch) == 3
    assert await _count(db, RatingChange) == 6
    batched = [await db.rating_changes(m) for m in MATCHES]
    assert batched[1][0]["ratingBefore"] == batched[0][0]["ratingAfter"]
    assert batched[2][0]["ratingBefore"] == batched[1][0]["ratingAfter"]
    assert batched[2][0]["games"] == 3
    # Two other accounts' same matches stored one deal at a time: the same ratings.
    others = ["m4", "m5", "m6"]
    for deal in _rated_matches(await _rated_seats(db, "Cara", "Dan"), others):
        await db.record_deal("r2", deal)
    assert batched == [await db.rating_changes(m) for m in others]


async def test_two_archivers_storing_the_same_batch_at_once_store_each_deal_once(
    db: Database,
) -> None:
    # Two archive processes after a restart: on PostgreSQL the later transaction may
    # fail on a key the earlier one committed; its entries then go one at a time.
    entries = [("r1", *outbox_entry(_deal("m1", n))) for n in range(1, 9)]
    entries += [("r2", *outbox_entry(_deal("m2", n))) for n in range(1, 9)]
    stores = await asyncio.gather(*(_archive(db, entries, stored=16) for _ in range(2)))
    for store in stores:
        assert sorted(store.cleared) == sorted((room_id, key) for room_id, key, _ in entries)
    assert await _count(db, Match) == 2
    assert await _count(db, Deal) == 16
    assert await _count(db, DealAction) == 16 * 3


async def test_a_batch_sql_refuses_entry_by_entry_is_logged_once_not_per_entry(
    db: Database, caplog: Any
) -> None:
    # Every record of the batch is one SQL cannot take: the batch fails, then each entry
    # on its own; that is one warning for the batch (SQL down would fail them all alike),
    # and each entry's own retries log as they back off.
    bad = [
        (f"r{n}", f"m{n}:1", orjson.dumps({**_deal(f"m{n}", 1).to_json(), "scores": [1]}))
        for n in range(5)
    ]
    store, archiver = _archiver(db, first_retry_seconds=5)
    archiver.start()
    for room_id, key, record in bad:
        archiver.submit(room_id, key, record)
    async with asyncio.timeout(20):
        while not any("of 5 deals" in r.getMessage() for r in caplog.records):
            await asyncio.sleep(0.02)
    await archiver.close(timeout=0)
    each = [r for r in caplog.records if "could not archive deal" in r.getMessage()]
    assert len([r for r in caplog.records if "of 5 deals" in r.getMessage()]) == 1
    assert len(each) <= 1  # the first entry's first retry, at most, before the close
    assert store.cleared == []


class _Refusal:
    """SQL refusing every deal of one match, by a trigger (the kind of refusal a record
    SQL cannot take meets) until :meth:`lift`; lifted at the latest on leaving, so that
    the next test's tables on the shared PostgreSQL take every deal."""

    def __init__(self, db: Database, match_id: str) -> None:
        self._db = db
        self._match_id = match_id
        self._sqlite = db.engine.dialect.name == "sqlite"
        self._on = False

    async def __aenter__(self) -> _Refusal:
        if self._sqlite:
            statements = [
                "CREATE TRIGGER refuse BEFORE INSERT ON deals "
                f"WHEN NEW.match_id = '{self._match_id}' "
                "BEGIN SELECT RAISE(ABORT, 'refused'); END"
            ]
        else:
            statements = [
                "CREATE OR REPLACE FUNCTION refuse() RETURNS trigger AS "
                "$$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER refuse BEFORE INSERT ON deals FOR EACH ROW "
                f"WHEN (NEW.match_id = '{self._match_id}') EXECUTE FUNCTION refuse()",
            ]
        await self._run(statements)
        self._on = True
        return self

    async def lift(self) -> None:
        if self._on:
            await self._run(["DROP TRIGGER refuse" + ("" if self._sqlite else " ON deals")])
            self._on = False

    async def __aexit__(self, *_: object) -> None:
        await self.lift()

    async def _run(self, statements: list[str]) -> None:
        async with self._db.transaction() as session:
            for statement in statements:
                await session.execute(text(statement))


async def _until_cleared(store: _Outboxes, wanted: set[tuple[str, str]]) -> None:
    async with asyncio.timeout(20):
        while not wanted <= set(store.cleared):
            await asyncio.sleep(0.02)


async def _until_pending(archiver: Archiver, count: int) -> None:
    """Until ``archiver`` holds ``count`` entries: it lets an entry go once its outbox has
    been cleared, a moment after the clear that the test sees."""
    async with asyncio.timeout(20):
        while archiver.pending != count:
            await asyncio.sleep(0.02)


def _hand_over_a_refused_and_a_good_deal(archiver: Archiver) -> None:
    """Start ``archiver`` with two deals: one of the refused match ``m-bad``, one good."""
    archiver.start()
    archiver.submit("r1", *outbox_entry(_deal("m-bad", 1)))
    archiver.submit("r2", *outbox_entry(_deal("m2", 1)))


async def test_a_refused_entry_is_retried_on_its_own_while_later_entries_are_stored(
    db: Database, caplog: Any
) -> None:
    # The refused deal backs off for a minute: entries handed over after it are stored
    # meanwhile, not after its backoff.
    store, archiver = _archiver(db, first_retry_seconds=60, max_retry_seconds=60)
    async with _Refusal(db, "m-bad"):
        _hand_over_a_refused_and_a_good_deal(archiver)
        await _until_cleared(store, {("r2", "m2:1")})
        for n in range(3, 6):
            archiver.submit(f"r{n}", *outbox_entry(_deal(f"m{n}", 1)))
            await _until_cleared(store, {(f"r{n}", f"m{n}:1")})
        assert ("r1", "m-bad:1") not in store.cleared
        await _until_pending(archiver, 1)
        refusals = [r for r in caplog.records if "could not archive" in r.getMessage()]
        assert len(refusals) == 2  # the batch of two, then its one refusal: once each
        await archiver.close(timeout=0)


async def test_refused_entries_back_off_and_are_stored_once_sql_takes_them(
    db: Database,
) -> None:
    # Backing off to half a second at most: retried soon after the refusal is lifted,
    # however long a loaded machine took to get there.
    store, archiver = _archiver(db, first_retry_seconds=0.05, max_retry_seconds=0.5)
    async with _Refusal(db, "m-bad") as refusal:
        archiver.start()
        archiver.submit("r1", *outbox_entry(_deal("m-bad", 1)))
        archiver.submit("r1", *outbox_entry(_deal("m-bad", 2)))
        # Refused, then retried as it backs off; an entry beside them is stored.
        archiver.submit("r2", *outbox_entry(_deal("m2", 1)))
        await _until_cleared(store, {("r2", "m2:1")})
        await _until_pending(archiver, 2)
        await refusal.lift()
    await _until_cleared(store, {("r1", "m-bad:1"), ("r1", "m-bad:2")})
    await _until_pending(archiver, 0)
    match = await db.match("m-bad")
    assert match is not None and [d.number for d in match.deals] == [1, 2]
    await archiver.close(timeout=0)


async def test_close_tries_each_entry_and_does_not_wait_out_a_refused_ones_backoff(
    db: Database,
) -> None:
    # A node stopping while SQL refuses an entry stops at once: the entry stays in its
    # outbox for the room's next writer. The entry handed over with it is stored first.
    store, archiver = _archiver(db, first_retry_seconds=60, max_retry_seconds=60)
    async with _Refusal(db, "m-bad"):
        _hand_over_a_refused_and_a_good_deal(archiver)
        async with asyncio.timeout(20):  # not the 60 s given
            await archiver.close(timeout=60)
    assert store.cleared == [("r2", "m2:1")]
    assert await _count(db, Deal) == 1
