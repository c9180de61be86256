"""Per-seat views: the engine's view of the game plus what the room adds.

The audience of a view is a player id (``pid``) or :data:`SPECTATOR`. Views are keyed by
player id, not seat, because seats are renumbered when a match starts.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import engine
from app.rooms.diff import diff
from app.rooms.doc import (
    ABSENT_AFTER,
    host_seat,
    settings_of,
    watching,
)
from app.rooms.shared_part import Shared as Shared
from app.rooms.shuffle_proof import shuffle_view

SPECTATOR = "*"
# A change's views in parts: each audience's own (by audience), and the part all share.
Parts = tuple[dict[str, Mapping[str, Any]], dict[str, Any]]


# The room part's keys, in the order clients have always seen them; the values are
# :func:`_room_values`' (one place reads the document for it).
_ROOM_KEYS = (
    "id",
    "name",
    "seats",
    "status",
    "private",
    "spectators",
    "matchId",
    "rated",
    "watchers",
    "turnSeconds",
    "timeBank",
    "absentAfter",
    "hostSeat",
    "bans",
    "ended",
    "ready",
    "deals",
    "muted",
)


def _room_values(doc: dict[str, Any]) -> tuple[Any, ...]:
    """The values of the room part, in :data:`_ROOM_KEYS`' order. Lists are copied (the
    room changes them in place; their entries it replaces), so a previous change's values
    compare unequal exactly when the part would differ (:func:`build_parts` reuses it
    then)."""
    settings = settings_of(doc)
    muted = doc.get("muted", ())
    return (
        doc["id"],
        doc["name"],
        doc["seats"],
        doc["status"],
        doc["private"],
        doc["spectators"],
        doc["matchId"],  # for the history REST once a deal is archived
        # Its matches are rated (docs/ratings.md): their rating changes are read by REST.
        bool(doc.get("rated")),
        # Spectator sockets as of the room's last change (they come and go without one).
        doc.get("watchers", 0),
        settings["turnSeconds"],
        settings["timeBank"],
        settings["absentAfter"],
        host_seat(doc),  # the hosting seat, or None (the host token's holder)
        list(doc.get("bans", ())),
        doc.get("ended"),  # how the room ended the match itself, if it did
        # Seats that said "ready" for the next deal (the host's nextDeal deals it).
        list(doc.get("ready", ())),
        # The match's finished deals (who went out, points, running totals): the
        # scoreboard of every deal, for anyone at any time.
        list(doc.get("deals", ())),
        # Seats whose chat the host muted.
        [p["seat"] for p in doc["players"] if p["pid"] in muted],
    )


def room_info(doc: dict[str, Any]) -> dict[str, Any]:
    """The room as every view shows it (``room``)."""
    return _room_part(_room_values(doc))


def _room_part(values: tuple[Any, ...]) -> dict[str, Any]:
    return dict(zip(_ROOM_KEYS, values, strict=True))


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
    doc: dict[str, Any], state: engine.GameState | None, audience: str, seq: int
) -> dict[str, Any]:
    """The view ``audience`` may see of the room at ``seq`` (``state``: the match's, if
    one is on)."""
    return build_views(doc, state, [audience], seq)[0][audience]


def build_views(
    doc: dict[str, Any],
    state: engine.GameState | None,
    audiences: list[str],
    seq: int,
    previous: dict[str, Any] | None = None,
) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The view of each of ``audiences`` of the room at ``seq``, and the parts they share
    (see :func:`build_parts`): each view is its audience's own part with the shared one."""
    parts, shared = build_parts(doc, state, audiences, seq, previous)
    return {audience: {**part, **shared} for audience, part in parts.items()}, shared


