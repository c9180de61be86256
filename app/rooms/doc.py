"""The room document: everything about a room besides its log, as plain JSON.

::

    {"id", "name", "code", "private", "spectators", "seats", "rules", "host" (token hash;
     "" once hosting passed to a seat), "hostPid" (the hosting seat's player),
     "createdAt", "status": "lobby" | "playing" | "over" | "ended", "listed" (in the
     lobby to join), "watched" (in the lobby's running games),
     "players": [{"seat", "pid", "name", "token" (hash), "conn" (open sockets),
                  "at" (open sockets by node id), "came" (a socket of it ever opened),
                  "socks" (socket id -> node id: a connect or disconnect sent again
                  after an outage counts once), "joinedAt", "goneAt" (ms the last socket
                  closed, None while connected), "away", "timeouts" (in a row),
                  "bank" (time bank left, ms), "blitz" (match clock left, ms, under
                  blitzSeconds), "bot" (level, for a seat the room plays),
                  "left" (its player left mid-match)}],
     "matchId", "watching" (spectator sockets open), "watchAt" (the same by node id),
     "watchers" (spectator sockets as of the last change: what views show),
     "nextDealDelay" (s, 0: off), "turnSeconds" (0: off), "timeBank", "absentAfter" (s),
     "clock" ({"seat", "deal", "start", "turn", "deadline", "flag" (true: the deadline is
     the end of the seat's match clock, blitzSeconds)}: the current decision's timer),
     "botAt" (ms the room's seats next move), "dealOverAt", "emptySince" (ms since nobody
     is there), "bans" (names), "ended" ({"reason", "winner", "totals"}),
     "ts" (time of the last change)}

The engine state is not in the document: it is rebuilt from the room's deal log (the
current deal's start state and the actions applied since), which the store keeps beside
the document and commits with it. So a change writes a few hundred bytes of log, not the
whole state.
"""

from __future__ import annotations

import secrets
from typing import Any

from app.names import name_key
from app.rooms.tokens import same_hash

LOBBY, PLAYING, OVER, ENDED = "lobby", "playing", "over", "ended"
# Action ids remembered per room by its writer, so that a retry is answered with its first
# ack, across deals and writers (the deal log carries them: see app.rooms.machine).
ACKS_KEPT = 256


def new_doc(
    *,
    room_id: str,
    name: str,
    code: str,
    private: bool,
    spectators: bool,
    seats: int,
    rules: dict[str, Any],
    host_hash: str,
    now_ms: int,
    next_deal_delay: int = 0,
    turn_seconds: int = 0,
    time_bank: int = 30,
    absent_after: int = 30,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": room_id,
        "name": name,
        "code": code,
        "private": private,
        "spectators": spectators,
        "seats": seats,
        "rules": rules,
        "host": host_hash,
        "createdAt": now_ms,
        "status": LOBBY,
        "players": [],
        "matchId": None,
        "watchers": 0,
        # Seconds after a deal ends until the room deals the next one itself (0: never).
        "nextDealDelay": next_deal_delay,
        # The verifiable shuffle (app.rooms.shuffle_proof): the next match's secret, never shown.
        "shuffle": {"secret": secrets.token_hex(32), "entropy": {}},
        # The turn timer (0: off), each player's time bank per match, and how long a seat
        # may be disconnected before the autopilot takes it (seconds).
        "turnSeconds": turn_seconds,
        "timeBank": time_bank,
        "absentAfter": absent_after,
        "clock": None,
        "bans": [],
        "hostPid": None,
        # Nobody seated yet: a lobby left so ends (see RoomMachine.next_due).
        "emptySince": now_ms,
    }
    doc["listed"] = is_listed(doc)
    return doc


def is_listed(doc: dict[str, Any]) -> bool:
    """Whether the public lobby shows the room to join: public, somebody in it, not
    started, a seat free."""
    joinable = doc["status"] == LOBBY and len(doc["players"]) < doc["seats"]
    return bool(joinable and not doc["private"] and someone_in(doc))


