"""Seats: who sits where, joining, bots, leaving and kicks, the host's role passing on, and
a finished match's lobby coming back when the players change. Functions of the room's
:class:`~app.rooms.room.Room`, each the handler of one command kind or a piece
of one."""

from __future__ import annotations

import secrets
from typing import Any

from app.errors import RoomError
from app.rooms import autoplay, commands
from app.rooms.doc import (
    LOBBY,
    OVER,
    PLAYING,
    banned_as,
    player_by_pid,
    player_by_seat,
    seated_as,
)
from app.rooms.room import Room
from app.rooms.step import Step

AGE_MESSAGE = (
    "this room keeps a drinking tally: every player confirms being of legal drinking age"
    " (join with ageConfirmed: true)"
)


def on_join(m: Room, command: commands.Join, now_ms: int) -> Step:
    doc = m.doc
    if doc["status"] == PLAYING:
        raise RoomError(409, "match_in_progress", "the match has started; seats are fixed")
    if banned_as(doc, command.name) is not None:
        raise RoomError(403, "banned", "the host removed this player from the room")
    if command.rating is not None and player_by_pid(doc, command.pid) is not None:
        raise RoomError(409, "account/already_seated", "this account holds a seat here")
    if seated_as(doc, command.name) is not None:
        raise RoomError(409, "name_taken", f"{command.name!r} is seated here already")
    seat = free_seat(m)
    if doc["rules"].get("drinks") and not command.age:
        raise RoomError(403, "age_confirmation_required", AGE_MESSAGE)
    player = {
        "seat": seat,
        "pid": command.pid,
        "name": command.name,
        "token": command.token,
        "conn": 0,
        "age": bool(command.age),
        "joinedAt": now_ms,
        "goneAt": now_ms,  # seated, no socket yet
    }
    if command.rating is not None:
        player["rating"] = command.rating  # an account's seat
    doc["players"].append(player)
    doc["players"].sort(key=lambda p: p["seat"])
    if doc.get("hostPid") is None and doc.get("host"):
        # The first person seated is the host's seat: the role passes on from it.
        doc["hostPid"] = command.pid
    reset = back_to_lobby(m)
    event = {"type": "join", "seat": seat, "name": command.name}
    return Step(
        {"ok": True, "seat": seat},
        changed=True,
        public_events=[event],
        deal_reset=reset,
        # The cleared log keeps the room's remembered action ids.
        deal_append=[{"acks": m.acks_entry()}] if reset else [],
    )


def free_seat(m: Room) -> int:
    doc = m.doc
    taken = {p["seat"] for p in doc["players"]}
    free = [s for s in range(doc["seats"]) if s not in taken]
    if not free:
        raise RoomError(409, "room_full", f"all {doc['seats']} seats are taken")
    return free[0]


def on_bot(m: Room, command: commands.Bot, now_ms: int) -> Step:
    """The host seats a bot (in the lobby, or after a match: a new lobby)."""
    doc = m.doc
    if doc["status"] == PLAYING:
        raise RoomError(409, "match_in_progress", "bots are seated before a match")
    seat = free_seat(m)
    level = command.level
    bots = sum(1 for p in doc["players"] if p.get("bot"))
    player = {
        "seat": seat,
        "pid": "bot-" + secrets.token_hex(6),
        "name": f"Bot {bots + 1}",
        "token": "",  # no token proves a bot's seat: the room plays it
        "conn": 0,
        "age": True,
        "joinedAt": now_ms,
        "bot": level,
    }
    doc["players"].append(player)
    doc["players"].sort(key=lambda p: p["seat"])
    reset = back_to_lobby(m)
    event = {"type": "join", "seat": seat, "name": player["name"], "bot": level}
    return Step(
        {"ok": True, "seat": seat},
        changed=True,
        public_events=[event],
        deal_reset=reset,
        deal_append=[{"acks": m.acks_entry()}] if reset else [],
    )


def on_leave(m: Room, command: commands.Leave, now_ms: int) -> Step:
    player = m.player(command.pid)
    return remove(m, player, "leave", now_ms)


def on_kick(m: Room, command: commands.Kick, now_ms: int) -> Step:
    player = player_by_seat(m.doc, command.seat)
    if player is None:
        raise RoomError(404, "seat_empty", f"nobody sits in seat {command.seat!r}")
    if player.get("left"):
        raise RoomError(409, "seat_left", f"the player of seat {command.seat} has left")
    if not player.get("bot"):
        # A kick is a ban for the room's lifetime (the host may lift it).
        bans = m.doc.setdefault("bans", [])
        if banned_as(m.doc, player["name"]) is None:
            bans.append(player["name"])
    return remove(m, player, "kick", now_ms)


