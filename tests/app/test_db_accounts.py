"""Accounts, sessions and match ratings in SQL, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)
from sqlalchemy import func, select, update

from app.accounts.account_names import name_key
from app.db import Database, DealRecord
from app.db.account_models import AccountSession, RatedMatch, RatingChange


async def _account(db: Database, name: str) -> str:
    account_id = f"acc-{name.lower()}"
    assert await db.create_account(account_id, name, name_key(name), "hash")
    return account_id


async def test_a_name_key_is_unique_and_a_refused_sign_up_writes_nothing(db: Database) -> None:
    await _account(db, "Anna")
    assert not await db.create_account("acc-other", "ANNA", name_key("ANNA"), "hash")
    assert await db.account_by_key(name_key("anna")) is not None
    assert not await db.player_exists("acc-other")


async def test_sign_ups_racing_for_one_name_make_one_account(db: Database) -> None:
    made = await asyncio.gather(
        *(db.create_account(f"acc-{i}", f"Race{i % 2}x", "racex", "hash") for i in range(6))
    )
    assert sorted(made) == [False] * 5 + [True]


async def test_a_session_ends_when_its_token_is_deleted(db: Database) -> None:
    account_id = await _account(db, "Ben")
    await db.open_session(account_id, "h1")
    await db.open_session(account_id, "h2")
    found = await db.session_by_token("h1")
    assert found is not None and found.account.id == account_id
    assert await db.end_session("h1")
    assert not await db.end_session("h1")
    assert await db.session_by_token("h1") is None
    assert await db.session_by_token("h2") is not None


async def _age(db: Database, token_hash: str, opened: timedelta, used: timedelta) -> None:
    now = datetime.now(UTC)
    async with db.transaction() as session:
        await session.execute(
            update(AccountSession)
            .where(AccountSession.token_hash == token_hash)
            .values(created=now - opened, last_used=now - used)
        )


async def test_a_session_ends_30_days_after_its_last_use_and_a_year_after_it_began(
    db: Database,
) -> None:
    account_id = await _account(db, "Cleo")
    expires = await db.open_session(account_id, "fresh")
    assert timedelta(days=29) < expires - datetime.now(UTC) <= timedelta(days=30)
    for token_hash in ("used", "idle", "old"):
        await db.open_session(account_id, token_hash)
    await _age(db, "used", timedelta(days=300), timedelta(days=29))
    await _age(db, "idle", timedelta(days=40), timedelta(days=30, minutes=1))
    await _age(db, "old", timedelta(days=366), timedelta(minutes=5))
    used = await db.session_by_token("used")
    # Used now: its end moves on, to 30 days from now (within its year).
    assert used is not None and used.expires() - datetime.now(UTC) > timedelta(days=29)
    assert await db.session_by_token("idle") is None
    assert await db.session_by_token("old") is None
    # An expired session is gone, as one signed out.
    assert not await db.end_session("idle") and not await db.end_session("old")


async def test_ending_every_session_and_a_password_change_keep_only_what_they_say(
    db: Database,
) -> None:
    anna, ben = await _account(db, "Anna"), await _account(db, "Ben")
    for token_hash in ("a1", "a2", "a3"):
        await db.open_session(anna, token_hash)
    await db.open_session(ben, "b1")
    assert await db.change_password(anna, "hash", "new hash", keep="a2")
    assert [await db.session_by_token(t) is not None for t in ("a1", "a2", "a3")] == [
        False,
        True,
        False,
    ]
    # Changed meanwhile: the old hash no longer matches, nothing changes.
    assert not await db.change_password(anna, "hash", "other", keep="a2")
    assert (await db.password_of(name_key("anna")))[1] == "new hash"  # type: ignore[index]
    assert await db.end_sessions(anna) == 1
    assert await db.session_by_token("a2") is None
    assert await db.session_by_token("b1") is not None


def _end(match_id: str, seats: list[dict[str, Any]], totals: list[int], winner: int) -> DealRecord:
    return DealRecord(
        match_id=match_id,
        deal_number=1,
        start_state={"rules": {"preset": "classic", "matchMode": "oneAndDone"}},
        actions=[],
        scores=totals,
        totals=totals,
        winner=winner,
        match_over=True,
        seats=seats,
        rated=True,
    )


async def test_a_match_is_rated_once_however_often_its_end_is_written(db: Database) -> None:
    anna, ben = await _account(db, "Anna"), await _account(db, "Ben")
    seats = [
        {"seat": 0, "playerId": anna, "name": "Anna", "moves": 10, "auto": 0},
        {"seat": 1, "playerId": ben, "name": "Ben", "moves": 10, "auto": 0},
        {"seat": 2, "playerId": None, "name": "Bot", "moves": 10, "auto": 0},
    ]
    end = _end("m1", seats, [40, 0, 0], 0)
    await asyncio.gather(*(db.record_deal("r1", end) for _ in range(4)))
    await db.record_deal("r1", end)
    async with db.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(RatedMatch)) == 1
        assert await session.scalar(select(func.count()).select_from(RatingChange)) == 2
    changes = await db.rating_changes("m1")
    assert changes[0]["place"] == 1 and changes[0]["ratingBefore"] == 1500
    assert changes[1]["place"] == 2  # sharing it with the bot: equal totals
    assert changes[0]["ratingAfter"] > 1500 > changes[1]["ratingAfter"]
    ratings = await db.ratings_of(anna)
    assert ratings["classic"] == {
        "value": changes[0]["ratingAfter"],
        "provisional": True,
        "games": 1,
    }


async def test_a_leaver_is_placed_last_and_the_others_are_rated_as_if_it_never_sat(
    db: Database,
) -> None:
    anna, ben, cleo, dora = [await _account(db, n) for n in ("Anna", "Ben", "Cleo", "Dora")]
    seats = [
        # Anna's bot went out first, after she left: her win counts for nobody.
        {"seat": 0, "playerId": anna, "name": "Anna", "left": True},
        {"seat": 1, "playerId": ben, "name": "Ben", "moves": 9, "auto": 1},
        {"seat": 2, "playerId": cleo, "name": "Cleo", "moves": 9},
        {"seat": 3, "playerId": dora, "name": "Dora", "moves": 9, "auto": 5},  # autopilot
    ]
    await db.record_deal("r1", _end("m2", seats, [60, 5, 0, 0], 0))
    changes = await db.rating_changes("m2")
    # The gone seats come after Ben and Cleo, ordered among themselves by their totals.
    assert [changes[s]["place"] for s in range(4)] == [3, 1, 2, 4]
    assert changes[0]["ratingAfter"] < 1500 and changes[3]["ratingAfter"] < 1500
    # Ben and Cleo change as in a match of the two of them alone.
    eve, finn = await _account(db, "Eve"), await _account(db, "Finn")
    pair = [
        {"seat": 0, "playerId": eve, "name": "Eve", "moves": 9},
        {"seat": 1, "playerId": finn, "name": "Finn", "moves": 9},
    ]
    await db.record_deal("r2", _end("m2b", pair, [5, 0], 0))
    alone = await db.rating_changes("m2b")
    assert changes[1]["ratingAfter"] == alone[0]["ratingAfter"] > 1500
    assert changes[2]["ratingAfter"] == alone[1]["ratingAfter"] < 1500


async def test_a_puppet_account_that_leaves_rates_nothing(db: Database) -> None:
    """The rating farm: a fresh account per match sits down and leaves, its bot even
    wins; the farmer is the only account still playing, so no match is rated."""
    farmer = await _account(db, "Farmer")
    for i in range(3):
        puppet = await _account(db, f"Puppet{i}")
        seats = [
            {"seat": 0, "playerId": farmer, "name": "Farmer", "moves": 8},
            {"seat": 1, "playerId": puppet, "name": f"Puppet{i}", "left": True},
        ]
        await db.record_deal("r1", _end(f"farm{i}", seats, [0, 50], 1))
        assert await db.rating_changes(f"farm{i}") == {}
    assert (await db.ratings_of(farmer))["classic"]["games"] == 0
    alone = [
        {"seat": 0, "playerId": farmer, "name": "Farmer"},
        {"seat": 1, "playerId": None, "name": "x"},
    ]
    await db.record_deal("r1", _end("m3", alone, [10, 0], 0))
    assert await db.rating_changes("m3") == {}


async def test_an_unrated_room_rates_nothing(db: Database) -> None:
    anna, ben = await _account(db, "Anna"), await _account(db, "Ben")
    seats = [{"seat": 0, "playerId": anna, "name": "A"}, {"seat": 1, "playerId": ben, "name": "B"}]
    plain = _end("m4", seats, [10, 0], 0)
    await db.record_deal("r1", DealRecord(**{**plain.to_json(), "rated": False}))
    assert await db.rating_changes("m4") == {}
    # An outbox entry written before ratings existed has no "rated": not rated.
    old = {k: v for k, v in _end("m5", seats, [10, 0], 0).to_json().items() if k != "rated"}
    assert DealRecord.from_json(old).rated is False


async def test_the_leaderboard_lists_every_rated_player_by_ordinal(db: Database) -> None:
    a, b, c = [await _account(db, n) for n in ("Anna", "Ben", "Cleo")]
    await _account(db, "Dora")  # no rated game: not listed
    for i in range(30):
        seats = [
            {"seat": 0, "playerId": a, "name": "Anna"},
            {"seat": 1, "playerId": b, "name": "Ben"},
        ]
        won = 0 if i % 3 else 1  # Anna wins two games of three
        await db.record_deal("r1", _end(f"lb{i}", seats, [50 * (1 - won), 50 * won], won))
    once = [{"seat": 0, "playerId": c, "name": "Cleo"}, {"seat": 1, "playerId": b, "name": "Ben"}]
    await db.record_deal("r1", _end("lb-c", once, [50, 0], 0))
    board = await db.leaderboard("classic", 50)
    # Cleo, one lucky game, shows more than Ben but is far less certain: below him.
    assert [row["name"] for row in board] == ["Anna", "Ben", "Cleo"]
    assert board[2]["value"] > board[1]["value"]
    assert board[0]["rank"] == 1 and board[0]["games"] == 30
    assert board[0]["provisional"] is False and board[2]["provisional"] is True
    assert await db.leaderboard("duo", 50) == []
    assert [r["name"] for r in await db.leaderboard("classic", 1)] == ["Anna"]
