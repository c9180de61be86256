"""The room's remembered action ids as a writer rebuilds them from the deal log: the ids an
entry that starts the log carries, then the keys of the actions after it, the last 256."""

from __future__ import annotations

from app.rooms.doc import ACKS_KEPT
from app.rooms.machine import RoomMachine


def _doc() -> dict[str, object]:
    return {"players": [], "status": "lobby", "matchId": None}


def test_the_log_of_a_room_back_in_its_lobby_keeps_the_ids() -> None:
    machine = RoomMachine(_doc(), 9, [{"acks": [["p1:a", 4], ["p2:b", 7]]}])
    assert dict(machine.acks) == {"p1:a": 4, "p2:b": 7}
    assert machine.state is None


def test_only_the_last_256_ids_are_kept_oldest_first_out() -> None:
    carried = [[f"p:{n}", n] for n in range(300)]
    machine = RoomMachine(_doc(), 300, [{"acks": carried}])
    assert len(machine.acks) == ACKS_KEPT
    assert next(iter(machine.acks)) == f"p:{300 - ACKS_KEPT}"
    assert list(machine.acks)[-1] == "p:299"
