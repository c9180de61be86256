"""Per-seat views: the engine's view of the game plus what the room adds.

The audience of a view is a player id (``pid``) or :data:`SPECTATOR`. Views are keyed by
player id, not seat, because seats are renumbered when a match starts.
"""

from __future__ import annotations

from typing import Any

import engine
from app.rooms.doc import host_seat, player_by_pid, player_by_seat, settings_of, watching
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
        **settings_of(doc),
        "hostSeat": host_seat(doc),  # the hosting seat, or None (the host token's holder)
        "bans": list(doc.get("bans", ())),
        "ended": doc.get("ended"),  # how the room ended the match itself, if it did
        # Seats that said "ready" for the next deal (the host's nextDeal deals it).
        "ready": list(doc.get("ready", ())),
        # The match's finished deals (who went out, points, running totals): the
        # scoreboard of every deal, for anyone at any time.
        "deals": list(doc.get("deals", ())),
        # Seats whose chat the host muted.
        "muted": [p["seat"] for p in doc["players"] if p["pid"] in doc.get("muted", ())],
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
    # A paused table (a tournament's host paused it) shows no running deadline.
    clock = None if doc.get("pausedAt") else doc.get("clock")
    # The current decision's deadline (server ms) and whose it is, for the countdown.
    view["deadline"] = None if clock is None else clock["deadline"]
    view["deadlineSeat"] = None if clock is None else clock["seat"]
    ended = doc.get("ended")
    if ended is not None and state is not None:
        # The room ended the match (a claimed win, an empty room): the table is over.
        view.update(phase="matchOver", matchOver=True, winner=ended["winner"], legal=[])
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
                **_seat_marks(who),
            }
        )
    return players


def _seat_marks(player: dict[str, Any] | None) -> dict[str, Any]:
    """What the room adds to a seat: away (played by the autopilot), bot (its level),
    left (its player left mid-match; a bot plays on, the score is kept), the time bank,
    the match clock (blitzSeconds)."""
    if player is None:
        return {"away": False, "bot": None, "left": False, "bank": None, "blitz": None}
    return {
        "away": bool(player.get("away")),
        "bot": player.get("bot"),
        "left": bool(player.get("left")),
        "bank": player.get("bank"),  # ms
        "blitz": player.get("blitz"),  # ms on the match clock (blitzSeconds), or None
    }


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
                **_seat_marks(p),
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
