"""A seat's count of open sockets, kept by socket id: a connect or a disconnect sent again
(after an outage lost its answer, its first commit may have landed) counts once, and a
closing whose connect never landed counts off nothing."""

from __future__ import annotations

from typing import Any

from app.rooms import presence
from app.rooms.machine import RoomMachine


def _machine() -> RoomMachine:
    player = {"seat": 0, "pid": "p", "name": "a", "conn": 0, "at": {}, "goneAt": None}
    return RoomMachine({"players": [player], "status": "lobby", "matchId": None}, 0, [])


def _conn(machine: RoomMachine) -> int:
    return int(machine.doc["players"][0]["conn"])


def _send(machine: RoomMachine, kind: str, **extra: Any) -> bool:
    step = machine.handle({"k": kind, "pid": "p", "node": "n1", **extra}, 1000)
    assert step.result["ok"]
    return step.changed


def test_a_connect_sent_twice_counts_one_socket() -> None:
    machine = _machine()
    assert _send(machine, "connect", sock="s1", max=1)
    assert not _send(machine, "connect", sock="s1", max=1)  # not refused as a second socket
    assert _conn(machine) == 1


def test_a_disconnect_sent_twice_counts_off_one_socket() -> None:
    machine = _machine()
    _send(machine, "connect", sock="s1")
    _send(machine, "connect", sock="s2")
    assert _send(machine, "disconnect", sock="s1")
    assert not _send(machine, "disconnect", sock="s1")
    assert _conn(machine) == 1
    assert machine.doc["players"][0]["at"] == {"n1": 1}


def test_the_closing_of_a_socket_whose_connect_never_landed_changes_nothing() -> None:
    machine = _machine()
    _send(machine, "connect", sock="s1")
    assert not _send(machine, "disconnect", sock="never")
    assert _conn(machine) == 1


def test_a_socket_taken_away_with_its_dead_node_is_not_counted_off_again() -> None:
    machine = _machine()
    _send(machine, "connect", sock="s1")
    (gone,) = presence.gone(machine, {"n1"})
    assert machine.handle(gone, 1000).changed  # the writer's disconnect for the dead node
    assert not _send(machine, "disconnect", sock="s1")  # the socket's own, late
    assert _conn(machine) == 0
