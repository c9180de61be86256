"""Per-seat views: the engine's view of the game plus what the room adds.

The audience of a view is a player id (``pid``) or :data:`SPECTATOR`. Views are keyed by
player id, not seat, because seats are renumbered when a match starts.
"""

from __future__ import annotations

from typing import Any

import engine
from app.rooms.doc import player_by_pid, player_by_seat, watching
from app.rooms.shuffle import shuffle_view

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
        # Spectator sockets as of the room's last change (they come and go without one).
        "watchers": doc.get("watchers", 0),
    }


def audiences(doc: dict[str, Any]) -> list[str]:
    """Who gets a patch of a change: every seated player (connected or not, so that a
    reconnecting seat can ``resume`` from history), and spectators only while some watch:
    a view nobody receives costs an engine view for nothing. A spectator socket opening
    when none watched gets its snapshot, then patches again."""
    out = [p["pid"] for p in doc["players"]]
    if watching(doc) > 0:
        out.append(SPECTATOR)
    return out


def build_view(
    doc: dict[str, Any],
    state: Any,
    audience: str,
    seq: int,
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The view ``audience`` may see of the room at ``seq`` (``state``: an engine State).

    ``shared``: the parts every audience sees alike (:func:`shared_parts` of another
    audience's view of the same change), used instead of building them again.
    """
    player = None if audience == SPECTATOR else player_by_pid(doc, audience)
    seat = None if player is None else player["seat"]
    if state is None:
        view = _lobby_view(doc, seat)
    else:
        view = engine.view_for(state, seat)
        if shared is None:
            view["players"] = _named_players(doc, view["players"])
    view["seq"] = seq
    if shared is None:
        view["room"] = room_info(doc)
        view["shuffle"] = shuffle_view(doc, state)
    else:
        view.update(shared)
    return view


# The parts of a view that are the same for every audience.
_SHARED = ("players", "rules", "room", "shuffle")


def shared_parts(view: dict[str, Any], previous: dict[str, Any]) -> dict[str, Any]:
    """The parts of ``view`` every audience sees alike, each as the ``previous`` change's
    object when it did not change. All audiences' views then hold the same objects, and
    diffing them against the previous views finds them unchanged by identity, instead of
    comparing the players, rules and room info once per audience."""
    out = {}
    for key in _SHARED:
        value = view[key]
        old = previous.get(key)
        out[key] = old if old == value else value
    return out


def _named_players(doc: dict[str, Any], entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    players = []
    for entry in entries:
        who = player_by_seat(doc, entry["seat"])
        players.append(
            {
                **entry,
                "name": None if who is None else who["name"],
                "connected": who is not None and who["conn"] > 0,
            }
        )
    return players


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
