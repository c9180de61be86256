"""Finished tournaments in SQL, on SQLite and PostgreSQL: archived when over (all six
tables of the migration), and exported as JSON and CSV; a tournament not over is refused."""

from __future__ import annotations

import csv
import io
from typing import Any

from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_database_url,
    fixture_postgres_session_url,
)
from live import running_server
from tournament_play import ROUND_SETTINGS, host, new_tournament, register_all, wait_for


async def test_a_finished_tournament_is_archived_and_exported(
    database_url: str, tmp_path: Any
) -> None:
    async with running_server(
        "memory", tmp_path, database_url=database_url, **ROUND_SETTINGS
    ) as server:
        made = await new_tournament(server, tableStartSeconds=0, rounds=1)
        tid = made["tournamentId"]
        await register_all(server, tid, 4)
        early = await server.http.get(f"/api/tournaments/{tid}/export.json")
        assert early.status_code == 409 and early.json()["code"] == "tournament/not_over"
        missing = await server.http.get("/api/tournaments/nope/export.csv")
        assert missing.status_code == 404 and missing.json()["code"] == "tournament/not_found"
        assert (await host(server, made, "/start")).status_code == 200
        # Nobody comes: the autopilot plays the table; then the host corrects it.
        doc = await wait_for(server, tid, lambda d: d["status"] == "over")
        exported = None
        for _ in range(100):
            r = await server.http.get(f"/api/tournaments/{tid}/export.json")
            if r.status_code == 200:
                exported = r.json()
                break
            await __import__("asyncio").sleep(0.05)
        assert exported is not None, "the tournament was not archived"
        standings = (await server.http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
        assert exported["standings"] == standings
        assert exported["tournament"]["roundLog"] == doc["roundLog"]
        table = doc["roundLog"][0]["tables"][0]
        assert sorted(r["playerId"] for r in exported["results"]) == sorted(table["players"])
        assert sum(r["points"] for r in exported["results"]) == 6
        r = await server.http.get(f"/api/tournaments/{tid}/export.csv")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(r.text)))
        assert [row["name"] for row in rows] == [s["name"] for s in standings]
        r = await server.http.get(f"/api/tournaments/{tid}/export.csv", params={"what": "results"})
        rows = list(csv.DictReader(io.StringIO(r.text)))
        assert len(rows) == 4 and {row["tableId"] for row in rows} == {table["tableId"]}
        # A result corrected after the end: the archive follows it.
        order = [s["pid"] for s in sorted(table["result"], key=lambda s: s["place"])][::-1]
        fixed = [{"playerId": pid, "place": i + 1} for i, pid in enumerate(order)]
        body = {"result": fixed, "reason": "scored wrongly"}
        path = f"/tables/{table['tableId']}/result"
        assert (await host(server, made, path, method="put", json=body)).status_code == 200
        corrected = (await server.http.get(f"/api/tournaments/{tid}/export.json")).json()
        assert corrected["audit"][-1]["action"] == "correct"
        places = {row["playerId"]: row["place"] for row in corrected["results"]}
        assert places == {f["playerId"]: f["place"] for f in fixed}
        standings = (await server.http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
        assert corrected["standings"] == standings
        # The store no longer holds it (a store that forgot it, or another store's node):
        # the GET routes read the archive.
        shown = (await server.http.get(f"/api/tournaments/{tid}")).json()
        assert corrected["tournament"] == shown
        del server.app.state.tournaments.store._docs[tid]
        assert (await server.http.get(f"/api/tournaments/{tid}")).json() == shown
        again = (await server.http.get(f"/api/tournaments/{tid}/standings")).json()
        assert again["rows"] == standings and again["tieBreaks"] == shown["tieBreaks"]
        assert (await server.http.get(f"/api/tournaments/{tid}/rounds")).json() == shown["roundLog"]
        one = (await server.http.get(f"/api/tournaments/{tid}/tables/{table['tableId']}")).json()
        assert one["round"] == 1 and one["players"] == table["players"]
        none = await server.http.get(f"/api/tournaments/{tid}/tables/r9t9")
        assert none.status_code == 404 and none.json()["code"] == "tournament/table_not_found"
        gone = await server.http.get("/api/tournaments/nope/standings")
        assert gone.status_code == 404 and gone.json()["code"] == "tournament/not_found"
