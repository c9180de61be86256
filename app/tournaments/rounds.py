"""The running tournament as steps on its document: start, rounds and their tables, table
results, and the host's console (pause, re-seat, disqualify, correct, end).

Each step is pure over the document (the time is passed in) and raises a
:class:`RoomError` before changing anything when it refuses; the service writes the
document back with a compare-and-set. Rooms are opened, started and read by
:mod:`app.tournaments.tables`; seating and points come from :mod:`app.tournaments.swiss`.

A round in the document::

    {"number", "startedAt", "tables": [{"id": "r1t1", "number", "roomId", "players": [pid],
      "startAt" (ms the table's match starts, players there or not), "started",
      "result": None | [{"pid", "place", "leftInHand", "dealsWon"}], "abandoned",
      "matchId" (once it has a result: its match, for the replay),
      "trouble": None | {"reason", "since"} (the runners cannot look after it)}],
     "byes": [pid] (who sits the round out: no table could hold them)}
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from app.errors import RoomError
from app.rooms import tokens
from app.rooms.seat_counts import player_range
from app.tournaments import swiss
from app.tournaments.events import emit
from app.tournaments.service import (
    OVER,
    REGISTRATION,
    RUNNING,
    audit,
    byes,
    can_play,
    entrants,
    mark_withdrawn,
    results,
    table_views,
)

DROPPED = "dropped"


def seat_token(doc: dict[str, Any], room_id: str, pid: str) -> str:
    """A player's seat token at one table: derived from the tournament's secret, so that
    it can be handed out again on any node without being stored."""
    secret = doc["secret"]
    return hmac.new(secret.encode(), f"{room_id}:{pid}".encode(), hashlib.sha256).hexdigest()


def current(doc: dict[str, Any]) -> dict[str, Any] | None:
    log: list[dict[str, Any]] = doc.get("roundLog", [])
    return log[-1] if log else None


def _must_run(doc: dict[str, Any]) -> None:
    if doc["status"] == REGISTRATION:
        raise RoomError(409, "tournament/not_started", "the tournament has not started")
    if doc["status"] == OVER:
        raise RoomError(409, "tournament/over", "the tournament is over")


def round_done(round_: dict[str, Any]) -> bool:
    return all(t.get("result") is not None or t.get("abandoned") for t in round_["tables"])


def fewest(doc: dict[str, Any]) -> int:
    """The fewest players a table of this tournament can deal to (the rules' fewest)."""
    return max(swiss.FEWEST, player_range(doc["rules"])[0])


def _enough_to_play(doc: dict[str, Any], players: list[dict[str, Any]], way_out: str) -> None:
    need = fewest(doc)
    if len(players) < need:
        raise RoomError(
            409,
            "tournament/too_few_players",
            f"{len(players)} player(s) can play and a table needs {need}: {way_out}",
            {"players": len(players), "fewest": need},
        )


def start(doc: dict[str, Any], now_ms: int) -> list[dict[str, Any]]:
    """The host starts: players who did not check in (when check-in was opened) are
    dropped, and round 1 is seated. Returns the round's tables."""
    if doc["status"] != REGISTRATION:
        raise RoomError(409, "tournament/started", "the tournament has started already")
    keep = [
        p
        for p in doc["players"]
        if p["status"] != swiss.Status.ACTIVE.value or p["checkedIn"] or not doc["checkIn"]
    ]
    present = [p for p in keep if p["status"] == swiss.Status.ACTIVE.value]
    _enough_to_play(doc, present, "wait for more players to register")
    dropped = [p["name"] for p in doc["players"] if p not in keep]
    doc["players"] = keep
    doc.setdefault("secret", secrets.token_hex(32))  # (a document from before seat tokens)
    doc["status"] = RUNNING
    doc["startedAt"] = now_ms
    audit(doc, "start", now_ms, dropped=dropped)
    emit(doc, {"type": "started", "dropped": dropped}, now_ms)
    return _seat(doc, now_ms)


def next_round(doc: dict[str, Any], number: int | None, now_ms: int) -> list[dict[str, Any]]:
    """The host starts the next round (``number``, if given, must be it: a round asked for
    twice is refused)."""
    _must_run(doc)
    played = int(doc["round"])
    if number is not None and number <= played:
        raise RoomError(409, "tournament/round_started", f"round {number} has started already")
    if doc.get("paused"):
        raise RoomError(409, "tournament/paused", "the tournament is paused")
    round_ = current(doc)
    if round_ is not None and not round_done(round_):
        raise RoomError(409, "tournament/round_in_progress", "the current round is not over")
    if played >= int(doc["rounds"]):
        raise RoomError(409, "tournament/no_rounds_left", "every round has been played")
    if number is not None and number != played + 1:
        raise RoomError(409, "tournament/bad_round", f"the next round is {played + 1}")
    _enough_to_play(doc, can_play(doc), "take a withdrawn player back, or end the tournament")
    audit(doc, "round", now_ms, round=played + 1)
    return _seat(doc, now_ms)


def _seat(doc: dict[str, Any], now_ms: int) -> list[dict[str, Any]]:
    number = int(doc["round"]) + 1
    log = doc.setdefault("roundLog", [])
    history = tuple(tuple(tuple(t["players"]) for t in r["tables"]) for r in log)
    seating, out = swiss.seat_round(
        number,
        entrants(doc),
        history,
        results(doc),
        int(doc["tableSize"]),
        doc["seed"],
        fewest(doc),
        byes(doc),
    )
    start_at = now_ms + int(doc.get("tableStartSeconds", 0)) * 1000
    tables = [
        {
            "id": f"r{number}t{index + 1}",
            "number": index + 1,
            "roomId": tokens.new_room_id(),
            "players": list(players),
            "startAt": start_at,
            "started": False,
            "result": None,
        }
        for index, players in enumerate(seating)
    ]
    log.append({"number": number, "startedAt": now_ms, "tables": tables, "byes": list(out)})
    doc["round"] = number
    emit(doc, {"type": "roundStarted", "round": number, "tables": table_views(tables)}, now_ms)
    return tables


def find_table(doc: dict[str, Any], table_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for round_ in doc.get("roundLog", []):
        for table in round_["tables"]:
            if table["id"] == table_id:
                return round_, table
    raise RoomError(404, "tournament/table_not_found", f"no table {table_id!r}")


def seat_of(doc: dict[str, Any], pid: str) -> dict[str, Any] | None:
    """The player's table in the current round, or None."""
    round_ = current(doc)
    if round_ is None:
        return None
    return next((t for t in round_["tables"] if pid in t["players"]), None)


def mark_started(doc: dict[str, Any], table_id: str) -> bool:
    """The table is about to deal: from now on its seats are fixed (``reseat`` refuses).
    False (nothing changed) if the tournament was paused or the table finished meanwhile."""
    _, table = find_table(doc, table_id)
    if doc.get("paused") or table.get("result") is not None or table.get("abandoned"):
        return False
    table["started"] = True
    return True


def record(
    doc: dict[str, Any],
    table_id: str,
    seats: list[dict[str, Any]],
    absent: list[str],
    now_ms: int,
    match_id: str | None = None,
) -> bool:
    """A table's match ended: its result counts (once: a second node's copy does nothing).
    Players the autopilot played for the whole table are withdrawn (they never came).
    ``match_id``: the table's match, kept for its replay."""
    _, table = find_table(doc, table_id)
    if table.get("result") is not None or table.get("abandoned") or doc["status"] != RUNNING:
        return False
    table["result"] = seats
    table["started"] = True
    if match_id is not None:
        table["matchId"] = match_id
    table.pop("trouble", None)
    emit(doc, {"type": "tableResult", "tableId": table_id, "result": seats}, now_ms)
    for player in doc["players"]:
        if player["pid"] in absent and player["status"] == swiss.Status.ACTIVE.value:
            mark_withdrawn(doc, player, now_ms, absent=True)
    _after_result(doc, now_ms)
    return True


def _after_result(doc: dict[str, Any], now_ms: int) -> None:
    emit(doc, {"type": "standings"}, now_ms)
    settle(doc, now_ms)


def settle(doc: dict[str, Any], now_ms: int) -> bool:
    """A running round whose every table is done is over; the tournament with it after the
    last round, or when nobody is left to play (every player withdrawn or disqualified).
    Whether anything changed."""
    round_ = current(doc)
    if doc["status"] != RUNNING or round_ is None or not round_done(round_):
        return False
    changed = False
    if not round_.get("done"):
        round_["done"] = True
        emit(doc, {"type": "roundOver", "round": round_["number"]}, now_ms)
        changed = True
    if int(doc["round"]) >= int(doc["rounds"]):
        finish(doc, now_ms, early=False)
        return True
    if not can_play(doc):
        audit(doc, "end", now_ms, nobodyLeft=True)
        finish(doc, now_ms, early=True)
        return True
    return changed


def finish(doc: dict[str, Any], now_ms: int, *, early: bool) -> None:
    doc["status"] = OVER
    doc["finishedAt"] = now_ms
    doc["endedEarly"] = early
    emit(doc, {"type": "over", "early": early}, now_ms)


# The host's console


def pause(doc: dict[str, Any], now_ms: int) -> list[str]:
    """Every running table stops; returns their rooms."""
    _must_run(doc)
    if doc.get("paused"):
        raise RoomError(409, "tournament/paused", "the tournament is paused already")
    doc["paused"] = True
    doc["pausedAt"] = now_ms
    audit(doc, "pause", now_ms)
    emit(doc, {"type": "paused"}, now_ms)
    return _live_rooms(doc)


def resume(doc: dict[str, Any], now_ms: int) -> list[str]:
    """The tables go on with the time they had; tables not started yet start as much later."""
    _must_run(doc)
    if not doc.get("paused"):
        raise RoomError(409, "tournament/not_paused", "the tournament is not paused")
    shift = max(0, now_ms - int(doc["pausedAt"]))
    round_ = current(doc)
    for table in round_["tables"] if round_ else ():
        if not table["started"]:
            table["startAt"] += shift
    doc["paused"] = False
    doc["pausedAt"] = None
    audit(doc, "resume", now_ms, pausedMs=shift)
    emit(doc, {"type": "resumed", "pausedMs": shift}, now_ms)
    return _live_rooms(doc)


def _live_rooms(doc: dict[str, Any]) -> list[str]:
    round_ = current(doc)
    if round_ is None:
        return []
    return [t["roomId"] for t in round_["tables"] if t.get("result") is None]


def _player(doc: dict[str, Any], pid: str) -> dict[str, Any]:
    for player in doc["players"]:
        if player["pid"] == pid:
            found: dict[str, Any] = player
            return found
    raise RoomError(404, "tournament/player_not_found", f"no player {pid!r}")


def disqualify(doc: dict[str, Any], pid: str, reason: str, now_ms: int) -> dict[str, Any] | None:
    """The player is listed last and seated no more; returns their running table (a bot
    plays their seat to its end)."""
    if doc["status"] == OVER:
        raise RoomError(409, "tournament/over", "the tournament is over")
    player = _player(doc, pid)
    if player["status"] == swiss.Status.DISQUALIFIED.value:
        raise RoomError(409, "tournament/disqualified", "this player is disqualified already")
    player["status"] = swiss.Status.DISQUALIFIED.value
    audit(doc, "disqualify", now_ms, playerId=pid, name=player["name"], reason=reason)
    emit(doc, {"type": "disqualified", "playerId": pid}, now_ms)
    emit(doc, {"type": "standings"}, now_ms)
    table = seat_of(doc, pid)
    settle(doc, now_ms)
    return table if table is not None and table.get("result") is None else None


def reinstate(doc: dict[str, Any], pid: str, now_ms: int) -> None:
    """The host takes a withdrawn player back: seated again from the next round (a table
    of this round that has no result yet keeps its bot in their seat)."""
    if doc["status"] == OVER:
        raise RoomError(409, "tournament/over", "the tournament is over")
    player = _player(doc, pid)
    if player["status"] == swiss.Status.DISQUALIFIED.value:
        raise RoomError(409, "tournament/disqualified", "a disqualified player stays out")
    if player["status"] != swiss.Status.WITHDRAWN.value:
        raise RoomError(409, "tournament/not_withdrawn", "this player has not withdrawn")
    player["status"] = swiss.Status.ACTIVE.value
    audit(doc, "reinstate", now_ms, playerId=pid)
    emit(doc, {"type": "reinstated", "playerId": pid}, now_ms)
    emit(doc, {"type": "standings"}, now_ms)


def reseat(doc: dict[str, Any], pid: str, other: str, now_ms: int) -> tuple[dict[str, Any], ...]:
    """Two players of the current round change tables, before either table has started;
    returns the two tables (their rooms change seats the same way)."""
    _must_run(doc)
    _player(doc, pid)
    _player(doc, other)
    first, second = seat_of(doc, pid), seat_of(doc, other)
    if first is None or second is None:
        raise RoomError(409, "tournament/not_seated", "both players must be seated this round")
    if first is second:
        raise RoomError(409, "tournament/same_table", "the two players sit at the same table")
    if first["started"] or second["started"]:
        raise RoomError(409, "tournament/table_started", "a table that started keeps its seats")
    first["players"][first["players"].index(pid)] = other
    second["players"][second["players"].index(other)] = pid
    audit(doc, "reseat", now_ms, playerId=pid, withPlayerId=other)
    emit(doc, {"type": "reseated", "tables": table_views([first, second])}, now_ms)
    return first, second


def correct(
    doc: dict[str, Any], table_id: str, seats: list[dict[str, Any]], reason: str, now_ms: int
) -> None:
    """The host replaces a table's result; the old and new ones and the reason are kept in
    the public audit log."""
    if doc["status"] == REGISTRATION:
        raise RoomError(409, "tournament/not_started", "the tournament has not started")
    _, table = find_table(doc, table_id)
    if sorted(s["pid"] for s in seats) != sorted(table["players"]):
        raise RoomError(
            422, "tournament/bad_result", "a result names each player of the table once"
        )
    before = table.get("result")
    table["result"] = seats
    table["started"] = True
    table.pop("trouble", None)
    audit(doc, "correct", now_ms, tableId=table_id, reason=reason, before=before, after=seats)
    emit(
        doc,
        {"type": "tableResult", "tableId": table_id, "result": seats, "corrected": True},
        now_ms,
    )
    if doc["status"] == RUNNING:
        _after_result(doc, now_ms)
    else:
        emit(doc, {"type": "standings"}, now_ms)


def end_early(doc: dict[str, Any], now_ms: int) -> None:
    """The host ends the tournament now: tables without a result are abandoned (they count
    for nobody), the standings are final."""
    if doc["status"] == OVER:
        raise RoomError(409, "tournament/over", "the tournament is over already")
    round_ = current(doc)
    for table in round_["tables"] if round_ else ():
        if table.get("result") is None:
            table["abandoned"] = True
    doc["paused"] = False
    doc.pop("trouble", None)
    audit(doc, "end", now_ms)
    finish(doc, now_ms, early=True)


# What the runners cannot look after: shown to the host, who decides (correct the table's
# result, end early); a table that recovers clears it.


def _trouble_holder(doc: dict[str, Any], table_id: str | None) -> dict[str, Any] | None:
    """The table (or, for None, the tournament) a trouble is shown on; None if it is done."""
    if table_id is None:
        return doc if doc["status"] == RUNNING else None
    _, table = find_table(doc, table_id)
    return None if table.get("result") is not None or table.get("abandoned") else table


def mark_trouble(doc: dict[str, Any], table_id: str | None, reason: str, now_ms: int) -> bool:
    """Show the host that the runners cannot look after the table (or the round); whether
    it is news."""
    holder = _trouble_holder(doc, table_id)
    if holder is None or (holder.get("trouble") or {}).get("reason") == reason:
        return False
    holder["trouble"] = {"reason": reason, "since": now_ms}
    emit(doc, {"type": "trouble", "tableId": table_id, "reason": reason}, now_ms)
    return True


def clear_trouble(doc: dict[str, Any], table_id: str | None, now_ms: int) -> bool:
    holder = doc if table_id is None else find_table(doc, table_id)[1]
    if holder.pop("trouble", None) is None:
        return False
    emit(doc, {"type": "trouble", "tableId": table_id, "reason": None}, now_ms)
    return True
