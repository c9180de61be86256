"""Per-seat views: the engine's view of the game plus what the room adds.

The audience of a view is a player id (``pid``) or :data:`SPECTATOR`. Views are keyed by
player id, not seat, because seats are renumbered when a match starts.
"""

from __future__ import annotations

from typing import Any

import engine
from app.rooms.doc import player_by_pid, player_by_seat

SPECTATOR = "*"


def room_info(doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": doc["id"],
        "name": doc["name"],
        "seats": doc["seats"],
        "status": doc["status"],
        "private": doc["private"],
        "spectators": doc["spectators"],
        "matchId": doc["matchId"],  # for the history REST once a deal is archived
        "watchers": doc.get("watchers", 0),  # spectator sockets open
    }


def audiences(doc: dict[str, Any]) -> list[str]:
    """Who gets a patch of a change: every seated player (connected or not, so that a
    reconnecting seat can ``resume`` from history), and spectators only while some watch:
    a view nobody receives costs an engine view for nothing. A spectator socket opening
    when none watched gets its snapshot, then patches again."""
    out = [p["pid"] for p in doc["players"]]
    if doc.get("watchers", 0) > 0:
        out.append(SPECTATOR)
    return out


def build_view(doc: dict[str, Any], state: Any, audience: str, seq: int) -> dict[str, Any]:
    """The view ``audience`` may see of the room at ``seq`` (``state``: an engine State)."""
    player = None if audience == SPECTATOR else player_by_pid(doc, audience)
    seat = None if player is None else player["seat"]
    if state is None:
        view = _lobby_view(doc, seat)
    else:
        view = engine.view_for(state, seat)
        players = []
        for entry in view["players"]:
            who = player_by_seat(doc, entry["seat"])
            players.append(
                {
                    **entry,
                    "name": None if who is None else who["name"],
                    "connected": who is not None and who["conn"] > 0,
                }
            )
        view["players"] = players
    view["seq"] = seq
    view["room"] = room_info(doc)
    return view


def _lobby_view(doc: dict[str, Any], seat: int | None) -> dict[str, Any]:
    # The same keys as a game view where they mean something before the deal, so that a
    # client can render both with one code path.
    return {
        "you": seat,
        "hand": [],
        "players": [
            {
                "seat": p["seat"],
                "name": p["name"],
                "cards": 0,
                "score": 0,
                "connected": p["conn"] > 0,
            }
            for p in doc["players"]
        ],
        "top": None,
        "color": None,
        "turn": None,
        "direction": 1,
        "drawPile": 0,
        "pendingDraw": 0,
        "phase": "lobby",
        "rules": doc["rules"],
        "legal": [],
    }
