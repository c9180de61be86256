"""Tournament documents and the changes made to them: registration, check-in, withdrawal.

Every change loads the document, applies one pure step to it and writes it back with a
compare-and-set; a step that refuses raises a :class:`RoomError` (status, stable code)
before anything is written, so a refused request changes nothing. Seating, points and
standings come from :mod:`app.tournaments.swiss` and are never stored twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.errors import RoomError
from app.names import name_key
from app.rooms import tokens
from app.rooms.clock import now_ms as now_ms  # the tournaments read the rooms' clock
from app.tournaments import swiss
from app.tournaments.events import emit
from app.tournaments.store import TournamentStore, VersionConflict

REGISTRATION = "registration"
RUNNING = "running"
OVER = "over"

# A change of a tournament's document (applied again on a concurrent write); its return
# value is the answer of the change.
DocChange = Callable[[dict[str, Any]], Any]


def not_found(tournament_id: str) -> RoomError:
    return RoomError(404, "tournament/not_found", f"no tournament {tournament_id!r}")


def new_doc(
    *,
    name: str,
    host_token: str,
    table_size: int,
    rounds: int,
    turn_seconds: int,
    rules: dict[str, Any],
    deals_per_round: int,
    now_ms: int,
    table_start_seconds: int = 0,
    rated: bool = False,
    host_account: str | None = None,
) -> dict[str, Any]:
    swiss.check_table_size(table_size)
    return {
        "name": name,
        "hostAccount": host_account,
        # The tables' rooms are rated rooms (docs/ratings.md): their matches rate the
        # seats of accounts.
        "rated": rated,
        "host": tokens.hash_token(host_token),
        "seed": tokens.new_token(),
        # Seat tokens at the tables derive from it (app.tournaments.rounds.seat_token).
        "secret": tokens.new_token(),
        # How long after a round starts its tables deal, players there or not.
        "tableStartSeconds": table_start_seconds,
        "paused": False,
        "seq": 0,
        "events": [],
        "status": REGISTRATION,
        "tableSize": table_size,
        "rounds": rounds,
        "dealsPerRound": deals_per_round,
        "turnSeconds": turn_seconds,
        "rules": rules,
        "checkIn": False,
        "round": 0,
        "createdAt": now_ms,
        "players": [],
        "audit": [],
    }


def player_by_token(doc: dict[str, Any], token: str) -> dict[str, Any] | None:
    for player in doc["players"]:
        if tokens.same_hash(token, player["token"]):
            found: dict[str, Any] = player
            return found
    return None


def registration_open(doc: dict[str, Any]) -> bool:
    """Until the start, and late until half the rounds have started."""
    if doc["status"] == REGISTRATION:
        return True
    return doc["status"] == RUNNING and 2 * int(doc["round"]) < int(doc["rounds"])


def register(
    doc: dict[str, Any],
    name: str,
    token: str,
    seed: int | None,
    account: str | None = None,
) -> dict[str, Any]:
    """Register ``name``; ``account``: the id of the account registering (its player id
    in the tournament and at every table, where its seat shows the account's rating)."""
    if not registration_open(doc):
        raise RoomError(409, "tournament/registration_closed", "registration has closed")
    if account is not None and any(p["pid"] == account for p in doc["players"]):
        raise RoomError(409, "tournament/already_registered", "this account is registered")
    key = name_key(name)
    if any(name_key(p["name"]) == key for p in doc["players"]):
        raise RoomError(409, "tournament/name_taken", f"{name!r} is registered already")
    player = {
        "pid": tokens.new_id() if account is None else account,
        "account": account is not None,
        "name": name,
        "token": tokens.hash_token(token),
        "seed": seed,
        "status": swiss.Status.ACTIVE.value,
        # Late entrants (after the start) need no check-in: they are here.
        "checkedIn": doc["status"] != REGISTRATION,
        "joinedRound": int(doc["round"]),
    }
    doc["players"].append(player)
    emit(doc, {"type": "registered", "playerId": player["pid"], "name": name}, now_ms())
    return player


def check_in(doc: dict[str, Any], player: dict[str, Any]) -> None:
    if doc["status"] != REGISTRATION or not doc["checkIn"]:
        raise RoomError(409, "tournament/check_in_closed", "check-in is not open")
    if player["status"] != swiss.Status.ACTIVE.value:
        raise RoomError(409, "tournament/withdrawn", "this player has withdrawn")
    player["checkedIn"] = True
    emit(doc, {"type": "checkedIn", "playerId": player["pid"]}, now_ms())


def audit(doc: dict[str, Any], action: str, at_ms: int, **detail: Any) -> None:
    """Every host action (open check-in, start, next round and the console's), kept in
    order and shown publicly."""
    doc.setdefault("audit", []).append({"at": at_ms, "action": action, **detail})


def open_check_in(doc: dict[str, Any]) -> None:
    if doc["status"] != REGISTRATION:
        raise RoomError(409, "tournament/started", "the tournament has started")
    if doc["checkIn"]:
        return  # open already: nothing happens again
    doc["checkIn"] = True
    at = now_ms()
    audit(doc, "checkIn", at)
    emit(doc, {"type": "checkInOpen"}, at)


def withdraw(doc: dict[str, Any], player: dict[str, Any]) -> None:
    if player["status"] != swiss.Status.ACTIVE.value:
        raise RoomError(409, "tournament/withdrawn", "this player has withdrawn already")
    if doc["status"] == OVER:
        raise RoomError(409, "tournament/over", "the tournament is over")
    mark_withdrawn(doc, player, now_ms(), absent=False)
    emit(doc, {"type": "standings"}, now_ms())


def mark_withdrawn(
    doc: dict[str, Any], player: dict[str, Any], at_ms: int, *, absent: bool
) -> None:
    """The player is seated no more: by their own word, or (``absent``) because the
    autopilot played their whole table; either way in the open, in the audit log and on
    the tournament's socket, so the host can take them back (``reinstate``)."""
    player["status"] = swiss.Status.WITHDRAWN.value
    audit(doc, "withdrawn", at_ms, playerId=player["pid"], absent=absent)
    emit(doc, {"type": "withdrawn", "playerId": player["pid"], "absent": absent}, at_ms)


def can_play(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The players a next round seats: neither withdrawn nor disqualified (those who did not
    check in left the field at the start)."""
    return [p for p in doc["players"] if p["status"] == swiss.Status.ACTIVE.value]


def entrants(doc: dict[str, Any]) -> list[swiss.Entrant]:
    return [
        swiss.Entrant(p["pid"], seed=p["seed"], status=swiss.Status(p["status"]))
        for p in doc["players"]
    ]


def results(doc: dict[str, Any]) -> list[swiss.TableResult]:
    """Every table result recorded so far (rounds are added by the round runner)."""
    found = []
    for round_ in doc.get("roundLog", []):
        for table in round_["tables"]:
            if table.get("result"):
                found.append(
                    swiss.TableResult(
                        tuple(
                            swiss.SeatResult(s["pid"], s["place"], s["leftInHand"], s["dealsWon"])
                            for s in table["result"]
                        )
                    )
                )
    return found


def byes(doc: dict[str, Any]) -> list[str]:
    """One entry for every round a player sat out (a bye)."""
    return [pid for round_ in doc.get("roundLog", []) for pid in round_.get("byes", [])]


def seat_points(doc: dict[str, Any]) -> dict[tuple[str, str], float]:
    """(table id, player id) -> the points the player's place at that table earned."""
    found: dict[tuple[str, str], float] = {}
    for round_ in doc.get("roundLog", []):
        for table in round_["tables"]:
            if table.get("result"):
                seats = {s["pid"]: s["place"] for s in table["result"]}
                for pid, points in swiss.placement_points(seats).items():
                    found[(table["id"], pid)] = _number(points)
    return found


def standings(doc: dict[str, Any]) -> list[dict[str, Any]]:
    names = {p["pid"]: p["name"] for p in doc["players"]}
    return [
        {
            "rank": row.rank,
            "playerId": row.player,
            "name": names[row.player],
            "status": row.status.value,
            "points": _number(row.points),
            "matesAverage": _number(row.mates_average),
            "leftInHand": row.left_in_hand,
            "dealsWon": row.deals_won,
            "tables": row.tables,
        }
        for row in swiss.standings(entrants(doc), results(doc), doc["seed"], byes(doc))
    ]


def _number(value: Any) -> float:
    return round(float(value), 3)


def public(tournament_id: str, doc: dict[str, Any]) -> dict[str, Any]:
    """What anyone may see: no tokens, no seed (it would let players predict draws)."""
    return {
        "tournamentId": tournament_id,
        "name": doc["name"],
        "status": doc["status"],
        "rated": bool(doc.get("rated")),
        "tableSize": doc["tableSize"],
        "rounds": doc["rounds"],
        "dealsPerRound": doc["dealsPerRound"],
        "turnSeconds": doc["turnSeconds"],
        "rules": doc["rules"],
        "checkIn": doc["checkIn"],
        "round": doc["round"],
        "registrationOpen": registration_open(doc),
        "createdAt": doc["createdAt"],
        "players": [
            {
                "playerId": p["pid"],
                "name": p["name"],
                "account": bool(p.get("account")),
                "status": p["status"],
                "checkedIn": p["checkedIn"],
                "seed": p["seed"],
            }
            for p in doc["players"]
        ],
        "tieBreaks": list(swiss.TIE_BREAKS),
        "audit": doc["audit"],
        "tableStartSeconds": doc.get("tableStartSeconds", 0),
        "paused": bool(doc.get("paused")),
        "startedAt": doc.get("startedAt"),
        "finishedAt": doc.get("finishedAt"),
        "endedEarly": bool(doc.get("endedEarly")),
        # The host's account, when a signed-in host made it (its console opens from any
        # device the account signs in on).
        "hostAccount": doc.get("hostAccount"),
        # What the runners could not look after and wait for the host's decision on.
        "trouble": doc.get("trouble"),
        "seq": int(doc.get("seq", 0)),
        "roundLog": [
            {
                "number": r["number"],
                "startedAt": r["startedAt"],
                "done": bool(r.get("done")),
                "tables": table_views(r["tables"]),
                "byes": list(r.get("byes", [])),
            }
            for r in doc.get("roundLog", [])
        ],
    }


def table_views(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tables as anyone may see them (the room id lets anyone watch)."""
    return [
        {
            "tableId": t["id"],
            "number": t["number"],
            "roomId": t["roomId"],
            "players": list(t["players"]),
            "startAt": t["startAt"],
            "started": t["started"],
            "result": t["result"],
            "abandoned": bool(t.get("abandoned")),
            "matchId": t.get("matchId"),  # once it has a result: its match, for the replay
            "trouble": t.get("trouble"),
        }
        for t in tables
    ]


class TournamentService:
    def __init__(self, store: TournamentStore) -> None:
        self.store = store

    async def create(self, doc: dict[str, Any]) -> str:
        tournament_id = tokens.new_room_id()
        await self.store.create(tournament_id, doc)
        return tournament_id

    async def load(self, tournament_id: str) -> dict[str, Any]:
        found = await self.store.load(tournament_id)
        if found is None:
            raise not_found(tournament_id)
        return found[0]

    async def change(
        self, tournament_id: str, step: DocChange, running: bool = False
    ) -> tuple[dict[str, Any], Any]:
        """Apply ``step`` to the document and write it back, retrying on a concurrent
        change; a step that raises writes nothing. ``running``: the same write puts the
        tournament before every node's runner (a start, a new round, the end)."""
        while True:
            found = await self.store.load(tournament_id)
            if found is None:
                raise not_found(tournament_id)
            doc, version = found
            answer = step(doc)
            try:
                await self.store.replace(tournament_id, doc, version, running)
            except VersionConflict:
                continue
            return doc, answer
