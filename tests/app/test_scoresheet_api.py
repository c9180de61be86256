"""Scoresheet matches over REST (docs/rules.md and docs/scoresheet.md), on SQLite and PostgreSQL.

The two worked tables of docs/scoresheet.md, "Test vectors" (Anna, Ben, Cara, Dan), are
entered deal by deal and read in both scoring modes.
"""

from __future__ import annotations

from typing import Any

import httpx
from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_client,
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)

PLAYERS = ["Anna", "Ben", "Cara", "Dan"]
# Standard method: Anna goes out in deals 1, 3, 5 and 6.
WINNER_COLLECTS = [
    [87, 0, 0, 0],
    [0, 0, 132, 0],
    [154, 0, 0, 0],
    [0, 96, 0, 0],
    [175, 0, 0, 0],
    [118, 0, 0, 0],
]
# Alternative method: whoever goes out writes 0, the others their own hand.
OWN_HAND_COUNTS = [
    [0, 34, 51, 22],
    [19, 60, 0, 45],
    [0, 88, 27, 63],
    [41, 76, 30, 0],
    [0, 95, 38, 70],
    [25, 92, 0, 55],
    [0, 87, 44, 66],
]


def _places(body: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(s["player"], s["total"], s["place"]) for s in body["standings"]]


async def _create(client: httpx.AsyncClient, **rules: Any) -> str:
    response = await client.post(
        "/api/scoresheets", json={"name": "Seed", "players": PLAYERS, "rules": rules}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["deals"] == [] and body["finished"] is False and body["winner"] is None
    return str(body["id"])


async def _enter(
    client: httpx.AsyncClient, sheet: str, deals: list[list[int]], first: int = 1
) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for number, entries in enumerate(deals, start=first):
        response = await client.post(f"/api/scoresheets/{sheet}/deals", json={"entries": entries})
        assert response.status_code == 201, response.text
        body = response.json()
        assert body["deal"] == number
    return body


async def test_worked_table_winner_collects(client: httpx.AsyncClient) -> None:
    sheet = await _create(client)
    after_five = await _enter(client, sheet, WINNER_COLLECTS[:5])
    # One deal before the end Anna stands on 416 and the match goes on.
    assert after_five["totals"] == [416, 96, 132, 0]
    assert after_five["finished"] is False and after_five["winner"] is None

    body = await _enter(client, sheet, WINNER_COLLECTS[5:], first=6)
    assert body["totals"] == [534, 96, 132, 0]
    assert _places(body) == [("Anna", 534, 1), ("Cara", 132, 2), ("Ben", 96, 3), ("Dan", 0, 4)]
    assert (body["winner"], body["finished"], body["warnings"]) == ("Anna", True, [])

    fetched = (await client.get(f"/api/scoresheets/{sheet}")).json()
    assert fetched["deals"] == WINNER_COLLECTS and _places(fetched) == _places(body)

    # The same entries read the other way: lowest wins, Anna (who reached 500) is last.
    response = await client.patch(
        f"/api/scoresheets/{sheet}/rules", json={"scoringMode": "ownHandCounts"}
    )
    assert response.status_code == 200, response.text
    flipped = response.json()
    assert flipped["deals"] == WINNER_COLLECTS  # entries never change
    assert flipped["rules"]["scoringMode"] == "ownHandCounts"
    assert _places(flipped) == [("Dan", 0, 1), ("Ben", 96, 2), ("Cara", 132, 3), ("Anna", 534, 4)]
    assert (flipped["winner"], flipped["finished"], flipped["warnings"]) == ("Dan", True, [])


async def test_worked_table_own_hand_counts(client: httpx.AsyncClient) -> None:
    sheet = await _create(client, scoringMode="ownHandCounts")
    body = await _enter(client, sheet, OWN_HAND_COUNTS)
    assert body["totals"] == [85, 532, 190, 321]
    # Ben reached the target, and Ben is last: the target ends the match, lowest wins.
    assert _places(body) == [("Anna", 85, 1), ("Cara", 190, 2), ("Dan", 321, 3), ("Ben", 532, 4)]
    assert (body["winner"], body["finished"], body["warnings"]) == ("Anna", True, [])

    # Switched to the standard method mid-way: Ben wins with 532, Anna is last with 85,
    # and every deal is flagged (under winnerCollects one entry per deal may be non-zero).
    response = await client.patch(
        f"/api/scoresheets/{sheet}/rules", json={"scoringMode": "winnerCollects"}
    )
    assert response.status_code == 200, response.text
    flipped = response.json()
    assert flipped["deals"] == OWN_HAND_COUNTS
    assert _places(flipped) == [("Ben", 532, 1), ("Dan", 321, 2), ("Cara", 190, 3), ("Anna", 85, 4)]
    assert (flipped["winner"], flipped["finished"]) == ("Ben", True)
    assert len(flipped["warnings"]) == 7
    assert all(w.startswith(f"deal {n}") for n, w in enumerate(flipped["warnings"], start=1))

    # And back: the warnings go away, the result is the original one.
    back = await client.patch(
        f"/api/scoresheets/{sheet}/rules", json={"scoringMode": "ownHandCounts"}
    )
    assert _places(back.json()) == _places(body) and back.json()["warnings"] == []


async def test_entry_breaking_the_mode_is_refused_and_not_stored(client: httpx.AsyncClient) -> None:
    sheet = await _create(client)
    await _enter(client, sheet, WINNER_COLLECTS[:1])
    # Two non-zero entries in one deal under winnerCollects: an entry mistake.
    response = await client.post(
        f"/api/scoresheets/{sheet}/deals", json={"entries": OWN_HAND_COUNTS[0]}
    )
    assert response.status_code == 422
    error = response.json()
    assert error["code"] == "scoresheet/bad_entry"
    assert "deal 2" in error["message"] and "Ben" in error["message"]
    assert (await client.get(f"/api/scoresheets/{sheet}")).json()["deals"] == WINNER_COLLECTS[:1]


async def test_bad_entries_are_refused(client: httpx.AsyncClient) -> None:
    sheet = await _create(client, scoringMode="ownHandCounts")
    cases = {
        "scoresheet/wrong_length": [0, 1, 2],
        "scoresheet/bad_entry": [0, -5, 0, 0],
    }
    for code, entries in cases.items():
        response = await client.post(f"/api/scoresheets/{sheet}/deals", json={"entries": entries})
        assert (response.status_code, response.json()["code"]) == (422, code), response.text
    # No 0 under ownHandCounts: nobody went out.
    response = await client.post(f"/api/scoresheets/{sheet}/deals", json={"entries": [1, 2, 3, 4]})
    assert response.json()["code"] == "scoresheet/bad_entry"
    # More than a whole deck is worth (1240 with one deck).
    response = await client.post(
        f"/api/scoresheets/{sheet}/deals", json={"entries": [0, 1241, 0, 0]}
    )
    assert (
        response.json()["code"] == "scoresheet/bad_entry" and "1240" in response.json()["message"]
    )
    for bad in ({"entries": [0, "7", 0, 0]}, {"entries": [0, 1.5, 0, 0]}, {}, {"points": [0]}):
        response = await client.post(f"/api/scoresheets/{sheet}/deals", json=bad)
        assert response.status_code == 422
        assert set(response.json()) == {"code", "message", "errors"}
        assert response.json()["code"] == "invalid_request"
    assert (await client.get(f"/api/scoresheets/{sheet}")).json()["deals"] == []


async def test_two_decks_raise_the_entry_cap(client: httpx.AsyncClient) -> None:
    sheet = await _create(client)
    big = {"entries": [2000, 0, 0, 0]}
    assert (await client.post(f"/api/scoresheets/{sheet}/deals", json=big)).status_code == 422
    response = await client.patch(f"/api/scoresheets/{sheet}/rules", json={"decks": 2})
    assert response.status_code == 200
    assert (await client.post(f"/api/scoresheets/{sheet}/deals", json=big)).status_code == 201


async def test_finished_match_takes_no_more_deals(client: httpx.AsyncClient) -> None:
    sheet = await _create(client)
    await _enter(client, sheet, WINNER_COLLECTS)
    response = await client.post(f"/api/scoresheets/{sheet}/deals", json={"entries": [10, 0, 0, 0]})
    assert (response.status_code, response.json()["code"]) == (409, "scoresheet/finished")
    # Raising the target reopens the match: entries never change, the reading does.
    await client.patch(f"/api/scoresheets/{sheet}/rules", json={"targetScore": 1000})
    response = await client.post(f"/api/scoresheets/{sheet}/deals", json={"entries": [10, 0, 0, 0]})
    assert response.status_code == 201 and response.json()["finished"] is False


async def test_round_limit_change_reports_uncounted_deals(client: httpx.AsyncClient) -> None:
    sheet = await _create(client)
    await _enter(client, sheet, WINNER_COLLECTS[:4])
    body = (await client.patch(f"/api/scoresheets/{sheet}/rules", json={"roundLimit": 3})).json()
    assert body["finished"] is True and body["totals"] == [241, 0, 132, 0]
    assert body["winner"] == "Anna"
    assert any("deal 4" in w for w in body["warnings"])


async def test_bad_rules_and_players_are_refused(client: httpx.AsyncClient) -> None:
    bad_creates = [
        ({"players": PLAYERS, "rules": {"targetScore": 123}}, "rules/bad_value"),
        ({"players": PLAYERS, "rules": {"noSuchOption": True}}, "rules/unknown_option"),
        ({"players": PLAYERS, "rules": {"preset": "nope"}}, "rules/unknown_preset"),
        ({"players": ["Anna", "Anna"]}, "scoresheet/bad_players"),
        ({"players": ["Anna"]}, "invalid_request"),
        ({"players": ["Anna", "  "]}, "invalid_request"),
        # PostgreSQL cannot store NUL in text: refused, not a failed write.
        ({"players": ["Anna", "Ben\u0000"]}, "invalid_request"),
        ({"players": PLAYERS, "name": "Friday\nnight"}, "invalid_request"),
        ({"players": [f"P{i}" for i in range(11)]}, "invalid_request"),
        ({"players": PLAYERS, "extra": 1}, "invalid_request"),
    ]
    for body, code in bad_creates:
        response = await client.post("/api/scoresheets", json=body)
        assert (response.status_code, response.json()["code"]) == (422, code), body

    sheet = await _create(client)
    for changes, code in [
        ({"targetScore": 7}, "rules/bad_value"),
        ({"bogus": 1}, "rules/unknown_option"),
    ]:
        response = await client.patch(f"/api/scoresheets/{sheet}/rules", json=changes)
        assert (response.status_code, response.json()["code"]) == (422, code)
    rules = (await client.get(f"/api/scoresheets/{sheet}")).json()["rules"]
    assert rules["targetScore"] == 500


async def test_unknown_scoresheet_is_404(client: httpx.AsyncClient) -> None:
    for response in (
        await client.get("/api/scoresheets/nope"),
        await client.post("/api/scoresheets/nope/deals", json={"entries": [1, 0]}),
        await client.patch("/api/scoresheets/nope/rules", json={"targetScore": 200}),
    ):
        assert response.status_code == 404
        assert response.json() == {
            "code": "scoresheet_not_found",
            "message": "no scoresheet 'nope'",
        }


async def test_default_name_and_stored_rules(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/scoresheets", json={"players": [" Anna ", "Ben"]})
    body = response.json()
    assert body["name"] == "Scoresheet" and body["players"] == ["Anna", "Ben"]
    # Every option is spelled out, so a later change of defaults leaves the sheet alone.
    assert body["rules"]["targetScore"] == 500 and body["rules"]["preset"] == "classic"
    assert len(body["id"]) >= 16