def on_reseat(m: Room, command: commands.Reseat, now_ms: int) -> Step:
    """A tournament's host moved players between tables before they started: the seat
    holds another player (the one before loses it: their sockets close)."""
    doc = m.doc
    if doc["status"] != LOBBY:
        raise RoomError(409, "match_in_progress", "the match has started; seats are fixed")
    player = player_by_seat(doc, int(command.seat))
    if player is None:
        raise RoomError(404, "seat_empty", f"seat {command.seat} is empty")
    before = player["pid"]
    for key in ("at", "socks", "came"):
        player.pop(key, None)
    player.update(
        pid=command.pid,
        name=command.name,
        token=command.token,
        conn=0,
        goneAt=now_ms,
        away=False,
    )
    if command.rating is None:
        player.pop("rating", None)
    else:
        player["rating"] = command.rating  # an account's seat
    event = {"type": "join", "seat": player["seat"], "name": command.name}
    step = Step({"ok": True}, changed=True, public_events=[event])
    step.removed = [before]
    return step


def on_mute(m: Room, command: commands.Mute, now_ms: int) -> Step:
    """The host mutes (or unmutes) a seat's chat; the game is not touched."""
    player = player_by_seat(m.doc, command.seat)
    if player is None:
        raise RoomError(404, "seat_empty", f"nobody sits in seat {command.seat!r}")
    muted: list[str] = m.doc.setdefault("muted", [])
    if command.muted and player["pid"] not in muted:
        muted.append(player["pid"])
    elif not command.muted and player["pid"] in muted:
        muted.remove(player["pid"])
    return Step({"ok": True}, changed=True, public_events=[{"type": "settings"}])


def on_unban(m: Room, command: commands.Unban, now_ms: int) -> Step:
    bans = m.doc.get("bans", [])
    name = banned_as(m.doc, command.name)
    if name is None:
        raise RoomError(404, "not_banned", f"{command.name!r} is not banned here")
    bans.remove(name)
    return Step({"ok": True}, changed=True, public_events=[{"type": "unban", "name": name}])


def remove(m: Room, player: dict[str, Any], kind: str, now_ms: int) -> Step:
    event = {"type": kind, "seat": player["seat"], "name": player["name"]}
    if m.doc["status"] == PLAYING and player.get("bot"):
        raise RoomError(409, "match_in_progress", "a bot seat stays until the match ends")
    if m.doc["status"] == PLAYING or m.doc.get("tournament"):
        # Mid-match the seat stays (the engine has no forfeit): a bot plays it to the
        # end, its score kept and marked; the player's token dies with the seat. A
        # tournament's table keeps the seat before it deals too: it was seated full.
        player.update(bot="normal", left=True, token="", away=False, conn=0, at={})
        event["bot"] = True
    else:
        m.doc["players"].remove(player)
        back_to_lobby(m)
    step = Step({"ok": True}, changed=True, public_events=[event], removed=[player["pid"]])
    if player["pid"] == m.doc.get("hostPid"):
        hand_over(m, step)
    return step


def hand_over(m: Room, step: Step) -> None:
    """The host's seat is gone or away: the longest-seated person present hosts now
    (their seat token is the host's bearer; the old host token no longer hosts)."""
    doc = m.doc
    old = doc.get("hostPid")
    present = [p for p in autoplay.present_humans(doc) if p["pid"] != old]
    if not present:
        present = [p for p in doc["players"] if not p.get("bot") and p["pid"] != old]
    if not present:
        return
    heir = min(present, key=lambda p: (p.get("joinedAt", 0), p["seat"]))
    doc["hostPid"] = heir["pid"]
    doc["host"] = ""  # the creator's host token: its holder no longer hosts
    step.public_events.append({"type": "host", "seat": heir["seat"], "name": heir["name"]})


def back_to_lobby(m: Room) -> bool:
    """After a match, a change of players makes the old match meaningless: drop it.
    True if the deal log must be cleared."""
    if m.doc["status"] == OVER:
        m.doc["status"] = LOBBY
        m.doc.pop("ended", None)
        m.state = None
        m.deal_start = None
        m.deal_actions = []
        return True
    return False