def is_watched(doc: dict[str, Any]) -> bool:
    """Whether the public lobby shows the room's running game to watch: public, somebody
    in it, playing."""
    return bool(doc["status"] == PLAYING and not doc["private"] and someone_in(doc))


def someone_in(doc: dict[str, Any]) -> bool:
    """A person is in the room: seated and not away (a socket open, or seated less than
    ``absentAfter`` ago), or nobody has sat down yet (a room just made, before its
    creator takes a seat: the first person seated gets ``hostPid``)."""
    # One pass, done at the first person present (asked after every change of the room).
    seated = False
    for p in doc["players"]:
        if not p.get("bot") and not p.get("left"):
            if not p.get("away"):
                return True
            seated = True
    return not seated and doc.get("hostPid") is None


def watching(doc: dict[str, Any]) -> int:
    """Spectator sockets open now (documents from before ``watching`` count in
    ``watchers``)."""
    count: int = doc.get("watching", doc.get("watchers", 0))
    return count


def banned_as(doc: dict[str, Any], name: str) -> str | None:
    """The ban that ``name`` falls under (names compare by ``app.names.name_key``)."""
    key = name_key(name)
    return next((b for b in doc.get("bans", ()) if name_key(b) == key), None)


def seated_as(doc: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The player seated (and not gone) under a name that is ``name`` by its key."""
    key = name_key(name)
    return next(
        (p for p in doc["players"] if not p.get("left") and name_key(p["name"]) == key), None
    )


ABSENT_AFTER = 30  # s a seat may be disconnected before the autopilot takes it (default)


def settings_of(doc: dict[str, Any]) -> dict[str, Any]:
    """The timer settings as the protocol shows them (``turnSeconds``: "off" or seconds)."""
    return {
        "turnSeconds": doc.get("turnSeconds", 0) or "off",
        "timeBank": doc.get("timeBank", 0),
        "absentAfter": doc.get("absentAfter", ABSENT_AFTER),
    }


def host_seat(doc: dict[str, Any]) -> int | None:
    pid = doc.get("hostPid")
    player = None if pid is None else player_by_pid(doc, pid)
    return None if player is None else int(player["seat"])


def player_by_token(doc: dict[str, Any], token: str) -> dict[str, Any] | None:
    players: list[dict[str, Any]] = doc["players"]
    for player in players:
        if same_hash(token, player["token"]):
            return player
    return None


def player_by_pid(doc: dict[str, Any], pid: str) -> dict[str, Any] | None:
    players: list[dict[str, Any]] = doc["players"]
    for player in players:
        if player["pid"] == pid:
            return player
    return None


def player_by_seat(doc: dict[str, Any], seat: int) -> dict[str, Any] | None:
    players: list[dict[str, Any]] = doc["players"]
    # Players are kept in seat order, and a match numbers its seats 0..n-1: the seat's
    # own index is looked at first (and checked: a lobby's seats may have gaps).
    if 0 <= seat < len(players):
        player = players[seat]
        if player["seat"] == seat:
            return player
    for player in players:
        if player["seat"] == seat:
            return player
    return None


def summary(doc: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
    """What anyone may know of a room (the lobby, GET /api/rooms/{id}): no tokens, no code."""
    out = {
        "roomId": doc["id"],
        "name": doc["name"],
        "seats": doc["seats"],
        "private": doc["private"],
        "spectators": doc["spectators"],
        "status": doc["status"],
        "rules": doc["rules"],
        "players": [
            {
                "seat": p["seat"],
                "name": p["name"],
                "connected": p["conn"] > 0,
                "bot": p.get("bot"),
                "away": bool(p.get("away")),
                "left": bool(p.get("left")),
                "rating": p.get("rating"),
            }
            for p in doc["players"]
        ],
        "createdAt": doc["createdAt"],
        "nextDealDelay": doc.get("nextDealDelay", 0),
        "fairRaces": doc.get("fairRaces", True),
        "rated": bool(doc.get("rated")),
        **settings_of(doc),
        "hostSeat": host_seat(doc),
        "bans": list(doc.get("bans", ())),
    }
    if seq is not None:
        out["seq"] = seq
    return out
