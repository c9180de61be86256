"""Presence: the sockets of each seat and of the spectators, counted per node so that a
dead node's connections can be taken away, and a seat's way back from away."""

from __future__ import annotations

from typing import Any

from app.errors import RoomError
from app.rooms import commands
from app.rooms.doc import watching
from app.rooms.room import Room
from app.rooms.step import Step


def going_away(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The people's seats with no socket, not yet away: their absence timers run."""
    # Asked after every change: a seat with a socket open is ruled out first, by one
    # lookup (every seat has ``conn``; a bot's is 0).
    gone = []
    for p in players:
        if p["conn"] <= 0 and p.get("goneAt") is not None:
            if not p.get("bot") and not p.get("away"):
                gone.append(p)
    return gone


def count_socket(counts: dict[str, int], node: str, delta: int, total: int = 0) -> bool:
    """Add ``delta`` to a node's count of connections. A connection closing on a node with
    none counted is refused (False, no change): its node was found dead and its connections
    were taken away already. Unless ``total`` (all connections) holds connections counted
    on no node (made before nodes were counted): one of those closes."""
    n = counts.get(node, 0) + delta
    if n < 0:
        return total > sum(counts.values())
    if n:
        counts[node] = n
    else:
        counts.pop(node, None)
    return True


def connection_nodes(doc: dict[str, Any]) -> set[str]:
    """The nodes holding the room's sockets (seated and spectating)."""
    nodes = set(doc.get("watchAt", ()))
    for player in doc["players"]:
        nodes.update(player.get("at", ()))
    return nodes


def on_connect(m: Room, command: commands.Connect, now_ms: int) -> Step:
    player = m.player(command.pid)
    sock = command.sock
    socks = player.setdefault("socks", {})
    if sock is not None and sock in socks:
        # Sent again after an answer lost to an outage: its first commit landed.
        return Step({"ok": True})
    limit = command.max
    if limit is not None and player["conn"] >= limit:
        raise RoomError(429, "too_many_sockets", f"this seat has {limit} sockets open already")
    player["conn"] += 1
    player["goneAt"] = None
    player["came"] = True  # (a tournament withdraws who never came to their table)
    node = commands.socket_node(command)
    count_socket(player.setdefault("at", {}), node, 1)
    if sock is not None:
        socks[sock] = node
    step = Step({"ok": True}, changed=True)
    step.public_events.append({"type": "connect", "seat": player["seat"]})
    back_from_away(m, player, step)
    return step


def back_from_away(m: Room, player: dict[str, Any], step: Step) -> None:
    player["timeouts"] = 0
    if player.get("away"):
        player["away"] = False
        step.public_events.append({"type": "back", "seat": player["seat"]})


def on_back(m: Room, command: commands.Back, now_ms: int) -> Step:
    """The player's explicit "I'm back": the autopilot gives the seat back."""
    player = m.player(command.pid)
    if not player.get("away"):
        raise RoomError(409, "not_away", "this seat is not away")
    step = Step({"ok": True, "ref": command.ref, "seq": m.seq + 1}, changed=True)
    back_from_away(m, player, step)
    return step


def on_disconnect(m: Room, command: commands.Disconnect, now_ms: int) -> Step:
    player = m.player(command.pid)
    node = commands.socket_node(command)
    sock = command.sock
    socks = player.setdefault("socks", {})
    if sock is not None:
        if sock not in socks:
            # Closed already (a retry whose first commit landed, or its node was found
            # dead), or its connect never landed: nothing to count off.
            return Step({"ok": True})
        node = socks.pop(sock)
    elif node in socks.values():
        # A dead node's connection (see gone): one of that node's sockets goes.
        del socks[next(k for k, v in socks.items() if v == node)]
    if not count_socket(player.setdefault("at", {}), node, -1, player["conn"]):
        # Its node was found dead and the connection taken away already.
        return Step({"ok": True})
    player["conn"] -= 1
    if player["conn"] == 0:
        player["goneAt"] = now_ms
    event = {"type": "disconnect", "seat": player["seat"]}
    return Step({"ok": True}, changed=True, public_events=[event])


def on_watch(m: Room, command: commands.Watch, now_ms: int) -> Step:
    # Not a change of the room: each spectator connect patched to every socket cost
    # quadratically many frames. The count shown refreshes with the next change (or
    # the ``watchers`` timer's).
    count = watching(m.doc)
    limit = command.max
    if limit is not None and count >= limit:
        raise RoomError(429, "too_many_spectators", f"this room has {limit} spectators already")
    m.doc["watching"] = count + 1
    count_socket(m.doc.setdefault("watchAt", {}), commands.socket_node(command), 1)
    return Step({"ok": True}, quiet=True)


def on_unwatch(m: Room, command: commands.Unwatch, now_ms: int) -> Step:
    count = watching(m.doc)
    if not count_socket(m.doc.setdefault("watchAt", {}), commands.socket_node(command), -1, count):
        return Step({"ok": True})
    m.doc["watching"] = count - 1
    return Step({"ok": True}, quiet=True)


def on_watchers(m: Room, command: commands.Watchers, now_ms: int) -> Step:
    """The room's own refresh of the spectator count its views show, when spectators
    came or went since its last change (at most one per refresh period)."""
    count = watching(m.doc)
    if m.doc.get("watchers", 0) == count:
        return Step({"ok": True, "stale": True})
    event = {"type": "watchers", "count": count}
    return Step({"ok": True}, changed=True, public_events=[event])


def watchers_stale(m: Room) -> bool:
    """Whether the spectator count the views show is not the count now."""
    shown: int = m.doc.get("watchers", 0)
    return shown != watching(m.doc)


def gone(m: Room, dead: set[str]) -> list[commands.Unwatch | commands.Disconnect]:
    """Disconnects for every connection held on a ``dead`` node: one command
    per socket (each is a change of its own, as its own disconnect would have been)."""
    found: list[commands.Unwatch | commands.Disconnect] = []
    # Spectators first: the seats' disconnects, each a change, then show them gone.
    for node, count in m.doc.get("watchAt", {}).items():
        if node in dead:
            found.extend(commands.Unwatch(at=node) for _ in range(count))
    for player in m.doc["players"]:
        for node, count in player.get("at", {}).items():
            if node in dead:
                closed = commands.Disconnect(pid=player["pid"], at=node)
                found.extend(closed for _ in range(count))
    return found
