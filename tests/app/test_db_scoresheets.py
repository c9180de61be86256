"""Scoresheet storage on SQLite and PostgreSQL: entries and rules round trip; a refused
deal stores nothing; racing writers get distinct deal numbers."""

from __future__ import annotations

import asyncio

import pytest
from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)

from app.db import Database, ScoresheetRecord

RULES = {"preset": "classic", "targetScore": 500}


def _accept(sheet: ScoresheetRecord, entries: list[int], number: int) -> None:
    assert number == len(sheet.deals) + 1


async def test_scoresheet_round_trip(db: Database) -> None:
    created = await db.create_scoresheet(name="Cabin", players=["Anna", "Ben"], rules=RULES)
    assert created.deals == [] and created.players == ["Anna", "Ben"]
    await db.add_scoresheet_deal(created.id, [87, 0], _accept)
    await db.add_scoresheet_deal(created.id, [0, 132], _accept)
    sheet = await db.scoresheet(created.id)
    assert sheet is not None
    assert (sheet.name, sheet.rules, sheet.players) == ("Cabin", RULES, ["Anna", "Ben"])
    assert sheet.deals == [[87, 0], [0, 132]]
    assert sheet.updated >= sheet.created
    assert sheet.to_json()["created"].endswith("Z")


async def test_refused_deal_stores_nothing(db: Database) -> None:
    created = await db.create_scoresheet(name="x", players=["Anna", "Ben"], rules=RULES)

    def refuse(sheet: ScoresheetRecord, entries: list[int], number: int) -> None:
        raise ValueError(f"deal {number} refused")

    with pytest.raises(ValueError, match="deal 1 refused"):
        await db.add_scoresheet_deal(created.id, [5, 5], refuse)
    sheet = await db.scoresheet(created.id)
    assert sheet is not None and sheet.deals == []


async def test_change_rules_keeps_entries(db: Database) -> None:
    created = await db.create_scoresheet(name="x", players=["Anna", "Ben"], rules=RULES)
    await db.add_scoresheet_deal(created.id, [10, 0], _accept)
    changed = await db.change_scoresheet_rules(
        created.id, lambda sheet: {**sheet.rules, "scoringMode": "ownHandCounts"}
    )
    assert changed is not None
    assert changed.rules == {**RULES, "scoringMode": "ownHandCounts"}
    assert changed.deals == [[10, 0]]
    assert (await db.scoresheet(created.id)) == changed


async def test_unknown_scoresheet_reads_as_none(db: Database) -> None:
    assert await db.scoresheet("nope") is None
    assert await db.add_scoresheet_deal("nope", [1, 0], _accept) is None
    assert await db.change_scoresheet_rules("nope", lambda sheet: {}) is None


async def test_racing_deals_get_distinct_numbers(db: Database) -> None:
    created = await db.create_scoresheet(name="x", players=["Anna", "Ben"], rules=RULES)
    await asyncio.gather(*(db.add_scoresheet_deal(created.id, [i, 0], _accept) for i in range(5)))
    sheet = await db.scoresheet(created.id)
    assert sheet is not None
    assert sorted(deal[0] for deal in sheet.deals) == [0, 1, 2, 3, 4]
