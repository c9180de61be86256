"""A tournament's tables as rooms: opened when their round starts, started on time with
the autopilot in absent seats, paused and resumed with the tournament, and read for their
result when their match ends.

A table's room is an ordinary private room (spectators welcome) whose document says which
tournament table it is; the tournament's host token hosts it, and each seat's token
derives from the tournament's secret (``rounds.seat_token``). Everything here goes
through the room service, so REST, sockets and the tournament share each room's order.
"""

from __future__ import annotations

import logging
from typing import Any

import engine
from app.accounts.ratings import pool_of
from app.errors import RoomError
from app.placings import SeatResult, places
from app.rooms import commands, tokens
from app.rooms.doc import ENDED, LOBBY, OVER, new_doc
from app.rooms.service import RoomService
from app.tournaments.rounds import seat_token

log = logging.getLogger(__name__)


def table_rules(doc: dict[str, Any]) -> dict[str, Any]:
    """The tournament's rules, the match ending after the round's deals at most."""
    rules: dict[str, Any] = engine.rules_from_json(
        {**doc["rules"], "roundLimit": int(doc["dealsPerRound"])}
    ).to_json()
    return rules


async def account_ratings(db: Any, doc: dict[str, Any], pids: list[str]) -> dict[str, Any]:
    """The rating in the tournament's pool of each of ``pids`` registered as an account
    (shown on its seat at the table, as on any account's seat)."""
    accounts = {p["pid"] for p in doc["players"] if p.get("account")}
    pool = pool_of(doc["rules"])
    return {pid: await db.rating_in(pid, pool) for pid in pids if pid in accounts}