def build_parts(
    doc: dict[str, Any],
    state: engine.GameState | None,
    audiences: list[str],
    seq: int,
    previous: dict[str, Any] | None = None,
) -> Parts:
    """Each of ``audiences``' own part of its view of the room at ``seq`` (what it alone
    sees: a hand, ``legal``; no key of the shared part), and the shared part.

    What every audience sees alike (the engine's table, the room's parts) is built once,
    and is the ``previous`` change's object (its shared part) where it did not change: a
    change's public delta is the one diff of the shared parts that finds those (made
    here, kept in the shared part for app.rooms.deltas), and each audience's private
    delta a diff of its own small part. The room's part and the rules are not even built
    again where what they are made of did not change (:class:`Shared`).
    """
    if not audiences:
        return {}, {}
    seat_of: dict[str, int] = {}
    for player in doc["players"]:
        seat_of.setdefault(player["pid"], player["seat"])  # the first, as player_by_pid
    seats = [None if a == SPECTATOR else seat_of.get(a) for a in audiences]
    parts: Sequence[Mapping[str, Any]]
    whole = False  # a game that does not split its view: whole views come as parts
    if state is None:
        shared, parts = Shared.of(_lobby_view(doc)), [{"you": seat} for seat in seats]
    elif (split := engine.view_parts(state, seats)) is not None:
        table, parts = split
        shared = Shared.of(table)
        shared["players"] = _named_players(doc, table["players"])
        # A state's rules never change in place: the same object, the same wire form.
        shared.made_of["rules"] = state.rules
        if previous is not None and _made_of(previous, "rules") is state.rules:
            shared["rules"] = previous["rules"]
    else:
        # A game that does not split its view: whole views, the same players in each.
        whole = True
        parts = [engine.view_for(state, seat) for seat in seats]
        shared = Shared.of({"players": _named_players(doc, parts[0]["players"])})
    # A paused table (a tournament's host paused it) shows no running deadline.
    clock = None if doc.get("pausedAt") else doc.get("clock")
    # The current decision's deadline (server ms) and whose it is, for the countdown.
    shared["deadline"] = None if clock is None else clock["deadline"]
    shared["deadlineSeat"] = None if clock is None else clock["seat"]
    # Where the decision's own time ends and its time bank starts (the bank runs from
    # there to the deadline), so that a client can show the two apart.
    shared["bankFrom"] = None if clock is None else _bank_from(clock)
    ended = doc.get("ended")
    over = False
    if ended is not None and state is not None:
        # The room ended the match (a claimed win, an empty room): the table is over.
        over = True
        shared.update(phase="matchOver", matchOver=True, winner=ended["winner"])
    shared["seq"] = seq
    shared.made_of["room"] = values = _room_values(doc)
    if previous is not None and _made_of(previous, "room") == values:
        shared["room"] = previous["room"]
    else:
        shared["room"] = _room_part(values)
    shared["shuffle"] = shuffle_view(doc, state)
    if over:
        shared.pop("legal", None)  # nothing to do on a table that is over, for anyone
    if previous:
        # The public delta, as app.rooms.deltas would make it, and on the way each list
        # and object equal to the previous one is that one (see app.rooms.diff).
        ops = diff(previous, shared, share=True)
        if isinstance(previous, Shared):
            shared.made_of["delta"] = (weakref.ref(previous), ops)
    own: dict[str, Mapping[str, Any]] = dict(zip(audiences, parts, strict=True))
    if whole:
        for audience, part in own.items():
            # The shared value is the one shown: a view's keys are in one part only.
            own[audience] = {key: value for key, value in part.items() if key not in shared}
    if over:
        own = {audience: {**part, "legal": []} for audience, part in own.items()}
    return own, shared


_MISSING = object()


def _made_of(previous: dict[str, Any], piece: str) -> Any:
    """What ``previous``'s ``piece`` was made of, or _MISSING (not a :class:`Shared`, or
    a part without that piece)."""
    if not isinstance(previous, Shared) or piece not in previous:
        return _MISSING
    return previous.made_of.get(piece, _MISSING)


def _bank_from(clock: dict[str, Any]) -> int | None:
    if clock.get("flag") or not clock.get("turn"):
        return None  # the match clock's flag, not a turn timer, ends this decision
    return int(clock["start"]) + int(clock["turn"])


def _named_players(
    doc: dict[str, Any], entries: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    by_seat: dict[int, dict[str, Any]] = {}
    for player in doc["players"]:
        by_seat.setdefault(player["seat"], player)  # the first, as player_by_seat finds
    players = []
    for entry in entries:
        who = by_seat.get(entry["seat"])
        players.append(
            {
                **entry,
                "name": None if who is None else who["name"],
                "connected": who is not None and who["conn"] > 0,
                **_seat_marks(doc, who),
            }
        )
    return players


def _seat_marks(doc: dict[str, Any], player: dict[str, Any] | None) -> dict[str, Any]:
    """What the room adds to a seat: away (played by the autopilot), when it will be
    (awayAt), bot (its level), left (its player left mid-match; a bot plays on, the score
    is kept), the time bank, the match clock (blitzSeconds), an account's rating (None: a
    guest or a bot)."""
    if player is None:
        marks = {"away": False, "bot": None, "left": False, "bank": None, "blitz": None}
        return {**marks, "awayAt": None, "rating": None}
    return {
        "away": bool(player.get("away")),
        "awayAt": _away_at(doc, player),
        "bot": player.get("bot"),
        "left": bool(player.get("left")),
        "bank": player.get("bank"),  # ms
        "blitz": player.get("blitz"),  # ms on the match clock (blitzSeconds), or None
        "rating": player.get("rating"),  # {value, provisional, games} in the room's pool
    }


def _away_at(doc: dict[str, Any], player: dict[str, Any]) -> int | None:
    """Server ms when the autopilot takes over a seat whose sockets all closed (the
    room's ``absentAfter`` after the last one), or None: connected, away already, a bot,
    or a paused table (whose absence timers stand still)."""
    gone = player.get("goneAt")
    if gone is None or player.get("bot") or player.get("away") or player["conn"] > 0:
        return None
    if doc.get("pausedAt"):
        return None
    return int(gone) + int(doc.get("absentAfter", ABSENT_AFTER)) * 1000


def _lobby_view(doc: dict[str, Any]) -> dict[str, Any]:
    # The same keys as a game view where they mean something before the deal, so that a
    # client can render both with one code path (and ``you``, the one part per seat).
    return {
        "hand": [],
        "players": [
            {
                "seat": p["seat"],
                "name": p["name"],
                "cards": 0,
                "score": 0,
                "connected": p["conn"] > 0,
                **_seat_marks(doc, p),
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
