"""Recording played games and reading their history back, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import gc
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)
from sqlalchemy import func, select, update

from app.db import Database, DealRecord
from app.db.models import DealAction, DealScore, Match, Player, Room

SEATS = [
    {"seat": 0, "playerId": "p-anna", "name": "Anna"},
    {"seat": 1, "playerId": "p-ben", "name": "Ben"},
    {"seat": 2, "playerId": None, "name": "Bot"},
]
START = {
    "rules": {"preset": "classic", "targetScore": 500},
    "seed": "5eed",
    "dealer": 2,
    "hands": [["R1", "G+2"], ["W+4"], ["Y9"]],
    "note": "æøå ÆØÅ 🃏",
}


def _actions(count: int, first_seq: int = 1) -> list[dict[str, Any]]:
    return [
        {
            "seq": first_seq + i,
            "ts": 1_764_000_000_000 + 1000 * i,
            "seat": i % 3,
            "action": {"type": "play", "cards": [f"R{i % 10}"], "uno": i % 2 == 0},
        }
        for i in range(count)
    ]


async def _deal(
    db: Database,
    match_id: str = "m1",
    number: int = 1,
    *,
    totals: list[int] | None = None,
    match_over: bool = False,
    winner: int | None = 0,
    room_id: str = "r1",
    seats: list[dict[str, Any]] | None = None,
) -> None:
    await db.record_deal(
        room_id,
        DealRecord(
            match_id=match_id,
            deal_number=number,
            start_state={**START, "deal": number},
            actions=_actions(5, first_seq=10 * number),
            scores=[30, 0, 0],
            totals=totals or [30 * number, 0, 0],
            winner=winner,
            match_over=match_over,
            seats=SEATS if seats is None else seats,
        ),
    )


async def _count(db: Database, model: Any) -> int:
    async with db.sessions() as session:
        return await session.scalar(select(func.count()).select_from(model)) or 0


async def test_record_room_and_player_upsert(db: Database) -> None:
    await db.record_room("r1", "Friday", {"preset": "classic"}, 4, False)
    await db.record_room("r1", "Friday night", {"preset": "house"}, 5, True)
    await db.record_player("p1", "Anna")
    await db.record_player("p1", "Anne")
    async with db.sessions() as session:
        room = await session.get(Room, "r1")
        player = await session.get(Player, "p1")
    assert room is not None and player is not None
    assert (room.name, room.rules, room.seats, room.private) == (
        "Friday night",
        {"preset": "house"},
        5,
        True,
    )
    assert player.name == "Anne"
    assert player.created.tzinfo is not None
    assert await db.player_exists("p1")
    assert not await db.player_exists("nobody")


async def test_rooms_and_players_stored_again_and_again_leave_no_garbage_cycles(
    db: Database,
) -> None:
    # Every room created and every seat taken stores its row: a busy node does that all
    # the time, and reference cycles left per call would be freed only by the cycle
    # collector, in pauses that every room on the node waits through.
    await db.record_room("r0", "warm", {"preset": "classic"}, 4, False)
    await db.record_player("p0", "warm")
    gc.collect()
    gc.disable()
    try:
        for i in range(20):
            await db.record_room(f"r{i}", f"Room {i}", {"preset": "classic"}, 4, False)
            await db.record_player(f"p{i}", f"Player {i}")
        left = gc.collect()
    finally:
        gc.enable()
    assert left < 40  # fewer than one object per call (each left dozens)
    async with db.sessions() as session:
        player = await session.get(Player, "p19")
    assert player is not None and player.name == "Player 19"


async def test_record_deal_round_trip(db: Database) -> None:
    await db.record_room("r1", "Friday", {"preset": "classic"}, 3, False)
    await _deal(db)

    replay = await db.deal_replay("m1", 1)
    assert replay is not None
    assert replay.start_state == {**START, "deal": 1}  # nested JSON and unicode survive
    assert replay.seed == "5eed" and replay.dealer == 2
    assert [a.to_json() for a in replay.actions] == _actions(5, first_seq=10)
    assert replay.scores == [30, 0, 0] and replay.totals == [30, 0, 0]
    assert replay.winner == 0 and replay.match_over is False
    assert [(s.seat, s.player_id, s.name) for s in replay.seats] == [
        (0, "p-anna", "Anna"),
        (1, "p-ben", "Ben"),
        (2, None, "Bot"),
    ]

    match = await db.match("m1")
    assert match is not None
    assert match.room_name == "Friday"
    assert match.rules == START["rules"]  # the rules the engine state carried
    assert match.finished is None and match.winner is None
    # Started when the deal's first action was taken.
    assert match.started == datetime.fromtimestamp(1_764_000_000, UTC)
    assert [d.number for d in match.deals] == [1]
    assert match.deals[0].actions == 5


async def test_record_deal_twice_stores_it_once(db: Database) -> None:
    await _deal(db)
    await _deal(db, totals=[999, 0, 0])
    replay = await db.deal_replay("m1", 1)
    assert replay is not None and replay.totals == [30, 0, 0]  # the first write stands
    assert await _count(db, DealAction) == 5
    assert await _count(db, DealScore) == 3


async def test_record_deal_concurrent_retries_store_it_once(db: Database) -> None:
    await asyncio.gather(*(_deal(db) for _ in range(4)))
    assert await _count(db, DealAction) == 5
    assert await _count(db, Match) == 1


async def test_many_rooms_archiving_at_once_all_land(db: Database) -> None:
    # Fifty rooms ending a deal together: on SQLite, concurrent writers that each read
    # before writing used to fail with "database is locked" and lose their deals.
    await asyncio.gather(
        *(_deal(db, match_id=f"m{i}", room_id=f"r{i}", number=1 + i % 3) for i in range(50))
    )
    assert await _count(db, Match) == 50
    assert await _count(db, DealAction) == 50 * 5


async def test_sqlite_writers_queue_instead_of_failing_on_the_lock(tmp_path: Path) -> None:
    # SQLite's own wait for its write lock has a time limit; on a busy server the holder
    # may not finish within it. With the limit at 1 ms, thirty rooms ending a deal at
    # once all still land: writers wait their turn in the server, not in SQLite.
    db = await Database.connect(
        f"sqlite+aiosqlite:///{tmp_path / 'busy.db'}", sqlite_busy_timeout_ms=1
    )
    try:
        await asyncio.gather(
            *(_deal(db, match_id=f"m{i}", room_id=f"r{i}") for i in range(30)),
            *(db.record_player(f"p{i}", f"Player {i}") for i in range(30)),
        )
        assert await _count(db, Match) == 30
        assert await _count(db, DealAction) == 30 * 5
    finally:
        await db.close()


async def test_deals_archived_out_of_order_keep_the_match_and_its_seats(db: Database) -> None:
    # The outbox may store a match's second deal before its first (the first waited for
    # a retry): whichever comes first records the match, the other finds it.
    await _deal(db, number=2, totals=[60, 0, 0])
    await _deal(db, number=1)
    await _deal(db, number=3, totals=[90, 0, 0])
    match = await db.match("m1")
    assert match is not None
    assert [d.number for d in match.deals] == [1, 2, 3]
    assert [s.name for s in match.seats] == ["Anna", "Ben", "Bot"]
    assert await _count(db, DealAction) == 15


async def test_record_deal_without_room_or_player_records(db: Database) -> None:
    # The room service lost its record_room / record_player calls: history is kept anyway.
    await _deal(db, room_id="lost-room")
    match = await db.match("m1")
    assert match is not None and match.room_id == "lost-room"
    assert await db.player_exists("p-anna") and await db.player_exists("p-ben")


async def test_match_over_closes_the_match(db: Database) -> None:
    await _deal(db, number=1)
    await _deal(db, number=2)
    await _deal(db, number=3, totals=[510, 40, 0], match_over=True, winner=0)
    match = await db.match("m1")
    assert match is not None
    assert match.finished is not None and match.winner == 0
    assert [d.number for d in match.deals] == [1, 2, 3]
    assert [d.match_over for d in match.deals] == [False, False, True]
    assert [(s.name, s.total) for s in match.seats] == [("Anna", 510), ("Ben", 40), ("Bot", 0)]
    assert match.to_json()["matchOver"] is True


async def test_player_matches_lists_finished_matches_newest_first(db: Database) -> None:
    await db.record_room("r1", "Friday", {}, 3, False)
    await _deal(db, "old", 1, match_over=True, winner=1)
    await _deal(db, "live", 1)  # still being played: not history yet
    await _deal(db, "new", 1)
    await _deal(db, "new", 2, totals=[520, 0, 0], match_over=True, winner=0)
    others = [{"seat": 0, "playerId": "p-cara", "name": "Cara"}, SEATS[1]]
    await _deal(db, "elsewhere", 1, seats=others, totals=[1, 2], match_over=True)

    matches = await db.player_matches("p-anna")
    assert [m.match_id for m in matches] == ["new", "old"]
    newest = matches[0]
    assert (newest.seat, newest.winner, newest.deals, newest.room_name) == (0, 0, 2, "Friday")
    assert newest.to_json()["won"] is True
    assert matches[1].to_json()["won"] is False
    assert [(p.name, p.total) for p in newest.players] == [("Anna", 520), ("Ben", 0), ("Bot", 0)]

    assert [m.match_id for m in await db.player_matches("p-anna", limit=1)] == ["new"]
    assert [m.match_id for m in await db.player_matches("p-anna", limit=1, offset=1)] == ["old"]
    assert [m.match_id for m in await db.player_matches("p-ben")] == ["elsewhere", "new", "old"]
    assert await db.player_matches("nobody") == []


async def test_missing_match_and_deal_read_as_none(db: Database) -> None:
    assert await db.match("nope") is None
    assert await db.deal_replay("nope", 1) is None
    await _deal(db)
    assert await db.deal_replay("m1", 2) is None


async def test_deal_without_scores_or_actions(db: Database) -> None:
    # One-and-done has no scoring; a deal may also end with no recorded actions.
    await db.record_deal(
        "r1",
        DealRecord(
            match_id="m1",
            deal_number=1,
            start_state={},
            actions=[],
            scores=None,
            totals=[0, 0],
            winner=1,
            match_over=True,
            seats=SEATS[:2],
        ),
    )
    replay = await db.deal_replay("m1", 1)
    assert replay is not None
    assert replay.scores == [None, None] and replay.actions == [] and replay.seed is None
    match = await db.match("m1")
    assert match is not None and match.winner == 1 and match.rules == {}


async def test_a_match_whose_last_deal_ended_it_reads_as_over_even_from_an_older_match_row(
    db: Database,
) -> None:
    # The match row as a query that ran just before the match's last commit saw it: the
    # deal that ended the match is there, the match's end not yet.
    await _deal(db, number=1)
    await _deal(db, number=2, match_over=True, winner=1)
    async with db.sessions() as session:
        await session.execute(update(Match).values(finished=None, winner=None))
        await session.commit()
    match = await db.match("m1")
    assert match is not None
    assert match.finished is not None and match.winner == 1
    assert match.to_json()["matchOver"] is True