def room_doc(
    tid: str,
    doc: dict[str, Any],
    table: dict[str, Any],
    now_ms: int,
    ratings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The table's room; ``ratings``: the accounts' seats' ratings (by player id)."""
    names = {p["pid"]: p["name"] for p in doc["players"]}
    ratings = ratings or {}
    room_id = table["roomId"]
    room = new_doc(
        room_id=room_id,
        name=f"{doc['name']}: round {doc['round']}, table {table['number']}"[:60],
        code=tokens.new_code(),
        private=True,
        spectators=True,
        seats=len(table["players"]),
        rules=table_rules(doc),
        host_hash=doc["host"],
        now_ms=now_ms,
        turn_seconds=int(doc["turnSeconds"]),
    )
    room["tournament"] = {"id": tid, "table": table["id"]}
    room["rated"] = bool(doc.get("rated"))
    room["listed"] = False
    room["emptySince"] = None
    room["players"] = [
        {
            "seat": seat,
            "pid": pid,
            "name": names[pid],
            "token": tokens.hash_token(seat_token(doc, room_id, pid)),
            "conn": 0,
            "age": False,
            "joinedAt": now_ms,
            "goneAt": now_ms,
            **({"rating": ratings[pid]} if pid in ratings else {}),
        }
        for seat, pid in enumerate(table["players"])
    ]
    return room


async def open_table(
    rooms: RoomService, db: Any, tid: str, doc: dict[str, Any], table: dict[str, Any], now_ms: int
) -> None:
    """Store the table's room, unless it exists already (another node opened it: the
    store writes it only where no room is, so two nodes at once make one room; its seat
    tokens derive from the tournament, the same on every node)."""
    if await rooms.store.load(table["roomId"]) is not None:
        return
    ratings = await account_ratings(db, doc, list(table["players"]))
    room = room_doc(tid, doc, table, now_ms, ratings)
    await db.record_room(room["id"], room["name"], room["rules"], room["seats"], True)
    await rooms.store.create_once(room["id"], room, room["code"])


def all_present(room: dict[str, Any]) -> bool:
    """Every player has a socket open (a bot in the seat of a player who left counts)."""
    return all(p["conn"] > 0 or p.get("bot") for p in room["players"])


def ready_to_start(room: dict[str, Any], table: dict[str, Any], now_ms: int) -> bool:
    """In its lobby, and its start time come (or everyone is there)."""
    return room["status"] == LOBBY and (now_ms >= table["startAt"] or all_present(room))


async def start_table(rooms: RoomService, room_id: str) -> None:
    try:
        await rooms.submit(room_id, commands.Start(absentAway=True))
    except RoomError as err:
        if err.code != "match_in_progress":  # another node started it
            raise


def finished(room: dict[str, Any]) -> bool:
    return room["status"] in (OVER, ENDED) and room.get("tally") is not None


def result_of(room: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """A finished table's result (places by the match's finishing order, app.placings,
    with fewer card points left in hand breaking equal totals) and the players who never
    came to it."""
    players = sorted(room["players"], key=lambda p: p["seat"])
    tally: list[dict[str, Any]] = room.get("tally") or []
    count = len(players)
    left = [sum(int(d["left"][s]) for d in tally) for s in range(count)]
    won = [sum(1 for d in tally if d["winner"] == s) for s in range(count)]
    totals = tally[-1]["totals"] if tally else [0] * count
    lowest = engine.rules_from_json(room["rules"]).lowest_wins
    results = [
        SeatResult(
            seat=s,
            total=int(totals[s]),
            left=bool(p.get("left")),
            moves=int(p.get("moves", 0)),
            auto=int(p.get("auto", 0)),
            tiebreak=left[s],
        )
        for s, p in enumerate(players)
    ]
    # No winner given: the tally knows each deal's winner, and the match's leads by total.
    seat_places = places(results, None, lowest)
    seats = [
        {
            "pid": p["pid"],
            "place": seat_places[s],
            "leftInHand": left[s],
            "dealsWon": won[s],
        }
        for s, p in enumerate(players)
    ]
    absent = [p["pid"] for p in players if not p.get("came") and not p.get("bot")]
    return seats, absent


async def tell(rooms: RoomService, room_ids: list[str], command: commands.Command) -> None:
    """Send a command to each room (pause, unpause); a room that is gone is skipped."""
    for room_id in room_ids:
        try:
            await rooms.submit(room_id, command)
        except RoomError as err:
            log.info("room %s refused %s: %s", room_id, command.KIND, err.code)


async def reseat(
    rooms: RoomService,
    db: Any,
    doc: dict[str, Any],
    tables: tuple[dict[str, Any], ...],
    names: dict[str, str],
) -> None:
    """Each room's seats now hold the players the tournament's tables say."""
    for table in tables:
        room_id = table["roomId"]
        record = await rooms.store.load(room_id)
        if record is None:
            continue  # not opened yet: it opens with the new seats
        seated = {p["seat"]: p["pid"] for p in record.doc["players"]}
        moved = [pid for seat, pid in enumerate(table["players"]) if seated.get(seat) != pid]
        ratings = await account_ratings(db, doc, moved)
        for seat, pid in enumerate(table["players"]):
            if seated.get(seat) != pid:
                token = tokens.hash_token(seat_token(doc, room_id, pid))
                command = commands.Reseat(
                    seat=seat, pid=pid, name=names[pid], token=token, rating=ratings.get(pid)
                )
                try:
                    await rooms.submit(room_id, command)
                except RoomError as err:
                    # The table started meanwhile: the runner gave its room these seats
                    # before it dealt (it marks the table started first, then re-seats).
                    if err.code != "match_in_progress":
                        raise
                    log.info("room %s started before its re-seat landed", room_id)


async def leave(rooms: RoomService, room_id: str, pid: str) -> None:
    """The player leaves their table (withdrawn or disqualified): a bot plays the seat to
    the end of the match, also at a table that has not dealt yet (it stays full)."""
    try:
        await rooms.submit(room_id, commands.Leave(pid=pid))
    except RoomError as err:
        log.info("room %s: %s could not leave: %s", room_id, pid, err.code)
