"""History over REST, on SQLite and PostgreSQL: a match played by the real engine is
recorded deal by deal as the room service does, then read back and replayed."""

from __future__ import annotations

import random
from typing import Any

import httpx
from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_client,
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)

from app.db import Database, DealRecord
from engine import State, apply, legal_actions, new_match, rules_from_json

SEATS = [
    {"seat": 0, "playerId": "p-anna", "name": "Anna"},
    {"seat": 1, "playerId": "p-ben", "name": "Ben"},
    {"seat": 2, "playerId": "p-cara", "name": "Cara"},
]


def _step(state: State, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A random legal action, the turn holder's plays first so deals end quickly."""
    choices = [(seat, a) for seat in range(state.players) for a in legal_actions(state, seat)]
    plays = [(seat, a) for seat, a in choices if a.type == "play" and seat == state.turn]
    seat, action = rng.choice(plays or choices)
    return seat, action.to_json()


async def _play_and_record(db: Database, match_id: str, seed: str) -> list[State]:
    """Play a whole match, recording every deal when it ends; the final state of each deal."""
    rng = random.Random(seed)
    state, _ = new_match(rules_from_json({"targetScore": 200}), 3, seed)
    await db.record_room("room-1", "Friday", {"targetScore": 200}, 3, False)
    for seat in SEATS:
        await db.record_player(seat["playerId"], seat["name"])
    finals: list[State] = []
    start, log, seq = state, [], 0
    while True:
        seat, action = _step(state, rng)
        state, _ = apply(state, seat, action)
        seq += 1
        if action["type"] == "nextDeal":
            start, log = state, []  # the next deal starts from the state nextDeal made
            continue
        log.append({"seq": seq, "ts": 1_764_000_000_000 + seq, "seat": seat, "action": action})
        if state.phase in ("dealOver", "matchOver"):
            finals.append(state)
            await db.record_deal(
                "room-1",
                DealRecord(
                    match_id=match_id,
                    deal_number=state.deal,
                    start_state=start.to_json(),
                    actions=log,
                    scores=list(state.deal_scores) if state.deal_scores is not None else None,
                    totals=list(state.totals),
                    winner=state.winner,
                    match_over=state.match_over,
                    seats=SEATS,
                ),
            )
            if state.match_over:
                return finals


async def test_played_match_replays_exactly(client: httpx.AsyncClient, db: Database) -> None:
    finals = await _play_and_record(db, "match-1", "seed-1")
    last = finals[-1]

    match = (await client.get("/api/matches/match-1")).json()
    assert match["matchId"] == "match-1" and match["roomName"] == "Friday"
    assert match["matchOver"] is True and match["winner"] == last.winner
    assert [d["number"] for d in match["deals"]] == [s.deal for s in finals]
    assert [d["totals"] for d in match["deals"]] == [list(s.totals) for s in finals]
    assert [p["total"] for p in match["players"]] == list(last.totals)
    assert [p["name"] for p in match["players"]] == ["Anna", "Ben", "Cara"]

    for final in finals:
        response = await client.get(f"/api/matches/match-1/deals/{final.deal}/replay")
        assert response.status_code == 200, response.text
        replay = response.json()
        assert replay["replay"] == {"consistent": True, "error": None}
        # The recorded start state and log lead through the engine to the very same state.
        assert State.from_json(replay["finalState"]) == final
        assert replay["startState"]["seed"] == "seed-1" == replay["seed"]
        assert [a["seq"] for a in replay["actions"]] == sorted(a["seq"] for a in replay["actions"])


async def test_player_matches_over_rest(client: httpx.AsyncClient, db: Database) -> None:
    await _play_and_record(db, "match-1", "seed-1")
    await _play_and_record(db, "match-2", "seed-2")
    body = (await client.get("/api/players/p-ben/matches")).json()
    assert body["playerId"] == "p-ben"
    assert {m["matchId"] for m in body["matches"]} == {"match-1", "match-2"}
    assert all(m["seat"] == 1 and m["won"] == (m["winner"] == 1) for m in body["matches"])
    page = (await client.get("/api/players/p-ben/matches?limit=1&offset=1")).json()
    assert len(page["matches"]) == 1 and page["matches"][0] == body["matches"][1]

    await db.record_player("p-new", "Dora")
    assert (await client.get("/api/players/p-new/matches")).json()["matches"] == []


async def test_tampered_log_reports_where_the_replay_breaks(
    client: httpx.AsyncClient, db: Database
) -> None:
    state, _ = new_match(rules_from_json({}), 2, "seed-x", dealer=0)
    # A draw by the seat whose turn it is not: the engine refuses it.
    other = 1 - state.turn
    await db.record_deal(
        "r",
        DealRecord(
            match_id="m",
            deal_number=1,
            start_state=state.to_json(),
            actions=[{"seq": 1, "ts": 0, "seat": other, "action": {"type": "draw"}}],
            scores=[0, 0],
            totals=[0, 0],
            winner=None,
            match_over=True,
            seats=SEATS[:2],
        ),
    )
    replay = (await client.get("/api/matches/m/deals/1/replay")).json()
    assert replay["finalState"] is None
    assert replay["replay"]["consistent"] is False
    assert replay["replay"]["error"]["index"] == 0
    assert replay["replay"]["error"]["code"] == "not_your_turn"


async def test_history_errors(client: httpx.AsyncClient, db: Database) -> None:
    await _play_and_record(db, "match-1", "seed-1")
    cases = [
        ("/api/matches/nope", 404, "match_not_found"),
        ("/api/matches/nope/deals/1/replay", 404, "match_not_found"),
        ("/api/matches/match-1/deals/99/replay", 404, "deal_not_found"),
        ("/api/players/nobody/matches", 404, "player_not_found"),
        ("/api/matches/match-1/deals/zero/replay", 422, "invalid_request"),
        ("/api/matches/match-1/deals/0/replay", 422, "invalid_request"),
        ("/api/players/p-ben/matches?limit=0", 422, "invalid_request"),
    ]
    for url, status, code in cases:
        response = await client.get(url)
        assert response.status_code == status, url
        assert response.json()["code"] == code, url
        expected = {"code", "message"} | ({"errors"} if status == 422 else set())
        assert set(response.json()) == expected


async def test_openapi_describes_the_routes(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    paths = schema["paths"]
    for path, method, model in [
        ("/api/players/{playerId}/matches", "get", "PlayerMatchesOut"),
        ("/api/matches/{matchId}", "get", "MatchOut"),
        ("/api/matches/{matchId}/deals/{dealNumber}/replay", "get", "ReplayOut"),
        ("/api/scoresheets", "post", "ScoresheetOut"),
        ("/api/scoresheets/{scoresheetId}", "get", "ScoresheetOut"),
        ("/api/scoresheets/{scoresheetId}/deals", "post", "ScoresheetDealOut"),
        ("/api/scoresheets/{scoresheetId}/rules", "patch", "ScoresheetOut"),
    ]:
        responses = paths[path][method]["responses"]
        ok = responses.get("200") or responses["201"]
        assert ok["content"]["application/json"]["schema"]["$ref"].endswith(model), path
        if "{" in path:
            assert responses["404"]["content"]["application/json"]["schema"]["$ref"].endswith(
                "ErrorOut"
            )
        invalid = responses["422"]["content"]["application/json"]["schema"]
        assert "ValidationErrorOut" in str(invalid), path
